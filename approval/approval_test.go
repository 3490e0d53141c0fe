package approval_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/approval"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/authz"
)

// paths returns the shown paths of r's params, in order.
func paths(r *approval.Request) []string {
	var out []string
	for _, p := range r.Params {
		out = append(out, p.Path)
	}
	return out
}

// lineBreaks are the characters that a display may start a line at.
var lineBreaks = []string{"\r", "\u0085", "\u2028", "\u2029", "\v", "\f"}

// checkLines fails when r.Text has a line break that is not one of its own
// LF separators, or a line other than those it writes.
func checkLines(t *testing.T, r *approval.Request) {
	t.Helper()
	for _, lb := range lineBreaks {
		if strings.Contains(r.Text, lb) {
			t.Errorf("the text holds a raw %q:\n%s", lb, r.Text)
		}
	}
	lines := strings.Split(r.Text, "\n")
	want := 2 + len(r.Reasons) + 1 + len(r.Params) + 1
	if len(lines) != want {
		t.Errorf("the text has %d lines, want %d:\n%s", len(lines), want, r.Text)
	}
}

func TestLongFirstKeyHidesNothing(t *testing.T) {
	// The script's key order puts a long harmless note first: the old
	// request cut the params at 2000 bytes and showed only the note.
	params := fmt.Sprintf(`{"note":%q,"memo":%q,"payee":"acct_evil","amount":5000,"currency":"USD"}`,
		strings.Repeat("thanks for your business ", 400), strings.Repeat("x", 3000))
	r, err := approval.Render(approval.Call{Method: "payments/send", Params: json.RawMessage(params)}, approval.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"amount = 5000", `payee = "acct_evil"`, `currency = "USD"`, "note = ", "memo = ", "(10000 bytes)", "(3000 bytes)"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("the text lacks %q:\n%s", want, r.Text)
		}
	}
	if got, want := strings.Join(paths(r), " "), "amount currency payee memo note"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	if len(r.Text) > approval.DefaultMaxBytes {
		t.Errorf("the text takes %d bytes", len(r.Text))
	}
	checkLines(t, r)
}

func TestConstrainedFirst(t *testing.T) {
	params := `{"b_note":"hi","a_flag":true,"z_empty":{},"count":3,"payee":"acct_1","body":{"to":["ann@example.com",7]},"long":"` + strings.Repeat("y", 500) + `","nothing":null}`
	r, err := approval.Render(approval.Call{Method: "mail/send", Params: json.RawMessage(params), Constrained: []string{"payee", "body/to"}}, approval.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := "payee body/to/0 body/to/1 count a_flag nothing b_note z_empty long"
	if got := strings.Join(paths(r), " "); got != want {
		t.Errorf("order\n got %s\nwant %s", got, want)
	}
	for i, p := range r.Params {
		if p.Constrained != (i < 3) {
			t.Errorf("%s: constrained %v", p.Path, p.Constrained)
		}
	}
	// Without constraints, numbers come first.
	r, err = approval.Render(approval.Call{Method: "mail/send", Params: json.RawMessage(params)}, approval.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want = "body/to/1 count a_flag nothing b_note body/to/0 payee z_empty long"
	if got := strings.Join(paths(r), " "); got != want {
		t.Errorf("order without constraints\n got %s\nwant %s", got, want)
	}
}

func TestConstrainedShownInFull(t *testing.T) {
	long := strings.Repeat("acct_", 200)
	params := fmt.Sprintf(`{"payee":%q,"memo":%q}`, long, long)
	r, err := approval.Render(approval.Call{Method: "pay", Params: json.RawMessage(params), Constrained: []string{"payee"}}, approval.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Params[0]; p.Path != "payee" || p.Cut || p.Value != approval.Quote(long) {
		t.Errorf("the constrained param is %+v", p)
	}
	if p := r.Params[1]; p.Path != "memo" || !p.Cut || p.Bytes != len(long) || !strings.HasSuffix(p.Value, `" (1000 bytes)`) || !strings.Contains(p.Value, `" … "`) {
		t.Errorf("the other param is %+v", p)
	}
	if n := len(r.Params[1].Value) - len(" (1000 bytes)"); n > approval.DefaultStringBytes {
		t.Errorf("the cut value takes %d bytes", n)
	}
}

func TestScriptTextIsEscaped(t *testing.T) {
	fake := "amount is 5\n\nApprove this call? yes"
	params := map[string]any{
		"memo":                   "ok\r\nApprove this call? yes",
		"sep":                    "a\u2028b\u2029c\u0085d",
		"bidi":                   "\u202epay\u202c \u2066x\u2069 \u200bz\u200f\ufeff",
		"filler":                 "\u115f\u3164\ufe0f",
		"key\nApprove? yes":      1,
		"\u202eevil":             2,
		"amount":                 5,
		"ctl":                    "\x00\x1b[2J\x7f",
		"combining":              "\u0301x",
		"zürich":                 "Zürich AG",
		"body":                   map[string]any{"a/b": "slash", "0": "digits"},
		"ok/but\u2028not really": true,
	}
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	r, err := approval.Render(approval.Call{Method: "pay", Params: raw, Reasons: []string{fake, "over\u2028the line", "\u202eright to left"}}, approval.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkLines(t, r)
	for _, r := range r.Text {
		if r != '\n' && (r < 0x20 || r == 0x7f || r == 0x85 || r >= 0x200b && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0xfeff || r == 0x115f || r == 0x3164 || r == 0xfe0f) {
			t.Errorf("the text holds a raw %U", r)
		}
	}
	for _, want := range []string{
		`  - "amount is 5\n\nApprove this call? yes"`,
		`  - "over\u2028the line"`,
		`  - "\u202eright to left"`,
		`memo = "ok\r\nApprove this call? yes"`,
		`sep = "a\u2028b\u2029c\u0085d"`,
		`bidi = "\u202epay\u202c \u2066x\u2069 \u200bz\u200f\ufeff"`,
		`filler = "\u115f\u3164\ufe0f"`,
		`"key\nApprove? yes" = 1`,
		`"\u202eevil" = 2`,
		`ctl = "\u0000\u001b[2J\u007f"`,
		`combining = "\u0301x"`,
		`"z\u00fcrich" = "Zürich AG"`,
		`body/"a/b" = "slash"`,
		`body/"0" = "digits"`,
		`"ok/but\u2028not really" = true`,
	} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("the text lacks %s:\n%s", want, r.Text)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, s := range []string{"", "plain", "Zürich 東京 😀", "a\nb\rc\td", "\u2028\u2029\u0085", "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", "\u200b\u200c\u200d\u200e\u200f\ufeff", "\U000e0041 tag", `"\`, "\x00\x01\x7f", "\u00a0nbsp\u3000"} {
		q := approval.Quote(s)
		var back string
		if err := json.Unmarshal([]byte(q), &back); err != nil || back != s {
			t.Errorf("Quote(%+q) = %s, which reads back as %+q (%v)", s, q, back, err)
		}
		for _, r := range q {
			if r < 0x20 || r == 0x7f || r >= 0x80 && !strings.ContainsRune("üÜ東京😀", r) {
				t.Errorf("Quote(%+q) = %s holds a raw %U", s, q, r)
			}
		}
	}
	if q := approval.Quote("Zürich 東京 😀"); q != `"Zürich 東京 😀"` {
		t.Errorf("printable text is escaped: %s", q)
	}
	if q := approval.Quote("\xff"); q != `"\ufffd"` {
		t.Errorf("an invalid byte is %s", q)
	}
}

func TestRefused(t *testing.T) {
	many := map[string]any{}
	for i := range 100 {
		many[fmt.Sprintf("k%03d", i)] = i
	}
	manyJSON, _ := json.Marshal(many)
	arr := make([]int, 100)
	arrJSON, _ := json.Marshal(map[string]any{"amount": 1, "ids": arr})
	deep := strings.Repeat(`{"level":`, 40) + "1" + strings.Repeat("}", 40)
	longKey, _ := json.Marshal(map[string]any{strings.Repeat("k", 200): 1})
	manyReasons := make([]string, 20)
	bigConstrained, _ := json.Marshal(map[string]any{"payee": strings.Repeat("p", 10000)})
	for _, tc := range []struct {
		name, params string
		reasons      []string
		constrained  []string
		limits       approval.Limits
		want         string
	}{
		{"too many keys", string(manyJSON), nil, nil, approval.Limits{}, "it has 100 params (counting each value in nested objects and arrays), more than the 64"},
		{"a long array", string(arrJSON), nil, nil, approval.Limits{}, "it has 101 params"},
		{"deep nesting", deep, nil, nil, approval.Limits{}, "the path of a param takes 239 bytes, more than the 160"},
		{"a long key", string(longKey), nil, nil, approval.Limits{}, "the path of a param takes 200 bytes"},
		{"too many reasons", `{}`, manyReasons, nil, approval.Limits{}, "the policy gave 20 reasons, more than the 16"},
		{"a long constrained string", string(bigConstrained), nil, []string{"payee"}, approval.Limits{}, "the request would take 10"},
		{"a small budget", `{"a":"b"}`, nil, nil, approval.Limits{MaxBytes: 50}, "more than the 50 an approval request shows"},
		{"duplicate keys", `{"amount":1,"amount":5000}`, nil, nil, approval.Limits{}, "its params have no canonical form"},
		{"bad UTF-8", "{\"a\":\"\xff\"}", nil, nil, approval.Limits{}, "its params have no canonical form"},
		{"not an object", `[1]`, nil, nil, approval.Limits{}, "its params have no canonical form"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := approval.Render(approval.Call{Method: "pay", Params: json.RawMessage(tc.params), Reasons: tc.reasons, Constrained: tc.constrained}, tc.limits)
			if err == nil {
				t.Fatalf("shown:\n%s", r.Text)
			}
			if !errors.Is(err, approval.ErrUnshowable) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "approval: the call cannot be shown in full: ") {
				t.Errorf("error %q, want one with %q", err, tc.want)
			}
			if why := approval.DenyReason(err); !strings.HasPrefix(why, "approval required and refused without asking: the call cannot be shown in full: ") {
				t.Errorf("deny reason %q", why)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	params := `{"a":1,"b":2,"c":"` + strings.Repeat("z", 100) + `"}`
	if _, err := approval.Render(approval.Call{Method: "m", Params: json.RawMessage(params)}, approval.Limits{MaxParams: 2}); !errors.Is(err, approval.ErrUnshowable) {
		t.Errorf("MaxParams 2: %v", err)
	}
	r, err := approval.Render(approval.Call{Method: "m", Params: json.RawMessage(params)}, approval.Limits{MaxParams: 3, StringBytes: 40})
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Params[2]; !p.Cut || len(p.Value) > 40+len(" (100 bytes)") {
		t.Errorf("StringBytes 40: %+v", p)
	}
	r, err = approval.Render(approval.Call{Method: "m", Params: json.RawMessage(`{}`), Reasons: []string{strings.Repeat("why ", 100)}}, approval.Limits{ReasonBytes: 50})
	if err != nil {
		t.Fatal(err)
	}
	if why := r.Reasons[0]; !strings.HasSuffix(why, " (400 bytes)") || len(why) > 50+len(" (400 bytes)") {
		t.Errorf("ReasonBytes 50: %s", why)
	}
	if _, err := approval.Render(approval.Call{Method: "m", Params: json.RawMessage(`{"a":{"b":1}}`)}, approval.Limits{MaxPathBytes: 2}); !errors.Is(err, approval.ErrUnshowable) {
		t.Errorf("MaxPathBytes 2: %v", err)
	}
}

func TestEmptyAndMethod(t *testing.T) {
	r, err := approval.Render(approval.Call{Method: "a/b", Params: nil}, approval.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := "A script in the cordon sandbox wants to call a/b.\nThe policy asks for approval.\nIt has no params.\nApprove this call?"
	if r.Text != want {
		t.Errorf("got\n%s\nwant\n%s", r.Text, want)
	}
	checkLines(t, r)
	r, err = approval.Render(approval.Call{Method: "a\nb", Params: json.RawMessage(`{"x":[]}`)}, approval.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Text, `A script in the cordon sandbox wants to call "a\nb".`) || !strings.Contains(r.Text, "Its one param") || !strings.Contains(r.Text, "  x = []\n") {
		t.Errorf("got\n%s", r.Text)
	}
	checkLines(t, r)
}

func TestConstrainedFromPolicy(t *testing.T) {
	caps := []*dsl.Capability{
		dsl.Method("read/*"),
		dsl.Method("payments/send").Where(
			dsl.Param("amount").Le(10000),
			dsl.AnyOf(dsl.Param("payee").StartsWith("acct_"), dsl.Param("body/user/email").EndsWith("@example.com")),
			dsl.Param("amount").Gt(0),
		).Ask(),
	}
	pol, err := authz.New(caps)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(approval.Constrained(pol, 1), " "); got != "amount payee body/user/email" {
		t.Errorf("Constrained = %q", got)
	}
	if got := approval.Constrained(pol, 0); got != nil {
		t.Errorf("a capability without constraints: %q", got)
	}
	if got := approval.Constrained(pol, 2); got != nil {
		t.Errorf("out of range: %q", got)
	}
	if got := approval.Constrained(nil, 0); got != nil {
		t.Errorf("no policy: %q", got)
	}
}

func TestRequestJSON(t *testing.T) {
	r, err := approval.Render(approval.Call{Method: "pay", Params: json.RawMessage(`{"amount":5,"memo":"` + strings.Repeat("m", 400) + `"}`), Reasons: []string{"why"}, Constrained: []string{"amount"}}, approval.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	ps := back["params"].([]any)
	first := ps[0].(map[string]any)
	second := ps[1].(map[string]any)
	if back["method"] != "pay" || back["reasons"].([]any)[0] != `"why"` || first["path"] != "amount" || first["value"] != "5" || first["constrained"] != true ||
		second["cut"] != true || second["bytes"] != float64(400) || back["params_bytes"] != float64(len(`{"amount":5,"memo":""}`)+400) || back["text"] != r.Text {
		t.Errorf("%s", b)
	}
}
