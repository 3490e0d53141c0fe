package jsrt

import (
	"testing"

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

// compareJSON parses text with parseJSON and with JSON.parse; it reports
// whether parseJSON took it, and fails the test if the two disagree.
func compareJSON(t *testing.T, text string) bool {
	t.Helper()
	r := &run{rt: goja.New()}
	r.json()
	sv, err := r.rt.RunString(deepSame)
	if err != nil {
		t.Fatal(err)
	}
	same, _ := goja.AssertFunction(sv)
	got, ok := r.parseJSON([]byte(text))
	want, err := r.jsonParse(goja.Undefined(), r.rt.ToValue(text))
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("%q: parseJSON accepted what JSON.parse refuses: %v", text, err)
	}
	eq, err := same(goja.Undefined(), got, want)
	if err != nil || !eq.ToBoolean() {
		t.Fatalf("%q: parseJSON gives %v, JSON.parse %v", text, got, want)
	}
	return true
}

func TestParseJSONMatchesJSONParse(t *testing.T) {
	for _, text := range []string{
		`{"ok":true}`, ` { "a" : [1, 2.5, -0, 0, -1e3, 1E-7, 1e308, 123456789012345678901234567890] , "b":null } `,
		`"plain"`, `"esc\"ape\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00"`, `"caf\u00e9 ü 日本"`, `[]`, `{}`, `[[],[{}],{"":""}]`,
		`{"a":1,"b":2,"a":3}`, `{"__proto__":{"x":1}}`, `{"0":"z","1":"y","b":1,"2":"x"}`, `{"constructor":1,"toString":2}`,
		`-0`, `0.1`, `1.0`, `9007199254740993`, `true`, `false`, `null`, `"\u0000"`, `"x\u2028y"`,
	} {
		if !compareJSON(t, text) {
			t.Errorf("%q: parseJSON left valid JSON to JSON.parse", text)
		}
	}
	for _, text := range []string{
		``, ` `, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `01`, `1.`, `.5`, `+1`, `1e`, `-`, `tru`, `nul`,
		`"abc`, "\"a\tb\"", `"\x"`, `{} {}`, `1e400`, `"\ud800"`, "\"\xff\"", `NaN`, `{"a" 1}`,
	} {
		compareJSON(t, text) // may fall back; must never disagree
	}
	deep := ""
	for i := 0; i < maxJSONDepth+10; i++ {
		deep += "["
	}
	for i := 0; i < maxJSONDepth+10; i++ {
		deep += "]"
	}
	if compareJSON(t, deep) {
		t.Error("nesting past maxJSONDepth was not left to JSON.parse")
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
