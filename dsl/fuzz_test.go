package dsl_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
)

// FuzzParseConstraint checks that ParseConstraint never panics, and that
// the canonical text of a constraint it accepts parses back to the same
// constraint (and the same text). The seed corpus is in
// testdata/fuzz/FuzzParseConstraint.
func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{
		"amount <= 10000",
		`currency in ["USD", "EUR"]`,
		`email ends_with "@example.com"`,
		"body/user/id exists",
		`any_of(amount < 1000, all_of(amount >= 1000, currency == "usd"))`,
		`"a b" == {"x": [1, 2.50, null, true]}`,
		`items/0 not_exists`,
		`s contains "\u2028"`,
		`created_at >= "2026-01-01"`,
		`s < "\u00e9\ud83d\ude00"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := dsl.ParseConstraint(line)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("ParseConstraint(%q) returned an invalid constraint: %v", line, err)
		}
		text := c.String()
		c2, err := dsl.ParseConstraint(text)
		if err != nil {
			t.Fatalf("ParseConstraint(%q).String() = %q does not parse: %v", line, text, err)
		}
		if !reflect.DeepEqual(c, c2) {
			t.Fatalf("ParseConstraint(%q) = %#v, but its text %q parses to %#v", line, c, text, c2)
		}
		if text2 := c2.String(); text2 != text {
			t.Fatalf("text %q re-parses to text %q", text, text2)
		}
	})
}

// FuzzShorthandConstraint checks that ShorthandConstraint never panics,
// that a constraint it returns is valid and reads back from its text, and
// that a string it reads as equality is one that does not look like
// another form.
func FuzzShorthandConstraint(f *testing.F) {
	for _, s := range []string{
		"<=1000", ">0", "==42", "!=\"x\"", `>="2026-01-01"`, "startswith:/api/", "USD", "=<1000",
		"<>5", "<= 1e3 ", "endswith:.pdf", "<=abc", `==["a", 1]`, "", "a:b",
	} {
		f.Add("amount", s)
	}
	f.Fuzz(func(t *testing.T, param, value string) {
		c, err := dsl.ShorthandConstraint(param, value)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("ShorthandConstraint(%q, %q) returned an invalid constraint: %v", param, value, err)
		}
		c2, err := dsl.ParseConstraint(c.String())
		if err != nil || !reflect.DeepEqual(c, c2) {
			t.Fatalf("ShorthandConstraint(%q, %q) = %#v, whose text %q parses to %#v, %v", param, value, c, c.String(), c2, err)
		}
		if c.Op == dsl.OpEq && c.Value == value && value != "" && strings.ContainsRune("<>=!", rune(value[0])) {
			t.Fatalf("ShorthandConstraint(%q, %q): an operator-like string read as equality", param, value)
		}
	})
}
