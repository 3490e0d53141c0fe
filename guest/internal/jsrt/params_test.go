package jsrt

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/dop251/goja"
)

// paramsCases are JS expressions that make a fresh object each time they
// are evaluated.
var paramsCases = []string{
	`({})`,
	`({i: 12345})`,
	`({a: 1, b: -2, c: 0, d: -0, e: 1.5, f: 1e21, g: 1e-7, h: 0.1, i: 2**53, j: 2**62, k: -(2**31), l: 5e-324})`,
	`({a: NaN, b: Infinity, c: -Infinity})`,
	`({a: "", b: "plain", c: "quo\"te", d: "back\\slash", e: "\b\f\n\r\t", f: "\u0000\u001f\u007f", g: "/<>&'"})`,
	`({a: "é", b: "😀", c: "\ud800", d: "\udc00x", e: "a\u2028b"})`,
	`({a: true, b: false, c: null, d: undefined, e: function () {}, f: Symbol("s"), g: () => 1, h: 3})`,
	`({"": 1, "a b": 2, "quo\"te": 3, "\n": 4, "\u0001": 5, "\u007f": 6})`,
	`({2: "b", 1: "a", x: 1, 0: "z", "-1": "m", "01": "n"})`,
	`({"é": 1, a: 2})`,
	`({"\ud800": 1, a: 2})`,
	`JSON.parse('{"__proto__": {"x": 1}, "a": 1}')`,
	`({["__proto__"]: 5})`,
	`({toJSON: 1, a: 2})`,
	`({toJSON: "x"})`,
	`({toJSON() { return {x: 1} }})`,
	`({toJSON() { return 5 }})`,
	`({toJSON(k) { return {key: k} }})`,
	`({a: {toJSON(k) { return "key " + k }}})`,
	`({a: {b: [1, {c: 2}, [], {}], d: {e: {f: null}}}})`,
	`({a: [undefined, function () {}, Symbol(), NaN]})`,
	`({d: new Date(0), r: /x/g, m: new Map([[1, 2]]), s: new Set([1])})`,
	`({n: new Number(3), s: new String("x"), b: new Boolean(false), u: new String("é")})`,
	`({big: 10n})`,
	`({a: 1, big: {b: 1n}})`,
	`({raw: JSON.rawJSON("1e1000")})`,
	`({get a() { return 5 }, b: 1})`,
	`({get a() { throw new Error("getter") }})`,
	`({get a() { delete this.b; return 1 }, b: 2, c: 3})`,
	`({get a() { this.z = 1; return 1 }, b: 2})`,
	`({get a() { Object.prototype.toJSON = function () { return "X" }; return {y: 1} }, b: 2})`,
	`({get toJSON() { return 1 }, a: 1})`,
	`(() => { let n = 0; return {get toJSON() { return n++ ? function () { return "called" } : 1 }, a: 1} })()`,
	`(() => { let n = 0; return {a: 1, get b() { return n++ ? 2 : {toJSON() { return "once" }} }} })()`,
	`({a: Object.assign(() => 1, {toJSON() { return "fn" }})})`,
	`({a: {toJSON: 5}})`,
	`(() => { const o = {a: 1}; o.self = o; return o })()`,
	`(() => { const o = {a: 1}; o.b = {c: o}; return o })()`,
	`(() => { const a = {x: 1}; return {p: a, q: a} })()`,
	`new (class { constructor() { this.x = 1; this.y = "y" } })()`,
	`new (class { constructor() { this.x = 1 } toJSON() { return {z: 1} } })()`,
	`(() => { const o = Object.create(null); o.a = 1; o.b = "b"; return o })()`,
	`Object.create({inherited: 1}, {own: {value: 2, enumerable: true}, hidden: {value: 3}})`,
	`(() => { const o = {a: 1}; Object.defineProperty(o, "h", {value: 1, enumerable: false}); return o })()`,
	`Object.freeze({a: 1, b: [2]})`,
	`new Proxy({a: 1}, {})`,
	`new Proxy({a: 1}, {get(t, k) { return k === "a" ? 7 : t[k] }})`,
	`new Proxy([1, 2], {})`,
	`(() => { let o = {v: 0}; for (let i = 0; i < 200; i++) o = {v: i, next: o}; return o })()`,
	`(() => { const o = {}; for (let i = 0; i < 300; i++) o["k" + i] = i % 3 ? i : "s" + i; return o })()`,
	`(() => { Object.prototype.toJSON = function () { return "P" }; return {a: 1} })()`,
	`(() => { Object.defineProperty(Object.prototype, "toJSON", {get() { return () => "G" }}); return {a: 1} })()`,
	`(() => { Object.prototype.x = 1; return {a: 1} })()`,
	`(function () { return arguments })(1, 2)`,
	`new Error("boom")`,
	`[1, 2]`,
}

// stringifyRef is JSON.stringify(EXPR) in a runtime of its own.
func stringifyRef(src string) (string, error) {
	rt := goja.New()
	v, err := rt.RunString("JSON.stringify(" + src + ")")
	if err != nil {
		return "", err
	}
	if goja.IsUndefined(v) {
		return "undefined", nil
	}
	return v.String(), nil
}

// marshalOurs is marshalParams(EXPR) in a runtime of its own.
func marshalOurs(src string) (string, error) {
	return marshalOursWith(src, func(r *run, obj *goja.Object) ([]byte, error) { return r.marshalParams(obj) })
}

func marshalOursWith(src string, marshal func(*run, *goja.Object) ([]byte, error)) (string, error) {
	rt := goja.New()
	v, err := rt.RunString(src)
	if err != nil {
		return "", err
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		return "", fmt.Errorf("%s is not an object", src)
	}
	r := &run{rt: rt}
	b, err := marshal(r, obj)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// checkParams compares marshalParams with JSON.stringify on src, and also
// its general path alone (without gojax, which the fast path needs).
func checkParams(t *testing.T, src string) {
	t.Helper()
	want, wantErr := stringifyRef(src)
	got, gotErr := marshalOurs(src)
	if (wantErr != nil) != (gotErr != nil) || got != want {
		t.Errorf("%s\n  JSON.stringify: %q, %v\n  marshalParams:  %q, %v", src, want, wantErr, got, gotErr)
	}
	general, generalErr := marshalOursWith(src, func(r *run, obj *goja.Object) ([]byte, error) {
		useGojax = false
		defer func() { useGojax = true }()
		return r.marshalParams(obj)
	})
	if (wantErr != nil) != (generalErr != nil) || general != want {
		t.Errorf("%s\n  JSON.stringify:            %q, %v\n  marshalParams without gojax: %q, %v", src, want, wantErr, general, generalErr)
	}
}

// marshalOrdinary takes the common objects itself, and leaves to the
// general path everything whose JSON could involve script code or a value
// it does not write.
func TestMarshalOrdinaryTakesPlainObjects(t *testing.T) {
	for src, want := range map[string]bool{
		`({})`:         true,
		`({i: 12345})`: true,
		`({a: "s", b: 1.5, c: true, d: null, e: undefined, f: Symbol(), g: NaN})`: true,
		`({2: 1, 1: 2, x: 3})`: true,
		`(() => { const o = {a: 1}; Object.defineProperty(o, "h", {value: 1, enumerable: false}); return o })()`: true,
		`Object.freeze({a: 1})`:    true,
		`({a: {}})`:                false,
		`({a: () => 1})`:           false,
		`({a: "é"})`:               false,
		`({"é": 1})`:               false,
		`({a: 1n})`:                false,
		`({get a() { return 1 }})`: false,
		`({toJSON: 1})`:            false,
		`Object.create(null)`:      false,
		`Object.create({})`:        false,
		`new Proxy({}, {})`:        false,
		`[1]`:                      false,
		`new Number(1)`:            false,
		`(() => { Object.prototype.toJSON = function () { return "P" }; return {a: 1} })()`:                            false,
		`(() => { Object.defineProperty(Object.prototype, "toJSON", {get() { return () => "G" }}); return {a: 1} })()`: false,
	} {
		rt := goja.New()
		v, err := rt.RunString(src)
		if err != nil {
			t.Fatal(src, err)
		}
		r := &run{rt: rt}
		if _, got := r.marshalOrdinary(v.(*goja.Object)); got != want {
			t.Errorf("%s: marshalOrdinary took it: %v, want %v", src, got, want)
		}
		if len(r.props) != 0 || cap(r.props) > 0 && r.props[:1][0].Value != nil {
			t.Errorf("%s: the scratch keeps values: %v", src, r.props[:cap(r.props)])
		}
	}
}

// A tool call's parameters are what JSON.stringify would write, byte for
// byte, whether marshalParams writes them itself or leaves them to goja.
func TestMarshalParamsMatchesStringify(t *testing.T) {
	for _, src := range paramsCases {
		checkParams(t, src)
	}
}

// randomParams writes a random object expression from pieces that cover the
// fast path and each way out of it.
func randomParams(rng *rand.Rand, depth int) string {
	keys := []string{`a`, `b`, `"x y"`, `""`, `"é"`, `"\ud800"`, `"quo\"te"`, `"\n"`, `0`, `7`, `"__proto__"`, `"toJSON"`, `["__proto__"]`, `k1`, `k2`}
	values := []string{`0`, `-0`, `1`, `-7`, `2**40`, `2**63`, `1.25`, `1e300`, `-1e-300`, `NaN`, `Infinity`,
		`""`, `"s"`, `"\u0007"`, `"\\"`, `"é"`, `"\udfff"`, `true`, `false`, `null`, `undefined`,
		`() => 1`, `Symbol()`, `[]`, `[1, "a", null]`, `new Date(86400000)`, `5n`, `new Number(2)`,
		`{toJSON() { return 9 }}`, `Object.create(null)`}
	var b strings.Builder
	b.WriteString("({")
	for i, n := 0, rng.IntN(6); i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(keys[rng.IntN(len(keys))])
		b.WriteString(": ")
		if depth < 3 && rng.IntN(5) == 0 {
			b.WriteString(randomParams(rng, depth+1))
		} else {
			b.WriteString(values[rng.IntN(len(values))])
		}
	}
	b.WriteString("})")
	return b.String()
}

func TestMarshalParamsMatchesStringifyRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 8))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		checkParams(t, randomParams(rng, 0))
	}
}

func FuzzMarshalParams(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(6), uint64(8))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkParams(t, randomParams(rand.New(rand.NewPCG(a, b)), 0))
	})
}

// The parameters a tool receives are the script's object as JSON.stringify
// writes it, through the whole call.
func TestToolParamsAreStringified(t *testing.T) {
	h := &hubtest.Host{}
	tools := []abi.ToolInfo{{Name: "t"}}
	out := runJS(t, h, tools, `const o = {b: 1, a: "x\n", u: undefined, n: {m: [1, 2.5]}}; await t(o); return JSON.stringify(o)`)
	if out.ExitCode != 0 {
		t.Fatal(out)
	}
	if len(h.Batches()) == 0 || len(h.Batches()[0]) != 1 {
		t.Fatalf("batches %v", h.Batches())
	}
	if got, want := string(h.Batches()[0][0].Params), `{"b":1,"a":"x\n","n":{"m":[1,2.5]}}`; got != want {
		t.Errorf("params %s, want %s", got, want)
	}
}

// A stop that lands while a getter of the parameters runs ends the script:
// marshalParams does not turn it into an exception the script can catch.
func TestInterruptInParamsGetter(t *testing.T) {
	for _, code := range []string{
		`try { await t({get a() { for (;;) {} }}) } catch (e) { console.log("caught", e) }`,
		`try { await t({n: {get a() { for (;;) {} }}}) } catch (e) { console.log("caught", e) }`,
	} {
		h := &hubtest.Host{}
		interruptSoon(h)
		out := runJS(t, h, []abi.ToolInfo{{Name: "t"}}, code)
		if out.ErrCode != "interrupted" || strings.Contains(h.Stdout(), "caught") {
			t.Errorf("%s: outcome %+v, stdout %q", code, out, h.Stdout())
		}
	}
}

// The sandbox's own objects (built lazily, behind goja's DynamicObject) are
// written as the script's JSON.stringify writes them, or refused when it
// throws.
func TestToolParamsOfAPIObjects(t *testing.T) {
	for _, expr := range []string{`console`, `fs`, `({c: console, n: 1})`, `Object.assign({}, console)`, `globalThis`} {
		h := &hubtest.Host{}
		code := `let want; try { want = JSON.stringify(` + expr + `) } catch { want = "throws" }
			try { await t(` + expr + `) } catch (e) { console.log("refused:", want); return }
			console.log(want)`
		out := runJS(t, h, []abi.ToolInfo{{Name: "t"}}, code)
		if out.ExitCode != 0 {
			t.Fatalf("%s: %+v %q", expr, out, h.Stderr())
		}
		got := h.Stdout()
		if got == "refused: throws\n" {
			if len(h.Batches()) != 0 {
				t.Errorf("%s: refused, yet the host got %v", expr, h.Batches())
			}
			continue
		}
		if len(h.Batches()) == 0 || len(h.Batches()[0]) != 1 || string(h.Batches()[0][0].Params)+"\n" != got {
			t.Errorf("%s: params %v, JSON.stringify %q", expr, h.Batches(), got)
		}
	}
}
