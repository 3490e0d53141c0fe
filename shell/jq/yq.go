package jq

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/itchyny/gojq"
	"go.yaml.in/yaml/v3"
)

// yqUsageText is yq's help.
const yqUsageText = `Usage: yq [eval|e|eval-all|ea] [flags] EXPRESSION [FILE...]

EXPRESSION is a jq program (jq 1.7.1's language), run on each YAML
document; eval-all runs it once on the array of all documents.
  -p, --input-format yaml|json   input format (default: json for *.json, else yaml)
  -o, --output-format yaml|json  output format (default: the input's; yaml with -P)
  -j, --tojson                   -o json
  -i, --inplace                  rewrite each FILE with the output
  -r, --unwrapScalar[=BOOL]      print strings bare (default true for yaml)
  -n, --null-input               run once on null, reading nothing
  -e, --exit-status              status 1 when the last output is false or null, or none
  -I, --indent N                 indentation (default 2)
  -N, --no-doc                   no --- between documents
  -P, --prettyPrint              YAML output (always block style)
  -M, --no-colors, -C, --colors  accepted; output is never colored
      --arg NAME VALUE, --argjson NAME JSON          variables, as in jq
  -V, --version, -h, --help
`

// yqVersionText is what yq --version prints: not mikefarah's words, so
// that a script that looks for them to choose its expression syntax does
// not take this yq for mikefarah's.
const yqVersionText = "yq (cordon) version 4: yq v4's command line, jq 1.7.1's expressions\n"

// yqLanguageHint follows a compile error: scripts written for mikefarah's
// yq use operators that jq lacks.
const yqLanguageHint = "yq: expressions are jq 1.7.1's, not mikefarah yq's own (no ireduce, style, comments, load, ...)\n"

// yqOptions are the command-line options of yq.
type yqOptions struct {
	jq      *jqOptions // the program, its variables and key order
	evalAll bool
	// inFormat and outFormat are "yaml" or "json", or "" to detect the
	// input's format from the file's name and to print in the input's
	// format (YAML with -P).
	inFormat, outFormat string
	// format is the output format in effect.
	format                string
	inplace, prettyPrint  bool
	unwrap, unwrapSet     bool
	noDoc                 bool
	exitStatus, nullInput bool
	indent                int
	files                 []string
}

// yqFormat returns the canonical name of a format given to -p or -o.
func yqFormat(s string, input bool) (string, bool) {
	switch s {
	case "yaml", "y", "yml":
		return "yaml", true
	case "json", "j":
		return "json", true
	case "auto", "a":
		return "", input
	}
	return "", false
}

// yqArgs parses yq's command line, mikefarah yq v4's: flags anywhere
// before "--", short flags combined ("-iP"), a value after "=", joined
// ("-ojson") or in the next word, and booleans set with "=false". On
// failure it returns ok false and the status (0 for --help).
func yqArgs(env *command.Env) (*yqOptions, int, bool) {
	o := &yqOptions{jq: &jqOptions{named: map[string]any{}, order: newKeyOrder()}, unwrap: true, indent: 2}
	args := env.Args[1:]
	var operands []string
	fail := func(format string, a ...any) (*yqOptions, int, bool) {
		fmt.Fprintf(env.Stderr, "yq: %s\nUse yq --help for the flags.\n", fmt.Sprintf(format, a...))
		return nil, 1, false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		// value returns the value of a flag: after "=", the rest of the
		// word, or the next word.
		value := func(rest string, inWord bool) (string, bool) {
			if inWord {
				return strings.TrimPrefix(rest, "="), true
			}
			if i+1 >= len(args) {
				return "", false
			}
			i++
			return args[i], true
		}
		var names []string // flags of this word, each with its value slot
		type flagVal struct {
			rest   string
			inWord bool
		}
		var vals []flagVal
		if strings.HasPrefix(a, "--") {
			name, rest, hasEq := strings.Cut(a[2:], "=")
			names = append(names, "--"+name)
			vals = append(vals, flagVal{rest, hasEq})
		} else {
			for j := 1; j < len(a); j++ {
				c := a[j]
				rest := a[j+1:]
				names = append(names, "-"+string(c))
				if strings.ContainsRune("opI", rune(c)) || rest != "" && rest[0] == '=' {
					// The rest of the word is the value.
					vals = append(vals, flagVal{rest, rest != ""})
					break
				}
				vals = append(vals, flagVal{})
			}
		}
		for k, name := range names {
			fv := vals[k]
			boolean := func(set func(bool)) bool {
				if !fv.inWord {
					set(true)
					return true
				}
				b, err := strconv.ParseBool(strings.TrimPrefix(fv.rest, "="))
				if err != nil {
					return false
				}
				set(b)
				return true
			}
			ok := true
			switch name {
			case "-o", "--output-format", "--outputformat", "-p", "--input-format", "--inputformat":
				input := name == "-p" || strings.HasPrefix(name, "--input")
				dst, side := &o.outFormat, "output"
				if input {
					dst, side = &o.inFormat, "input"
				}
				v, have := value(fv.rest, fv.inWord)
				if !have {
					return fail("flag needs an argument: %s", name)
				}
				f, valid := yqFormat(v, input)
				if !valid {
					return fail("unsupported %s format %q (yaml or json)", side, v)
				}
				*dst = f
			case "-I", "--indent":
				v, have := value(fv.rest, fv.inWord)
				if !have {
					return fail("flag needs an argument: %s", name)
				}
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 || n > 9 {
					return fail("invalid indent %q: a number from 0 to 9", v)
				}
				o.indent = n
			case "-j", "--tojson":
				ok = boolean(func(b bool) {
					if b {
						o.outFormat = "json"
					}
				})
			case "-i", "--inplace":
				ok = boolean(func(b bool) { o.inplace = b })
			case "-r", "--unwrapScalar":
				ok = boolean(func(b bool) { o.unwrap, o.unwrapSet = b, true })
			case "-n", "--null-input":
				ok = boolean(func(b bool) { o.nullInput = b })
			case "-e", "--exit-status":
				ok = boolean(func(b bool) { o.exitStatus = b })
			case "-N", "--no-doc":
				ok = boolean(func(b bool) { o.noDoc = b })
			case "-P", "--prettyPrint":
				ok = boolean(func(b bool) { o.prettyPrint = b })
			case "-M", "--no-colors", "-C", "--colors":
				// Output is never colored.
				ok = boolean(func(bool) {})
			case "--arg", "--argjson":
				if i+2 >= len(args) {
					return fail("%s takes two parameters (e.g. %s varname value)", name, name)
				}
				vname, val := args[i+1], args[i+2]
				i += 2
				var v any = val
				if name == "--argjson" {
					var err error
					if v, err = parseJSONText(val, o.jq.order); err != nil {
						return fail("invalid JSON text passed to --argjson")
					}
				}
				(&jqArgParser{o: o.jq}).addVar(vname, v)
			case "-V", "--version":
				io.WriteString(env.Stdout, yqVersionText)
				return nil, 0, false
			case "-h", "--help":
				io.WriteString(env.Stdout, yqUsageText)
				return nil, 0, false
			default:
				return fail("unknown flag: %s", name)
			}
			if !ok {
				return fail("invalid value %q for %s", strings.TrimPrefix(fv.rest, "="), name)
			}
		}
	}
	if len(operands) > 0 {
		switch operands[0] {
		case "eval", "e":
			operands = operands[1:]
		case "eval-all", "ea":
			operands, o.evalAll = operands[1:], true
		}
	}
	switch {
	case len(operands) == 0:
		o.jq.filter = "."
	case len(operands) == 1 && yqIsFile(env, operands[0]):
		// One operand that names a file is the file, as in yq v4.
		o.jq.filter, o.files = ".", operands
	default:
		o.jq.filter, o.files = operands[0], operands[1:]
	}
	if o.inplace && (len(o.files) == 0 || slices.Contains(o.files, "-")) {
		return fail("write in place flag only applicable when giving an expression and at least one file")
	}
	return o, 0, true
}

// inputFormat returns the format of file: -p's, or JSON for a name
// ending in .json, else YAML.
func (o *yqOptions) inputFormat(file string) string {
	switch {
	case o.inFormat != "":
		return o.inFormat
	case strings.EqualFold(path.Ext(file), ".json"):
		return "json"
	}
	return "yaml"
}

// setOutput chooses the output format for a run whose first input is
// file ("" for none): -o's, else YAML with -P, else the input's format,
// as in yq v4. Strings print bare in YAML and quoted in JSON unless -r
// says otherwise.
func (o *yqOptions) setOutput(file string) {
	switch {
	case o.outFormat != "":
		o.format = o.outFormat
	case o.prettyPrint || file == "" && o.inFormat == "":
		o.format = "yaml"
	default:
		o.format = o.inputFormat(file)
	}
	if !o.unwrapSet {
		o.unwrap = o.format != "json"
	}
}

// yqLooksLikeFile reports whether an expression that did not compile was
// meant as a YAML or JSON file's name.
func yqLooksLikeFile(expr string) bool {
	switch strings.ToLower(path.Ext(expr)) {
	case ".yaml", ".yml", ".json":
		return !strings.ContainsAny(expr, " |()[]{}\"'")
	}
	return false
}

// yqIsFile reports whether name is a regular file.
func yqIsFile(env *command.Env, name string) bool {
	fi, err := env.FS.Stat(env.Abs(name))
	return err == nil && fi.Mode().IsRegular()
}

// cmdYq implements yq: jq programs over YAML (or JSON) documents, printed
// as YAML (or JSON); see the package documentation.
func cmdYq(env *command.Env) int {
	o, st, ok := yqArgs(env)
	if !ok {
		return st
	}
	o.jq.nullInput = o.nullInput
	names, values := jqVariables(o.jq)
	files := o.files
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := env.NewOutput()
	y := &yqRun{env: env, o: o, values: values, out: out}
	if !o.inplace {
		first := ""
		if !o.nullInput {
			first = files[0]
		}
		o.setOutput(first)
		y.w = out
		st := y.runFiles(names, files)
		if err := out.Flush(); err != nil && st == 0 {
			return env.WriteError(err)
		}
		return st
	}
	for _, name := range files {
		var buf bytes.Buffer
		y.w = bufio.NewWriter(&buf)
		y.printed, y.outputs, y.last = false, 0, nil
		o.setOutput(name)
		if st := y.runFiles(names, []string{name}); st != 0 {
			return st
		}
		y.w.Flush()
		if err := env.FS.WriteFile(env.Abs(name), buf.Bytes(), 0); err != nil {
			return env.Errorf(1, "%s: %s", name, command.Strerror(err))
		}
	}
	return y.exitStatus()
}

// yqRun is one yq invocation.
type yqRun struct {
	env    *command.Env
	o      *yqOptions
	values []any
	out    *bufio.Writer // standard output, flushed before debug output
	w      *bufio.Writer // where results go: standard output or a file's text
	// printed is set once a result is printed; lastDoc is the document
	// that it came from, for the --- between documents.
	printed bool
	lastDoc int
	doc     int // the document being run on
	outputs int
	last    any
}

// exitStatus returns the status of -e: 1 when there was no output or the
// last one was false or null.
func (y *yqRun) exitStatus() int {
	if y.o.exitStatus && (y.outputs == 0 || y.last == nil || y.last == false) {
		return 1
	}
	return 0
}

// runFiles runs the program on the documents of files and returns the
// exit status.
func (y *yqRun) runFiles(names, files []string) int {
	env, o := y.env, y.o
	src := &yqSource{env: env, o: o, files: files}
	inputs := &jqInputs{env: env, o: o.jq, files: files}
	inputs.source = func() (any, bool) {
		v, ok := src.next()
		inputs.name = src.name
		return v, ok
	}
	bind := jqBinding{
		inputs: inputs, order: o.jq.order, environ: env.Environ, nullInput: o.nullInput, out: y.out,
		libDirs: jqDefaultLibDirs, progOrigin: env.Dir, cmdEnv: env,
	}
	prog, err := jqProgramFor(o.jq, names, bind)
	if err != nil {
		io.WriteString(env.Stderr, jqCompileMessage("yq", o.jq.filter, err))
		if f := o.jq.filter; len(o.files) == 0 && yqLooksLikeFile(f) {
			fmt.Fprintf(env.Stderr, "yq: %s: No such file or directory (read as the expression)\n", f)
		} else {
			io.WriteString(env.Stderr, yqLanguageHint)
		}
		return 1
	}
	defer returnJqProgram(prog)
	switch {
	case o.nullInput:
		if st, done := y.runOne(prog, nil); done {
			return st
		}
	case o.evalAll:
		all := []any{}
		for {
			v, ok := inputs.Next()
			if !ok {
				break
			}
			if err, isErr := asJQError(v); isErr {
				return y.inputError(err)
			}
			all = append(all, v)
		}
		if st, done := y.runOne(prog, all); done {
			return st
		}
	default:
		for {
			v, ok := inputs.Next()
			if !ok {
				break
			}
			if err, isErr := asJQError(v); isErr {
				return y.inputError(err)
			}
			y.doc = src.docs
			if st, done := y.runOne(prog, v); done {
				return st
			}
		}
	}
	if env.Canceled() {
		return command.StatusCanceled
	}
	if src.status != 0 {
		return src.status
	}
	return y.exitStatus()
}

// inputError reports an input that could not be read.
func (y *yqRun) inputError(err error) int {
	if command.IsCanceled(err) || y.env.Canceled() {
		return command.StatusCanceled
	}
	y.out.Flush()
	fmt.Fprintf(y.env.Stderr, "yq: %s\n", err)
	return 1
}

// runOne runs the program on v and prints its outputs; done is set, with
// the status, when yq must stop (an error stops yq, as in yq v4).
func (y *yqRun) runOne(prog *jqProgram, v any) (status int, done bool) {
	ctx := y.env.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	iter := prog.code.RunWithContext(&yieldingContext{Context: ctx}, v, y.values...)
	for {
		if y.env.Canceled() {
			return command.StatusCanceled, true
		}
		out, ok := iter.Next()
		if !ok {
			return 0, false
		}
		if err, isErr := asJQError(out); isErr {
			return y.runError(prog, err), true
		}
		y.outputs++
		y.last = out
		if err := y.print(out); err != nil {
			y.out.Flush()
			fmt.Fprintf(y.env.Stderr, "yq: %s\n", err)
			return 1, true
		}
		if y.w.Buffered() > 16<<10 {
			if err := y.w.Flush(); err != nil {
				return y.env.WriteError(err), true
			}
		}
	}
}

// runError reports an error of the program and returns the status: 1, or
// halt_error's.
func (y *yqRun) runError(prog *jqProgram, err error) int {
	if command.IsCanceled(err) || y.env.Canceled() {
		return command.StatusCanceled
	}
	y.out.Flush()
	var he *gojq.HaltError
	if errors.As(err, &he) {
		if v := he.Value(); v != nil {
			if s, ok := v.(string); ok {
				io.WriteString(y.env.Stderr, s)
			} else {
				io.WriteString(y.env.Stderr, jqCompact(v)+"\n")
			}
		}
		return he.ExitCode()
	}
	var ve gojq.ValueError
	if errors.As(err, &ve) {
		switch v := ve.Value().(type) {
		case string:
			fmt.Fprintf(y.env.Stderr, "yq: error: %s\n", v)
		case nil:
			fmt.Fprintf(y.env.Stderr, "yq: error (not a string): null\n")
		default:
			fmt.Fprintf(y.env.Stderr, "yq: error (not a string): %s\n", jqCompact(v))
		}
		return 1
	}
	fmt.Fprintf(y.env.Stderr, "yq: error: %s\n", prog.b.message(err.Error()))
	return 1
}

// print prints one result: in YAML, a --- line before the first result
// of each document after the first one printed.
func (y *yqRun) print(v any) error {
	o := y.o
	if o.format != "json" && y.printed && y.doc != y.lastDoc && !o.noDoc && !o.evalAll {
		y.w.WriteString("---\n")
	}
	y.printed, y.lastDoc = true, y.doc
	if s, ok := v.(string); ok && o.unwrap {
		y.w.WriteString(s)
		y.w.WriteByte('\n')
		return nil
	}
	if o.format == "json" {
		enc := &jqEncoder{w: y.w, order: o.jq.order, indent: strings.Repeat(" ", o.indent)}
		enc.encode(v)
		y.w.WriteByte('\n')
		return nil
	}
	n, err := yamlNode(v, o.jq.order, 0)
	if err != nil {
		return err
	}
	enc := yaml.NewEncoder(y.w)
	enc.SetIndent(max(o.indent, 2))
	if err := enc.Encode(n); err != nil {
		return fmt.Errorf("cannot print YAML: %w", err)
	}
	return enc.Close()
}

// yqSource reads the documents of the input files one after the other.
type yqSource struct {
	env      *command.Env
	o        *yqOptions
	files    []string
	nextFile int   // the next file
	queue    []any // the decoded documents of the current file not yet read
	err      error // the error that ended the current file, after queue
	name     string
	docs     int // documents read so far
	status   int
}

// next returns the next document, an error value, or false at the end.
func (s *yqSource) next() (any, bool) {
	for len(s.queue) == 0 {
		if s.err != nil {
			err := s.err
			s.err = nil
			return err, true
		}
		if s.nextFile >= len(s.files) {
			return nil, false
		}
		s.load(s.files[s.nextFile])
		s.nextFile++
	}
	v := s.queue[0]
	s.queue = s.queue[1:]
	s.docs++
	return v, true
}

// load reads and decodes one file.
func (s *yqSource) load(name string) {
	s.name = name
	if name == "-" {
		s.name = "<stdin>"
	}
	rc, err := s.env.Open(name)
	if err != nil {
		s.err = fmt.Errorf("%s: %s", name, command.Strerror(err))
		return
	}
	data, err := io.ReadAll(command.NewCtxReader(s.env.Ctx, rc))
	rc.Close()
	if err != nil {
		s.err = err
		return
	}
	if s.o.inputFormat(name) == "json" {
		vals, err := parseJSONStream(data, s.o.jq.order)
		if err != nil {
			s.err = fmt.Errorf("%s: bad JSON: %w", s.name, err)
			return
		}
		s.queue = vals
		return
	}
	docs, err := decodeYAML(data, s.o.jq.order)
	s.queue = docs
	if err != nil {
		s.err = fmt.Errorf("%s: bad YAML: %w", s.name, err)
	}
}
