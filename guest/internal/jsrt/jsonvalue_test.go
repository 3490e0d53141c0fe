package jsrt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/dop251/goja"
)

const deepSame = `(function same(a, b) {
  if (typeof a !== typeof b) return false
  if (a === null || typeof a !== "object") return Object.is(a, b)
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  const ka = Object.getOwnPropertyNames(a), kb = Object.getOwnPropertyNames(b)
  if (ka.length !== kb.length) return false
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false
    const da = Object.getOwnPropertyDescriptor(a, ka[i]), db = Object.getOwnPropertyDescriptor(b, kb[i])
    if (da.writable !== db.writable || da.enumerable !== db.enumerable || da.configurable !== db.configurable) return false
    if (!same(da.value, db.value)) return false
  }
  return true
})`

// compareJSON parses text with parseJSON and with JSON.parse, fails the test
// if they disagree, and reports whether the text parsed.
func compareJSON(t *testing.T, text string) bool {
	t.Helper()
	r := &run{rt: goja.New()}
	sv, err := r.rt.RunString(deepSame)
	if err != nil {
		t.Fatal(err)
	}
	same, _ := goja.AssertFunction(sv)
	parse, _ := goja.AssertFunction(r.rt.Get("JSON").ToObject(r.rt).Get("parse"))
	got, gerr := r.parseJSON([]byte(text))
	if gerr != nil && strings.Contains(gerr.Error(), "nested") {
		return false // JSON.parse would recurse; parseJSON refuses
	}
	want, werr := parse(goja.Undefined(), r.rt.ToValue(text))
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%q: parseJSON error %v, JSON.parse error %v", text, gerr, werr)
	}
	if gerr != nil {
		return false
	}
	eq, err := same(goja.Undefined(), got, want)
	if err != nil || !eq.ToBoolean() {
		t.Fatalf("%q: parseJSON gives %v, JSON.parse %v", text, got, want)
	}
	// The same without gojax (objects filled by DefineDataProperty).
	useGojax = false
	general, err := r.parseJSON([]byte(text))
	useGojax = true
	if err != nil {
		t.Fatalf("%q: parseJSON without gojax: %v", text, err)
	}
	if eq, err := same(goja.Undefined(), general, want); err != nil || !eq.ToBoolean() {
		t.Fatalf("%q: parseJSON without gojax gives %v, JSON.parse %v", text, general, want)
	}
	return true
}

func TestParseJSONMatchesJSONParse(t *testing.T) {
	for _, text := range []string{
		`{"ok":true}`, ` { "a" : [1, 2.5, -0, 0, -1e3, 1E-7, 1e308, 123456789012345678901234567890] , "b":null } `,
		`"plain"`, `"esc\"ape\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00"`, `"caf\u00e9 ü 日本"`, `[]`, `{}`, `[[],[{}],{"":""}]`,
		`{"a":1,"b":2,"a":3}`, `{"__proto__":{"x":1}}`, `{"0":"z","1":"y","b":1,"2":"x"}`, `{"constructor":1,"toString":2}`,
		`-0`, `0.1`, `1.0`, `9007199254740993`, `true`, `false`, `null`, `"\u0000"`, `"x\u2028y"`,
		`"\ud800"`, "\"\xff\"", // both become U+FFFD, as encoding/json decodes them
	} {
		if !compareJSON(t, text) {
			t.Errorf("%q: parseJSON refused valid JSON", text)
		}
	}
	for _, text := range []string{
		``, ` `, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `01`, `1.`, `.5`, `+1`, `1e`, `-`, `tru`, `nul`,
		`"abc`, "\"a\tb\"", `"\x"`, `{} {}`, `1e400`, `NaN`, `{"a" 1}`,
	} {
		if compareJSON(t, text) {
			t.Errorf("%q: parsed invalid JSON", text)
		}
	}
	deep := ""
	for i := 0; i < maxJSONDepth+10; i++ {
		deep += "["
	}
	for i := 0; i < maxJSONDepth+10; i++ {
		deep += "]"
	}
	r := &run{rt: goja.New()}
	if _, err := r.parseJSON([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nested more than 1000") {
		t.Errorf("nesting past maxJSONDepth: %v", err)
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"ok":true}`, `[1,"a",null,{"b":[false]}]`, `"\u00e9\ud83d\ude00"`, `-0.5e-3`, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		compareJSON(t, text)
	})
}

func TestPrimitiveJSONMatchesStringify(t *testing.T) {
	rt := goja.New()
	stringify, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("stringify"))
	vals, err := rt.RunString(`[0, -0, 1, -1.5, 1e21, 1e-7, 123456789012, 2**53+2, NaN, Infinity, -Infinity, true, false, null, 0.1+0.2]`)
	if err != nil {
		t.Fatal(err)
	}
	arr := vals.ToObject(rt)
	n := int(arr.Get("length").ToInteger())
	for i := 0; i < n; i++ {
		v := arr.Get(fmt.Sprint(i))
		got, ok := primitiveJSON(v)
		want, _ := stringify(goja.Undefined(), v)
		if !ok || got != want.String() {
			t.Errorf("%v: primitiveJSON %q (%v), JSON.stringify %q", v, got, ok, want)
		}
	}
	for _, src := range []string{`new Number(5)`, `({})`, `"s"`, `10n`, `Symbol()`} {
		v, _ := rt.RunString(src)
		if _, ok := primitiveJSON(v); ok {
			t.Errorf("%s: primitiveJSON took it", src)
		}
	}
}

// A script that breaks its JSON global breaks only its own values, and
// never the guest.
func TestHostileJSONGlobal(t *testing.T) {
	for code, want := range map[string]string{
		// The returned value is written by the guest's own encoder, not the
		// script's JSON.stringify.
		`JSON = undefined; return {a: 1}`:                                                                       "{\"a\":1}\n",
		`JSON = undefined; return {a: 1, d: new Date(0)}`:                                                       "{\"a\":1,\"d\":\"1970-01-01T00:00:00.000Z\"}\n",
		`JSON.stringify = () => "not JSON"; return {a: 1}`:                                                      "{\"a\":1}\n",
		`JSON.stringify = () => '{"a":1}} trailing'; return [1, "x", null]`:                                     "[1,\"x\",null]\n",
		`JSON = undefined; return 5`:                                                                            "5\n",
		`JSON = undefined; return (await t({a: 1})).ok`:                                                         "true\n", // parameters never go through the script's JSON
		`Object.defineProperty(JSON, "stringify", {get() { throw new Error("no") }}); return (await t({})).ok`:  "true\n",
		`try { await t({toJSON() { throw new Error("no") }}) } catch (e) { return e.message.split(" at ")[0] }`: "t: parameters cannot be converted to JSON: Error: no\n",
		`try { await t({n: 10n}) } catch (e) { return e.name }`:                                                 "TypeError\n",
		`const a = {}; a.a = a; try { await t(a) } catch (e) { return e.name }`:                                 "TypeError\n",
		`try { await t({toJSON() { return 5 }}) } catch (e) { return e.message }`:                               "t: parameters must be a plain object, got an object\n",
		`JSON.parse = () => { throw new Error("unused") }; return (await t()).ok`:                               "true\n",
	} {
		h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult {
			return abi.CallResult{ID: c.ID, OK: true, Value: []byte(`{"ok":true}`)}
		}}
		out := runJS(t, h, []abi.ToolInfo{{Name: "t"}}, code)
		if h.Stdout() != want || out.ExitCode != 0 {
			t.Errorf("%s: stdout %q, %+v, stderr %q", code, h.Stdout(), out, h.Stderr())
		}
	}
}
