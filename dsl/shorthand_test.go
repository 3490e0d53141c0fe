package dsl_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
)

// TestShorthandConstraint reads every value form of amla-sandbox's
// constraint shorthand.
func TestShorthandConstraint(t *testing.T) {
	for _, tc := range []struct {
		value any
		want  string
	}{
		// amla-sandbox's own examples.
		{"<=1000", "amount <= 1000"},
		{">=0", "amount >= 0"},
		{"<100", "amount < 100"},
		{">10", "amount > 10"},
		{"==42", "amount == 42"},
		{"startswith:/api/", `amount starts_with "/api/"`},
		{[]any{"USD", "EUR"}, `amount in ["USD", "EUR"]`},
		{[]string{"USD", "EUR"}, `amount in ["USD", "EUR"]`},
		{42, "amount == 42"},
		{2.5, "amount == 2.5"},
		{json.Number("12345678901234567890"), "amount == 12345678901234567890"},
		// Spaces, decimals, negative numbers, as amla reads them.
		{"<= 1000", "amount <= 1000"},
		{" <=1000", `amount == " <=1000"`},
		{"<=1000 ", "amount <= 1000"},
		{">-1.5", "amount > -1.5"},
		{"<=1e3", "amount <= 1e3"},
		// What amla leaves out, read as it reads.
		{true, "amount == true"},
		{"USD", `amount == "USD"`},
		{"", `amount == ""`},
		{"startswith:", `amount starts_with ""`},
		{"startswith: x", `amount starts_with " x"`},
		{"a:b", `amount == "a:b"`},
		{"mailto:x", `amount == "mailto:x"`},
		// JSON values after an operator: strings (ordered by code point),
		// and != .
		{`>="2026-01-01"`, `amount >= "2026-01-01"`},
		{`=="<b>"`, `amount == "<b>"`},
		{`!="admin"`, `amount != "admin"`},
		{"!=0", "amount != 0"},
		{`==["a", 1]`, `amount == ["a", 1]`},
		{`=={"a": 1}`, `amount == {"a": 1}`},
		{"==true", "amount == true"},
		{`<"\u00e9"`, `amount < "é"`},
		{[]any{1, "1", nil}, `amount in [1, "1", null]`},
	} {
		c, err := dsl.ShorthandConstraint("amount", tc.value)
		if err != nil {
			t.Errorf("%#v: %v", tc.value, err)
			continue
		}
		if got := c.String(); got != tc.want {
			t.Errorf("%#v: %s, want %s", tc.value, got, tc.want)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%#v: invalid constraint: %v", tc.value, err)
		}
	}
}

func TestShorthandConstraintErrors(t *testing.T) {
	for _, tc := range []struct {
		value any
		want  string
	}{
		{"<=abc", `dsl: constraint "<=abc": value abc is not JSON; write strings in double quotes: "abc"`},
		{"<=", `dsl: constraint "<=": missing value after <= (write <= and a JSON value, as in "<=1000")`},
		{"<=1000 USD", `dsl: constraint "<=1000 USD": unexpected "USD" after the value`},
		{"<=1,000", `dsl: constraint "<=1,000": unexpected ",000" after the value`},
		{"<=007", `dsl: constraint "<=007": unexpected "07" after the value`},
		{">=true", `dsl: constraint ">=true": >= needs a number or a string, not true`},
		{"==null", `dsl: constraint "==null": == null never holds`},
		{"=<1000", `dsl: constraint "=<1000": "=<" is not an operator of the shorthand; did you mean <=? (write <, <=, >, >=, == or != and a JSON value, as in "<=1000", or =="..." to compare with such a string)`},
		{"=5", `did you mean ==?`},
		{"<>5", `did you mean !=?`},
		{"!5", `"!" is not an operator of the shorthand`},
		{"===5", `did you mean ==?`},
		{"endswith:.pdf", `dsl: constraint "endswith:.pdf": endswith: is not a form of the shorthand, whose only string test is "startswith:PREFIX"`},
		{"StartsWith:/api", `StartsWith: is not a form of the shorthand`},
		{"starts_with:/api", `starts_with: is not a form of the shorthand`},
		{"contains:x", `contains: is not a form of the shorthand`},
		{[]any{}, `dsl: constraint "[]": an empty list allows no value`},
		{nil, `dsl: constraint "null": null is not a value form`},
		{map[string]any{"max": 5}, `dsl: constraint "{\"max\": 5}": an object is not a value form`},
		{make(chan int), `dsl: value is not JSON`},
	} {
		_, err := dsl.ShorthandConstraint("amount", tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, dsl.ErrInvalid) {
			t.Errorf("%#v: error %v, want %q", tc.value, err, tc.want)
		}
	}
	if _, err := dsl.ShorthandConstraint("", 1); err == nil || !strings.Contains(err.Error(), "the parameter path is empty") {
		t.Errorf("empty parameter: %v", err)
	}
}

// TestShorthandCapabilities checks the capabilities of a shorthand: one per
// tool, in the order of the tools, with exact patterns, the constraints
// in the order of their parameters, the default max_calls, and decisions
// as amla-sandbox makes them.
func TestShorthandCapabilities(t *testing.T) {
	tools := []string{"weather/current", "transfer_money", "mail/send", "search"}
	caps, err := dsl.Shorthand{
		Constraints: map[string]map[string]any{
			"transfer_money": {"currency": []string{"USD", "EUR"}, "amount": "<=1000", "memo/0": "startswith:inv-"},
			"mail/send":      {},
		},
		MaxCalls: map[string]int{"transfer_money": 10, "search": 5000},
	}.Capabilities(tools...)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		pattern     string
		constraints string
		maxCalls    int
	}{
		{"weather/current", "[]", 100},
		{"transfer_money", `[amount <= 1000 currency in ["USD", "EUR"] memo/0 starts_with "inv-"]`, 10},
		{"mail/send", "[]", 100},
		{"search", "[]", 5000},
	}
	if len(caps) != len(want) {
		t.Fatalf("%d capabilities for %d tools", len(caps), len(tools))
	}
	for i, c := range caps {
		got := struct {
			pattern     string
			constraints string
			maxCalls    int
		}{c.Pattern(), fmtConstraints(c.Constraints()), c.CallLimit()}
		if got != want[i] {
			t.Errorf("capability %d: %+v, want %+v", i, got, want[i])
		}
		if c.Asks() || c.Name() != "" {
			t.Errorf("capability %d asks or is named", i)
		}
	}
	if ws := dsl.Lint(caps); len(ws) != 0 {
		t.Errorf("lint: %q", ws)
	}
	for _, tc := range []struct {
		cap      int
		params   string
		calls    int
		want     bool
		violates string
	}{
		{1, `{"amount": 1000, "currency": "USD", "memo": ["inv-7"]}`, 0, true, ""},
		{1, `{"amount": 1000.5, "currency": "USD", "memo": ["inv-7"]}`, 0, false, "amount <= 1000 does not hold (amount is 1000.5)"},
		{1, `{"amount": "5", "currency": "USD", "memo": ["inv-7"]}`, 0, false, `amount <= 1000 does not hold (amount is "5")`},
		{1, `{"amount": 5, "currency": "GBP", "memo": ["inv-7"]}`, 0, false, `currency in ["USD", "EUR"] does not hold (currency is "GBP")`},
		{1, `{"amount": 5, "currency": "EUR", "memo": ["x"]}`, 0, false, `memo/0 starts_with "inv-" does not hold (memo/0 is "x")`},
		{1, `{"amount": 5, "currency": "EUR", "memo": ["inv-1"]}`, 10, false, "max_calls 10 used up"},
		{0, `{"anything": [1, 2]}`, 99, true, ""},
		{0, `{}`, 100, false, "max_calls 100 used up"},
		{3, `{}`, 4999, true, ""},
	} {
		ok, reasons := caps[tc.cap].Allows(tools[tc.cap], decodeParams(t, tc.params), tc.calls)
		if ok != tc.want || !tc.want && (len(reasons) != 1 || reasons[0] != tc.violates) {
			t.Errorf("%s %s after %d calls: %v %q, want %v %q", tools[tc.cap], tc.params, tc.calls, ok, reasons, tc.want, tc.violates)
		}
	}
	// Each capability matches its own tool and no other.
	for i, c := range caps {
		for j, tool := range append(tools, "weather", "weather/current/x", "transfer_money2") {
			if ok, _ := dsl.MatchMethod(c.Pattern(), tool); ok != (i == j) {
				t.Errorf("%q matches %q: %v", c.Pattern(), tool, ok)
			}
		}
	}
	// No shorthand at all: every tool, unconstrained, 100 calls.
	caps, err = dsl.Shorthand{}.Capabilities(tools...)
	if err != nil || len(caps) != len(tools) {
		t.Fatalf("empty shorthand: %d capabilities, %v", len(caps), err)
	}
	for i, c := range caps {
		if c.Pattern() != tools[i] || len(c.Constraints()) != 0 || c.CallLimit() != dsl.DefaultMaxCalls {
			t.Errorf("empty shorthand, capability %d: %q %v %d", i, c.Pattern(), c.Constraints(), c.CallLimit())
		}
	}
	if caps, err := (dsl.Shorthand{}).Capabilities(); err != nil || len(caps) != 0 {
		t.Errorf("no tools: %v %v", caps, err)
	}
}

func fmtConstraints(cs []dsl.Constraint) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.String())
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// TestShorthandExactPatterns checks that a tool name with glob
// characters gets a pattern that matches it alone, and that the
// capabilities of names that a glob would confuse lint clean.
func TestShorthandExactPatterns(t *testing.T) {
	tools := []string{"a/*", "a/b", "a/**", "a/x/b", "q?", "qq", "[ab]", "a", "{x,y}", "x", `back\slash`, "c-d", "!e"}
	caps, err := dsl.Shorthand{
		Constraints: map[string]map[string]any{"a/*": {"n": "<5"}, "a/**": {"n": "<5"}, "[ab]": {"n": "<5"}, "{x,y}": {"n": "<5"}},
		MaxCalls:    map[string]int{"q?": 1},
	}.Capabilities(tools...)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range caps {
		for j, tool := range tools {
			if ok, err := dsl.MatchMethod(c.Pattern(), tool); err != nil || ok != (i == j) {
				t.Errorf("pattern %q of %q matches %q: %v %v", c.Pattern(), tools[i], tool, ok, err)
			}
		}
	}
	if got := caps[11].Pattern(); got != "c-d" {
		t.Errorf("the pattern of c-d is %q", got)
	}
	if ws := dsl.Lint(caps); len(ws) != 0 {
		t.Errorf("lint: %q", ws)
	}
}

func TestShorthandErrors(t *testing.T) {
	tools := []string{"transfer_money", "weather/current"}
	for _, tc := range []struct {
		name  string
		s     dsl.Shorthand
		tools []string
		want  []string
	}{
		{
			name: "unknown tools",
			s: dsl.Shorthand{
				Constraints: map[string]map[string]any{"transfer_mony": {"amount": "<=1000"}},
				MaxCalls:    map[string]int{"weather": 5},
			},
			tools: tools,
			want: []string{
				`dsl: constraints["transfer_mony"]: names no tool (the tools are "transfer_money" and "weather/current")`,
				`dsl: max_calls["weather"]: names no tool (the tools are "transfer_money" and "weather/current")`,
			},
		},
		{
			name:  "no tools",
			s:     dsl.Shorthand{MaxCalls: map[string]int{"a": 1}},
			tools: nil,
			want:  []string{`dsl: max_calls["a"]: names no tool (there are none)`},
		},
		{
			name:  "many tools",
			s:     dsl.Shorthand{MaxCalls: map[string]int{"z": 1}},
			tools: []string{"a", "b", "c", "d", "e", "f", "g", "h"},
			want:  []string{`dsl: max_calls["z"]: names no tool (the tools are "a", "b", "c", "d", "e", "f" and 2 others)`},
		},
		{
			name:  "max_calls below 1",
			s:     dsl.Shorthand{MaxCalls: map[string]int{"transfer_money": 0, "weather/current": -3}},
			tools: tools,
			want: []string{
				`dsl: max_calls["transfer_money"]: must be at least 1, not 0 (a tool left out of max_calls may be called 100 times)`,
				`dsl: max_calls["weather/current"]: must be at least 1, not -3 (a tool left out of max_calls may be called 100 times)`,
			},
		},
		{
			name: "bad value forms, every one reported",
			s: dsl.Shorthand{Constraints: map[string]map[string]any{
				"transfer_money":  {"amount": "<=abc", "currency": []any{}, "ok": 1},
				"weather/current": {"": "x", "city": map[string]any{}},
			}},
			tools: tools,
			want: []string{
				`dsl: constraints["transfer_money"]["amount"] "<=abc": value abc is not JSON; write strings in double quotes: "abc"`,
				`dsl: constraints["transfer_money"]["currency"] "[]": an empty list allows no value; list the values the parameter may take`,
				`dsl: constraints["weather/current"][""] "x": the parameter path is empty`,
				`dsl: constraints["weather/current"]["city"] "{}": an object is not a value form`,
			},
		},
		{
			name:  "a tool named twice",
			s:     dsl.Shorthand{},
			tools: []string{"a", "b", "a"},
			want:  []string{`dsl: tool "a" is named twice`},
		},
		{
			name:  "a tool name that is no method",
			s:     dsl.Shorthand{},
			tools: []string{"a", "b//c"},
			want:  []string{`dsl: capability 1 ("b//c"): method pattern "b//c" has an empty segment`},
		},
	} {
		caps, err := tc.s.Capabilities(tc.tools...)
		if err == nil || caps != nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		got := strings.Split(err.Error(), "\n")
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d errors, want %d:\n%s", tc.name, len(got), len(tc.want), err)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]) {
				t.Errorf("%s: error %d:\n got %s\nwant %s", tc.name, i, got[i], tc.want[i])
			}
		}
		var e *dsl.Error
		if !errors.Is(err, dsl.ErrInvalid) || !errors.As(err, &e) {
			t.Errorf("%s: %#v is not a *dsl.Error", tc.name, err)
		}
	}
}
