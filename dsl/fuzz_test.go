package dsl_test

import (
	"reflect"
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
