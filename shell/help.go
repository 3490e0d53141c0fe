package shell

import (
	"fmt"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/pattern"
)

// helpTopic is one topic of help.
type helpTopic struct {
	name, synopsis, summary string
}

// helpBuiltin is help [-dms] [pattern ...]: for each topic whose name is
// a pattern, or matches it as a glob or a prefix, it prints the synopsis
// (-s), the summary (-d) or both (the default, and -m). The synopses and
// summaries are bash's; the longer texts of bash's help are not
// reproduced.
func helpBuiltin(r *runner, args []string) int {
	a := args[1:]
	mode := byte(0)
	for len(a) > 0 && len(a[0]) > 1 && a[0][0] == '-' {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		for _, c := range a[0][1:] {
			switch c {
			case 'd':
				mode = 'd'
			case 's':
				if mode != 'd' {
					mode = 's'
				}
			case 'm':
				if mode == 0 {
					mode = 'm'
				}
			default:
				r.builtinErr(2, "help", "-%c: invalid option", c)
				fmt.Fprintln(r.stderr(), "help: usage: help [-dms] [pattern ...]")
				return 2
			}
		}
		a = a[1:]
	}
	if len(a) == 0 {
		r.helpList()
		return 0
	}
	var b strings.Builder
	if hasGlob(a[0]) {
		word := "keyword"
		if len(a) > 1 {
			word = "keywords"
		}
		fmt.Fprintf(&b, "Shell commands matching %s `%s'\n\n", word, strings.Join(a, ", "))
	}
	found := false
	for _, pat := range a {
		var topics []helpTopic
		for _, t := range helpTopics {
			if t.name == pat {
				topics = []helpTopic{t}
				break
			}
		}
		if topics == nil {
			var re *regexp.Regexp
			if hasGlob(pat) {
				if expr, err := pattern.Regexp(pat, pattern.EntireString); err == nil {
					re, _ = regexp.Compile(expr)
				}
			}
			for _, t := range helpTopics {
				if strings.HasPrefix(t.name, pat) || (re != nil && re.MatchString(t.name)) {
					topics = append(topics, t)
				}
			}
		}
		for _, t := range topics {
			found = true
			switch mode {
			case 'd':
				fmt.Fprintf(&b, "%s - %s\n", t.name, t.summary)
			case 's':
				fmt.Fprintf(&b, "%s: %s\n", t.name, t.synopsis)
			case 'm':
				fmt.Fprintf(&b, "NAME\n    %s - %s\n\nSYNOPSIS\n    %s\n\n", t.name, t.summary, t.synopsis)
			default:
				fmt.Fprintf(&b, "%s: %s\n    %s\n", t.name, t.synopsis, t.summary)
			}
		}
	}
	if !found {
		p := strings.Join(a, " ")
		return r.builtinErr(1, "help", "no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.", p, p, p)
	}
	fmt.Fprint(r.stdout(), b.String())
	return 0
}

// hasGlob reports whether a help pattern holds glob characters: * or ?,
// or a [ closed by a later ].
func hasGlob(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}

// helpList prints every topic's synopsis, as help without arguments
// lists them.
func (r *runner) helpList() {
	var b strings.Builder
	b.WriteString("The shell's builtins and keywords; `help -d NAME' summarizes one.\n\n")
	for _, t := range helpTopics {
		fmt.Fprintf(&b, " %s\n", t.synopsis)
	}
	fmt.Fprint(r.stdout(), b.String())
}
