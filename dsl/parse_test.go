package dsl_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
)

func TestParseConstraint(t *testing.T) {
	for _, tc := range []struct {
		line string
		want dsl.Constraint
		text string // canonical String(), if different from line
	}{
		{line: "amount <= 10000", want: dsl.Param("amount").Le(10000)},
		{line: "amount < 1.5", want: dsl.Param("amount").Lt(1.5)},
		{line: "amount > -3", want: dsl.Param("amount").Gt(-3)},
		{line: "amount >= 1e3", want: dsl.Constraint{Op: dsl.OpGe, Param: "amount", Value: json.Number("1e3")}},
		{line: `currency == "USD"`, want: dsl.Param("currency").Eq("USD")},
		{line: `flag != true`, want: dsl.Param("flag").Ne(true)},
		{line: `currency in ["USD", "EUR"]`, want: dsl.Param("currency").In("USD", "EUR")},
		{line: `currency  in   ["USD","EUR"]  `, want: dsl.Param("currency").In([]string{"USD", "EUR"}), text: `currency in ["USD", "EUR"]`},
		{line: `currency not_in ["XXX"]`, want: dsl.Param("currency").NotIn("XXX")},
		{line: `email ends_with "@example.com"`, want: dsl.Param("email").EndsWith("@example.com")},
		{line: `path starts_with "/tmp/"`, want: dsl.Param("path").StartsWith("/tmp/")},
		{line: `tags contains "x"`, want: dsl.Param("tags").Contains("x")},
		{line: `body/user/id exists`, want: dsl.Param("body/user/id").Exists()},
		{line: `items/0/sku not_exists`, want: dsl.Param("items/0/sku").NotExists()},
		{line: `meta == {"b": [1, 2.0], "a": null}`, want: dsl.Param("meta").Eq(map[string]any{"a": nil, "b": []any{1, json.Number("2.0")}}), text: `meta == {"a": null, "b": [1, 2.0]}`},
		{line: `"a b" == 1`, want: dsl.Param("a b").Eq(1)},
		{line: `"a\nb" exists`, want: dsl.Param("a\nb").Exists()},
		{line: `a-b/c.d:e == "x"`, want: dsl.Param("a-b/c.d:e").Eq("x")},
		{line: `any_of(amount < 1000, all_of(amount >= 1000, currency == "usd"))`,
			want: dsl.AnyOf(dsl.Param("amount").Lt(1000), dsl.AllOf(dsl.Param("amount").Ge(1000), dsl.Param("currency").Eq("usd")))},
		{line: `all_of( x exists ,y in [1, [2, 3]])`, want: dsl.AllOf(dsl.Param("x").Exists(), dsl.Param("y").In(1, []int{2, 3})), text: `all_of(x exists, y in [1, [2, 3]])`},
	} {
		got, err := dsl.ParseConstraint(tc.line)
		if err != nil {
			t.Errorf("ParseConstraint(%q): %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseConstraint(%q) = %#v, want %#v", tc.line, got, tc.want)
		}
		text := tc.text
		if text == "" {
			text = tc.line
		}
		if got.String() != text {
			t.Errorf("ParseConstraint(%q).String() = %q, want %q", tc.line, got.String(), text)
		}
		if err := tc.want.Validate(); err != nil {
			t.Errorf("%q: built constraint does not validate: %v", tc.line, err)
		}
	}
}

func TestParseConstraintErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"amount <== 5", `dsl: constraint "amount <== 5": unknown operator "<=="`},
		{"amount = 5", `unknown operator "=" (did you mean ==?)`},
		{"amount IN [1]", `unknown operator "IN" (did you mean in (lower case)?)`},
		{"currency not in [1]", `unknown operator "not" (did you mean not_in?)`},
		{"amount<=5", `put spaces around the operator: amount <= 5`},
		{"amount", `missing operator after "amount"`},
		{"amount 5", `expected an operator after "amount", found "5"`},
		{"amount <=", `missing value after <=`},
		{"", `empty constraint`},
		{"currency == USD", `value USD is not JSON; write strings in double quotes: "USD"`},
		{"currency in [USD]", `value is not JSON`},
		{"amount <= 5 6", `unexpected "6" after the constraint`},
		{"amount <= true", `<= needs a number or a string, not true`},
		{"amount < [1]", `< needs a number or a string, not [1]`},
		{"amount >= null", `>= needs a number or a string, not null`},
		{"amount starts_with 5", `starts_with needs a string, not 5`},
		{"amount in 5", `in needs a JSON array, not 5`},
		{"amount not_in \"x\"", `not_in needs a JSON array, not "x"`},
		{"amount exists 5", `exists takes no value, found "5"`},
		{"amount == null", `== null never holds`},
		{"amount != null", `!= null: use exists`},
		{"a//b exists", `parameter path "a//b" has an empty segment`},
		{"items/01 exists", `array index 01 must be a number without leading zeros`},
		{"any_of()", `any_of needs at least one constraint`},
		{"any_of(a exists", `any_of( is not closed with )`},
		{"any_of(a exists b exists)", `any_of item 0: exists takes no value, found "b exists)"`},
		{"any_of(a == 1 b exists)", `any_of item 0: expected , or ) but found "b exists)"`},
		{"all_of(a <== 1)", `all_of item 0: unknown operator "<=="`},
		{"any_of(a <= {})", `any_of item 0 "a <= {}": <= needs a number or a string`},
		{`"unterminated == 1`, `parameter: value is not JSON`},
		{strings.Repeat("any_of(", 40) + "a exists" + strings.Repeat(")", 40), `nested more than 32 deep`},
	} {
		_, err := dsl.ParseConstraint(tc.line)
		if err == nil {
			t.Errorf("ParseConstraint(%q): no error, want %q", tc.line, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConstraint(%q): error %q, want it to contain %q", tc.line, err, tc.want)
		}
		if !errors.Is(err, dsl.ErrInvalid) {
			t.Errorf("ParseConstraint(%q): error %v is not ErrInvalid", tc.line, err)
		}
		var e *dsl.Error
		if !errors.As(err, &e) || (e.Constraint == "" && tc.line != "") {
			t.Errorf("ParseConstraint(%q): error %#v does not name the constraint", tc.line, e)
		}
	}
}

func TestParseCapabilities(t *testing.T) {
	raw := `[
	  {"method": "stripe/charges/*", "max_calls": 100, "name": "charges", "ask": true,
	   "description": "Create charges",
	   "constraints": ["amount >= 100", "amount <= 10000", "currency in [\"USD\", \"EUR\"]",
	     {"any_of": ["amount < 1000", {"all_of": ["amount >= 1000", "currency == \"usd\""]}]}]},
	  {"method": "db/*"},
	  {"method": "fs/**", "constraints": null, "max_calls": null, "ask": null}
	]`
	caps, err := dsl.ParseCapabilities([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := []*dsl.Capability{
		dsl.Method("stripe/charges/*").
			Where(dsl.Param("amount").Ge(100), dsl.Param("amount").Le(10000), dsl.Param("currency").In("USD", "EUR"),
				dsl.AnyOf(dsl.Param("amount").Lt(1000), dsl.AllOf(dsl.Param("amount").Ge(1000), dsl.Param("currency").Eq("usd")))).
			MaxCalls(100).Named("charges").Ask().Describe("Create charges"),
		dsl.Method("db/*"),
		dsl.Method("fs/**"),
	}
	if !reflect.DeepEqual(caps, want) {
		t.Errorf("ParseCapabilities:\n got %#v\nwant %#v", caps, want)
	}
	if err := dsl.Validate(caps); err != nil {
		t.Error(err)
	}
	for _, empty := range []string{"", "null", " [] "} {
		caps, err := dsl.ParseCapabilities([]byte(empty))
		if err != nil || len(caps) != 0 {
			t.Errorf("ParseCapabilities(%q) = %v, %v; want none", empty, caps, err)
		}
	}
}

func TestParseCapabilitiesErrors(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want []string
		// the first error's fields
		capability       int
		method, position string
		constraint       string
	}{
		{
			raw:        `[{"method": "a"}, {"method": "b"}, {"method": "stripe/*", "constraints": ["amount <= 5", "amount <== 5"]}]`,
			want:       []string{`dsl: capability 2 ("stripe/*"): constraint 1 "amount <== 5": unknown operator "<=="`},
			capability: 2, method: "stripe/*", position: "constraint 1", constraint: "amount <== 5",
		},
		{
			raw:        `[{"method": "x", "max_call": 5}]`,
			want:       []string{`dsl: capability 0 ("x"): unknown key "max_call" (known keys: method, max_calls, constraints, name, ask, unless_touched, description)`},
			capability: 0, method: "x",
		},
		{
			raw:  `[{"constraints": []}]`,
			want: []string{`dsl: capability 0: method is missing`},
		},
		{
			raw:  `[{"method": 5}]`,
			want: []string{`dsl: capability 0: method must be a string, not 5`},
		},
		{
			raw:    `[{"method": "a**"}]`,
			want:   []string{`dsl: capability 0 ("a**"): method pattern "a**": "**" must be a whole segment`},
			method: "a**",
		},
		{
			raw:    `[{"method": "a/{b"}]`,
			want:   []string{`dsl: capability 0 ("a/{b"): method pattern "a/{b": syntax error`},
			method: "a/{b",
		},
		{
			raw:    `[{"method": "x", "max_calls": -1}, {"method": "y", "max_calls": 1.5}, {"method": "z", "max_calls": "5"}]`,
			want:   []string{`capability 0 ("x"): max_calls must not be negative, got -1`, `capability 1 ("y"): max_calls must be a whole number, not 1.5`, `capability 2 ("z"): max_calls must be a whole number, not "5"`},
			method: "x",
		},
		{
			raw:    `[{"method": "x", "ask": "yes", "name": 1}]`,
			want:   []string{`ask must be true or false, not "yes"`, `name must be a string, not 1`},
			method: "x",
		},
		{
			raw:    `[{"method": "x", "constraints": "amount <= 5"}]`,
			want:   []string{`capability 0 ("x"): constraints must be a list, not "amount <= 5"`},
			method: "x",
		},
		{
			raw:        `[{"method": "x", "constraints": [{"one_of": ["a exists"]}]}]`,
			want:       []string{`dsl: capability 0 ("x"): constraint 0 "{\"one_of\":[\"a exists\"]}": unknown group "one_of" (use any_of or all_of)`},
			method:     "x",
			position:   "constraint 0",
			constraint: `{"one_of":["a exists"]}`,
		},
		{
			raw:        `[{"method": "x", "constraints": ["a exists", {"any_of": ["b exists", {"all_of": ["c <= false"]}]}]}]`,
			want:       []string{`dsl: capability 0 ("x"): constraint 1, any_of item 1, all_of item 0 "c <= false": <= needs a number or a string, not false`},
			method:     "x",
			position:   "constraint 1, any_of item 1, all_of item 0",
			constraint: `c <= false`,
		},
		{
			raw:        `[{"method": "x", "constraints": ["any_of(a exists, b <= [\"1\"])"]}]`,
			want:       []string{`dsl: capability 0 ("x"): constraint 0, any_of item 1 "b <= [\"1\"]": <= needs a number or a string, not ["1"]`},
			method:     "x",
			position:   "constraint 0, any_of item 1",
			constraint: `b <= ["1"]`,
		},
		{
			raw:        `[{"method": "x", "constraints": [{"any_of": []}, 5, null]}]`,
			want:       []string{`constraint 0 "{\"any_of\":[]}": any_of needs at least one constraint`, `constraint 1 "5": must be a constraint line`, `constraint 2 "null": must be a constraint line`},
			method:     "x",
			position:   "constraint 0",
			constraint: `{"any_of":[]}`,
		},
		{
			raw:  `{"method": "x"}`,
			want: []string{`dsl: capabilities must be a list of objects`},
		},
		{
			raw:  `[null, 5]`,
			want: []string{`dsl: capability 0: must be an object with a method, not null`, `dsl: capability 1: must be an object with a method, not 5`},
		},
	} {
		_, err := dsl.ParseCapabilities([]byte(tc.raw))
		if err == nil {
			t.Errorf("ParseCapabilities(%s): no error", tc.raw)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseCapabilities(%s):\n error %q\n want it to contain %q", tc.raw, err, w)
			}
		}
		if !errors.Is(err, dsl.ErrInvalid) {
			t.Errorf("ParseCapabilities(%s): %v is not ErrInvalid", tc.raw, err)
		}
		var e *dsl.Error
		if !errors.As(err, &e) {
			t.Errorf("ParseCapabilities(%s): %v is not an *Error", tc.raw, err)
			continue
		}
		if tc.method != "" && (e.Capability != tc.capability || e.Method != tc.method || e.Position != tc.position || e.Constraint != tc.constraint) {
			t.Errorf("ParseCapabilities(%s): first error %#v, want capability %d method %q position %q constraint %q",
				tc.raw, e, tc.capability, tc.method, tc.position, tc.constraint)
		}
	}
}
