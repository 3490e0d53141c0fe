package inspect

import (
	"iter"
	"testing"

	"github.com/dop251/goja"
)

// TestFastMatchesFull runs the Node corpus with a console.log that formats
// with Fast where it accepts the arguments and checks, each time, that the
// full formatter prints the same. Fast must accept the plain-data cases.
func TestFastMatchesFull(t *testing.T) {
	c := loadCorpus(t)
	fast, err := InstallFast(c.rt)
	if err != nil {
		t.Fatal(err)
	}
	accepted := 0
	var mismatches []string
	console := c.rt.NewObject()
	if err := console.Set("log", func(call goja.FunctionCall) goja.Value {
		s, ok, err := fast.TryFormat(call.Arguments)
		if err != nil {
			panic(err)
		}
		full := c.funcs.Format(call.Arguments)
		if ok {
			accepted++
			if s != full {
				mismatches = append(mismatches, "fast:\n"+s+"\nfull:\n"+full)
			}
		}
		c.out.WriteString(full)
		c.out.WriteByte('\n')
		return goja.Undefined()
	}); err != nil {
		t.Fatal(err)
	}
	if err := c.rt.Set("console", console); err != nil {
		t.Fatal(err)
	}
	for _, cc := range c.cases {
		before := len(mismatches)
		if _, err := c.run(cc); err != nil {
			t.Errorf("%s: %v", cc.name, err)
		}
		for _, m := range mismatches[before:] {
			t.Errorf("%s:\n%s", cc.name, m)
		}
	}
	if accepted < 60 {
		t.Errorf("Fast took %d console.log calls of the corpus, want at least 60", accepted)
	}
	t.Logf("Fast formatted %d calls", accepted)
}

// randomData is a script that builds pseudo-random plain data from a seed:
// nested objects and arrays of strings (quotes, escapes, newlines, wide
// characters, long ones), numbers (integers, fractions, -0, NaN,
// Infinity), bigints, booleans, null and undefined.
const randomData = `(function (seed) {
  let s = seed >>> 0;
  const next = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 4294967296; };
  const pick = (a) => a[Math.floor(next() * a.length)];
  const strs = ['', 'a', 'hello', "it's", 'say "hi"', "both ' \" and` + "`" + `", 'tab\there', 'new\nline',
    'x'.repeat(17), 'y'.repeat(90), 'line one\nline two\nline three that is long enough to split here',
    '日本語', 'emoji 😀', 'é', '\u0007bell', '\ud800lone', 'tail\udc00', '\ud83d\ude00\ud83d', 'del\x7f c1\u0085\u009f', '\u00a0nbsp', 'back\\slash', 'ключ', '${x}', 'z'.repeat(10005)];
  const keys = ['a', 'b', 'key', 'with space', 'dash-key', '0', '1', '10', '__proto__x', 'ünï', "q'uote", 'camelCase', '_x', 'a1'];
  function value(depth) {
    const r = next();
    if (depth > 4 || r < 0.45) {
      return pick([() => pick(strs), () => Math.floor(next() * 2000) - 1000, () => next() * 1e6,
        () => pick([0, -0, NaN, Infinity, -Infinity, 1e21, 1.5e-7, 2 ** 53]), () => BigInt(Math.floor(next() * 1e6)),
        () => next() < 0.5, () => null, () => undefined])();
    }
    if (r < 0.75) {
      const numeric = next() < 0.5;
      // Long arrays hold numbers, or are shallow: the data stays small.
      const n = numeric || depth > 1 ? pick([0, 1, 2, 3, 5, 6, 7, 8, 12, 26, 30, 99, 100, 101, 150]) : pick([0, 1, 2, 3, 6, 7, 8]);
      const a = [];
      for (let i = 0; i < n; i++) a.push(numeric ? Math.floor(next() * 10 ** Math.floor(next() * 6)) : value(n > 8 ? 5 : depth + 1));
      return a;
    }
    const o = {};
    const n = pick([0, 1, 2, 3, 4, 6, 9, 15]);
    for (let i = 0; i < n; i++) o[pick(keys)] = value(depth + 1);
    return o;
  }
  const args = [];
  const n = 1 + Math.floor(next() * 3);
  for (let i = 0; i < n; i++) args.push(i === 0 && next() < 0.2 ? pick(strs) : value(0));
  return args;
})`

// installBoth returns a runtime with the full formatter and Fast installed.
func installBoth(t *testing.T) (*goja.Runtime, *Funcs, *Fast) {
	t.Helper()
	rt := goja.New()
	full, err := Install(rt)
	if err != nil {
		t.Fatal(err)
	}
	fast, err := InstallFast(rt)
	if err != nil {
		t.Fatal(err)
	}
	return rt, full, fast
}

// TestFastMatchesFullOnRandomData compares Fast with the full formatter on
// thousands of generated values.
func TestFastMatchesFullOnRandomData(t *testing.T) {
	rt, full, fast := installBoth(t)
	n := 400
	if testing.Short() {
		n = 100
	}
	accepted := 0
	for seed, args := range randomArgs(t, rt, n) {
		s, ok, err := fast.TryFormat(args)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !ok {
			continue
		}
		accepted++
		if want := full.Format(args); s != want {
			t.Fatalf("seed %d:\nfast:\n%s\nfull:\n%s", seed, s, want)
		}
	}
	if accepted < n*8/10 {
		t.Errorf("Fast took %d of %d generated values, want nine tenths", accepted, n)
	}
}

// randomArgs yields the console.log arguments randomData makes from the
// seeds 0 to n-1.
func randomArgs(t *testing.T, rt *goja.Runtime, n int) iter.Seq2[int, []goja.Value] {
	t.Helper()
	gen, err := rt.RunString(randomData)
	if err != nil {
		t.Fatal(err)
	}
	genFn, _ := goja.AssertFunction(gen)
	return func(yield func(int, []goja.Value) bool) {
		for seed := range n {
			v, err := genFn(goja.Undefined(), rt.ToValue(seed))
			if err != nil {
				t.Fatal(err)
			}
			var args []goja.Value
			if err := rt.ExportTo(v, &args); err != nil {
				t.Fatal(err)
			}
			if !yield(seed, args) {
				return
			}
		}
	}
}

// jsArgs evaluates src, an array expression, to console.log arguments.
func jsArgs(t *testing.T, rt *goja.Runtime, src string) []goja.Value {
	t.Helper()
	v, err := rt.RunString(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	var args []goja.Value
	if err := rt.ExportTo(v, &args); err != nil {
		t.Fatal(err)
	}
	return args
}

// TestFastDeclines checks what Fast leaves to the full formatter, and that
// declining runs no getter or proxy trap (the full formatter would run them
// again).
func TestFastDeclines(t *testing.T) {
	for _, src := range []string{
		`[{ get g() { sideEffects++; return 1; } }]`,
		`[[1, 2, { set s(v) { sideEffects++; } }]]`,
		`[new Proxy({}, { ownKeys() { sideEffects++; return []; }, getPrototypeOf() { sideEffects++; return Object.prototype; } })]`,
		`[{ a: new Proxy([], { get() { sideEffects++; } }) }]`,
		`[new Map([[1, 2]])]`,
		`[new Set([1])]`,
		`[new (class Point { constructor() { this.x = 1; } })()]`,
		`[Object.create(null)]`,
		`[{ f() {} }]`,
		`[[function () {}]]`,
		`[{ s: Symbol('x') }]`,
		`[{ [Symbol('k')]: 1 }]`,
		`(() => { const o = { a: 1 }; o.self = o; return [o]; })()`,
		`(() => { const a = [1]; a.push(a); return [a]; })()`,
		`[[1, , 3]]`,
		`(() => { const a = [1, 2]; a.extra = true; return [a]; })()`,
		`['%s items', 3]`,
		`[new Date(0)]`,
		`[/re/]`,
		// Errors that inspect.js prints specially, or whose reads run code.
		`[new Error('e', { cause: 1 })]`,
		`[new AggregateError([new Error('a')], 'agg')]`,
		`[Object.assign(new Error('e'), { errors: [] })]`,
		`(() => { const e = new Error('e'); Object.defineProperty(e, 'name', { get() { sideEffects++; return 'X'; } }); return [e]; })()`,
		`(() => { const e = new Error('e'); Object.defineProperty(e, 'extra', { enumerable: true, get() { sideEffects++; } }); return [e]; })()`,
		`(() => { const e = new Error('e'); e[Symbol('s')] = 1; return [e]; })()`,
		`(() => { const e = new Error('e'); e.message = { toString() { sideEffects++; return 'm'; } }; return [e]; })()`,
		`(() => { const e = new Error('e'); e.name = { toString() { sideEffects++; return 'n'; } }; return [e]; })()`,
		`(() => { const e = new Error('e'); e.stack = undefined; return [e]; })()`,
		`(() => { const e = new Error('e'); e.stack = { toString() { sideEffects++; return 's'; } }; return [e]; })()`,
		`(() => { const e = new Error('e'); e.constructor = Error; return [e]; })()`,
		`(() => { const e = new Error('e'); e.self = e; return [e]; })()`,
		`[Object.setPrototypeOf(new Error('e'), new Proxy(Error.prototype, { getOwnPropertyDescriptor() { sideEffects++; }, getPrototypeOf() { sideEffects++; return Object.prototype; } }))]`,
		`[Object.setPrototypeOf(new Error('e'), Object.create(null))]`,
		`[new (class extends Error { static [Symbol.hasInstance]() { sideEffects++; return true; } })('e')]`,
		`[new (class Tagged extends Error { get [Symbol.toStringTag]() { sideEffects++; return 'T'; } })('e')]`,
		`[new (class Named extends Error { get name() { sideEffects++; return 'N'; } })('e')]`,
		`(() => { const C = class extends Error {}; Object.defineProperty(C, 'name', { value: 5 }); return [new C('e')]; })()`,
		`[Object.create(Error.prototype)]`,
		`[{ constructor: 'not a function' }]`,
		`[Object.assign(Object.create({ inherited: 1 }), { own: 2 })]`,
		`[new Number(1)]`,
		`[new Uint8Array(2)]`,
		`[Promise.resolve(1)]`,
	} {
		rt := goja.New()
		fast, err := InstallFast(rt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rt.RunString("var sideEffects = 0"); err != nil {
			t.Fatal(err)
		}
		s, ok, err := fast.TryFormat(jsArgs(t, rt, src))
		if err != nil || ok {
			t.Errorf("%s: Fast formatted it (%q, %v)", src, s, err)
		}
		if n := rt.Get("sideEffects").ToInteger(); n != 0 {
			t.Errorf("%s: declining ran script code %d times", src, n)
		}
	}
}

// TestFastNoticesChangedBuiltIns: a script that changes what the full
// formatter prints for plain data sends every value to it.
func TestFastNoticesChangedBuiltIns(t *testing.T) {
	for _, change := range []string{
		`Object.prototype[Symbol.toStringTag] = 'Tagged'`,
		`Array.prototype[Symbol.toStringTag] = 'Tagged'`,
		`Object.prototype[Symbol.for('nodejs.util.inspect.custom')] = () => 'custom'`,
		`Array.prototype[Symbol.for('nodejs.util.inspect.custom')] = () => 'custom'`,
		`Object.defineProperty(Array, 'name', { value: 'List' })`,
		`Array.prototype.constructor = function Other() {}`,
		`Object.prototype.constructor = function Other() {}`,
		`delete Array.prototype[Symbol.iterator]`,
		`Error.prototype[Symbol.toStringTag] = 'Tagged'`,
		`Error.prototype[Symbol.for('nodejs.util.inspect.custom')] = () => 'custom'`,
		`Object.defineProperty(Error.prototype, 'name', { get() { return 'Getter'; } })`,
		`Error.prototype.constructor = function Other() {}`,
		`Object.prototype.cause = 'everywhere'`,
		`Object.defineProperty(Error, 'name', { get() { return 'Getter'; } })`,
	} {
		rt := goja.New()
		fast, err := InstallFast(rt)
		if err != nil {
			t.Fatal(err)
		}
		args := jsArgs(t, rt, `[{ a: 1 }, [1, 2], new Error('e')]`)
		if _, ok, _ := fast.TryFormat(args); !ok {
			t.Fatalf("%s: declined before the change", change)
		}
		if _, err := rt.RunString(change); err != nil {
			t.Fatal(err)
		}
		if s, ok, err := fast.TryFormat(args); ok || err != nil {
			t.Errorf("%s: still formatted (%q, %v)", change, s, err)
		}
	}
}

// TestInstallFastStaysCheap: installing Fast must stay a small fraction of
// installing the full formatter (about 2,750 allocations).
func TestInstallFastStaysCheap(t *testing.T) {
	if _, err := fastProgram(); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(20, func() {
		f, err := InstallFast(goja.New())
		if err == nil {
			err = f.installJS() // fast.js itself, which gojax may defer
		}
		if err != nil {
			t.Fatal(err)
		}
	})
	if n > 400 {
		t.Errorf("InstallFast allocates %v times, want at most 400", n)
	}
}

func TestFastFormatsMixedArguments(t *testing.T) {
	rt, full, fast := installBoth(t)
	args := jsArgs(t, rt, `['result:', { id: 7, tags: ['a', 'b'], nested: { deep: { deeper: { deepest: 1 } } }, more: 'x'.repeat(30) }, 42]`)
	s, ok, err := fast.TryFormat(args)
	want := "result: {\n  id: 7,\n  tags: [ 'a', 'b' ],\n  nested: { deep: { deeper: [Object] } },\n  more: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'\n} 42"
	if err != nil || !ok || s != want {
		t.Errorf("got %q %v %v\nwant %q", s, ok, err, want)
	}
	if f := full.Format(args); f != want {
		t.Errorf("the full formatter prints %q", f)
	}
}

// TestFastMatchesFullOnErrors compares Fast with the full formatter on
// errors it must take: what an uncaught exception or a console.log of a
// caught one prints.
func TestFastMatchesFullOnErrors(t *testing.T) {
	for _, src := range []string{
		`[new Error('boom')]`,
		`[new Error()]`,
		`[new TypeError('bad type'), new RangeError('out of range')]`,
		`[new SyntaxError('s'), new ReferenceError('r'), new EvalError('e'), new URIError('u')]`,
		`[new Error('two\nlines')]`,
		`[new Error("it's 'quoted'")]`,
		`['caught:', new Error('e'), 42]`,
		`[{ e: new Error('nested') }]`,
		`[[new Error('in an array'), 1]]`,
		`[{ a: { b: new TypeError('deep') } }]`,
		`[{ a: { b: { c: Object.assign(new Error('past depth'), { code: 1 }) } } }]`,
		`[{ a: { b: { c: new Error('past depth, no keys') } } }]`,
		`[Object.assign(new Error('with props'), { code: 'E_CODE', status: 404 })]`,
		`[Object.assign(new Error('with data'), { list: [1, 2, 3], obj: { k: 'v' }, n: null, u: undefined })]`,
		`[Object.assign(new Error('long'), { detail: 'x'.repeat(100) })]`,
		`[Object.assign(new Error('inner'), { inner: Object.assign(new Error('innermost'), { code: 2 }) })]`,
		`(() => { const e = new Error('m'); e.name = 'CustomError'; return [e]; })()`,
		`(() => { const e = new Error('m'); e.name = 'Custom'; return [e]; })()`,
		`(() => { const e = new TypeError('m'); e.name = 'Error'; return [e]; })()`,
		`(() => { const e = new Error('m'); e.message = 'changed'; return [e]; })()`,
		`(() => { const e = new Error('m'); e.stack = 'no frames here'; return [e]; })()`,
		`(() => { const e = new Error('m'); e.stack = 'Error: m\n    at somewhere (file.js:1:2)'; return [e]; })()`,
		`(() => { const e = new Error('m'); e.stack = 'Error: m\n\tat f (x.js:1:2(3))\n\tat x.js:4:5(6)\n'; return [e]; })()`,
		`(() => { const e = new Error('m'); e.stack = 'Error: m\n\tat a:b:1:(2) f (x:y.js:1:2(3)(4))\n\tat :1:2\n\tat g (:1:2(x)) (:3:4(5))\n\tat h (:1:2(3]) (:4:5(6))\n\n\n'; return [e]; })()`,
		`(() => { const e = new Error('m'); e.stack = '\tat first\n\tat x.js:1:2(3)\nnot a frame\n\tat 9:9(9'; return [e]; })()`,
		`(() => { const e = new Error('m'); e.stack = 'Error: m\n    at already v8 (x.js:1:2)'; return [e]; })()`,
		`(() => { const e = new Error('m'); Object.defineProperty(e, 'message', { enumerable: true }); return [e]; })()`,
		`(() => { const e = new Error('m'); Object.defineProperty(e, 'name', { value: 'Shown', enumerable: true }); return [e]; })()`,
		`(() => { const e = new Error('m'); Object.defineProperty(e, 'stack', { enumerable: true }); return [e]; })()`,
		`(() => { class ToolError extends Error { constructor(m) { super(m); this.method = 'a/b'; this.kind = 'denied'; this.reasons = ['no']; } }
		  Object.defineProperty(ToolError.prototype, 'name', { value: 'ToolError', writable: true, configurable: true });
		  return [new ToolError('tool a/b denied: no')]; })()`,
		`[new (class MyError extends Error {})('subclass')]`,
		`[new (class MyError extends TypeError { constructor(m) { super(m); this.name = 'MyError'; } })('named subclass')]`,
		`[new (class Oops extends Error {})('unrelated name')]`,
		`[new (class extends Error {})('anonymous class')]`,
		`(() => { const C = class Renamed extends Error {}; Object.defineProperty(C, 'name', { value: '' }); return [new C('e')]; })()`,
		`[{ settled: [{ status: 'rejected', reason: new Error('r') }, { status: 'fulfilled', value: 1 }] }]`,
	} {
		rt, full, fast := installBoth(t)
		args := jsArgs(t, rt, src)
		s, ok, err := fast.TryFormat(args)
		if err != nil || !ok {
			t.Errorf("%s: Fast declined (%v)", src, err)
			continue
		}
		if want := full.Format(args); s != want {
			t.Errorf("%s:\nfast:\n%s\nfull:\n%s", src, s, want)
		}
		for _, a := range args {
			s, ok, err := fast.TryInspect(a)
			want, werr := full.TryInspect(a)
			if err != nil || werr != nil || !ok || s != want {
				t.Errorf("%s: TryInspect gives %q %v %v, want %q %v", src, s, ok, err, want, werr)
			}
		}
	}
}
