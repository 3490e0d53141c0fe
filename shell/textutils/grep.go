package textutils

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

const grepUsage = "[OPTION]... PATTERNS [FILE]..."

var grepLong = []string{
	"extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "ignore-case", "no-ignore-case",
	"invert-match", "count", "line-number", "only-matching", "files-with-matches",
	"files-without-match", "recursive", "dereference-recursive", "word-regexp",
	"line-regexp", "quiet", "silent", "no-messages", "no-filename", "with-filename",
	"max-count=", "after-context=", "before-context=", "context=", "regexp=", "file=",
	"include=", "exclude=", "exclude-dir=", "text", "byte-offset", "line-buffered",
	"binary-files=", "directories=", "devices=", "binary", "null-data", "label=", "null", "help",
}

// grepOpts holds grep's parsed options.
type grepOpts struct {
	mode                     byte // 'G', 'E', 'F' or 'P'
	modeSet                  bool // -E, -F, -G or -P was given
	icase, invert, count     bool
	lineNum, only, quiet     bool
	listMatch, listNoMatch   bool
	recursive, word, line    bool
	byteOff, skipBinary      bool
	skipDirs, nullData       bool
	noMsgs, text, null       bool
	withName                 int // -1 -h, 0 default, 1 -H
	maxCount                 int64
	after, before            int
	context                  bool
	patterns                 []string
	havePat                  bool
	include, exclude, exdirs []string
	label                    string
}

// grep is one run of the grep command.
type grep struct {
	env      *command.Env
	o        grepOpts
	m        *matcher
	out      output
	showName bool
	errs     bool
	matched  bool
	stop     bool // -q matched or the output failed: stop everything
	printed  bool // a line was output (for the context separator)
}

func cmdGrep(env *command.Env) int {
	g := &grep{env: env}
	g.o.mode = 'G'
	g.o.maxCount = -1
	switch path.Base(env.Args[0]) {
	case "egrep":
		g.o.mode, g.o.modeSet = 'E', true
	case "fgrep":
		g.o.mode, g.o.modeSet = 'F', true
	}
	args, err := grepPreprocess(env.Args[1:])
	if err != nil {
		return env.Usage(2, err.Error(), grepUsage)
	}
	opts, operands, err := command.Getopt(args, "EFGPiyvcnolLrRwxqshHbm:A:B:C:e:f:aIZUzd:D:", grepLong, false)
	if err != nil {
		return env.Usage(2, err.Error(), grepUsage)
	}
	if st, ok := g.parseOpts(opts); !ok {
		return st
	}
	if !g.o.havePat {
		if len(operands) == 0 {
			return env.Usage(2, "", grepUsage)
		}
		g.o.patterns = strings.Split(operands[0], "\n")
		operands = operands[1:]
	}
	if g.o.mode == 'P' && len(g.o.patterns) > 1 {
		return env.Errorf(2, "the -P option only supports a single pattern")
	}
	g.m, err = newMatcher(g.o)
	if err != nil {
		return env.Errorf(2, "%s", err)
	}
	if g.nothingSelected() {
		return 1
	}
	g.out = newOutput(env, env.Stdout)
	defer g.out.Flush()
	if len(operands) == 0 {
		if g.o.recursive {
			g.showName = g.o.withName >= 0
			g.walk(".", "", true)
			return g.finish()
		}
		operands = []string{"-"}
	}
	multi := len(operands) > 1
	if g.o.recursive && !multi && operands[0] != "-" {
		fi, err := env.FS.Stat(env.Abs(operands[0]))
		multi = err == nil && fi.IsDir()
	}
	g.showName = multi && g.o.withName >= 0 || g.o.withName > 0
	for _, name := range operands {
		if g.stop {
			break
		}
		if command.Done(env.Ctx) {
			g.errs = true
			break
		}
		if g.o.recursive && name != "-" {
			g.walk(name, name, true)
			continue
		}
		if name != "-" && !g.included(path.Base(name)) {
			continue
		}
		g.searchFile(name, name)
	}
	return g.finish()
}

// nothingSelected reports, like GNU grep before it opens any file, that no
// line can be selected: -m 0, or -v with only empty patterns. (-L still
// has to list the files.)
func (g *grep) nothingSelected() bool {
	o := &g.o
	if o.listNoMatch {
		return false
	}
	allEmpty := len(o.patterns) > 0
	for _, p := range o.patterns {
		allEmpty = allEmpty && p == ""
	}
	return o.maxCount == 0 || allEmpty && o.invert && !o.line && !o.word
}

func (g *grep) finish() int {
	g.out.Flush()
	if command.Done(g.env.Ctx) {
		return command.StatusCanceled
	}
	switch {
	case g.o.quiet && g.matched:
		return 0
	case g.errs:
		return 2
	case g.matched:
		return 0
	}
	return 1
}

// grepPreprocess handles the forms Getopt does not know: -NUM (context)
// and --color/--colour with an optional argument.
func grepPreprocess(args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' && strings.Trim(a[1:], "0123456789") == "" {
			out = append(out, "-C"+a[1:])
			continue
		}
		if a == "--color" || a == "--colour" {
			continue
		}
		if v, ok := strings.CutPrefix(a, "--color="); ok || strings.HasPrefix(a, "--colour=") {
			if !ok {
				v = a[len("--colour="):]
			}
			switch v {
			case "never", "always", "auto", "none", "no", "yes", "force", "tty", "if-tty":
				continue
			}
			return nil, fmt.Errorf("invalid argument '%s' for '--color'", v)
		}
		out = append(out, a)
	}
	return out, nil
}

func (g *grep) parseOpts(opts []command.Opt) (int, bool) {
	o := &g.o
	afterSet, beforeSet, ctxDefault := false, false, 0
	defer func() {
		if !afterSet {
			o.after = ctxDefault
		}
		if !beforeSet {
			o.before = ctxDefault
		}
	}()
	for _, op := range opts {
		switch op.Name {
		case "E", "extended-regexp", "F", "fixed-strings", "G", "basic-regexp", "P", "perl-regexp":
			m := strings.ToUpper(op.Name[:1])[0]
			if o.modeSet && o.mode != m {
				return g.env.Errorf(2, "conflicting matchers specified"), false
			}
			o.mode, o.modeSet = m, true
		case "i", "y", "ignore-case":
			o.icase = true
		case "no-ignore-case":
			o.icase = false
		case "v", "invert-match":
			o.invert = true
		case "c", "count":
			o.count = true
		case "n", "line-number":
			o.lineNum = true
		case "o", "only-matching":
			o.only = true
		case "l", "files-with-matches":
			o.listMatch, o.listNoMatch = true, false
		case "L", "files-without-match":
			o.listNoMatch, o.listMatch = true, false
		case "r", "R", "recursive", "dereference-recursive":
			o.recursive = true
		case "w", "word-regexp":
			o.word = true
		case "x", "line-regexp":
			o.line = true
		case "q", "quiet", "silent":
			o.quiet = true
		case "s", "no-messages":
			o.noMsgs = true
		case "h", "no-filename":
			o.withName = -1
		case "H", "with-filename":
			o.withName = 1
		case "b", "byte-offset":
			o.byteOff = true
		case "a", "text":
			o.text, o.skipBinary = true, false
		case "I":
			o.text, o.skipBinary = false, true
		case "z", "null-data":
			o.nullData = true
		case "binary-files":
			switch op.Value {
			case "binary":
			case "text":
				o.text, o.skipBinary = true, false
			case "without-match":
				o.text, o.skipBinary = false, true
			default:
				return g.env.Errorf(2, "unknown binary-files type"), false
			}
		case "d", "directories":
			switch op.Value {
			case "read":
			case "recurse":
				o.recursive = true
			case "skip":
				o.skipDirs = true
			default:
				return g.env.Usage(2, fmt.Sprintf("invalid argument '%s' for '--directories'", op.Value), grepUsage), false
			}
		case "Z", "null":
			o.null = true
		case "label":
			o.label = op.Value
		case "m", "max-count":
			n, err := strconv.ParseInt(op.Value, 10, 64)
			if err != nil {
				return g.env.Errorf(2, "invalid max count"), false
			}
			o.maxCount = n
		case "A", "B", "C", "after-context", "before-context", "context":
			n, err := strconv.Atoi(op.Value)
			if err != nil || n < 0 {
				return g.env.Errorf(2, "%s: invalid context length argument", op.Value), false
			}
			o.context = true
			switch op.Name {
			case "A", "after-context":
				o.after, afterSet = n, true
			case "B", "before-context":
				o.before, beforeSet = n, true
			default:
				// -C only gives the default for -A and -B.
				ctxDefault = n
			}
		case "e", "regexp":
			o.patterns = append(o.patterns, strings.Split(op.Value, "\n")...)
			o.havePat = true
		case "f", "file":
			if st, ok := g.patternFile(op.Value); !ok {
				return st, false
			}
			o.havePat = true
		case "include":
			o.include = append(o.include, op.Value)
		case "exclude":
			o.exclude = append(o.exclude, op.Value)
		case "exclude-dir":
			o.exdirs = append(o.exdirs, op.Value)
		case "help":
			fmt.Fprintf(g.env.Stdout, "Usage: %s %s\nSearch for PATTERNS in each FILE.\n", g.env.Args[0], grepUsage)
			return 0, false
		}
	}
	return 0, true
}

func (g *grep) patternFile(name string) (int, bool) {
	f, err := g.env.Open(name)
	if err != nil {
		return g.env.FileError(2, name, err), false
	}
	defer f.Close()
	data, err := readAll(g.env.Ctx, f)
	if err != nil {
		if err == command.ErrCanceled {
			return command.StatusCanceled, false
		}
		return g.env.FileError(2, name, err), false
	}
	s := string(data)
	if s == "" {
		return 0, true
	}
	s = strings.TrimSuffix(s, "\n")
	g.o.patterns = append(g.o.patterns, strings.Split(s, "\n")...)
	return 0, true
}

// walk searches a file or, recursively, a directory. display is the name
// used in output ("" for the implicit "." of a bare -r).
func (g *grep) walk(name, display string, top bool) {
	if g.stop || command.Done(g.env.Ctx) {
		return
	}
	fi, err := g.env.FS.Stat(g.env.Abs(name))
	if err != nil {
		g.fileErr(display, name, err)
		return
	}
	if !fi.IsDir() {
		if g.included(path.Base(name)) {
			g.searchFile(name, display)
		}
		return
	}
	if !top && g.excludedDir(path.Base(name)) {
		return
	}
	entries, err := g.env.FS.ReadDir(g.env.Abs(name))
	if err != nil {
		g.fileErr(display, name, err)
		return
	}
	for _, e := range entries {
		child := path.Join(name, e.Name())
		cdisp := e.Name()
		if display != "" {
			cdisp = strings.TrimSuffix(display, "/") + "/" + e.Name()
			if display == "/" {
				cdisp = "/" + e.Name()
			}
		}
		g.walk(child, cdisp, false)
	}
}

func (g *grep) included(base string) bool {
	for _, p := range g.o.exclude {
		if ok, _ := path.Match(p, base); ok {
			return false
		}
	}
	if len(g.o.include) == 0 {
		return true
	}
	for _, p := range g.o.include {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}

func (g *grep) excludedDir(base string) bool {
	for _, p := range g.o.exdirs {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}

func (g *grep) fileErr(display, name string, err error) {
	g.errs = true
	if !g.o.noMsgs {
		if display == "" {
			display = name
		}
		g.out.Flush()
		g.env.FileError(2, display, err)
	}
}

// searchFile opens and searches one file operand.
func (g *grep) searchFile(name, display string) {
	if name == "-" {
		display = "(standard input)"
		if g.o.label != "" {
			display = g.o.label
		}
	} else if !g.o.recursive {
		if fi, err := g.env.FS.Stat(g.env.Abs(name)); err == nil && fi.IsDir() {
			if g.o.skipDirs {
				return
			}
			g.errs = true
			if !g.o.noMsgs {
				g.out.Flush()
				g.env.Errorf(2, "%s: Is a directory", name)
			}
			// GNU still reports it as a file without matches (-c, -L).
			g.endFile(&lineOut{name: display})
			return
		}
	}
	f, err := g.env.Open(name)
	if err != nil {
		g.fileErr(display, name, err)
		return
	}
	defer f.Close()
	g.search(f, display)
}
