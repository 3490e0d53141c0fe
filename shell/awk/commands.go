package awk

import (
	"bytes"
	"errors"
	"io"
	"strings"
)

// parsePipeline splits a command line of the restricted form that awk can
// run without a shell: simple commands of plain or quoted words, joined by
// '|'. Expansions, redirections, globs and command lists are refused.
func parsePipeline(s string) ([][]string, error) {
	var stages [][]string
	var words []string
	var w strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n':
			endWord()
		case '|':
			endWord()
			if len(words) == 0 {
				return nil, errors.New("syntax error near `|'")
			}
			stages = append(stages, words)
			words = nil
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated quote")
			}
			w.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += 1 + j
		case '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				switch s[i] {
				case '$', '`':
					return nil, errors.New("expansions are not supported")
				case '\\':
					if i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
						i++
					}
				}
				w.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated quote")
			}
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					w.WriteByte(s[i])
					inWord = true
				}
			}
		case '$', '`', ';', '&', '<', '>', '(', ')', '*', '?', '[', '{', '}', '~', '#':
			if c == '#' && inWord || c == '~' && inWord || (c == '{' || c == '}') && inWord {
				w.WriteByte(c)
				continue
			}
			return nil, errors.New("only simple commands and pipelines are supported")
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	endWord()
	if len(words) == 0 {
		if len(stages) > 0 {
			return nil, errors.New("syntax error near `|'")
		}
		return nil, errors.New("empty command")
	}
	return append(stages, words), nil
}

// runCommand runs a command line for system() and "print | cmd", with stdin
// as its input and awk's stdout and stderr. Pipeline stages run one after
// the other, each on the complete output of the previous one.
func (in *interp) runCommand(cmd string, stdin io.Reader) int {
	in.out.Flush()
	stages, err := parsePipeline(cmd)
	if err != nil {
		in.warn("cannot run `%s': %v", cmd, err)
		return 127
	}
	if in.env.Exec == nil {
		in.warn("cannot run `%s': running commands is not available", cmd)
		return 127
	}
	status := 0
	for i, args := range stages {
		in.poll()
		if i == len(stages)-1 {
			status = in.env.Exec(in.ctx, args, nil, stdin, in.env.Stdout, in.env.Stderr)
			break
		}
		var buf bytes.Buffer
		in.env.Exec(in.ctx, args, nil, stdin, &buf, in.env.Stderr)
		stdin = &buf
	}
	return status
}

// system implements system(cmd).
func (in *interp) system(cmd string) int {
	in.flushAll()
	return in.runCommand(cmd, strings.NewReader(""))
}
