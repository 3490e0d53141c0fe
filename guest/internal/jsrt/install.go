package jsrt

import (
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	tooldesc "github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/cordonhq/cordon/guest/internal/inspect"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/dop251/goja"
)

// install puts the sandbox API into the fresh runtime: behind the global
// object's prototype, built on first use (globals.go).
func (r *run) install() error {
	rt := r.rt
	g := rt.GlobalObject()
	r.api = &apiGlobals{r: r}
	r.api.self = rt.NewDynamicObject(r.api)
	if err := g.SetPrototype(r.api.self); err != nil {
		return fmt.Errorf("jsrt: installing the API: %w", err)
	}
	// goja's global GoError (an Error subclass for Go errors thrown into
	// scripts; the sandbox throws only standard Errors) stays: deleting it
	// from a fresh runtime builds it, Error and Error.prototype first,
	// which was half the cost of running "return 1" (RATIONALE.md).
	r.installTools()
	return nil
}

// consoleKeys are console's properties, in order.
var consoleKeys = []string{"log", "info", "debug", "error", "warn", "trace", "dir", "assert"}

// console returns the console global, a lazyObject: its methods are built
// when a script first reads them.
func (r *run) console() *goja.Object {
	return r.newLazyObject(consoleKeys, func(name string) goja.Value {
		switch name {
		case "log", "info", "debug", "error", "warn", "trace":
			fd := 1
			if name == "error" || name == "warn" || name == "trace" {
				fd = 2
			}
			return r.fn(name, func(call goja.FunctionCall) goja.Value {
				r.write(fd, r.format(call.Arguments)+"\n")
				return goja.Undefined()
			})
		case "dir":
			return r.fn("dir", func(call goja.FunctionCall) goja.Value {
				s, err := r.tryInspect(call.Argument(0))
				if err != nil {
					panic(err)
				}
				r.write(1, s+"\n")
				return goja.Undefined()
			})
		default: // assert
			return r.fn("assert", func(call goja.FunctionCall) goja.Value {
				if call.Argument(0).ToBoolean() {
					return goja.Undefined()
				}
				msg := "Assertion failed"
				if len(call.Arguments) > 1 {
					msg += ": " + r.format(call.Arguments[1:])
				}
				r.write(2, msg+"\n")
				return goja.Undefined()
			})
		}
	})
}

// inspector returns the Node-compatible formatter, installing it on first
// use: it is a large script, and most executions print only primitives.
func (r *run) inspector() *inspect.Funcs {
	if r.insp == nil {
		insp, err := inspect.Install(r.rt)
		if err != nil {
			r.formatterFailed(err)
		}
		r.insp = insp
	}
	return r.insp
}

// formatterFailed panics with the error of installing a formatter: as it
// is (an interruption) or as a JS Error.
func (r *run) formatterFailed(err error) {
	if uncatchable(err) {
		panic(err)
	}
	panic(r.newError("Error", "console formatting: "+err.Error()))
}

// format renders console arguments as Node's util.format does. Strings,
// numbers, booleans, null and undefined take a fast path in Go; plain data
// (objects and arrays of those) a fast path in JavaScript, whose install
// costs a fraction of the full formatter's (inspect.Fast).
func (r *run) format(args []goja.Value) string {
	cloned := false
	for i, a := range args {
		if s, ok := r.shellOutput(a); ok {
			if !cloned {
				args, cloned = slices.Clone(args), true // goja's stay as they are
			}
			args[i] = s
		}
	}
	if s, ok := formatPrimitives(args); ok {
		return s
	}
	s, ok, err := r.fast().TryFormat(args)
	if err != nil {
		panic(err)
	}
	if ok {
		return s
	}
	return r.inspector().Format(args)
}

// fast returns the formatter for plain data and ordinary errors, installing
// it on first use.
func (r *run) fast() *inspect.Fast {
	if r.fastFmt == nil {
		f, err := inspect.InstallFast(r.rt)
		if err != nil {
			r.formatterFailed(err)
		}
		r.fastFmt = f
	}
	return r.fastFmt
}

// tryInspect returns util.inspect(v): plain data and ordinary errors, such
// as most uncaught exceptions, take the fast formatter.
func (r *run) tryInspect(v goja.Value) (string, error) {
	if s, ok, err := r.fast().TryInspect(v); ok || err != nil {
		return s, err
	}
	return r.inspector().TryInspect(v)
}

func formatPrimitives(args []goja.Value) (string, bool) {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case a == nil || goja.IsUndefined(a):
			b.WriteString("undefined")
			continue
		case goja.IsNull(a):
			b.WriteString("null")
			continue
		}
		switch v := a.Export().(type) {
		case string:
			if i == 0 && len(args) > 1 && strings.Contains(v, "%") {
				return "", false // format directives
			}
			b.WriteString(v)
		case bool:
			b.WriteString(a.String())
		case int64:
			b.WriteString(a.String())
		case float64:
			if v == 0 && math.Signbit(v) {
				b.WriteString("-0")
			} else {
				b.WriteString(a.String())
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// ToolPlan is how a set of tools appears to scripts. Each tool is a
// namespaced function and a flat alias. Most are left to the API prototype,
// which builds a tool's global on first use (toolRoot). Tools whose global
// name is taken by goja, by Object.prototype or by the API, and the tools
// that share a name with those, are installed on the global object at the
// start of each execution, as they always were.
//
// A plan depends only on the tools, so a guest makes one per sandbox and
// every execution shares it: planning in each execution cost about 38k
// guest instructions per tool (validating, sorting and naming), 2.2M for
// Execute("return 1") with 50 tools. A plan is never modified once made.
type ToolPlan struct {
	eager  []abi.ToolInfo            // installed on the global object, by name
	byRoot map[string][]abi.ToolInfo // the others, by each global name they define
}

// PlanTools plans tools. Tools whose names the host would refuse are left
// out, so that a script never sees them.
func PlanTools(tools []abi.ToolInfo) *ToolPlan {
	var eager []abi.ToolInfo
	taken := map[string]bool{}
	rest := []abi.ToolInfo{}
	for _, t := range sortedTools(tools) {
		if abi.ValidateToolName(t.Name) == nil {
			rest = append(rest, t)
		}
	}
	for changed := true; changed; {
		changed = false
		kept := rest[:0]
		for _, t := range rest {
			names := toolGlobals(t.Name)
			hit := false
			for _, n := range names {
				hit = hit || reservedRoot(n) || taken[n]
			}
			if !hit {
				kept = append(kept, t)
				continue
			}
			for _, n := range names {
				taken[n] = true
			}
			eager = append(eager, t)
			changed = true
		}
		rest = kept
	}
	sort.Slice(eager, func(i, j int) bool { return eager[i].Name < eager[j].Name })
	p := &ToolPlan{eager: eager, byRoot: map[string][]abi.ToolInfo{}}
	for _, t := range rest {
		for _, root := range toolGlobals(t.Name) {
			p.byRoot[root] = append(p.byRoot[root], t)
		}
	}
	return p
}

// installTools installs the plan's eager tools on the global object.
func (r *run) installTools() {
	if len(r.plan.eager) > 0 {
		r.installToolsOn(r.rt.GlobalObject(), r.plan.eager)
	}
}

// toolGlobals returns the global names a tool defines: its flat alias and
// the first segment of its path (abi.ToolPath), when they differ.
func toolGlobals(name string) []string {
	names := []string{abi.FlatName(name)}
	if root := abi.ToolPath(name)[0]; root != names[0] {
		names = append(names, root)
	}
	return names
}

// toolRoot builds the global called key from the tools that define it.
func (r *run) toolRoot(key string, tools []abi.ToolInfo) goja.Value {
	holder := r.rt.CreateObject(nil)
	r.installToolsOn(holder, tools)
	return holder.Get(key)
}

// installToolsOn defines tools (sorted by name) on g, a global object: each
// under its flat alias, and at its path (abi.ToolPath), whose namespaces
// are objects made here. A tool whose path is also the namespace of longer
// names is a function that holds their members too (a/b and a/b/c: a.b()
// and a.b.c()).
func (r *run) installToolsOn(g *goja.Object, tools []abi.ToolInfo) {
	rt := r.rt
	r.installing = true // the lookups below are not the script's
	defer func() { r.installing = false }()
	var nsFuncs map[*goja.Object]bool // functions already made namespaces
	for _, t := range tools {
		fn := rt.ToValue(r.toolFunc(t.Name)).ToObject(rt)
		flat := abi.FlatName(t.Name)
		setName(rt, fn, flat)
		if g.Get(flat) == nil {
			_ = g.Set(flat, fn)
		}
		segs := abi.ToolPath(t.Name)
		if len(segs) == 1 {
			continue
		}
		parent := g
		for i, seg := range segs[:len(segs)-1] {
			v := parent.Get(seg)
			obj, isObj := v.(*goja.Object)
			if v == nil || goja.IsUndefined(v) || !isObj {
				obj = rt.NewObject()
				r.watchMisses(obj, segs[:i+1])
				_ = parent.Set(seg, obj)
			} else if _, isFn := goja.AssertFunction(obj); isFn && !nsFuncs[obj] && definesPath(tools, segs[:i+1]) {
				// A tool that becomes the namespace of a longer name (not
				// a built-in such as Object.prototype.toString, which a
				// tool named toString/x reaches on the global object).
				if nsFuncs == nil {
					nsFuncs = map[*goja.Object]bool{}
				}
				nsFuncs[obj] = true
				r.watchMisses(obj, segs[:i+1])
			}
			parent = obj
		}
		last := segs[len(segs)-1]
		if existing, isObj := parent.Get(last).(*goja.Object); isObj {
			// A namespace created by a longer name: keep its members on the
			// function object.
			for _, k := range existing.Keys() {
				_ = fn.Set(k, existing.Get(k))
			}
			if nsFuncs == nil {
				nsFuncs = map[*goja.Object]bool{}
			}
			nsFuncs[fn] = true
			r.watchMisses(fn, segs)
		}
		_ = parent.Set(last, fn)
	}
}

// definesPath reports whether one of tools has the path path.
func definesPath(tools []abi.ToolInfo, path []string) bool {
	for _, t := range tools {
		if slices.Equal(abi.ToolPath(t.Name), path) {
			return true
		}
	}
	return false
}

// toolFunc returns the JS function for one tool: it takes one plain object
// (or nothing), queues the call for the host, and returns a promise.
func (r *run) toolFunc(method string) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		rt := r.rt
		if len(call.Arguments) > 1 {
			panic(rt.NewTypeError("%s: takes one object argument with the parameters, got %d arguments", method, len(call.Arguments)))
		}
		arg := call.Argument(0)
		params := emptyParams
		if !goja.IsUndefined(arg) {
			obj, ok := arg.(*goja.Object)
			if !ok || obj.ClassName() == "Array" || obj.ClassName() == "Function" {
				panic(rt.NewTypeError("%s: takes one object argument with the parameters, got %s", method, describe(arg)))
			}
			// JSON.stringify's algorithm (params.go), called directly: a
			// fifth of a tool call's cost went to calling it through the
			// script's JSON global, which the script may also replace.
			b, err := r.marshalParams(obj)
			if err != nil {
				if _, thrown := err.(*goja.Exception); !thrown {
					panic(err)
				}
				panic(rt.NewTypeError("%s: parameters cannot be converted to JSON: %s", method, err.Error()))
			}
			if len(b) == 0 || b[0] != '{' {
				panic(rt.NewTypeError("%s: parameters must be a plain object, got %s", method, describe(arg)))
			}
			params = b
		}
		pc := &pendingCall{r: r, method: method}
		pc.site = rt.CaptureCallStack(len(pc.sites), pc.sites[:0]) // for a ToolError (toolerror.go)
		p := r.newCallPromise(pc)
		r.inflight++
		r.hub.Enqueue(abi.LangJS, method, params, pc)
		return rt.ToValue(p)
	}
}

// emptyParams are the parameters of every call made with no argument:
// nothing writes to a call's parameters (the host copies them out).
var emptyParams = []byte("{}")

func describe(v goja.Value) string {
	switch {
	case goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if obj, ok := v.(*goja.Object); ok {
		switch obj.ClassName() {
		case "Array":
			return "an array"
		case "Function":
			return "a function"
		}
		return "an object"
	}
	return "a " + v.ExportType().Kind().String() + " (" + v.String() + ")"
}

func (r *run) toolInfo(t abi.ToolInfo) goja.Value {
	// A plain JS object, with the schema's keys in the order the schema
	// gives them: from Go maps, the keys came out in a different order
	// from run to run.
	info := r.rt.NewObject()
	_ = info.Set("name", t.Name)
	_ = info.Set("description", t.Description)
	_ = info.Set("alias", abi.FlatName(t.Name))
	if len(t.Schema) > 0 {
		if schema, err := r.parseJSON(t.Schema); err == nil {
			_ = info.Set("inputSchema", schema)
		}
	}
	if len(t.OutputSchema) > 0 {
		if schema, err := r.parseJSON(t.OutputSchema); err == nil {
			_ = info.Set("outputSchema", schema)
		}
	}
	return info
}

// listTools returns [{name, description, alias, inputSchema,
// outputSchema}], sorted by name (the schemas only when the tool has
// them); an optional prefix keeps the tools with a form of the name
// (registered, dotted or alias) that starts with it.
func (r *run) listTools(call goja.FunctionCall) goja.Value {
	prefix := ""
	if a := call.Argument(0); !goja.IsUndefined(a) {
		prefix = a.String()
	}
	out := []any{}
	for _, t := range sortedTools(r.opts.Tools) {
		if abi.ToolHasPrefix(t.Name, prefix) {
			out = append(out, r.toolInfo(t))
		}
	}
	return r.rt.NewArray(out...)
}

// getToolInfo returns one tool's info, or null. It accepts every form of a
// tool's name: the name, its dotted form or its flat alias
// (abi.LookupTool, as the shell's tool command). Besides what listTools
// gives, it holds the tool's TypeScript declaration and shell usage line,
// the same text the description for the model has (package describe), so
// that a model given the compact description can fetch one tool's detail.
func (r *run) getToolInfo(call goja.FunctionCall) goja.Value {
	t, ok := abi.LookupTool(r.opts.Tools, call.Argument(0).String())
	if !ok {
		return goja.Null()
	}
	info := r.toolInfo(t).(*goja.Object)
	dt := tooldesc.ToolSpec{Name: t.Name, Description: t.Description, InputSchema: t.Schema, OutputSchema: t.OutputSchema}
	_ = info.Set("declaration", tooldesc.Declaration(dt, tooldesc.Options{Language: tooldesc.JavaScript}))
	_ = info.Set("usage", tooldesc.ShellUsage(dt))
	return info
}

func (r *run) setTimer(repeat bool) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		ms := call.Argument(1).ToFloat()
		if ms != ms || ms < 0 {
			ms = 0
		}
		ms = min(ms, float64(24*time.Hour/time.Millisecond))
		var args []goja.Value
		if len(call.Arguments) > 2 {
			args = call.Arguments[2:]
		}
		return r.addTimer(call.Argument(0), time.Duration(ms*float64(time.Millisecond)), repeat, args)
	}
}

func (r *run) addTimer(fnv goja.Value, d time.Duration, repeat bool, args []goja.Value) goja.Value {
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		panic(r.rt.NewTypeError("The \"callback\" argument must be of type function. Received %s", describe(fnv)))
	}
	if repeat && d < time.Millisecond {
		d = time.Millisecond
	}
	r.timerSeq++
	t := &timer{id: r.timerSeq, due: time.Now().Add(d), interval: d, repeat: repeat, fn: fn, args: args, seq: r.timerSeq}
	r.timers[t.id] = t
	return r.rt.ToValue(t.id)
}

func (r *run) clearTimer(call goja.FunctionCall) goja.Value {
	delete(r.timers, call.Argument(0).ToInteger())
	return goja.Undefined()
}

func (r *run) queueMicrotask(call goja.FunctionCall) goja.Value {
	fn, ok := goja.AssertFunction(call.Argument(0))
	if !ok {
		panic(r.rt.NewTypeError("The \"callback\" argument must be of type function. Received %s", describe(call.Argument(0))))
	}
	p, resolve, _ := r.rt.NewPromise()
	then, _ := goja.AssertFunction(r.rt.ToValue(p).ToObject(r.rt).Get("then"))
	if _, err := then(r.rt.ToValue(p), r.rt.ToValue(func(goja.FunctionCall) goja.Value {
		if _, err := fn(goja.Undefined()); err != nil {
			panic(err)
		}
		return goja.Undefined()
	})); err != nil {
		panic(err)
	}
	if err := resolve(goja.Undefined()); err != nil {
		panic(err)
	}
	return goja.Undefined()
}

func (r *run) btoa(call goja.FunctionCall) goja.Value {
	s := call.Argument(0).String()
	b := make([]byte, 0, len(s))
	for _, c := range s {
		if c > 0xff {
			panic(r.newError("InvalidCharacterError", "btoa: the string contains characters outside of the Latin1 range"))
		}
		b = append(b, byte(c))
	}
	return r.rt.ToValue(base64.StdEncoding.EncodeToString(b))
}

func (r *run) atob(call goja.FunctionCall) goja.Value {
	s := strings.Map(func(c rune) rune {
		if c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' {
			return -1
		}
		return c
	}, call.Argument(0).String())
	if m := len(s) % 4; m != 0 {
		s += strings.Repeat("=", 4-m)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(r.newError("InvalidCharacterError", "atob: the string to be decoded is not correctly encoded"))
	}
	rs := make([]rune, len(b))
	for i, c := range b {
		rs[i] = rune(c)
	}
	return r.rt.ToValue(string(rs))
}

// shell runs a command line in the sandbox shell and returns its result,
// a String object whose value is the command's standard output and whose
// own stdout, stderr and exitCode properties hold the rest. The shell runs
// to completion before shell returns (its tool calls go through the same
// Hub, so this script's own calls are still answered meanwhile).
//
// The result reads as the output string, as amla-sandbox's shell() returns
// it: shell("ls").trim(), `${shell("ls")}`, JSON.parse(shell("cat
// f.json")) and console.log(shell("ls")) all see stdout. It is not a
// promise, so await gives it back as it is, and scripts written for the
// {stdout, stderr, exitCode} of `await shell(cmd)` read it as before:
// (await shell(cmd)).exitCode, const {stdout} = await shell(cmd). Its JSON
// (JSON.stringify, a returned result) is that object, stderr and exit
// status included (a toJSON method of its own, not enumerable). Being an
// object, it is truthy even when the output is empty: scripts that test
// for output test r.stdout, r.length or r.trim().
func (r *run) shell(call goja.FunctionCall) goja.Value {
	rt := r.rt
	arg := call.Argument(0)
	if _, ok := arg.Export().(string); !ok || len(call.Arguments) != 1 {
		panic(rt.NewTypeError("shell: takes one string argument, the command line"))
	}
	stdout, stderr, code := r.opts.Shell(arg.String(), r.cwd)
	out := rt.ToValue(string(stdout))
	res := out.ToObject(rt)
	_ = res.DefineDataProperty("stdout", out, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = res.DefineDataProperty("stderr", rt.ToValue(string(stderr)), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = res.DefineDataProperty("exitCode", rt.ToValue(code), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = res.DefineDataProperty("toJSON", r.shellResultJSON(), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return res
}

// shellResultJSON returns the toJSON method of shell()'s results, made once
// per run: {stdout, stderr, exitCode}, from the result it is called on.
func (r *run) shellResultJSON() goja.Value {
	if r.shellJSON == nil {
		r.shellJSON = r.fn("toJSON", func(call goja.FunctionCall) goja.Value {
			this := call.This.ToObject(r.rt)
			o := r.rt.NewObject()
			for _, k := range []string{"stdout", "stderr", "exitCode"} {
				_ = o.Set(k, this.Get(k))
			}
			return o
		}).(*goja.Object)
	}
	return r.shellJSON
}

// shellOutput returns the output a result of shell() reads as, when v is
// one (its own toJSON is shellResultJSON's): console.log prints it as that
// string, as it prints a string.
func (r *run) shellOutput(v goja.Value) (goja.Value, bool) {
	obj, ok := v.(*goja.Object)
	if !ok || r.shellJSON == nil || obj.ClassName() != "String" {
		return nil, false
	}
	var toJSON goja.Value
	if useGojax {
		p, ok := gojax.OwnProp(obj, r.rt.ToValue("toJSON"))
		if !ok || !p.Exists || p.Accessor {
			return nil, false
		}
		toJSON = p.Value
	} else {
		toJSON = obj.Get("toJSON")
	}
	if toJSON != r.shellJSON {
		return nil, false
	}
	return r.rt.ToValue(obj.String()), true
}

// newError returns a standard JS Error (from the script's own Error
// constructor) with the given name and message. Go errors are never thrown
// into scripts as they are: goja would wrap them in a GoError carrying a
// Go-backed value.
func (r *run) newError(name, msg string) *goja.Object {
	ctor, ok := goja.AssertConstructor(r.rt.Get("Error"))
	if !ok {
		panic(r.rt.NewTypeError(msg))
	}
	obj, err := ctor(nil, r.rt.ToValue(msg))
	if err != nil {
		panic(err)
	}
	if name != "Error" {
		_ = obj.DefineDataProperty("name", r.rt.ToValue(name), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	return obj
}

// setName defines a function's name property as JS does for its own
// functions: read-only, not enumerable, configurable (DefineDataProperty
// takes writable, configurable, enumerable, in that order).
func setName(rt *goja.Runtime, o *goja.Object, name string) {
	_ = o.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}
