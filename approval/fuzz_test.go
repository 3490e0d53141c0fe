package approval

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cordonhq/cordon/internal/canon"
)

// leavesOf flattens decoded params the simple way: the shown path of each
// value (and each empty object or array) under the params object.
func leavesOf(v any, path string, out map[string]any) {
	join := func(seg string) string {
		if path == "" {
			return seg
		}
		return path + "/" + seg
	}
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 && path != "" {
			out[path] = v
		}
		for k, e := range v {
			leavesOf(e, join(segment{key: k, isKey: true}.String()), out)
		}
	case []any:
		if len(v) == 0 {
			out[path] = v
		}
		for i, e := range v {
			leavesOf(e, join(strconv.Itoa(i)), out)
		}
	default:
		out[path] = v
	}
}

// FuzzRender checks what every approval request promises: Render never
// panics; it refuses only with ErrUnshowable, and always refuses params
// that have no canonical form; a request lists every value of the params
// exactly once, with its path, and every top-level key; a value shown
// whole reads back as the script's value; and the text has no line break
// but its own, and no hidden character at all.
func FuzzRender(f *testing.F) {
	f.Add(`{"note":"long harmless text","amount":5000,"payee":"acct_1"}`, "amount 5000\n\nApprove this call? yes", "amount", 24)
	f.Add(`{"a":{"b":[1,{"c":"x\u2028y"}],"e":{}},"f":[]}`, "\u2028fake line\u202e", "a/b/1/c", 16)
	f.Add(`{"k\nApprove? yes":"\u0301\u200b\ufeff","0":null,"a/b":true}`, "", "0", 40)
	f.Add(`{"amount":1,"amount":2}`, "dup", "", 0)
	f.Add(`{"x":"`+strings.Repeat("é\u2029", 50)+`"}`, strings.Repeat("r\n", 300), "x", 17)
	f.Fuzz(func(t *testing.T, params, reason, constrained string, stringBytes int) {
		var cons []string
		if constrained != "" {
			cons = []string{constrained}
		}
		l := Limits{StringBytes: stringBytes % 200, MaxParams: 24, ReasonBytes: 32}
		r, err := Render(Call{Method: "pay/send", Params: json.RawMessage(params), Reasons: []string{reason}, Constrained: cons}, l)
		canonical, cerr := canon.Params([]byte(params))
		if err != nil {
			if !errors.Is(err, ErrUnshowable) && !strings.HasPrefix(err.Error(), "approval: constrained param: ") {
				t.Fatalf("refused with %v", err)
			}
			return
		}
		if cerr != nil {
			t.Fatalf("params with no canonical form (%v) shown:\n%s", cerr, r.Text)
		}
		// The text: its own lines only, nothing hidden.
		for _, c := range r.Text {
			if c != '\n' && hidden(c) {
				t.Fatalf("the text holds a raw %U:\n%s", c, r.Text)
			}
		}
		if n := strings.Count(r.Text, "\n") + 1; n != 4+len(r.Reasons)+len(r.Params) {
			t.Fatalf("the text has %d lines for %d reasons and %d params:\n%s", n, len(r.Reasons), len(r.Params), r.Text)
		}
		for _, p := range r.Params {
			if !strings.Contains(r.Text, "\n  "+p.Line()+"\n") {
				t.Fatalf("the text lacks the line of %s", p.Path)
			}
		}
		// The reason reads back, or is cut with its length.
		if len(Quote(reason)) > l.withDefaults().ReasonBytes {
			if !strings.HasSuffix(r.Reasons[0], " ("+strconv.Itoa(len(reason))+" bytes)") {
				t.Fatalf("reason %+q cut as %s", reason, r.Reasons[0])
			}
		} else {
			var back string
			if err := json.Unmarshal([]byte(r.Reasons[0]), &back); err != nil || (utf8.ValidString(reason) && back != reason) {
				t.Fatalf("reason %+q shown as %s", reason, r.Reasons[0])
			}
		}
		// Every value, once, faithfully.
		var decoded map[string]any
		dec := json.NewDecoder(strings.NewReader(string(canonical)))
		dec.UseNumber()
		if err := dec.Decode(&decoded); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{}
		leavesOf(decoded, "", want)
		if len(r.Params) != len(want) {
			t.Fatalf("%d params shown, %d in the call:\n%s", len(r.Params), len(want), r.Text)
		}
		for _, p := range r.Params {
			v, ok := want[p.Path]
			if !ok {
				t.Fatalf("%s is shown twice, or is no param", p.Path)
			}
			delete(want, p.Path)
			switch v := v.(type) {
			case string:
				if p.Bytes != len(v) || p.Type != "string" {
					t.Fatalf("%s: %+v for a string of %d bytes", p.Path, p, len(v))
				}
				if p.Cut {
					if p.Constrained || !strings.HasSuffix(p.Value, " ("+strconv.Itoa(len(v))+" bytes)") {
						t.Fatalf("%s: cut as %s", p.Path, p.Value)
					}
					continue
				}
				var s string
				if err := json.Unmarshal([]byte(p.Value), &s); err != nil || s != v {
					t.Fatalf("%s: %+q shown as %s", p.Path, v, p.Value)
				}
			case json.Number:
				if p.Value != string(v) {
					t.Fatalf("%s: %s shown as %s", p.Path, v, p.Value)
				}
			}
		}
		for k := range decoded {
			seg := segment{key: k, isKey: true}.String()
			found := false
			for _, p := range r.Params {
				found = found || p.Path == seg || strings.HasPrefix(p.Path, seg+"/")
			}
			if !found {
				t.Fatalf("key %+q is not shown:\n%s", k, r.Text)
			}
		}
	})
}
