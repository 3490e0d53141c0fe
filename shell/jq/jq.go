package jq

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/itchyny/gojq"
)

// jq exit statuses.
const (
	jqExitFalsy   = 1
	jqExitUsage   = 2
	jqExitCompile = 3
	jqExitNoValue = 4
	jqExitError   = 5
)

// cmdJq implements jq with gojq as the engine and jq 1.7's output format.
func cmdJq(env *command.Env) int {
	o, st, ok := parseJqArgs(env)
	if !ok {
		return st
	}
	if o.runTests {
		return jqRunTests(env, o)
	}
	names, values := jqVariables(o)
	files := o.files
	if len(files) == 0 {
		files = []string{"-"}
	}
	inputs := &jqInputs{env: env, o: o, files: files}
	w := env.NewOutput()
	libDirs := o.libDirs
	if libDirs == nil {
		libDirs = jqDefaultLibDirs
	}
	bind := jqBinding{
		inputs: inputs, order: o.order, environ: env.Environ, nullInput: o.nullInput, out: w,
		libDirs: libDirs, progOrigin: env.Dir, cmdEnv: env, libArgs: o.libDirs,
	}
	prog, err := jqProgramFor(o, names, bind)
	if err != nil {
		return jqCompileError(env, o.filter, err)
	}
	defer returnJqProgram(prog)
	r := &jqRunner{env: env, o: o, prog: prog, code: prog.code, values: values, inputs: inputs, w: w}
	r.enc = &jqEncoder{w: r.w, ascii: o.ascii}
	if !o.sortKeys {
		r.enc.order = o.order
	}
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

// jqVariables returns the program's variables: those of --arg and its
// kin, $ARGS and $__loc__, with their values.
func jqVariables(o *jqOptions) ([]string, []any) {
	named := make(map[string]any, len(o.named))
	for k, v := range o.named {
		named[k] = v
	}
	positional := o.positional
	if positional == nil {
		positional = []any{}
	}
	namedKeys := make([]string, 0, len(o.varNames))
	for _, n := range o.varNames {
		if !slices.Contains(namedKeys, n[1:]) {
			namedKeys = append(namedKeys, n[1:])
		}
	}
	o.order.record(named, namedKeys)
	args := map[string]any{"positional": positional, "named": named}
	o.order.record(args, []string{"positional", "named"})
	loc := map[string]any{"file": "<top-level>", "line": 1}
	o.order.record(loc, []string{"file", "line"})
	names := append(append([]string(nil), o.varNames...), "$ARGS", "$__loc__")
	values := append(append([]any(nil), o.varValues...), args, loc)
	return names, values
}

// jqCompileError reports a parse or compile error like jq and returns 3.
func jqCompileError(env *command.Env, filter string, err error) int {
	fmt.Fprint(env.Stderr, jqCompileMessage("jq", filter, err))
	return jqExitCompile
}

// jqCompileMessage returns jq's report of a parse or compile error of
// filter, its lines prefixed with name.
func jqCompileMessage(name, filter string, err error) string {
	var pe *gojq.ParseError
	var me *jqModuleError
	msg := err.Error()
	if errors.As(err, &me) {
		return fmt.Sprintf("%s: error: %s\n\n%s: 1 compile error\n", name, me.msg, name)
	}
	if errors.As(err, &pe) {
		msg = "syntax error, " + msg + " (Unix shell quoting issues?)"
	} else if _, ok := err.(*jqCompileCheckError); !ok {
		msg = jqMessage(msg)
	}
	return fmt.Sprintf("%s: error: %s at <top-level>, line 1:\n%s\n%s: 1 compile error\n", name, msg, filter, name)
}

// jqRunner runs a compiled program over the inputs.
type jqRunner struct {
	env     *command.Env
	o       *jqOptions
	prog    *jqProgram
	code    *gojq.Code
	values  []any
	inputs  *jqInputs
	w       *bufio.Writer
	enc     *jqEncoder
	status  int
	last    any
	outputs int
	halted  bool
	// start is where the input was when the program started on the
	// current value, if canRestart (for diagnose).
	start      jqInputsState
	canRestart bool
}

// run processes all inputs and returns the exit status.
func (r *jqRunner) run() int {
	o := r.o
	switch {
	case o.nullInput:
		r.inputs.wherePos = -1
		r.runOne(nil)
	case o.slurp:
		v, err := r.inputs.slurp()
		if err != nil {
			if r.reportInputError(err) {
				return command.StatusCanceled
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
			if err, isErr := asJQError(v); isErr {
				if r.reportInputError(err) {
					return command.StatusCanceled
				}
				break
			}
			r.runOne(v)
			if r.env.Canceled() {
				break
			}
		}
	}
	if err := r.w.Flush(); err != nil {
		return r.env.WriteError(err)
	}
	if r.env.Canceled() {
		return command.StatusCanceled
	}
	if r.halted {
		return r.status
	}
	if r.inputs.status != 0 {
		// A file that could not be read decides the status, as in jq.
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
	if command.IsCanceled(err) || r.env.Canceled() {
		return true
	}
	r.w.Flush()
	fmt.Fprintf(r.env.Stderr, "jq: parse error: %s\n", err.Error())
	r.status = jqExitError
	return false
}

// runOne runs the program on one input and prints its outputs.
func (r *jqRunner) runOne(v any) {
	ctx := r.env.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if r.prog.usesInput {
		// Where the program starts reading, for diagnose.
		r.start, r.canRestart = r.inputs.save()
	}
	iter := r.code.RunWithContext(&yieldingContext{Context: ctx}, v, r.values...)
	for {
		if r.env.Canceled() {
			return
		}
		out, ok := iter.Next()
		if !ok {
			return
		}
		if err, isErr := asJQError(out); isErr {
			if r.handleError(err, v) {
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
				r.status = r.env.WriteError(err)
				return
			}
		}
	}
}

// handleError reports a runtime error of the program run on v; it
// returns true when the current input must stop (always, as jq does).
func (r *jqRunner) handleError(err error, v any) bool {
	if command.IsCanceled(err) || r.env.Canceled() {
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
	if w := r.inputs.where(); w != "" && (!r.o.nullInput || r.inputs.wherePos >= 0 || r.inputs.raw != nil) {
		where = w
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
		msg := r.prog.b.message(err.Error())
		if strings.HasPrefix(msg, "Cannot index ") && strings.HasSuffix(msg, " with string") {
			msg = r.diagnose(v, msg)
		}
		fmt.Fprintf(r.env.Stderr, "jq: error (at %s): %s\n", where, msg)
	}
	r.status = jqExitError
	return true
}

// diagnose finds the key of a failed .name, which gojq's error lacks: it
// runs the program again on v with every .name checked first and returns
// the first error's message, or msg. A program that reads more input
// reads it again (not with -R, which reads a stream).
func (r *jqRunner) diagnose(v any, msg string) string {
	if r.prog == nil || r.prog.usesInput && !r.canRestart {
		return msg
	}
	code := r.prog.guardedCode()
	if code == nil {
		return msg
	}
	b := r.prog.b
	b.quiet = true
	defer func() { b.quiet = false }()
	if r.prog.usesInput {
		// The program reads the same input again.
		now, _ := r.inputs.save()
		r.inputs.restore(r.start)
		defer r.inputs.restore(now)
	}
	ctx := r.env.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	iter := code.RunWithContext(&yieldingContext{Context: ctx}, v, r.values...)
	for {
		out, ok := iter.Next()
		if !ok || r.env.Canceled() {
			return msg
		}
		if err, isErr := asJQError(out); isErr {
			var je *jqError
			if errors.As(err, &je) && strings.HasPrefix(je.msg, "Cannot index ") {
				return je.msg
			}
			return msg
		}
	}
}

// jqCompact returns the compact JSON form of v.
func jqCompact(v any) string {
	var sb strings.Builder
	w := bufio.NewWriter(&sb)
	(&jqEncoder{w: w}).encode(v)
	w.Flush()
	return sb.String()
}

// print prints one output value with the output options.
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

// asJQError reports whether v, a value from gojq or from the input decoder,
// is an error. It rules out the JSON types first by their concrete type: Go
// compiled to wasm has no cache for assertions to an interface type, so a
// plain v.(error) looks the pair up in the runtime's itab table every time
// (a measurable share of the guest's instructions in jq; BENCHMARKS.md).
func asJQError(v any) (error, bool) {
	switch v.(type) {
	case nil, bool, int, float64, string, []any, map[string]any:
		return nil, false
	}
	err, ok := v.(error)
	return err, ok
}

// yieldingContext is the context gojq runs a filter with. gojq checks
// Done before every instruction, with a non-blocking receive; that check
// was a tenth of a filter's time. So Done polls the parent's Err (which
// yields the processor now and then and closes the shell's Done channel
// once the execution is interrupted: see ctxErr) on every 64th call only,
// and returns a nil channel, which the receive skips at once, until the
// parent is done. A filter stops within 64 instructions of an
// interruption. gojq is its only user, and gojq never blocks on Done.
type yieldingContext struct {
	context.Context
	calls uint32
	done  bool
}

// Done returns nil until a poll of the parent finds it done, and then the
// parent's (closed) Done channel.
func (c *yieldingContext) Done() <-chan struct{} {
	if !c.done && c.calls&63 == 0 {
		c.done = command.Err(c.Context) != nil
	}
	c.calls++
	if !c.done {
		return nil
	}
	return c.Context.Done()
}
