package jq

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/cordonhq/cordon/shell/command"
)

// jqOptions are the command-line options of jq.
type jqOptions struct {
	nullInput, rawOutput, join, ascii, compact, slurp, exitStatus bool
	rawInput, seq, tab, raw0                                      bool
	indent                                                        int
	filter                                                        string
	haveFilter                                                    bool
	fromFile                                                      string
	files                                                         []string
	varNames                                                      []string
	varValues                                                     []any
	named                                                         map[string]any
	positional                                                    []any
	sortKeys                                                      bool
	order                                                         *keyOrder
	libDirs                                                       []string // -L, or nil for jq's default
	runTests                                                      bool     // --run-tests
}

// jqUsage prints jq's short usage hint and returns status 2.
func jqUsage(env *command.Env, msg string) int {
	fmt.Fprintf(env.Stderr, "jq: %s\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n", msg)
	return jqExitUsage
}

// jqArgParser parses jq's command line. jq has its own conventions: short
// flags combine ("-rc"), a word is an option only when "-" is followed by
// a letter or "-" (so "-1" is a filter), and --arg and friends take two
// words.
type jqArgParser struct {
	env      *command.Env
	o        *jqOptions
	args     []string
	i        int    // index of the word being parsed
	restMode string // "args" or "jsonargs" after --args/--jsonargs
}

// parseJqArgs parses jq's command line. On failure it returns ok false and
// the exit status (0 for --help).
func parseJqArgs(env *command.Env) (*jqOptions, int, bool) {
	p := &jqArgParser{env: env, args: env.Args[1:], o: &jqOptions{indent: 2, named: map[string]any{}, order: newKeyOrder()}}
	for ; p.i < len(p.args); p.i++ {
		a := p.args[p.i]
		var st int
		ok := true
		switch {
		case a == "--":
			for _, r := range p.args[p.i+1:] {
				if st, ok = p.operand(r); !ok {
					return nil, st, false
				}
			}
			p.i = len(p.args)
		case len(a) < 2 || a[0] != '-' || !(a[1] == '-' || isASCIILetter(a[1])):
			st, ok = p.operand(a)
		case a[1] == '-':
			st, ok = p.long(a[2:])
		default:
			for j, c := range a[1:] {
				if c == 'L' && j+2 < len(a) {
					// -Ldir
					p.o.libDirs = append(p.o.libDirs, a[j+2:])
					break
				}
				if st, ok = p.short(c); !ok {
					break
				}
			}
		}
		if !ok {
			return nil, st, false
		}
	}
	return p.finish()
}

// isASCIILetter reports whether c is an ASCII letter.
func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// need reports whether n more words follow the current one.
func (p *jqArgParser) need(n int) bool { return p.i+n < len(p.args) }

// addVar defines $name for the program and $ARGS.named.
func (p *jqArgParser) addVar(name string, v any) {
	o := p.o
	o.varNames = append(o.varNames, "$"+name)
	o.varValues = append(o.varValues, v)
	o.named[name] = v
}

// operand handles a word that is not an option: the filter, then files or
// positional arguments.
func (p *jqArgParser) operand(a string) (int, bool) {
	o := p.o
	if !o.haveFilter && o.fromFile == "" {
		o.filter, o.haveFilter = a, true
		return 0, true
	}
	switch p.restMode {
	case "args":
		o.positional = append(o.positional, a)
	case "jsonargs":
		v, err := parseJSONText(a, o.order)
		if err != nil {
			return jqUsage(p.env, "invalid JSON text passed to --jsonargs"), false
		}
		o.positional = append(o.positional, v)
	default:
		o.files = append(o.files, a)
	}
	return 0, true
}

// flag sets a boolean option given by its short letter.
func (p *jqArgParser) flag(c rune) bool {
	o := p.o
	switch c {
	case 'n':
		o.nullInput = true
	case 'r':
		o.rawOutput = true
	case 'j':
		o.rawOutput, o.join = true, true
	case 'a':
		o.ascii = true
	case 'c':
		o.compact = true
	case 's':
		o.slurp = true
	case 'e':
		o.exitStatus = true
	case 'R':
		o.rawInput = true
	case 'S':
		o.sortKeys = true
	case 'C', 'M':
	default:
		return false
	}
	return true
}

// longFlags maps the boolean long options to their short letters.
var longFlags = map[string]rune{
	"null-input": 'n', "raw-output": 'r', "join-output": 'j', "ascii-output": 'a', "compact-output": 'c',
	"slurp": 's', "exit-status": 'e', "raw-input": 'R', "sort-keys": 'S', "color-output": 'C',
	"monochrome-output": 'M',
}

// short handles one letter of a short option word.
func (p *jqArgParser) short(c rune) (int, bool) {
	switch {
	case p.flag(c):
		return 0, true
	case c == 'f':
		return p.long("from-file")
	case c == 'L':
		if !p.need(1) {
			return jqUsage(p.env, "-L takes a parameter: (e.g. -L /search/path or -L/search/path)"), false
		}
		p.i++
		p.o.libDirs = append(p.o.libDirs, p.args[p.i])
		return 0, true
	case c == 'h':
		fmt.Fprintln(p.env.Stdout, "Usage:\tjq [OPTIONS] FILTER [FILES...]")
		return 0, false
	}
	return jqUsage(p.env, "Unknown option -"+string(c)), false
}

// long handles a long option.
func (p *jqArgParser) long(name string) (int, bool) {
	o := p.o
	if c, ok := longFlags[name]; ok {
		p.flag(c)
		return 0, true
	}
	switch name {
	case "library-path":
		return p.short('L')
	case "unbuffered":
	case "raw-output0":
		o.rawOutput, o.raw0 = true, true
	case "seq":
		o.seq = true
	case "tab":
		o.tab = true
	case "indent":
		return p.indent()
	case "arg", "argjson", "slurpfile", "rawfile":
		return p.variable(name)
	case "args", "jsonargs":
		p.restMode = name
	case "from-file":
		if !p.need(1) {
			return jqUsage(p.env, "-f takes a parameter"), false
		}
		p.i++
		o.fromFile = p.args[p.i]
	case "help":
		fmt.Fprintln(p.env.Stdout, "Usage:\tjq [OPTIONS] FILTER [FILES...]")
		return 0, false
	case "run-tests":
		// The test file is an operand; the program comes from it.
		o.runTests, o.haveFilter = true, true
	case "stream", "stream-errors":
		return jqUsage(p.env, "--"+name+" is not supported"), false
	default:
		return jqUsage(p.env, "Unknown option --"+name), false
	}
	return 0, true
}

// indent parses --indent N.
func (p *jqArgParser) indent() (int, bool) {
	if !p.need(1) {
		return jqUsage(p.env, "--indent takes one parameter"), false
	}
	p.i++
	n, err := strconv.Atoi(p.args[p.i])
	if err != nil || n > 7 || n < -1 {
		return jqUsage(p.env, "--indent takes a number between -1 and 7"), false
	}
	if n == -1 {
		p.o.tab = true
	}
	p.o.indent = n
	return 0, true
}

// variable parses --arg, --argjson, --slurpfile and --rawfile.
func (p *jqArgParser) variable(kind string) (int, bool) {
	if !p.need(2) {
		return jqUsage(p.env, fmt.Sprintf("--%s takes two parameters (e.g. --%s varname value)", kind, kind)), false
	}
	name, val := p.args[p.i+1], p.args[p.i+2]
	p.i += 2
	switch kind {
	case "arg":
		p.addVar(name, val)
	case "argjson":
		v, err := parseJSONText(val, p.o.order)
		if err != nil {
			return jqUsage(p.env, "invalid JSON text passed to --argjson"), false
		}
		p.addVar(name, v)
	default:
		data, err := p.env.FS.ReadFile(p.env.Abs(val))
		if err != nil {
			fmt.Fprintf(p.env.Stderr, "jq: Bad JSON in --%s %s %s: Could not open %s: %s\n", kind, name, val, val, command.Strerror(err))
			return jqExitUsage, false
		}
		if kind == "rawfile" {
			p.addVar(name, string(data))
			return 0, true
		}
		vals, err := parseJSONStream(data, p.o.order)
		if err != nil {
			fmt.Fprintf(p.env.Stderr, "jq: Bad JSON in --slurpfile %s %s: %s\n", name, val, err)
			return jqExitUsage, false
		}
		p.addVar(name, vals)
	}
	return 0, true
}

// finish reads the program of -f and applies the defaults.
func (p *jqArgParser) finish() (*jqOptions, int, bool) {
	o, env := p.o, p.env
	if o.fromFile != "" {
		data, err := env.FS.ReadFile(env.Abs(o.fromFile))
		if err != nil {
			fmt.Fprintf(env.Stderr, "jq: error: Could not open %s: %s\n", o.fromFile, command.Strerror(err))
			return nil, jqExitUsage, false
		}
		if o.haveFilter {
			// The first operand was a file, not the filter.
			o.files = append([]string{o.filter}, o.files...)
		}
		o.filter, o.haveFilter = string(data), true
	}
	if !o.haveFilter {
		// Standard input is never a terminal here: jq then uses ".".
		o.filter, o.haveFilter = ".", true
	}
	return o, 0, true
}

// parseJSONText parses exactly one JSON value.
func parseJSONText(s string, order *keyOrder) (any, error) {
	d := &jsonDecoder{data: []byte(s), order: order}
	v, ok, err := d.next()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("no value")
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// parseJSONStream parses all values of data into an array.
func parseJSONStream(data []byte, order *keyOrder) ([]any, error) {
	d := &jsonDecoder{data: data, order: order}
	vals := []any{}
	for {
		v, ok, err := d.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return vals, nil
		}
		vals = append(vals, v)
	}
}
