package coreutils

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/itchyny/gojq"
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
}

// jq exit statuses.
const (
	jqExitFalsy   = 1
	jqExitUsage   = 2
	jqExitCompile = 3
	jqExitNoValue = 4
	jqExitError   = 5
)

// jqUsage prints jq's short usage hint and returns status 2.
func jqUsage(env *command.Env, msg string) int {
	fmt.Fprintf(env.Stderr, "jq: %s\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n", msg)
	return jqExitUsage
}

// parseJqArgs parses jq's command line. jq has its own conventions: short
// flags combine ("-rc"), and --arg and friends take two words.
func parseJqArgs(env *command.Env) (*jqOptions, int, bool) {
	o := &jqOptions{indent: 2, named: map[string]any{}}
	args := env.Args[1:]
	restMode := "" // "args" or "jsonargs" after --args/--jsonargs
	addVar := func(name string, v any) {
		o.varNames = append(o.varNames, "$"+name)
		o.varValues = append(o.varValues, v)
		o.named[name] = v
	}
	operand := func(a string) (int, bool) {
		if !o.haveFilter && o.fromFile == "" {
			o.filter, o.haveFilter = a, true
			return 0, true
		}
		switch restMode {
		case "args":
			o.positional = append(o.positional, a)
		case "jsonargs":
			v, err := parseJSONText(a)
			if err != nil {
				return jqUsage(env, "Invalid JSON text passed to --jsonargs"), false
			}
			o.positional = append(o.positional, v)
		default:
			o.files = append(o.files, a)
		}
		return 0, true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		need := func(n int) bool { return i+n < len(args) }
		if a == "--" {
			for _, r := range args[i+1:] {
				if st, ok := operand(r); !ok {
					return nil, st, false
				}
			}
			break
		}
		// Like jq, "-" followed by a letter or "-" is an option; "-1" is not.
		if len(a) < 2 || a[0] != '-' || !(a[1] == '-' || a[1] >= 'a' && a[1] <= 'z' || a[1] >= 'A' && a[1] <= 'Z') {
			if st, ok := operand(a); !ok {
				return nil, st, false
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			switch a[2:] {
			case "null-input":
				o.nullInput = true
			case "raw-output":
				o.rawOutput = true
			case "join-output":
				o.rawOutput, o.join = true, true
			case "raw-output0":
				o.rawOutput, o.raw0 = true, true
			case "ascii-output":
				o.ascii = true
			case "compact-output":
				o.compact = true
			case "slurp":
				o.slurp = true
			case "exit-status":
				o.exitStatus = true
			case "raw-input":
				o.rawInput = true
			case "sort-keys", "color-output", "monochrome-output", "unbuffered", "stream-errors":
			case "seq":
				o.seq = true
			case "tab":
				o.tab = true
			case "indent":
				if !need(1) {
					return nil, jqUsage(env, "--indent takes one parameter"), false
				}
				n, err := strconv.Atoi(args[i+1])
				if err != nil {
					return nil, jqUsage(env, "--indent takes a number"), false
				}
				if n > 7 {
					return nil, jqUsage(env, "Cannot indent more than 7 characters"), false
				}
				if n < 0 {
					return nil, jqUsage(env, "Cannot indent less than 0 characters"), false
				}
				o.indent = n
				i++
			case "arg", "argjson", "slurpfile", "rawfile":
				if !need(2) {
					return nil, jqUsage(env, fmt.Sprintf("--%s takes two parameters (e.g. --%s varname value)", a[2:], a[2:])), false
				}
				name, val := args[i+1], args[i+2]
				i += 2
				switch a[2:] {
				case "arg":
					addVar(name, val)
				case "argjson":
					v, err := parseJSONText(val)
					if err != nil {
						return nil, jqUsage(env, "Invalid JSON text passed to --argjson"), false
					}
					addVar(name, v)
				case "slurpfile", "rawfile":
					data, err := env.FS.ReadFile(env.Abs(val))
					if err != nil {
						fmt.Fprintf(env.Stderr, "jq: Bad JSON in --%s %s %s: Could not open %s: %s\n", a[2:], name, val, val, command.Strerror(err))
						return nil, jqExitUsage, false
					}
					if a[2:] == "rawfile" {
						addVar(name, string(data))
						continue
					}
					vals, err := parseJSONStream(data)
					if err != nil {
						fmt.Fprintf(env.Stderr, "jq: Bad JSON in --slurpfile %s %s: %s\n", name, val, err)
						return nil, jqExitUsage, false
					}
					addVar(name, vals)
				}
			case "args":
				restMode = "args"
			case "jsonargs":
				restMode = "jsonargs"
			case "from-file":
				if !need(1) {
					return nil, jqUsage(env, "-f takes a parameter"), false
				}
				o.fromFile = args[i+1]
				i++
			case "stream", "stream-errors=":
				return nil, jqUsage(env, "--stream is not supported"), false
			case "help":
				fmt.Fprintln(env.Stdout, "Usage:\tjq [OPTIONS] FILTER [FILES...]")
				return nil, 0, false
			default:
				return nil, jqUsage(env, "Unknown option: "+a), false
			}
			continue
		}
		for _, c := range a[1:] {
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
			case 'S', 'C', 'M':
			case 'f':
				if !need(1) {
					return nil, jqUsage(env, "-f takes a parameter"), false
				}
				o.fromFile = args[i+1]
				i++
			case 'L':
				if !need(1) {
					return nil, jqUsage(env, "-L takes a parameter"), false
				}
				i++
			case 'h':
				fmt.Fprintln(env.Stdout, "Usage:\tjq [OPTIONS] FILTER [FILES...]")
				return nil, 0, false
			default:
				return nil, jqUsage(env, "Unknown option: "+a), false
			}
		}
	}
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
func parseJSONText(s string) (any, error) {
	d := &jsonDecoder{data: []byte(s)}
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
func parseJSONStream(data []byte) ([]any, error) {
	d := &jsonDecoder{data: data}
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

// jqInputs iterates over the input values of all files; it implements
// gojq.Iter for input and inputs.
type jqInputs struct {
	env    *command.Env
	o      *jqOptions
	files  []string
	cur    *jsonDecoder
	name   string
	raw    *bufio.Reader
	closer io.Closer
	status int    // 2 after a read or parse error
	where  string // "<stdin>:N" of the last value, for error messages
	done   bool
}

// open moves to the next file; it returns false at the end.
func (in *jqInputs) open() bool {
	for len(in.files) > 0 {
		name := in.files[0]
		in.files = in.files[1:]
		rc, err := in.env.Open(name)
		if err != nil {
			fmt.Fprintf(in.env.Stderr, "jq: error: Could not open file %s: %s\n", name, command.Strerror(err))
			in.status = jqExitUsage
			continue
		}
		in.name = name
		if name == "-" {
			in.name = "<stdin>"
		}
		r := ctxReader{in.env.Ctx, rc}
		if in.o.rawInput && !in.o.slurp {
			in.raw, in.closer = bufio.NewReaderSize(r, 64<<10), rc
			return true
		}
		data, err := io.ReadAll(r)
		rc.Close()
		if err != nil {
			if !isCanceled(err) {
				fmt.Fprintf(in.env.Stderr, "jq: error: Could not read %s: %s\n", name, command.Strerror(err))
			}
			in.status = jqExitUsage
			continue
		}
		in.cur = &jsonDecoder{data: data}
		return true
	}
	return false
}

// Next returns the next input value, or an error value for a parse error.
func (in *jqInputs) Next() (any, bool) {
	for !in.done {
		if canceled(in.env) {
			in.done = true
			return errCanceled, true
		}
		if in.cur == nil && in.raw == nil {
			if !in.open() {
				in.done = true
				return nil, false
			}
		}
		if in.raw != nil {
			line, err := in.raw.ReadString('\n')
			if err != nil && err != io.EOF {
				in.done = true
				return err, true
			}
			if line == "" && err == io.EOF {
				in.closer.Close()
				in.raw = nil
				continue
			}
			return strings.TrimSuffix(line, "\n"), true
		}
		v, ok, err := in.cur.next()
		if err != nil {
			in.done = true
			in.where = fmt.Sprintf("%s:%d", in.name, in.cur.line())
			return err, true
		}
		if !ok {
			in.cur = nil
			continue
		}
		in.where = fmt.Sprintf("%s:%d", in.name, in.cur.line())
		return v, true
	}
	return nil, false
}

// slurp collects all remaining inputs: an array of values, or one string
// with -R.
func (in *jqInputs) slurp() (any, error) {
	if in.o.rawInput {
		var sb strings.Builder
		for len(in.files) > 0 {
			name := in.files[0]
			in.files = in.files[1:]
			rc, err := in.env.Open(name)
			if err != nil {
				fmt.Fprintf(in.env.Stderr, "jq: error: Could not open %s: %s\n", name, command.Strerror(err))
				in.status = jqExitUsage
				continue
			}
			_, err = io.Copy(&sb, ctxReader{in.env.Ctx, rc})
			rc.Close()
			if err != nil {
				return nil, err
			}
		}
		return sb.String(), nil
	}
	vals := []any{}
	for {
		v, ok := in.Next()
		if !ok {
			return vals, nil
		}
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		vals = append(vals, v)
	}
}

// cmdJq implements jq with gojq as the engine and jq 1.7's output format.
func cmdJq(env *command.Env) int {
	o, st, ok := parseJqArgs(env)
	if !ok {
		return st
	}
	q, err := gojq.Parse(o.filter)
	if err != nil {
		return jqCompileError(env, o.filter, err)
	}
	named := make(map[string]any, len(o.named))
	for k, v := range o.named {
		named[k] = v
	}
	positional := o.positional
	if positional == nil {
		positional = []any{}
	}
	names := append(append([]string(nil), o.varNames...), "$ARGS", "$__loc__")
	values := append(append([]any(nil), o.varValues...), map[string]any{"positional": positional, "named": named},
		map[string]any{"file": "<top-level>", "line": 1})
	files := o.files
	if len(files) == 0 {
		files = []string{"-"}
	}
	inputs := &jqInputs{env: env, o: o, files: files}
	code, err := gojq.Compile(q,
		gojq.WithVariables(names),
		gojq.WithEnvironLoader(func() []string { return append([]string(nil), env.Environ...) }),
		gojq.WithInputIter(inputs),
		gojq.WithFunction("input_filename", 0, 0, func(any, []any) any {
			if inputs.name == "" || inputs.name == "<stdin>" {
				return nil
			}
			return inputs.name
		}),
	)
	if err != nil {
		return jqCompileError(env, o.filter, err)
	}
	r := &jqRunner{env: env, o: o, code: code, values: values, inputs: inputs, w: newWriter(env)}
	r.enc = &jqEncoder{w: r.w, ascii: o.ascii}
	switch {
	case o.tab:
		r.enc.indent = "\t"
	case o.compact || o.indent == 0:
		r.enc.indent = ""
	default:
		r.enc.indent = strings.Repeat(" ", o.indent)
	}
	return r.run()
}

// jqCompileError reports a parse or compile error like jq and returns 3.
func jqCompileError(env *command.Env, filter string, err error) int {
	var pe *gojq.ParseError
	msg := err.Error()
	if errors.As(err, &pe) {
		msg = "syntax error, " + msg + " (Unix shell quoting issues?)"
	} else if name, ok := strings.CutPrefix(msg, "variable not defined: "); ok {
		msg = name + " is not defined"
	} else if name, ok := strings.CutPrefix(msg, "function not defined: "); ok {
		msg = name + " is not defined"
	}
	fmt.Fprintf(env.Stderr, "jq: error: %s at <top-level>, line 1:\n%s\njq: 1 compile error\n", msg, filter)
	return jqExitCompile
}

// jqRunner runs a compiled program over the inputs.
type jqRunner struct {
	env     *command.Env
	o       *jqOptions
	code    *gojq.Code
	values  []any
	inputs  *jqInputs
	w       *bufio.Writer
	enc     *jqEncoder
	status  int
	last    any
	outputs int
	halted  bool
}

func (r *jqRunner) run() int {
	o := r.o
	switch {
	case o.nullInput:
		r.inputs.where = ""
		r.runOne(nil)
	case o.slurp:
		v, err := r.inputs.slurp()
		if err != nil {
			if r.reportInputError(err) {
				return canceledStatus
			}
		} else {
			r.runOne(v)
		}
	default:
		for !r.halted {
			v, ok := r.inputs.Next()
			if !ok {
				break
			}
			if err, isErr := v.(error); isErr {
				if r.reportInputError(err) {
					return canceledStatus
				}
				break
			}
			r.runOne(v)
			if canceled(r.env) {
				break
			}
		}
	}
	if err := r.w.Flush(); err != nil {
		return writeError(r.env, err)
	}
	if canceled(r.env) {
		return canceledStatus
	}
	if r.halted {
		return r.status
	}
	if r.status == 0 && r.inputs.status != 0 {
		r.status = r.inputs.status
	}
	if r.status != 0 {
		return r.status
	}
	if o.exitStatus {
		if r.outputs == 0 {
			return jqExitNoValue
		}
		if r.last == nil || r.last == false {
			return jqExitFalsy
		}
	}
	return 0
}

// reportInputError reports a parse error; it returns true on cancellation.
func (r *jqRunner) reportInputError(err error) bool {
	if isCanceled(err) || canceled(r.env) {
		return true
	}
	r.w.Flush()
	fmt.Fprintf(r.env.Stderr, "jq: parse error: %s\n", err.Error())
	r.status = jqExitUsage
	return false
}

// runOne runs the program on one input and prints its outputs.
func (r *jqRunner) runOne(v any) {
	iter := r.code.RunWithContext(r.env.Ctx, v, r.values...)
	for {
		if canceled(r.env) {
			return
		}
		out, ok := iter.Next()
		if !ok {
			return
		}
		if err, isErr := out.(error); isErr {
			if r.handleError(err) {
				return
			}
			continue
		}
		r.outputs++
		r.last = out
		r.print(out)
		if r.w.Buffered() > 16<<10 {
			if err := r.w.Flush(); err != nil {
				r.halted = true
				r.status = writeError(r.env, err)
				return
			}
		}
	}
}

// handleError reports a runtime error; it returns true when the current
// input must stop (always, as jq does).
func (r *jqRunner) handleError(err error) bool {
	if isCanceled(err) || canceled(r.env) {
		return true
	}
	r.w.Flush()
	var he *gojq.HaltError
	if errors.As(err, &he) {
		r.halted = true
		r.status = he.ExitCode()
		if v := he.Value(); v != nil {
			if s, ok := v.(string); ok {
				io.WriteString(r.env.Stderr, s)
			} else {
				io.WriteString(r.env.Stderr, jqCompact(v)+"\n")
			}
		}
		return true
	}
	where := "<unknown>"
	if r.inputs.where != "" && !r.o.nullInput {
		where = r.inputs.where
	}
	var ve gojq.ValueError
	if errors.As(err, &ve) {
		switch v := ve.Value().(type) {
		case string:
			fmt.Fprintf(r.env.Stderr, "jq: error (at %s): %s\n", where, v)
		case nil:
			fmt.Fprintf(r.env.Stderr, "jq: error (at %s) (not a string): null\n", where)
		default:
			fmt.Fprintf(r.env.Stderr, "jq: error (at %s) (not a string): %s\n", where, jqCompact(v))
		}
	} else {
		fmt.Fprintf(r.env.Stderr, "jq: error (at %s): %s\n", where, err.Error())
	}
	r.status = jqExitError
	return true
}

// jqCompact returns the compact JSON form of v.
func jqCompact(v any) string {
	var sb strings.Builder
	w := bufio.NewWriter(&sb)
	(&jqEncoder{w: w}).encode(v)
	w.Flush()
	return sb.String()
}

func (r *jqRunner) print(v any) {
	if r.o.seq {
		r.w.WriteByte(0x1e)
	}
	if s, ok := v.(string); ok && r.o.rawOutput {
		r.w.WriteString(s)
	} else {
		r.enc.encode(v)
	}
	switch {
	case r.o.raw0:
		r.w.WriteByte(0)
	case !r.o.join:
		r.w.WriteByte('\n')
	}
}
