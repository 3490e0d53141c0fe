package jsrt

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/internal/slack"
	"github.com/cordonhq/cordon/vfs"
	"github.com/dop251/goja"
)

// runJS runs code with tools on h, whose Answer is hubtest.Echo unless
// the test set one.
func runJS(t *testing.T, h *hubtest.Host, tools []abi.ToolInfo, code string) Outcome {
	t.Helper()
	return Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: tools}}, "test.js", code)
}

// The timeout mechanism depends on an unexported goja field. This test
// fails when a goja upgrade moves it.
func TestInterruptFlagStopsALoop(t *testing.T) {
	// The field's place is found once per process; each runtime must
	// still get its own flag.
	other := InterruptFlag(goja.New())
	rt := goja.New()
	flag := InterruptFlag(rt)
	if flag == nil {
		t.Fatal("goja's interrupt flag was not found: the pinned goja changed; timeouts would not work")
	}
	if flag == other {
		t.Fatal("two runtimes got the same interrupt flag")
	}
	bound := slack.Scale(t, time.Second)
	time.AfterFunc(50*time.Millisecond, func() { atomic.StoreUint32(flag, 1) })
	start := time.Now()
	_, err := rt.RunString(`while (true) {}`)
	var ie *goja.InterruptedError
	if !errorsAs(err, &ie) {
		t.Fatalf("err %v, want an InterruptedError", err)
	}
	if took := time.Since(start); took > bound {
		t.Errorf("stopped after %v, past %v", took, bound)
	}
}

func errorsAs(err error, target **goja.InterruptedError) bool {
	ie, ok := err.(*goja.InterruptedError)
	if ok {
		*target = ie
	}
	return ok
}

// interruptSoon sets the run's interrupt flag 20 ms after the run registers
// it, as the host does when a time limit is reached.
func interruptSoon(h *hubtest.Host) {
	go func() {
		for h.Flag() == nil {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		h.Interrupt()
	}()
}

func TestRunReportsInterrupt(t *testing.T) {
	h := &hubtest.Host{}
	interruptSoon(h)
	out := runJS(t, h, nil, `for (;;) {}`)
	if out.ErrCode != "interrupted" {
		t.Errorf("outcome %+v", out)
	}
	if h.Flag() != nil {
		t.Error("the flag is still registered after the run")
	}
}

func TestBatchesAndAnswers(t *testing.T) {
	h := &hubtest.Host{}
	tools := []abi.ToolInfo{{Name: "a/b"}, {Name: "a/b/c"}, {Name: "x-y"}}
	out := runJS(t, h, tools, `
const r = await Promise.all([a.b({n: 1}), a.b.c({n: 2}), x_y({n: 3})])
const s = await a_b_c({n: 4})
return [r.map(v => v.n), s.n]`)
	if string(out.Value) != `[[1,2,3],4]` {
		t.Fatalf("outcome %+v stderr %q", out, h.Stderr())
	}
	if len(h.Batches()) != 2 || len(h.Batches()[0]) != 3 || len(h.Batches()[1]) != 1 {
		t.Errorf("batches %v", h.Batches())
	}
	if h.Batches()[0][1].Method != "a/b/c" {
		t.Errorf("method %q", h.Batches()[0][1].Method)
	}
}

func TestForgedAnswersAreIgnored(t *testing.T) {
	yields := 0
	h := &hubtest.Host{Resume: func(calls []abi.Call) *abi.Resume {
		yields++
		if yields == 1 {
			// The first answer forges the call's id.
			return &abi.Resume{Results: []abi.CallResult{{ID: calls[0].ID + 1000, OK: true, Value: []byte(`"forged"`)}}}
		}
		// The script waits again (an empty batch): answer the real call.
		return &abi.Resume{Results: []abi.CallResult{{ID: 1, OK: true, Value: []byte(`"real"`)}}}
	}}
	out := runJS(t, h, []abi.ToolInfo{{Name: "t"}}, `return await t({})`)
	if string(out.Value) != `"real"` || len(h.Batches()) != 2 || len(h.Batches()[1]) != 0 {
		t.Errorf("outcome %s batches %v", out.Value, h.Batches())
	}
}

func TestStopWhileWaiting(t *testing.T) {
	h := &hubtest.Host{Resume: hubtest.Stop}
	out := runJS(t, h, []abi.ToolInfo{{Name: "t"}}, `await t({}); console.log("never")`)
	if out.ErrCode != "interrupted" || len(h.Stdout()) != 0 {
		t.Errorf("outcome %+v stdout %q", out, h.Stdout())
	}
}

func TestToolErrorShape(t *testing.T) {
	h := &hubtest.Host{}
	h.Answer = func(c abi.Call) abi.CallResult {
		return abi.CallResult{ID: c.ID, ErrKind: "denied", ErrMsg: "tool t denied: amount too high", Reasons: []string{"amount too high"}}
	}
	out := runJS(t, h, []abi.ToolInfo{{Name: "t"}}, `try { await t({amount: 1e9}) } catch (e) { return [e.name, e.kind, e.method, e.reasons, e.message, e instanceof Error] }`)
	if string(out.Value) != `["ToolError","denied","t",["amount too high"],"tool t denied: amount too high",true]` {
		t.Errorf("outcome %+v stderr %q", out, h.Stderr())
	}
	// reasons is an ordinary array, and an uncaught ToolError prints its
	// fields after the stack, as Node prints an error's own properties.
	h = &hubtest.Host{Answer: h.Answer}
	out = runJS(t, h, []abi.ToolInfo{{Name: "t"}}, `
try { await t({}) } catch (e) { console.log(Array.isArray(e.reasons), Object.getPrototypeOf(e.reasons) === Array.prototype, e.reasons.push('more')) }
await t({})`)
	want := "ToolError: tool t denied: amount too high\n    at test.js:3:8 {\n  method: 't',\n  kind: 'denied',\n  reasons: [ 'amount too high' ]\n}\n"
	if out.ExitCode != 1 || h.Stdout() != "true true 2\n" || h.Stderr() != want {
		t.Errorf("outcome %+v stdout %q stderr %q, want %q", out, h.Stdout(), h.Stderr(), want)
	}
}

func TestTimersRunInOrder(t *testing.T) {
	h := &hubtest.Host{}
	out := runJS(t, h, nil, `
const order = []
setTimeout(() => order.push('t20'), 20)
setTimeout(() => order.push('t0'), 0)
const id = setTimeout(() => order.push('cleared'), 5)
clearTimeout(id)
queueMicrotask(() => order.push('micro'))
let n = 0
const iv = setInterval(() => { order.push('iv'); if (++n === 2) clearInterval(iv) }, 1)
await new Promise(r => setTimeout(r, 40))
return order`)
	if string(out.Value) != `["micro","t0","iv","iv","t20"]` {
		t.Errorf("outcome %s stderr %q", out.Value, h.Stderr())
	}
}

func TestUnsettledTopLevelAwait(t *testing.T) {
	h := &hubtest.Host{}
	out := runJS(t, h, nil, `await new Promise(() => {})`)
	if out.ExitCode != 13 || !strings.Contains(h.Stderr(), "unsettled top-level await") {
		t.Errorf("outcome %+v stderr %q", out, h.Stderr())
	}
}

func TestBase64Globals(t *testing.T) {
	h := &hubtest.Host{}
	out := runJS(t, h, nil, `return [btoa('hello'), atob('aGVsbG8='), atob('aGVsbG8')]`)
	if string(out.Value) != `["aGVsbG8=","hello","hello"]` {
		t.Errorf("outcome %+v stderr %q", out, h.Stderr())
	}
}

func TestStackOverflowIsAnError(t *testing.T) {
	h := &hubtest.Host{}
	out := runJS(t, h, nil, `function f() { return f() + 1 } f()`)
	if out.ExitCode != 1 || !strings.Contains(out.ErrMsg, "Maximum call stack size exceeded") {
		t.Errorf("outcome %+v stderr %q", out, h.Stderr())
	}
}

func BenchmarkRunReturn1(b *testing.B) {
	fs := vfs.New(vfs.Limits{})
	h := &hubtest.Host{}
	for b.Loop() {
		Run(Options{Common: Common{Host: h, FS: fs}}, "b.js", "return 1")
	}
}

// A tool call's allocations are mostly goja's (its promise, its resolving
// functions, await's reactions and job: about 40) and the parameters' and
// the result's JSON. Ours were 4 more: the parameters copied twice, a
// closure per call and the queue's array per batch; and goja's
// JSON.stringify of {i} made 3 more a call than marshalParams does. The
// bound is 67 a call, the fake host's copy of each batch included; any of those
// back fails it.
func TestToolCallsStayCheap(t *testing.T) {
	fs := vfs.New(vfs.Limits{})
	h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult {
		return abi.CallResult{ID: c.ID, OK: true, Value: []byte(`{"ok":true}`)}
	}}
	tools := []abi.ToolInfo{{Name: "t"}}
	const code = "for (let i = 0; i < 100; i++) await t({i})"
	Run(Options{Common: Common{Host: h, FS: fs, Tools: tools}}, "warm.js", code)
	n := testing.AllocsPerRun(10, func() {
		h.Reset()
		if out := Run(Options{Common: Common{Host: h, FS: fs, Tools: tools}}, "c.js", code); out.ExitCode != 0 {
			t.Fatal(out)
		}
	})
	// 4,469 with the cheap promises (promise.go), 6,659 with goja's
	// NewPromise.
	if n > 4600 {
		t.Errorf("100 tool calls allocate %v times, want at most 4600", n)
	}
}

// BenchmarkToolCallNative is the guest's side of engine.BenchmarkToolCall
// without WebAssembly: 100 awaited calls, answered at once.
func BenchmarkToolCallNative(b *testing.B) {
	fs := vfs.New(vfs.Limits{})
	h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult {
		return abi.CallResult{ID: c.ID, OK: true, Value: []byte(`{"ok":true}`)}
	}}
	tools := []abi.ToolInfo{{Name: "t"}}
	b.ReportAllocs()
	for b.Loop() {
		if out := Run(Options{Common: Common{Host: h, FS: fs, Tools: tools}}, "b.js", "for (let i = 0; i < 100; i++) await t({i})"); out.ExitCode != 0 {
			b.Fatal(out)
		}
		h.Reset()
	}
}

func TestHostileValuesDoNotBreakReporting(t *testing.T) {
	h := &hubtest.Host{}
	out := runJS(t, h, nil, `throw new Proxy({}, {get() { throw new Error("trap") }, getPrototypeOf() { throw new Error("trap") }, ownKeys() { throw new Error("trap") }})`)
	if out.ExitCode != 1 || out.ErrCode != "exception" {
		t.Errorf("outcome %+v stderr %q", out, h.Stderr())
	}
	h = &hubtest.Host{}
	out = runJS(t, h, nil, `return {toJSON() { throw new Error("no json") }}`)
	if out.ExitCode != 1 || !strings.Contains(out.ErrMsg, "no json") {
		t.Errorf("outcome %+v stderr %q", out, h.Stderr())
	}
}

func TestReturnValuesWithoutJSON(t *testing.T) {
	for code, want := range map[string]string{
		`const a = {}; a.self = a; return a`: "<ref *1> { self: [Circular *1] }\n",
		`return 10n`:                         "10n\n",
		`return function named() {}`:         "[Function: named]\n",
	} {
		h := &hubtest.Host{}
		out := runJS(t, h, nil, code)
		if out.ExitCode != 0 || out.HasValue || h.Stdout() != want {
			t.Errorf("%s: outcome %+v stdout %q, want %q", code, out, h.Stdout(), want)
		}
	}
}

// A script cannot close the async wrapper early and run code beside it.
func TestWrapperCannotBeEscaped(t *testing.T) {
	for _, code := range []string{
		`}, function() {`,
		`}); globalThis.x = 1; (async function() {`,
		`})(); (async function() {`,
		`} + function() {`,
	} {
		h := &hubtest.Host{}
		out := runJS(t, h, nil, code)
		if out.ErrCode != "exception" || !strings.Contains(out.ErrMsg, "SyntaxError") {
			t.Errorf("%q: %+v", code, out)
		}
	}
	// Line numbers still match the source.
	h := &hubtest.Host{}
	out := runJS(t, h, nil, "\n\nnull.x")
	if !strings.Contains(h.Stderr(), "script.js:3") && !strings.Contains(h.Stderr(), ":3:") {
		t.Errorf("stack %q (%+v)", h.Stderr(), out)
	}
}

// Scripts see standard Errors with JS names, never Go values or symbols.
func TestNoGoValuesVisible(t *testing.T) {
	h := &hubtest.Host{}
	out := runJS(t, h, []abi.ToolInfo{{Name: "weather/current"}}, `
const seen = []
try { fs.readFileSync("nope") } catch (e) { seen.push(e.name, e.code, typeof e.value, e instanceof Error) }
try { atob("%%") } catch (e) { seen.push(e.name, e instanceof Error) }
const ge = new GoError("x")
seen.push(ge instanceof Error, ge.name, typeof ge.value)
for (const f of [weather.current, weather_current, fs.readFileSync, console.log, setTimeout, listTools])
  seen.push(String(f).includes("github.com") || String(f).includes("func1"))
return seen`)
	want := `["Error","ENOENT","undefined",true,"InvalidCharacterError",true,true,"GoError","undefined",false,false,false,false,false,false]` + "\n"
	if h.Stdout() != want {
		t.Errorf("got %s want %s (%+v %s)", h.Stdout(), want, out, h.Stderr())
	}
}

func TestProgramCacheKeepsScriptsApart(t *testing.T) {
	var c programCache
	a, _ := compileFresh("a.js", "return 1")
	for i := 0; i < cachedPrograms+5; i++ {
		c.put(fmt.Sprint(i), a)
	}
	if len(c.byKey) != cachedPrograms || len(c.order) != cachedPrograms || c.get("0") != nil || c.get(fmt.Sprint(cachedPrograms+4)) != a {
		t.Fatalf("cache holds %d/%d entries", len(c.byKey), len(c.order))
	}
	// Large scripts: the last one over maxCachedScript, up to
	// maxLargeScript, in a slot of its own that leaves the small ones in
	// place; none over maxLargeScript; no more than maxCachedBytes of
	// small ones in all.
	b, _ := compileFresh("b.js", "return 2")
	small := len(c.byKey)
	c.put(strings.Repeat("x", maxCachedScript+1), a)
	c.put(strings.Repeat("z", maxCachedScript+1), b)
	if c.get(strings.Repeat("z", maxCachedScript+1)) != b || c.get(strings.Repeat("x", maxCachedScript+1)) != nil || len(c.byKey) != small {
		t.Fatal("the large slot does not hold the last large script alone")
	}
	c.put(strings.Repeat("w", maxLargeScript+1), a)
	if c.get(strings.Repeat("w", maxLargeScript+1)) != nil || c.get(strings.Repeat("z", maxCachedScript+1)) != b {
		t.Fatal("a script over maxLargeScript was cached")
	}
	for i := 0; i < 10; i++ {
		c.put(fmt.Sprint(i)+strings.Repeat("y", maxCachedScript-10), a)
	}
	if c.bytes > maxCachedBytes || len(c.byKey) != len(c.order) || c.get("9"+strings.Repeat("y", maxCachedScript-10)) != a {
		t.Fatalf("cache holds %d bytes in %d entries", c.bytes, len(c.order))
	}
	// The same code under another name, or other code, is not a hit.
	h := &hubtest.Host{}
	runJS(t, h, nil, "return 40 + 2")
	out := Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{})}}, "other.js", "return 40 + 3")
	if string(out.Value) != "43" {
		t.Fatalf("got %s", out.Value)
	}
	h = &hubtest.Host{}
	out = Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{})}}, "other.js", "null.x")
	if !strings.Contains(h.Stderr(), "other.js") || out.ExitCode != 1 {
		t.Fatalf("stderr %q", h.Stderr())
	}
	// A cached program runs in a fresh runtime: nothing carries over.
	for i := 0; i < 2; i++ {
		h = &hubtest.Host{}
		out = Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{})}}, "s.js", "globalThis.n = (globalThis.n || 0) + 1; return n")
		if string(out.Value) != "1" {
			t.Fatalf("run %d: got %s", i, out.Value)
		}
	}
}

// The API lives on the global object's prototype and is built on first use
// (globals.go): scripts must see it as they would eager globals, except
// that the names are inherited: deleting one from globalThis removes only a
// script's own shadowing value. Tool roots that are JS globals ("Math/extra",
// "fs/x") are refused by the host's name check and never exposed.
func TestAPIGlobalsBehaveAsGlobals(t *testing.T) {
	h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult {
		return abi.CallResult{ID: c.ID, ErrKind: "denied", ErrMsg: "no", Reasons: []string{"r"}}
	}}
	tools := []abi.ToolInfo{{Name: "weather/current"}, {Name: "weather"}, {Name: "a/b/c"}, {Name: "Math/extra"}, {Name: "toString"}, {Name: "fs/x"}}
	out := runJS(t, h, tools, `
const seen = []
for (const n of ["console", "fs", "setTimeout", "listTools", "ToolError", "weather", "weather_current", "a", "a_b_c", "shell"])
  seen.push(n + ":" + typeof globalThis[n] + ":" + (n in globalThis))
seen.push(console === console, fs === globalThis.fs, weather.current === weather.current, typeof weather.current, typeof a.b.c)
seen.push(Object.keys(globalThis).length, typeof Math.extra, toString === Object.prototype.toString, typeof fs.x)
try { await weather_current() } catch (e) { seen.push(e instanceof ToolError, e.name, e.kind) }
globalThis.setTimeout = 5
seen.push(setTimeout)
delete globalThis.setTimeout
seen.push(typeof setTimeout)
delete globalThis.listTools
seen.push(typeof listTools, "listTools" in globalThis)
Object.getPrototypeOf(globalThis).mine = 1
seen.push(mine, Object.keys(Object.getPrototypeOf(globalThis)).join())
seen.push(typeof nosuch)
try { nosuch } catch (e) { seen.push(e.name) }
return seen`)
	want := `["console:object:true","fs:object:true","setTimeout:function:true","listTools:function:true","ToolError:function:true","weather:function:true","weather_current:function:true","a:object:true","a_b_c:function:true","shell:undefined:false",true,true,true,"function","function",0,"undefined",true,"undefined",true,"ToolError","denied",5,"function","function",true,1,"mine","undefined","ReferenceError"]` + "\n"
	if h.Stdout() != want {
		t.Errorf("got  %s\nwant %s(%+v %s)", h.Stdout(), want, out, h.Stderr())
	}
}

// A script that never says "await" runs in a plain function wrapper
// (needsAsync); it must behave exactly as under the async wrapper, which a
// trailing comment with the word forces.
func TestPlainWrapperMatchesAsync(t *testing.T) {
	for _, code := range []string{
		`return 1`,
		`return "s"`,
		`console.log("x")`,
		`setTimeout(() => console.log("t"), 1); throw new Error("x")`,
		`throw 5`,
		`return Promise.resolve(5)`,
		`return Promise.reject(new TypeError("no"))`,
		`return {then(r) { r(7) }}`,
		`return {then(r, j) { j(new Error("thenable")) }}`,
		`return new Promise(() => {})`,
		`let x = ;`,
		`null.x`,
		`t({a: 1}).then(v => console.log(JSON.stringify(v)))`,
		`Promise.reject(new Error("unhandled")); return 1`,
		`return Object.defineProperty({}, "then", {get() { throw new Error("getter") }})`,
		`function f() { f() } f()`,
	} {
		var got [2]string
		for i, c := range []string{code, code + "\n// await"} {
			h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult { return abi.CallResult{ID: c.ID, OK: true, Value: []byte(`{"ok":1}`)} }}
			out := Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: []abi.ToolInfo{{Name: "t"}}}}, "s.js", c)
			got[i] = fmt.Sprintf("%+v\nstdout %q\nstderr %q", out, h.Stdout(), h.Stderr())
		}
		if got[0] != got[1] {
			t.Errorf("%s:\nplain: %s\nasync: %s", code, got[0], got[1])
		}
	}
}

// A script may do anything to the API prototype; the worst it gets is a
// TypeError or an API it broke for itself, never a Go panic.
func TestAPIPrototypeSurvivesHostileScripts(t *testing.T) {
	for _, code := range []string{
		`const p = Object.getPrototypeOf(globalThis); Object.freeze(p); return typeof console`,
		`const p = Object.getPrototypeOf(globalThis); Object.preventExtensions(p); p.x = 1; return typeof p.x`,
		`const p = Object.getPrototypeOf(globalThis); Object.defineProperty(p, "g", {get() { return 1 }}); return g`,
		`const p = Object.getPrototypeOf(globalThis); p[Symbol.iterator] = 1; return 1`,
		`const p = Object.getPrototypeOf(globalThis); return Reflect.ownKeys(p).length`,
		`const p = Object.getPrototypeOf(globalThis); return JSON.stringify(p)`,
		`const p = Object.getPrototypeOf(globalThis); Object.setPrototypeOf(p, null); return typeof toString`,
		`Object.setPrototypeOf(globalThis, null); return typeof console`,
		`const p = Object.getPrototypeOf(globalThis); return Object.getOwnPropertyDescriptor(p, "console")`,
		`const p = Object.getPrototypeOf(globalThis); delete p.console; return typeof console`,
		`const p = Object.getPrototypeOf(globalThis); return Object.isFrozen(p) + " " + Object.isExtensible(p)`,
		`const p = Object.getPrototypeOf(globalThis); p.console = 5; return console`,
		`const p = Object.getPrototypeOf(globalThis); return p.hasOwnProperty("fs")`,
		`const p = Object.getPrototypeOf(globalThis); return new Proxy(p, {}).fs === fs`,
		`const p = Object.getPrototypeOf(globalThis); const o = Object.create(p); return typeof o.console`,
		`const p = Object.getPrototypeOf(globalThis); return structuredClone ? 1 : 2`,
		`const p = Object.getPrototypeOf(globalThis); p[0] = 1; p[1e9] = 2; return p[0] + p[1e9]`,
		`const p = Object.getPrototypeOf(globalThis); Object.defineProperty(p, "fs", {value: 3, writable: false}); return fs`,
		`const p = Object.getPrototypeOf(globalThis); Object.assign(p, {a: 1}); return a`,
	} {
		h := &hubtest.Host{}
		out := Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{})}}, "s.js", code)
		if out.ErrCode == "internal" {
			t.Errorf("internal error: %s", out.ErrMsg)
		}
	}
}

// A fresh runtime costs only what the script uses: `return 1` allocates
// about 40 objects in the guest. Building goja's Error and GoError first
// (as deleting GoError did) took it to 107; a full API install, to many
// hundreds.
func TestReturn1StaysCheap(t *testing.T) {
	h := &hubtest.Host{}
	fs := vfs.New(vfs.Limits{})
	Run(Options{Common: Common{Host: h, FS: fs}}, "warm.js", `return 1`) // fill the program cache
	n := testing.AllocsPerRun(20, func() {
		if out := Run(Options{Common: Common{Host: h, FS: fs}}, "c.js", `return 1`); out.ExitCode != 0 {
			t.Fatal(out)
		}
	})
	if n > 60 {
		t.Errorf("Run(`return 1`) allocates %v times, want at most 60", n)
	}
}

// runAllocs returns the allocations of one Run of code, once the program
// cache holds it.
func runAllocs(t *testing.T, code string) float64 {
	t.Helper()
	return runAllocsExit(t, code, 0)
}

// runAllocsExit is runAllocs for a run that ends with exit code exit.
func runAllocsExit(t *testing.T, code string, exit int) float64 {
	t.Helper()
	h := &hubtest.Host{}
	fs := vfs.New(vfs.Limits{})
	Run(Options{Common: Common{Host: h, FS: fs}}, "warm.js", code)
	return testing.AllocsPerRun(20, func() {
		if out := Run(Options{Common: Common{Host: h, FS: fs}}, "c.js", code); out.ExitCode != exit {
			t.Fatal(out)
		}
	})
}

// An uncaught error prints through inspect.Fast, without installing the
// full formatter, which costs several times the allocations (RATIONALE.md,
// "A fresh interpreter per execution").
func TestUncaughtErrorsStayCheap(t *testing.T) {
	for _, code := range []string{`throw new Error('boom')`, `null.x`, `throw {code: 1}`} {
		if n := runAllocsExit(t, code, 1); n > 1300 {
			t.Errorf("%s: an uncaught error allocates %v times a run, want at most 1300", code, n)
		}
	}
	// A denied tool call that is not caught: its ToolError's reasons must be
	// an ordinary array for the fast formatter to take it (a view of a Go
	// slice sent it to the full one, 3,900 allocations).
	denied := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult {
		return abi.CallResult{ID: c.ID, ErrKind: "denied", ErrMsg: "tool t denied: no", Reasons: []string{"no"}}
	}}
	fs := vfs.New(vfs.Limits{})
	tools := []abi.ToolInfo{{Name: "t"}}
	Run(Options{Common: Common{Host: denied, FS: fs, Tools: tools}}, "warm.js", "await t({})")
	if n := testing.AllocsPerRun(20, func() {
		if out := Run(Options{Common: Common{Host: denied, FS: fs, Tools: tools}}, "c.js", "await t({})"); out.ExitCode != 1 {
			t.Fatal(out)
		}
	}); n > 2300 {
		t.Errorf("an uncaught ToolError allocates %v times a run, want at most 2300", n)
	}
	h := &hubtest.Host{}
	out := runJS(t, h, nil, "const e = new TypeError('bad'); e.code = 'E1'; throw e")
	if want := "TypeError: bad\n    at test.js:1:11 {\n  code: 'E1'\n}\n"; out.ExitCode != 1 || h.Stderr() != want || out.ErrMsg != "TypeError: bad" {
		t.Errorf("got %q, %+v; want %q", h.Stderr(), out, want)
	}
}

// Printing plain data takes inspect.Fast, not the full formatter, whose
// install made console.log({a: 1}) cost about 3,500 allocations (about
// 580 now).
// A value Fast declines still prints through the full formatter.
func TestLoggingPlainDataStaysCheap(t *testing.T) {
	n := runAllocs(t, `console.log({a: 1}, ['x', 2])`)
	if n > 1200 {
		t.Errorf("console.log of plain data allocates %v times a run, want at most 1200", n)
	}
	h := &hubtest.Host{}
	out := runJS(t, h, nil, `console.log({a: 1}); console.log(new Map([[1, {b: 2}]])); console.log({get g() { return 1 }})`)
	if want := "{ a: 1 }\nMap(1) { 1 => { b: 2 } }\n{ g: [Getter] }\n"; out.ExitCode != 0 || h.Stdout() != want {
		t.Errorf("got %q, %+v; want %q", h.Stdout(), out, want)
	}
}

// fs builds each function when a script first reads it (lazyObject). A run
// that uses one fs function allocated 412 times when all 28 were built up
// front; 63 now. To a script, fs behaves as an ordinary object, except that it
// cannot be frozen.
func TestFSMethodsAreBuiltOnUse(t *testing.T) {
	n := runAllocs(t, `return fs.existsSync('/x')`)
	if n > 100 {
		t.Errorf("a run that calls one fs function allocates %v times, want at most 100", n)
	}
	h := &hubtest.Host{}
	out := runJS(t, h, nil, `
const r = [];
r.push(fs.readFileSync === fs.readFileSync, fs.promises === fs, fs.readFileSync.name, typeof fs.promises.readFile);
const d = Object.getOwnPropertyDescriptor(fs, 'mkdirSync');
r.push(typeof d.value, d.writable, d.enumerable, d.configurable, Object.keys(fs).length);
fs.readFileSync = () => 'mine';
r.push(fs.readFileSync(), Object.keys(fs)[0]);
delete fs.readFileSync;
r.push('readFileSync' in fs, fs.readFileSync, Object.keys(fs)[0]);
fs.readFileSync = 1; fs.extra = 2;
r.push(Object.keys(fs).slice(-2).join());
delete fs.extra;
r.push('extra' in fs, Object.keys(fs).length);
try { Object.freeze(fs); r.push('froze'); } catch (e) { r.push(e.name); }
fs.writeFileSync('/workspace/a', 'x');
r.push(fs.readFile.name, fs.existsSync('/workspace/a'));
return r`)
	want := `[true,true,"readFileSync","function","function",true,true,true,29,"mine","readFileSync",false,null,"readFile","readFileSync,extra",false,29,"TypeError","readFile",true]` + "\n"
	if out.ExitCode != 0 || h.Stdout() != want {
		t.Errorf("got %q (%+v, %s)\nwant %q", h.Stdout(), out, h.Stderr(), want)
	}
}

// console is a lazyObject too: console.log('hi') allocated 140 times a
// run with all eight methods built up front; 61 now.
func TestConsoleMethodsAreBuiltOnUse(t *testing.T) {
	n := runAllocs(t, `console.log('hi')`)
	if n > 100 {
		t.Errorf("console.log('hi') allocates %v times a run, want at most 100", n)
	}
	h := &hubtest.Host{}
	out := runJS(t, h, nil, `console.warn('w'); console.error('e'); console.assert(false, 'x', 1); console.dir({a: [1]});
return [Object.keys(console).join(), console.log === console.log, console.info.name, typeof console.trace]`)
	want := "{ a: [ 1 ] }\n[\"log,info,debug,error,warn,trace,dir,assert\",true,\"info\",\"function\"]\n"
	if out.ExitCode != 0 || h.Stdout() != want || h.Stderr() != "w\ne\nAssertion failed: x 1\n" {
		t.Errorf("got %q %q (%+v)\nwant %q", h.Stdout(), h.Stderr(), out, want)
	}
}

// fs's properties come in one order, every run (they were set from a Go
// map, so Object.keys(fs) and console.log(fs) changed from run to run),
// and its functions carry their JS names.
func TestFSShapeIsStable(t *testing.T) {
	want := `["readFileSync","readFile","writeFileSync","writeFile","appendFileSync","appendFile","readdirSync","readdir","mkdirSync","mkdir","statSync","stat","lstatSync","lstat","unlinkSync","unlink","rmdirSync","rmdir","rmSync","rm","renameSync","rename","copyFileSync","copyFile","accessSync","access","existsSync","exists","promises"],readFile,existsSync` + "\n"
	for range 5 {
		h := &hubtest.Host{}
		runJS(t, h, nil, `return JSON.stringify(Object.keys(fs)) + "," + fs.readFile.name + "," + fs.promises.existsSync.name`)
		if h.Stdout() != want {
			t.Fatalf("got %s", h.Stdout())
		}
	}
}

// listTools and getToolInfo return plain objects whose schema keeps the
// order it was written in; built from Go maps, the schema's keys came out
// in a different order from run to run.
func TestToolInfoKeepsSchemaOrder(t *testing.T) {
	schema := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"number"},"mid":{"type":"boolean"}},"required":["zeta"]}`
	tools := []abi.ToolInfo{{Name: "a/b", Description: "d", Schema: []byte(schema)}}
	want := `{"name":"a/b","description":"d","alias":"a_b","inputSchema":` + schema + `}` + "\n"
	for range 10 {
		h := &hubtest.Host{}
		out := runJS(t, h, tools, `const info = getToolInfo('a.b'), {declaration, usage, ...rest} = info
const a = JSON.stringify(listTools()[0]), b = JSON.stringify(rest);
if (a !== b) throw new Error(a + ' != ' + b);
return a`)
		if out.ExitCode != 0 || h.Stdout() != want {
			t.Fatalf("got %q (%+v, %s)\nwant %q", h.Stdout(), out, h.Stderr(), want)
		}
	}
}

// manyTools returns n namespaced tools plus t, as a real agent's sandbox
// has: svc/tool0 ... svc/tool(n-1), all under one global, svc.
func manyTools(n int) []abi.ToolInfo {
	tools := []abi.ToolInfo{{Name: "t"}}
	for i := range n {
		tools = append(tools, abi.ToolInfo{Name: fmt.Sprintf("svc/tool%d", i)})
	}
	return tools
}

// A sandbox plans its tools once (PlanTools, in its first execution); an execution that
// shares the plan must not pay per tool. Planning in each execution made
// Execute("return 1") with 50 tools cost 8 times what it costs with one.
func TestSharedToolPlanCostsNothingPerTool(t *testing.T) {
	fs := vfs.New(vfs.Limits{})
	h := &hubtest.Host{}
	allocs := func(tools []abi.ToolInfo, plan *ToolPlan) float64 {
		return testing.AllocsPerRun(20, func() {
			if out := Run(Options{Common: Common{Host: h, FS: fs, Tools: tools, Plan: plan}}, "p.js", "return 1"); out.ExitCode != 0 {
				t.Fatal(out)
			}
		})
	}
	one, fifty := manyTools(0), manyTools(50)
	base := allocs(one, PlanTools(one))
	shared := allocs(fifty, PlanTools(fifty))
	perRun := allocs(fifty, nil)
	if shared > base+5 {
		t.Errorf("return 1 with 50 tools and a shared plan allocates %v times, with 1 tool %v", shared, base)
	}
	if perRun < shared+100 {
		t.Errorf("planning in the run (%v allocations) should cost more than sharing the plan (%v): is the plan used?", perRun, shared)
	}
}

// A shared plan and one made in the run give scripts the same tools.
func TestSharedToolPlanMatchesPlanningInTheRun(t *testing.T) {
	tools := append(manyTools(3), abi.ToolInfo{Name: "Math/x"}, abi.ToolInfo{Name: "console_log"}, abi.ToolInfo{Name: "a b"})
	const code = `return [typeof t, typeof svc.tool2, typeof svc_tool1, typeof console_log, typeof Math_x, typeof Math.x, listTools().map(x => x.name).join(",")]`
	var got []string
	for _, plan := range []*ToolPlan{nil, PlanTools(tools)} {
		h := &hubtest.Host{}
		out := Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: tools, Plan: plan}}, "m.js", code)
		if out.ExitCode != 0 {
			t.Fatalf("plan %v: %+v %s", plan != nil, out, h.Stderr())
		}
		got = append(got, string(out.Value))
	}
	if got[0] != got[1] {
		t.Errorf("planned in the run: %s\nshared plan:         %s", got[0], got[1])
	}
}

// builtinGlobalNames is a list, not read from a runtime (it cost the
// first execution of each sandbox about 1M guest instructions); this test
// reads the names from a fresh goja runtime and fails when a goja upgrade
// changes them. A tool whose global name is one of them must be installed
// on the global object at once, or the built-in would shadow it.
func TestBuiltinGlobalNamesMatchGoja(t *testing.T) {
	rt := goja.New()
	seen := map[string]bool{}
	for _, k := range rt.GlobalObject().GetOwnPropertyNames() {
		seen[k] = true
	}
	for _, k := range rt.Get("Object").ToObject(rt).Get("prototype").ToObject(rt).GetOwnPropertyNames() {
		seen[k] = true
	}
	var live []string
	for k := range seen {
		live = append(live, k)
	}
	slices.Sort(live)
	if !slices.Equal(live, builtinGlobalNames) {
		t.Errorf("goja's global names changed; update builtinGlobalNames to:\n%q", live)
	}
	if !slices.IsSorted(builtinGlobalNames) {
		t.Error("builtinGlobalNames must be sorted (isBuiltinGlobal searches it)")
	}
	for _, k := range live {
		if !isBuiltinGlobal(k) {
			t.Errorf("isBuiltinGlobal(%q) is false", k)
		}
	}
	if isBuiltinGlobal("svc") || isBuiltinGlobal("") {
		t.Error("isBuiltinGlobal accepts a name goja does not define")
	}
}

// Warm runs its script to the end, tool calls included, and leaves no
// compiled program behind in the cache that scripts' executions share.
func TestWarm(t *testing.T) {
	if err := Warm(); err != nil {
		t.Fatal(err)
	}
	if p := programs.get("warm.js\x00" + warmScript); p != nil {
		t.Error("the warm-up script's program is still cached")
	}
	programs.mu.Lock()
	defer programs.mu.Unlock()
	if slices.Contains(programs.order, "warm.js\x00"+warmScript) {
		t.Error("the cache's order still lists the warm-up script")
	}
}

// A refused file name says why.
func TestFSNameErrorSaysWhy(t *testing.T) {
	h := &hubtest.Host{}
	runJS(t, h, nil, `try { fs.writeFileSync("/workspace/a\\b", "x") } catch (e) { console.log(e.code, e.message) }`)
	if got := h.Stdout(); !strings.Contains(got, "EINVAL") || !strings.Contains(got, "not portable") {
		t.Fatalf("%q", got)
	}
}

// getToolInfo holds the tool's declaration and shell usage, the same text
// as the description for the model (package describe), so that a model
// given the compact description can fetch one tool's detail.
func TestGetToolInfoHasTheDeclaration(t *testing.T) {
	schema := `{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}`
	tools := []abi.ToolInfo{{Name: "weather/current", Description: "Current weather", Schema: []byte(schema)}}
	h := &hubtest.Host{}
	out := runJS(t, h, tools, `const i = getToolInfo("weather_current"); return i.declaration + "\n" + i.usage`)
	got := h.Stdout()
	if out.ExitCode != 0 || !strings.Contains(got, "current(params: {") || !strings.Contains(got, "city: string;") ||
		!strings.Contains(got, "tool weather/current --city <string>") {
		t.Fatalf("%+v %q %s", out, got, h.Stderr())
	}
}
