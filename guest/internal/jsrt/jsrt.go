// Package jsrt runs an agent's JavaScript inside the cordon guest.
//
// It builds a fresh goja runtime for every execution (so nothing a script does
// to the global object or to built-in prototypes survives it), installs the
// sandbox API (tools, console, fs, listTools, getToolInfo, timers) and drives
// a small event loop: run the script, drain promise jobs, hand the tool calls
// made in that turn to the host as one batch, resolve or reject their
// promises with the host's answers, and repeat until the script settles.
//
// The package is portable Go: the guest binary wires it to the host ABI, and
// its tests run it natively with a fake Host.
package jsrt

import (
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/guest/internal/inspect"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
	"github.com/dop251/goja"
	jsast "github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// Common holds the options that every interpreter of an execution takes:
// the JavaScript runtime's (Options) and the shell's (shellrt.Options),
// which embed it.
type Common struct {
	// Host is the guest's link to the host.
	Host hub.Host
	// Hub routes tool calls and the interrupt flag. An execution that nests
	// interpreters (shell() from JS, node -e from the shell) shares one;
	// nil makes a new one on Host.
	Hub *hub.Hub
	// FS is the sandbox's file system.
	FS *vfs.FS
	// Tools are the host's tools, as the setup request listed them.
	Tools []abi.ToolInfo
	// Plan is PlanTools(Tools), made once for many executions; nil plans
	// the tools in each run of JavaScript.
	Plan *ToolPlan
	// Cwd is the working directory: the one relative paths resolve
	// against (default /workspace).
	Cwd string
	// MaxCallDepth bounds how deeply calls nest: the JavaScript call stack,
	// and the shell's nesting of functions, command substitutions, eval
	// and source (default 1000 each), as engine.Limits.MaxCallDepth does.
	MaxCallDepth int
}

// Options configures one execution.
type Options struct {
	Common
	// Write, when set, receives the script's output instead of Host.Write
	// (node -e inside a shell pipeline writes to the pipe).
	Write func(fd int, p []byte)
	// Shell, when set, runs a shell command line for the script's shell()
	// function, in the script's working directory, and returns its output
	// and exit status.
	Shell func(cmd, cwd string) (stdout, stderr []byte, exitCode int)
}

// Outcome is how an execution ended.
type Outcome struct {
	ExitCode int
	HasValue bool
	Value    []byte // JSON of the returned value
	// ErrCode is "" for a normal end, abi.CodeException for an uncaught
	// error, abi.CodeRecursion when the call stack overflowed,
	// abi.CodeInterrupted when the host stopped the script, and
	// abi.CodeInternal when the runtime itself failed.
	ErrCode abi.ErrCode
	ErrMsg  string
}

// ErrNoInterruptFlag means the pinned goja version no longer has the field the
// host writes to stop a script. Scripts are refused rather than run without a
// working timeout.
var ErrNoInterruptFlag = errors.New("jsrt: goja interrupt flag not found; refusing to run without a timeout")

// InterruptFlag returns the address of the uint32 that goja's interpreter
// loads before every instruction. Storing a non-zero value there (from any
// goroutine, or from the host through linear memory) makes the running script
// stop with an InterruptedError.
//
// Where the flag is comes from reflect once per process (interruptField):
// looking the fields up by name for every execution was a visible part of
// the guest's time in Execute("return 1") (BENCHMARKS.md).
func InterruptFlag(rt *goja.Runtime) *uint32 {
	interruptField.once.Do(findInterruptField)
	if !interruptField.ok {
		return nil
	}
	vm := reflect.ValueOf(rt).Elem().Field(interruptField.vm)
	if vm.IsNil() {
		return nil
	}
	return (*uint32)(unsafe.Add(vm.UnsafePointer(), interruptField.offset))
}

// interruptField is where goja keeps its interrupt flag: Runtime's field
// number vm is a *vm, and the uint32 interrupted is offset bytes into the
// vm it points to.
var interruptField struct {
	once   sync.Once
	ok     bool
	vm     int
	offset uintptr
}

func findInterruptField() {
	f := &interruptField
	vmField, ok := reflect.TypeFor[goja.Runtime]().FieldByName("vm")
	if !ok || len(vmField.Index) != 1 || vmField.Type.Kind() != reflect.Pointer || vmField.Type.Elem().Kind() != reflect.Struct {
		return
	}
	// Walk to the field, adding offsets, through embedded structs held by
	// value (a pointer on the way would be another object).
	t := vmField.Type.Elem()
	flag, ok := t.FieldByName("interrupted")
	if !ok || flag.Type.Kind() != reflect.Uint32 {
		return
	}
	var offset uintptr
	for _, i := range flag.Index {
		if t.Kind() != reflect.Struct {
			return
		}
		sf := t.Field(i)
		offset += sf.Offset
		t = sf.Type
	}
	f.vm, f.offset, f.ok = vmField.Index[0], offset, true
}

// pendingCall is a tool call whose promise has not settled; the Hub
// delivers its answer to it.
type pendingCall struct {
	r               *run
	method          string
	fetch           bool              // a call of fetch: its result is an abi.FetchResponse (fetch.go)
	site            []goja.StackFrame // where the script made the call, in sites
	sites           [callSiteFrames]goja.StackFrame
	p               *goja.Promise   // settled by settleNow, or
	resolve, reject func(any) error // when useGojax is false
}

// Deliver settles the call's promise with the host's answer.
func (pc *pendingCall) Deliver(c abi.CallResult) { pc.r.settle(pc, c) }

type timer struct {
	id       int64
	due      time.Time
	interval time.Duration
	repeat   bool
	fn       goja.Callable
	args     []goja.Value
	seq      int64
}

type run struct {
	opts      Options
	rt        *goja.Runtime
	flag      *uint32
	insp      *inspect.Funcs
	fastFmt   *inspect.Fast
	cwd       string
	hub       *hub.Hub
	inflight  int   // this runtime's calls not yet answered
	settleErr error // an uncatchable error raised while settling a call

	// settleInVM calls settleNow from Go; settling, settlingValue and
	// settlingOK are its argument, taken as it starts.
	settleInVM    goja.Callable
	settling      *goja.Promise
	settlingValue goja.Value
	settlingOK    bool

	timers   map[int64]*timer
	timerSeq int64

	objectProto *goja.Object    // Object.prototype, once fetched (plainPrototype)
	toJSONKey   goja.Value      // "toJSON", with objectProto
	props       []gojax.OwnData // marshalOrdinary's scratch
	toolError   goja.Value      // constructor, once defined (toolErrorClass)
	shellJSON   *goja.Object    // the toJSON of shell()'s results, once made (install.go)
	web         *goja.Object    // fetch.js's globals, once made (fetch.go)
	api         *apiGlobals
	plan        *ToolPlan  // how opts.Tools appear to the script
	miss        memberMiss // the last member read and missed on a tool namespace (hints.go)
	installing  bool       // installToolsOn is running: its lookups are not the script's

	mainPromise *goja.Promise
	unhandled   []*goja.Promise
}

// uncatchable reports whether err must end the execution at once.
func uncatchable(err error) bool {
	var ie *goja.InterruptedError
	var so *goja.StackOverflowError
	return errors.As(err, &ie) || errors.As(err, &so)
}

// Run executes code (a script body in which top-level await and return work)
// and reports how it ended. Output goes to opts.Host.Write as it is produced.
func Run(opts Options, filename, code string) (out Outcome) {
	if opts.Cwd == "" {
		opts.Cwd = "/workspace"
	}
	if opts.MaxCallDepth <= 0 {
		opts.MaxCallDepth = 1000
	}
	r := &run{
		opts:   opts,
		rt:     newRuntime(),
		cwd:    opts.Cwd,
		timers: map[int64]*timer{},
	}
	r.plan = opts.Plan
	if r.plan == nil {
		r.plan = PlanTools(opts.Tools)
	}
	r.flag = InterruptFlag(r.rt)
	if r.flag == nil {
		return Outcome{ExitCode: 1, ErrCode: abi.CodeInternal, ErrMsg: ErrNoInterruptFlag.Error()}
	}
	if opts.Hub == nil {
		opts.Hub = hub.New(opts.Host)
		r.opts.Hub = opts.Hub
	}
	r.hub = opts.Hub
	leave, err := r.hub.Enter(r.flag)
	if err != nil {
		msg := "Error: " + err.Error()
		r.write(2, msg+"\n")
		return Outcome{ExitCode: 1, ErrCode: abi.CodeException, ErrMsg: msg}
	}
	defer func() {
		if out.ErrCode == abi.CodeInterrupted {
			// goja clears its flag as it unwinds; the stop must still
			// reach the interpreters this one runs inside.
			r.hub.Interrupt()
		}
		leave()
		runtime.KeepAlive(r.rt)
	}()
	defer func() {
		// A goja bug or an unexpected Go panic must not take the guest down
		// with a half-reported execution.
		if p := recover(); p != nil {
			out = Outcome{ExitCode: 1, ErrCode: abi.CodeInternal, ErrMsg: fmt.Sprintf("jsrt: internal error: %v", p)}
		}
	}()
	r.rt.SetRandSource(randSource())
	r.rt.SetMaxCallStackSize(opts.MaxCallDepth)
	r.rt.SetFieldNameMapper(goja.UncapFieldNameMapper())
	r.rt.SetPromiseRejectionTracker(r.trackRejection)
	if err := r.install(); err != nil {
		if uncatchable(err) {
			return r.interrupted(err)
		}
		return Outcome{ExitCode: 1, ErrCode: abi.CodeInternal, ErrMsg: err.Error()}
	}
	return r.main(filename, code)
}

func (r *run) interrupted(err error) Outcome {
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		msg := "RangeError: Maximum call stack size exceeded"
		r.write(2, msg+"\n")
		return Outcome{ExitCode: 1, ErrCode: abi.CodeRecursion, ErrMsg: msg}
	}
	return Outcome{ExitCode: 1, ErrCode: abi.CodeInterrupted, ErrMsg: "script interrupted"}
}

func (r *run) write(fd int, s string) {
	if s == "" {
		return
	}
	if r.opts.Write != nil {
		r.opts.Write(fd, []byte(s))
		return
	}
	r.opts.Host.Write(fd, []byte(s))
}

func (r *run) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	switch op {
	case goja.PromiseRejectionReject:
		r.addHint(p.Result()) // before a handler reads it (hints.go)
		r.unhandled = append(r.unhandled, p)
	case goja.PromiseRejectionHandle:
		for i, q := range r.unhandled {
			if q == p {
				r.unhandled = append(r.unhandled[:i], r.unhandled[i+1:]...)
				break
			}
		}
	}
}

// scriptPrefix and scriptSuffix wrap a script so that top-level await and
// return work. A script that never says "await" gets a plain function
// (syncPrefix, as long, so that columns match): the async machinery (a
// promise and a generator) was a quarter of a short execution, and run
// treats such a script's result as the async wrapper would (see main).
const (
	scriptPrefix = "(async function() {"
	syncPrefix   = "(function()       {"
	scriptSuffix = "\n})"
)

// needsAsync reports whether code may use await at its top level.
func needsAsync(code string) bool { return strings.Contains(code, "await") }

// compileScript compiles code as the body of an async function. The
// wrapper is text, so a script could close it early ("}, function() {")
// and run code beside it; the parse tree is checked to be exactly the
// wrapper's function, ending where the wrapper ends, and anything else is
// refused as a syntax error.
func compileScript(filename, code string) (*goja.Program, error) {
	key := filename + "\x00" + code
	if p := programs.get(key); p != nil {
		return p, nil
	}
	p, err := compileFresh(filename, code)
	if err == nil {
		programs.put(key, p)
	}
	return p, err
}

// Agents run the same script again (a retry, a poll), and compiling is
// about a tenth of a short execution in the guest. A goja Program is
// immutable and may run in any runtime, so the last few are kept: at most
// cachedPrograms of them, of scripts up to maxCachedScript bytes, and
// maxCachedBytes of source in all, and besides them the last larger script
// of up to maxLargeScript bytes, in a slot of its own, so that a large
// script an agent runs again is compiled once per sandbox without pushing
// the small ones out. Each sandbox has its own cache (its own guest), and
// a compiled program is several times its source, so the bounds keep the
// cache to a few MiB a sandbox even when every script is large.
const (
	cachedPrograms  = 16
	maxCachedScript = 16 << 10
	maxCachedBytes  = 64 << 10
	maxLargeScript  = 1 << 20
)

var programs programCache

type programCache struct {
	mu    sync.Mutex
	byKey map[string]*goja.Program
	order []string // oldest first
	bytes int      // total length of the keys held
	// The large slot: the last script over maxCachedScript bytes.
	largeKey  string
	largeProg *goja.Program
}

func (c *programCache) get(key string) *goja.Program {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.largeProg != nil && len(key) == len(c.largeKey) && key == c.largeKey {
		return c.largeProg
	}
	return c.byKey[key]
}

// forget drops the program of code from filename, if the cache holds it.
func (c *programCache) forget(filename, code string) {
	key := filename + "\x00" + code
	c.mu.Lock()
	defer c.mu.Unlock()
	if key == c.largeKey {
		c.largeKey, c.largeProg = "", nil
	}
	if _, ok := c.byKey[key]; !ok {
		return
	}
	delete(c.byKey, key)
	c.order = slices.DeleteFunc(c.order, func(k string) bool { return k == key })
	c.bytes -= len(key)
}

func (c *programCache) put(key string, p *goja.Program) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[string]*goja.Program{}
	}
	if len(key) > maxCachedScript {
		if len(key) <= maxLargeScript {
			c.largeKey, c.largeProg = key, p
		}
		return
	}
	if _, ok := c.byKey[key]; ok {
		return
	}
	for len(c.order) > 0 && (len(c.order) >= cachedPrograms || c.bytes+len(key) > maxCachedBytes) {
		c.bytes -= len(c.order[0])
		delete(c.byKey, c.order[0])
		c.order = append(c.order[:0], c.order[1:]...)
	}
	c.byKey[key] = p
	c.order = append(c.order, key)
	c.bytes += len(key)
}

func compileFresh(filename, code string) (*goja.Program, error) {
	async := needsAsync(code)
	prefix := syncPrefix
	if async {
		prefix = scriptPrefix
	}
	src := prefix + code + scriptSuffix
	// The script's own source maps are not read: positions are the
	// script's (scriptpos.go).
	ast, err := parser.ParseFile(nil, filename, src, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, scriptSyntaxError(filename, code, src, err)
	}
	if !wrapsWholeScript(ast, len(src), async) {
		return nil, wrapperEscape(filename, code, src, ast)
	}
	if m := firstLineMap(filename, code); m != nil {
		ast.File.SetSourceMap(m)
	}
	prog, err := goja.CompileAST(ast, false)
	if err != nil {
		return nil, scriptSyntaxError(filename, code, src, err)
	}
	return prog, nil
}

// wrapsWholeScript reports whether prog is one expression statement whose
// expression is the wrapper's function literal (async or not, as asked)
// that starts at offset 0 and whose closing brace is the wrapper's (the next
// to last byte of src).
func wrapsWholeScript(prog *jsast.Program, srcLen int, async bool) bool {
	if len(prog.Body) != 1 {
		return false
	}
	st, ok := prog.Body[0].(*jsast.ExpressionStatement)
	if !ok {
		return false
	}
	fn, ok := st.Expression.(*jsast.FunctionLiteral)
	if !ok || fn.Async != async || fn.Body == nil {
		return false
	}
	// file.Idx is 1-based: the brace at 0-based offset srcLen-2.
	return int(fn.Body.RightBrace) == srcLen-1
}

// main compiles and runs the script, then drives the event loop.
func (r *run) main(filename, code string) Outcome {
	// The wrapper starts on the script's first line so that line numbers in
	// errors match the source.
	prog, err := compileScript(filename, code)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			r.write(2, se.report()+"\n")
			return Outcome{ExitCode: 1, ErrCode: abi.CodeException, ErrMsg: se.summary()}
		}
		msg := syntaxMessage(err)
		r.write(2, msg+"\n")
		return Outcome{ExitCode: 1, ErrCode: abi.CodeException, ErrMsg: msg}
	}
	fnv, err := r.rt.RunProgram(prog)
	if err != nil {
		return r.fail(err)
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return Outcome{ExitCode: 1, ErrCode: abi.CodeInternal, ErrMsg: "jsrt: script wrapper is not a function"}
	}
	// A plain wrapper's throw or value is held until the event loop has
	// run, as the async wrapper's rejection or resolution would be.
	var thrown, result goja.Value
	async := needsAsync(code)
	pv, err := fn(goja.Undefined())
	if err != nil {
		// A script's throw is an *Exception itself (errors.As would call
		// its Unwrap, which exports the thrown value: a Proxy's traps);
		// interrupts and stack overflows are other types.
		ex, isThrow := err.(*goja.Exception)
		if !isThrow || async {
			return r.fail(err)
		}
		thrown = ex.Value()
	}
	if thrown == nil {
		p, isPromise, err := r.asPromise(pv, async)
		if err != nil {
			return r.fail(err)
		}
		if isPromise {
			r.mainPromise = p
			r.dropMainFromUnhandled()
		} else {
			result = pv
		}
	}

	for {
		if out, done := r.checkUnhandled(); done {
			return out
		}
		if r.inflight > 0 {
			if err := r.yield(); err != nil {
				return r.fail(err)
			}
			continue
		}
		if len(r.timers) > 0 {
			if err := r.fireTimer(); err != nil {
				return r.fail(err)
			}
			continue
		}
		break
	}
	p := r.mainPromise
	if p == nil {
		if thrown != nil {
			return r.uncaught(thrown)
		}
		return r.finish(result)
	}
	switch p.State() {
	case goja.PromiseStateRejected:
		return r.uncaught(p.Result())
	case goja.PromiseStateFulfilled:
		return r.finish(p.Result())
	default:
		msg := "Warning: Detected unsettled top-level await: the script waits for a promise that nothing will settle"
		r.write(2, msg+"\n")
		return Outcome{ExitCode: 13, ErrCode: abi.CodeException, ErrMsg: msg}
	}
}

var promiseType = reflect.TypeOf((*goja.Promise)(nil))

// asPromise returns the promise that v, the wrapper's result, settles as.
// The async wrapper always returns a promise. A plain wrapper's value is
// one if it is a promise, or a thenable (which Promise.resolve adopts, as
// an async function's return would); anything else is the result itself.
func (r *run) asPromise(v goja.Value, async bool) (*goja.Promise, bool, error) {
	o, isObj := v.(*goja.Object)
	if isObj && o.ExportType() == promiseType {
		if p, ok := o.Export().(*goja.Promise); ok {
			return p, true, nil
		}
	}
	if async {
		// Cannot happen once compileScript accepted the script.
		return nil, false, errors.New("jsrt: the script wrapper returned no promise")
	}
	if !isObj {
		return nil, false, nil
	}
	var then goja.Value
	if ex := r.rt.Try(func() { then = o.Get("then") }); ex != nil {
		return nil, false, ex
	}
	if _, callable := goja.AssertFunction(then); !callable {
		return nil, false, nil
	}
	p, resolve, _ := r.rt.NewPromise()
	if err := resolve(v); err != nil {
		return nil, false, err
	}
	return p, true, nil
}

func (r *run) dropMainFromUnhandled() {
	for i, q := range r.unhandled {
		if q == r.mainPromise {
			r.unhandled = append(r.unhandled[:i], r.unhandled[i+1:]...)
			return
		}
	}
}

// checkUnhandled ends the execution, as Node does, when a promise was rejected
// and no handler was attached by the end of the turn.
func (r *run) checkUnhandled() (Outcome, bool) {
	r.dropMainFromUnhandled()
	if len(r.unhandled) == 0 {
		return Outcome{}, false
	}
	return r.uncaught(r.unhandled[0].Result()), true
}

func (r *run) fail(err error) Outcome {
	if uncatchable(err) {
		return r.interrupted(err)
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return r.uncaught(ex.Value())
	}
	return Outcome{ExitCode: 1, ErrCode: abi.CodeInternal, ErrMsg: err.Error()}
}

// uncaught reports an error that escaped the script, on stderr, as Node does.
func (r *run) uncaught(v goja.Value) Outcome {
	r.addHint(v)
	text, summary := r.describeThrown(v)
	r.write(2, text+"\n")
	return Outcome{ExitCode: 1, ErrCode: abi.CodeException, ErrMsg: summary}
}

// describeThrown renders a thrown value. The value is the attacker's: a
// Proxy can throw from every trap, so every step is guarded.
func (r *run) describeThrown(v goja.Value) (text, summary string) {
	defer func() {
		if p := recover(); p != nil {
			text, summary = "Uncaught [uninspectable value]", "Uncaught [uninspectable value]"
		}
	}()
	if obj, ok := v.(*goja.Object); ok && isError(r.rt, obj) {
		return r.inspectOutside(v), errorSummary(obj)
	}
	text = "Uncaught " + r.inspectOutside(v)
	return text, text
}

// inspectOutside formats v from Go code that JS did not call, where a
// thrown exception would not be caught by goja: any failure falls back to a
// plain description.
func (r *run) inspectOutside(v goja.Value) (s string) {
	defer func() {
		if p := recover(); p != nil {
			s = "[uninspectable value]"
		}
	}()
	s, err := r.tryInspect(v)
	if err != nil {
		return "[uninspectable value]"
	}
	return s
}

func isError(rt *goja.Runtime, obj *goja.Object) bool {
	ctor := rt.Get("Error")
	if ctor == nil {
		return false
	}
	proto := ctor.ToObject(rt).Get("prototype")
	for p := obj.Prototype(); p != nil; p = p.Prototype() {
		if p == proto {
			return true
		}
	}
	return false
}

func errorSummary(obj *goja.Object) string {
	name, msg := "Error", ""
	if v := obj.Get("name"); v != nil && !goja.IsUndefined(v) {
		name = v.String()
	}
	if v := obj.Get("message"); v != nil && !goja.IsUndefined(v) {
		msg = v.String()
	}
	if msg == "" {
		return name
	}
	return name + ": " + msg
}

func syntaxMessage(err error) string {
	var ce *goja.CompilerSyntaxError
	msg := err.Error()
	if errors.As(err, &ce) {
		msg = ce.Error()
	}
	if strings.HasPrefix(msg, "SyntaxError") {
		return msg
	}
	return "SyntaxError: " + msg
}

// finish prints the returned value by the output rules: a string raw, nothing
// for undefined, anything else as JSON.
func (r *run) finish(v goja.Value) Outcome {
	out := Outcome{ExitCode: 0}
	if v == nil || goja.IsUndefined(v) {
		return out
	}
	if s, ok := v.Export().(string); ok {
		r.write(1, s+"\n")
		b, _ := json.Marshal(s)
		out.HasValue, out.Value = true, b
		return out
	}
	if s, ok := primitiveJSON(v); ok {
		r.write(1, s+"\n")
		out.HasValue, out.Value = true, []byte(s)
		return out
	}
	// The value's JSON is written by goja's own JSON.stringify algorithm,
	// never by the global JSON.stringify, which the script may have
	// replaced: Result.Value is always JSON that the guest made.
	var b []byte
	var err error
	obj, isObj := v.(*goja.Object)
	_, isFunc := goja.AssertFunction(v)
	if isObj && !isFunc {
		b, err = obj.MarshalJSON()
	}
	var ex *goja.Exception
	if err != nil && errors.As(err, &ex) && !isJSONShapeError(ex) {
		return r.uncaught(ex.Value()) // a toJSON or getter threw
	}
	if err != nil || b == nil {
		// Functions, symbols, cycles and BigInts have no JSON form: show them as
		// console.log would, and return no value.
		if err != nil && uncatchable(err) {
			return r.interrupted(err)
		}
		r.write(1, r.inspectOutside(v)+"\n")
		return out
	}
	r.write(1, string(b)+"\n")
	out.HasValue, out.Value = true, b
	return out
}

// isJSONShapeError reports whether JSON.stringify failed because of the
// value's shape (a cycle, a BigInt) rather than because script code threw.
func isJSONShapeError(ex *goja.Exception) bool {
	msg := ex.Error()
	return strings.Contains(msg, "circular") || strings.Contains(msg, "BigInt")
}

// yield hands queued calls to the host and settles the promises it answers
// (the Hub calls settle for this runtime's calls).
func (r *run) yield() error {
	if err := r.hub.Yield(); err != nil {
		if errors.Is(err, hub.ErrStopped) {
			return &goja.InterruptedError{}
		}
		return fmt.Errorf("jsrt: %w", err)
	}
	err := r.settleErr
	r.settleErr = nil
	return err
}

// newToolError returns the ToolError a failed call rejects with; site is
// where the script made the call (setCallSite).
func (r *run) newToolError(method string, kind abi.ToolErrorKind, msg string, reasons []string, site []goja.StackFrame) goja.Value {
	// reasons is an ordinary JS array, not a view of a Go slice: it behaves
	// as scripts expect, and prints through the fast formatter.
	items := make([]any, len(reasons))
	for i, s := range reasons {
		items[i] = s
	}
	te, err := r.toolErrorClass()
	if err != nil {
		return r.newError("Error", msg)
	}
	ctor, _ := goja.AssertConstructor(te)
	obj, err := ctor(nil, r.rt.ToValue(msg), r.rt.ToValue(method), r.rt.ToValue(string(kind)), r.rt.NewArray(items...))
	if err != nil {
		return r.newError("Error", msg)
	}
	setCallSite(r.rt, obj, site)
	return obj
}

// fireTimer runs the earliest timer, waiting for it if it is not yet due.
func (r *run) fireTimer() error {
	var next *timer
	for _, t := range r.timers {
		if next == nil || t.due.Before(next.due) || (t.due.Equal(next.due) && t.seq < next.seq) {
			next = t
		}
	}
	for {
		wait := time.Until(next.due)
		if wait <= 0 {
			break
		}
		if atomic.LoadUint32(r.flag) != 0 {
			return &goja.InterruptedError{}
		}
		// Sleep in short steps so an interrupt from the host is seen quickly.
		time.Sleep(min(wait, 10*time.Millisecond))
	}
	if next.repeat {
		next.due = time.Now().Add(next.interval)
		r.timerSeq++
		next.seq = r.timerSeq
	} else {
		delete(r.timers, next.id)
	}
	_, err := next.fn(goja.Undefined(), next.args...)
	return err
}

// resolvePath makes p absolute against the cwd.
func (r *run) resolvePath(p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return r.cwd + "/" + p
}

func sortedTools(tools []abi.ToolInfo) []abi.ToolInfo {
	out := append([]abi.ToolInfo(nil), tools...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// randSource returns the source of Math.random for one run: a generator
// seeded, at the run's first Math.random, from the host's random source
// (random_get), rather than goja's default, which draws on the guest
// runtime's own state. The seed is then a value the host gave the
// execution, which a recording keeps and a replay gives back, so that a
// replayed script draws the same numbers.
func randSource() goja.RandSource {
	var g *rand.Rand
	return func() float64 {
		if g == nil {
			var seed [32]byte
			_, _ = crand.Read(seed[:])
			g = rand.New(rand.NewChaCha8(seed))
		}
		return g.Float64()
	}
}
