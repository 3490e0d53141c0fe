package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/internal/slack"
)

func TestParamsCanonicalForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, `{}`},
		{` { } `, `{}`},
		{`{"amount": 5, "currency": "USD"}`, `{"amount":5,"currency":"USD"}`},
		{`{"b":1,"a":2}`, `{"b":1,"a":2}`}, // the script's order is kept
		{`{"x": 1.0}`, `{"x":1}`},
		{`{"x": 0.1}`, `{"x":0.1}`},
		{`{"x": -0}`, `{"x":0}`},
		{`{"x": -0.0e5}`, `{"x":0}`},
		{`{"x": 0e999999999999}`, `{"x":0}`},
		{`{"x": 1E2}`, `{"x":100}`},
		{`{"x": 1e+21}`, `{"x":1e+21}`},
		{`{"x": 1e21}`, `{"x":1e+21}`},
		{`{"x": 1e20}`, `{"x":100000000000000000000}`},
		{`{"x": 0.0000001}`, `{"x":1e-7}`},
		{`{"x": 0.000001}`, `{"x":0.000001}`},
		{`{"x": 9007199254740992}`, `{"x":9007199254740992}`},
		{`{"x": -12.50}`, `{"x":-12.5}`},
		{`{"x": 5e-324}`, `{"x":5e-324}`},
		{`{"x": 1.7976931348623157e308}`, `{"x":1.7976931348623157e+308}`},
		{`{"x": 1.0000000000000000000000000}`, `{"x":1}`},
		{`{"s": "a\/b\u0041\n\u00e9\ud83d\ude00"}`, `{"s":"a/bA\n\u00e9😀"}`},
		{`{"s": "\u0001\u001f\"\\"}`, `{"s":"\u0001\u001f\"\\"}`},
		{`{"a": [1, {"b": [true, false, null]}, "x"]}`, `{"a":[1,{"b":[true,false,null]},"x"]}`},
		{`{"Amount": 1, "amount_2": 2}`, `{"Amount":1,"amount_2":2}`},
	} {
		got, err := Params([]byte(tc.in))
		if err != nil {
			t.Errorf("Params(%s): %v", tc.in, err)
			continue
		}
		want := tc.want
		if want == `{"s":"a/bA\n\u00e9😀"}` {
			want = "{\"s\":\"a/bA\\n\u00e9😀\"}"
		}
		if string(got) != want {
			t.Errorf("Params(%s) = %s, want %s", tc.in, got, want)
		}
		again, err := Params(got)
		if err != nil || !bytes.Equal(again, got) {
			t.Errorf("Params is not idempotent on %s: %s, %v", got, again, err)
		}
	}
}

func TestParamsRefuses(t *testing.T) {
	deep := strings.Repeat(`{"a":`, MaxDepth) + `1` + strings.Repeat(`}`, MaxDepth)
	tooDeep := strings.Repeat(`{"a":`, MaxDepth+1) + `1` + strings.Repeat(`}`, MaxDepth+1)
	if _, err := Params([]byte(deep)); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
	// Deeper than encoding/json's own limit: still the nesting reason.
	for _, n := range []int{MaxDepth + 1, 20000} {
		doc := strings.Repeat(`[`, n) + strings.Repeat(`]`, n)
		if _, err := Params([]byte(`{"a":` + doc + `}`)); err == nil || !strings.Contains(err.Error(), "nested deeper than 64 levels") {
			t.Errorf("%d levels: %v", n, err)
		}
	}
	if _, err := Params([]byte(`{"a":"` + strings.Repeat(`[`, 100) + `\"{{{"}`)); err != nil {
		t.Errorf("brackets in a string: %v", err)
	}
	for _, tc := range []struct{ in, path, reason string }{
		{`[1]`, "", "not a JSON object"},
		{`"x"`, "", "not a JSON object"},
		{`{"a":1`, "", "not valid JSON"},
		{`{"a":1} {}`, "", "not valid JSON"},
		{tooDeep, "", "nested deeper than 64 levels"},
		{`{"amount":5,"AMOUNT":999999}`, "AMOUNT", `"amount" and "AMOUNT" are the same key under Unicode case folding`},
		{`{"currency":"USD","Currency":"BTC"}`, "Currency", "case folding"},
		{`{"sku":1,"\u017fku":2}`, `"\u017fku"`, "case folding"},    // ſ folds to s
		{`{"kind":1,"\u212aind":2}`, `"\u212aind"`, "case folding"}, // the Kelvin sign folds to k
		{`{"body":{"user":{"a":1,"a":2}}}`, "body/user/a", `"a" appears twice`},
		{`{"__proto__":{"admin":true}}`, "__proto__", "__proto__ is not allowed"},
		{`{"x":[{"__proto__":1}]}`, "x/0/__proto__", "__proto__"},
		{`{"amount":999.99999999999999999}`, "amount", "significant digits"},
		{`{"n":9007199254740993}`, "n", "cannot be held exactly by a float64: it would read as 9007199254740992"},
		{`{"n":1152921504606846976}`, "n", "significant digits"},
		{`{"n":123456789012345678}`, "n", "significant digits"},
		{`{"amount":1e-400}`, "amount", "would read as 0"},
		{`{"amount":1e400}`, "amount", "too large"},
		{`{"amount":1.8e308}`, "amount", "too large"},
		{`{"amount":2e-324}`, "amount", "would read as 0"},
		{`{"n":4.9406564584124654e-324}`, "n", "cannot be held exactly"},
		{`{"n":1e99999999999999999999}`, "n", "too large"},
		{`{"n":1e-99999999999999999999}`, "n", "would read as 0"},
		{"{\"s\":\"\xff\"}", "s", "not valid UTF-8"},
		{"{\"\xff\":1}", "", "not valid UTF-8"},
		{`{"s":"\ud800"}`, "s", "unpaired UTF-16 surrogate (\\ud800)"},
		{`{"s":"\udc00\ud800"}`, "s", "unpaired"},
		{`{"s":"\ud800\u0041"}`, "s", "unpaired"},
		{`{"a":{"b":[0,{"c":"\ude00"}]}}`, "a/b/1/c", "unpaired"},
	} {
		_, err := Params([]byte(tc.in))
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) {
			t.Errorf("Params(%.60s) = %v, want an *Error", tc.in, err)
			continue
		}
		if e.Path != tc.path || !strings.Contains(e.Reason, tc.reason) {
			t.Errorf("Params(%.60s): path %q reason %q; want path %q and a reason with %q", tc.in, e.Path, e.Reason, tc.path, tc.reason)
		}
	}
}

// TestParamsManyKeys covers the map that replaces pairwise comparison in a
// large object: a folded duplicate far apart is still found, and distinct
// keys pass.
func TestParamsManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"key` + strconv.Itoa(i) + `":1`)
	}
	ok := b.String() + "}"
	if _, err := Params([]byte(ok)); err != nil {
		t.Fatalf("1000 distinct keys: %v", err)
	}
	_, err := Params([]byte(b.String() + `,"KEY17":2}`))
	var e *Error
	if !errors.As(err, &e) || e.Path != "KEY17" || !strings.Contains(e.Reason, `"key17"`) {
		t.Fatalf("a folded duplicate among 1000 keys: %v", err)
	}
}

// TestParamsLinear: a hostile number of the maximal size costs a linear
// scan, not big-number arithmetic.
func TestParamsLinear(t *testing.T) {
	const n = 1 << 20
	for _, tok := range []string{
		"1" + strings.Repeat("0", n),
		"0." + strings.Repeat("0", n) + "1",
		"1." + strings.Repeat("3", n),
		"1e" + strings.Repeat("9", n),
	} {
		bound := slack.Scale(t, 2*time.Second)
		start := time.Now()
		_, err := Params([]byte(`{"n":` + tok + `}`))
		if err == nil || !strings.Contains(err.Error(), "longer than the limit") {
			t.Errorf("a %d-character number: %v", len(tok), err)
		}
		if d := time.Since(start); d > bound {
			t.Errorf("a %d-character number took %v, past %v", len(tok), d, bound)
		}
	}
	// Within MaxNumberLen, long forms of plain numbers pass.
	if got, err := Params([]byte(`{"n":1.` + strings.Repeat("0", MaxNumberLen-10) + `}`)); err != nil || string(got) != `{"n":1}` {
		t.Errorf("1.000...0: %s, %v", got, err)
	}
}

// TestParamsReadersAgree: every number Params passes reads back from a
// float64 as its canonical text, and encoding/json reads it into float64,
// int64 (when integral and in range) and json.Number alike.
func TestParamsReadersAgree(t *testing.T) {
	for _, tok := range []string{"0.1", "1.5", "-3", "123456789", "1e21", "1e-7", "9007199254740991", "0.30000000000000004", "2.5e-320", "4503599627370495.5"} {
		out, err := Params([]byte(`{"n":` + tok + `}`))
		if err != nil {
			t.Errorf("%s: %v", tok, err)
			continue
		}
		var f struct{ N float64 }
		var n struct{ N json.Number }
		if err := json.Unmarshal(out, &f); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &n); err != nil {
			t.Fatal(err)
		}
		if got := string(appendFloat(nil, f.N)); got != string(n.N) {
			t.Errorf("%s: float64 reads %s, json.Number %s", tok, got, n.N)
		}
		if f.N == math.Trunc(f.N) && math.Abs(f.N) < 1<<53 {
			var i struct{ N int64 }
			if err := json.Unmarshal(out, &i); err != nil || float64(i.N) != f.N {
				t.Errorf("%s: int64 reads %d (%v), float64 %v", tok, i.N, err, f.N)
			}
		}
	}
}

func FuzzParams(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":[1,2,{"b":"x"}],"c":null}`, `{"amount":5,"AMOUNT":6}`, `{"n":1e-400}`, `{"s":"\ud800"}`, `{"x":0.1,"y":-0,"z":1e21}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Params(b)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			return
		}
		again, err := Params(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %s -> %s, %v", out, again, err)
		}
		// encoding/json reads the same document, numbers as float64 or
		// as json.Number, and they agree.
		var viaFloat, viaNumber any
		if err := json.Unmarshal(out, &viaFloat); err != nil {
			t.Fatalf("canonical text %s does not decode: %v", out, err)
		}
		d := json.NewDecoder(bytes.NewReader(out))
		d.UseNumber()
		if err := d.Decode(&viaNumber); err != nil {
			t.Fatal(err)
		}
		if !sameValue(viaFloat, viaNumber) {
			t.Fatalf("float64 and json.Number readers disagree on %s", out)
		}
		// Re-encoding what a float64 reader got gives the same document
		// (modulo key order, which Params keeps).
		if _, err := Params(mustMarshal(t, viaFloat)); err != nil {
			t.Fatalf("the float64 reading of %s is refused: %v", out, err)
		}
	})
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sameValue(f, n any) bool {
	switch f := f.(type) {
	case float64:
		num, ok := n.(json.Number)
		return ok && string(appendFloat(nil, f)) == string(num)
	case map[string]any:
		m, ok := n.(map[string]any)
		if !ok || len(m) != len(f) {
			return false
		}
		for k, v := range f {
			if !sameValue(v, m[k]) {
				return false
			}
		}
		return true
	case []any:
		a, ok := n.([]any)
		if !ok || len(a) != len(f) {
			return false
		}
		for i := range f {
			if !sameValue(f[i], a[i]) {
				return false
			}
		}
		return true
	default:
		return f == n
	}
}

func BenchmarkParams(b *testing.B) {
	for name, doc := range map[string]string{
		"small":  `{"amount":5000,"currency":"USD","customer":"cus_123"}`,
		"nested": `{"order":{"lines":[{"sku":"A1","qty":2,"price":9.99},{"sku":"B2","qty":1,"price":120.5}],"ship":{"city":"SF","zip":"94107"}},"note":"leave at the door \u00e9"}`,
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if _, err := Params([]byte(doc)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
