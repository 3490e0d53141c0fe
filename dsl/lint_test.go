package dsl

import (
	"fmt"
	"github.com/cordonhq/cordon/internal/dslutil"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// caps parses a JSON list of capabilities, failing the test on an error.
func caps(t *testing.T, js string) []*Capability {
	t.Helper()
	cs, err := ParseCapabilities([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// brief describes warnings as "kind earlier->later method", for tables.
func brief(ws []Warning) []string {
	out := []string{}
	for _, w := range ws {
		out = append(out, fmt.Sprintf("%s %d->%d %s", w.Kind, w.Earlier, w.Capability, w.Method))
	}
	return out
}

func TestPatternsOverlap(t *testing.T) {
	for _, tc := range []struct {
		a, b    string
		overlap bool
		example string // "" to accept any
	}{
		// ** as a whole segment: zero or more segments, also in the middle.
		{"a/**/b", "a/b", true, "a/b"},
		{"a/**/b", "a/x/y/b", true, "a/x/y/b"},
		{"a/**/b", "a/x", false, ""},
		{"a/**/b", "b/**", false, ""},
		{"a/**/b", "a/x/**", true, "a/x/b"},
		{"**/create", "create", true, "create"},
		{"stripe/**", "stripe", true, "stripe"},
		{"stripe/**", "stripex", false, ""},
		{"**", "transfer_money", true, "transfer_money"},
		{"a/**/c/**", "**/b/c", true, "a/b/c"},
		// {a,b} alternatives, also spanning segments.
		{"{a,b}/c", "b/*", true, "b/c"},
		{"{a,b}/c", "d/*", false, ""},
		{"{a,b}/c", "*/d", false, ""},
		{"{x/y,z}/send", "x/*/send", true, "x/y/send"},
		{"{x/y,z}/send", "x/send", false, ""},
		{"fs/{read,list}", "fs/l*", true, "fs/list"},
		// * within a segment never crosses '/'.
		{"db/read_*", "db/*_users", true, "db/read_users"},
		{"db/read_*", "db/write_*", false, ""},
		{"stripe/*", "stripe/a/b", false, ""},
		{"stripe/*", "stripe/**", true, "stripe/x"},
		{"*", "a/b", false, ""},
		{"stripe/*", "**/create", true, "stripe/create"},
		// ? is one rune but '/'; classes are sets of runes, '/' included.
		{"?", "ab", false, ""},
		{"a?c", "a/c", false, ""},
		{"a[!x]c", "a/c", true, "a/c"},
		{"a[/]b", "a/b", true, "a/b"},
		{"[a-c]x", "[c-e]x", true, "cx"},
		{"[a-c]x", "[d-f]x", false, ""},
		{"[!a]", "a", false, ""},
		{"[abc]", "[!ab]", true, "c"},
		// Escapes are literals.
		{`a\*`, "a?", true, "a*"},
		{`a\*`, "ab", false, ""},
		{"weather/*", "crm/**", false, ""},
	} {
		for _, swap := range []bool{false, true} {
			a, b := tc.a, tc.b
			if swap {
				a, b = b, a
			}
			got, ok, err := patternsOverlap(a, b)
			if err != nil || ok != tc.overlap {
				t.Errorf("patternsOverlap(%q, %q) = %q, %v, %v; want overlap %v", a, b, got, ok, err, tc.overlap)
				continue
			}
			if !ok {
				continue
			}
			if tc.example != "" && got != tc.example {
				t.Errorf("patternsOverlap(%q, %q) example %q, want %q", a, b, got, tc.example)
			}
			for _, p := range []string{a, b} {
				if m, _ := MatchMethod(p, got); !m {
					t.Errorf("patternsOverlap(%q, %q) example %q does not match %q", a, b, got, p)
				}
			}
		}
	}
	if _, _, err := patternsOverlap("a/**b", "a"); err == nil {
		t.Error("an invalid pattern is not an error")
	}
}

// accepts runs an automaton on s.
func (a *nfa) accepts(s string) bool {
	cur := []int{0}
	for _, r := range s {
		var next []int
		for _, st := range cur {
			for _, e := range a.edges[st] {
				if e.set.has(r) && !slices.Contains(next, e.to) {
					next = append(next, e.to)
				}
			}
		}
		cur = next
	}
	for _, st := range cur {
		if a.accept[st] {
			return true
		}
	}
	return false
}

// randomPattern makes a valid method pattern from a few pieces.
func randomPattern(rng *rand.Rand) string {
	pieces := []string{"a", "b", "ab", "*", "?", "[ab]", "[!a]", "[a-b]", "{a,b}", "{a,}", "{a/b,b}", `\*`, "[/]"}
	var segs []string
	for n := 1 + rng.Intn(3); n > 0; n-- {
		if rng.Intn(4) == 0 {
			segs = append(segs, "**")
			continue
		}
		var seg strings.Builder
		for m := 1 + rng.Intn(2); m > 0; m-- {
			p := pieces[rng.Intn(len(pieces))]
			if p == "*" && strings.HasSuffix(seg.String(), "*") && !strings.HasSuffix(seg.String(), `\*`) {
				p = "a" // "**" must be a whole segment
			}
			seg.WriteString(p)
		}
		segs = append(segs, seg.String())
	}
	return strings.Join(segs, "/")
}

// allStrings returns every string over alphabet up to length n.
func allStrings(alphabet string, n int) []string {
	out := []string{""}
	prev := []string{""}
	for ; n > 0; n-- {
		var next []string
		for _, p := range prev {
			for _, r := range alphabet {
				next = append(next, p+string(r))
			}
		}
		out = append(out, next...)
		prev = next
	}
	return out
}

// The automata agree with MatchMethod, and PatternsOverlap with a brute
// force search, on random patterns.
func TestPatternAutomataAgreeWithMatchMethod(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	strs := allStrings("ab/*c", 5)
	var patterns []string
	for len(patterns) < 150 {
		p := randomPattern(rng)
		if _, err := dslutil.ExpandPattern(p); err != nil {
			continue
		}
		patterns = append(patterns, p)
	}
	matchers := map[string]methodMatcher{}
	for _, p := range patterns {
		a, err := patternNFA(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		m, err := compileMethod(p)
		if err != nil {
			t.Fatal(err)
		}
		matchers[p] = m
		for _, s := range strs {
			want := m.match(s)
			if got := a.accepts(s); got != want {
				t.Fatalf("pattern %q on %q: automaton %v, MatchMethod %v", p, s, got, want)
			}
		}
	}
	overlaps := 0
	for n := 0; n < 40*40; n++ {
		p, q := patterns[n/40], patterns[n%40]
		got, ok, err := patternsOverlap(p, q)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			mp, _ := MatchMethod(p, got)
			mq, _ := MatchMethod(q, got)
			if !mp || !mq {
				t.Errorf("patternsOverlap(%q, %q) example %q does not match both", p, q, got)
			}
			overlaps++
			continue
		}
		for _, s := range strs {
			if matchers[p].match(s) && matchers[q].match(s) {
				t.Errorf("patternsOverlap(%q, %q) = false, but both match %q", p, q, s)
				break
			}
		}
	}
	if overlaps < 200 || overlaps > 1400 {
		t.Errorf("%d pairs of 1600 overlap: the patterns are not varied enough", overlaps)
	}
}

func TestLintConstraintLifted(t *testing.T) {
	ws := Lint(caps(t, `[
		{"method": "transfer_money", "constraints": ["amount <= 1000"]},
		{"method": "**"}
	]`))
	if len(ws) != 1 {
		t.Fatalf("warnings %q", brief(ws))
	}
	w := ws[0]
	if w.Kind != KindConstraintLifted || w.Capability != 1 || w.Earlier != 0 || w.Method != "transfer_money" || !slices.Equal(w.Constraints, []string{"amount <= 1000"}) {
		t.Errorf("warning %+v", w)
	}
	want := `capability #1 "**" lifts the constraint amount <= 1000 of capability #0 "transfer_money": a call to "transfer_money" that fails it is not allowed by #0 but is allowed by #1.`
	if w.Message != want || w.String() != want {
		t.Errorf("message\n%s\nwant\n%s", w.Message, want)
	}
}

func TestLintRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps string
		want []string
	}{
		// (a) constraints lifted, and when they are not.
		{"lifted", `[{"method": "transfer_money", "constraints": ["amount <= 1000"]}, {"method": "**"}]`,
			[]string{"constraint_lifted 0->1 transfer_money"}},
		{"lifted to a wider bound", `[{"method": "transfer_money", "constraints": ["amount <= 1000"]}, {"method": "transfer_money", "constraints": ["amount <= 5000"]}]`,
			[]string{"constraint_lifted 0->1 transfer_money"}},
		{"same constraint", `[{"method": "transfer_money", "constraints": ["amount <= 1000"]}, {"method": "**", "constraints": ["amount  <=  1000", "x exists"]}]`,
			[]string{}},
		{"tighter bound", `[{"method": "t", "constraints": ["amount <= 1000", "amount > 0"]}, {"method": "**", "constraints": ["amount < 1000", "amount >= 1"]}]`,
			[]string{}},
		{"equality implies in", `[{"method": "t", "constraints": ["currency in [\"USD\", \"EUR\"]"]}, {"method": "**", "constraints": ["currency == \"EUR\""]}]`,
			[]string{}},
		{"in a subset", `[{"method": "t", "constraints": ["currency in [\"USD\", \"EUR\"]"]}, {"method": "**", "constraints": ["currency in [\"EUR\"]"]}]`,
			[]string{}},
		{"in a superset", `[{"method": "t", "constraints": ["currency in [\"USD\"]"]}, {"method": "t", "constraints": ["currency in [\"EUR\", \"USD\"]"]}]`,
			[]string{"constraint_lifted 0->1 t"}},
		{"any_of in another order", `[{"method": "t", "constraints": [{"any_of": ["a < 1", "b < 1"]}]}, {"method": "**", "constraints": [{"any_of": ["b < 1", "a < 1"]}]}]`,
			[]string{}},
		{"all_of members", `[{"method": "t", "constraints": ["a < 1", "b < 1"]}, {"method": "**", "constraints": [{"all_of": ["b < 1", "a < 1"]}]}]`,
			[]string{}},
		{"later asks", `[{"method": "transfer_money", "constraints": ["amount <= 1000"]}, {"method": "**", "ask": true}]`,
			[]string{}},
		{"no overlap", `[{"method": "db/read_*", "constraints": ["limit <= 10"], "max_calls": 1}, {"method": "db/write_*"}, {"method": "weather/*"}]`,
			[]string{}},
		{"later first", `[{"method": "**"}, {"method": "transfer_money", "constraints": ["amount <= 1000"]}]`,
			[]string{"unreachable 0->1 "}},

		// (b) max_calls lifted.
		{"limit", `[{"method": "search/*", "max_calls": 5}, {"method": "**"}]`,
			[]string{"max_calls_lifted 0->1 search/x"}},
		{"limit and constraint", `[{"method": "pay", "max_calls": 5, "constraints": ["amount <= 10"]}, {"method": "pay"}]`,
			[]string{"constraint_lifted 0->1 pay", "max_calls_lifted 0->1 pay"}},
		{"limit then ask", `[{"method": "search/*", "max_calls": 5}, {"method": "**", "ask": true}]`,
			[]string{}},
		{"asking limit", `[{"method": "search/*", "max_calls": 5, "ask": true}, {"method": "**"}]`,
			[]string{}},

		// (c) an ask bypassed.
		{"ask bypassed", `[{"method": "pay", "ask": true, "constraints": ["amount > 1000"]}, {"method": "**"}]`,
			[]string{"ask_bypassed 0->1 pay"}},
		{"ask bypassed by a complement", `[{"method": "pay", "ask": true, "constraints": ["amount > 1000"]}, {"method": "pay", "constraints": ["amount <= 1000"]}]`,
			[]string{"ask_bypassed 0->1 pay"}},
		{"allow below, ask above", `[{"method": "pay", "constraints": ["amount <= 1000"]}, {"method": "pay", "ask": true}]`,
			[]string{}},
		{"ask without constraints", `[{"method": "pay", "ask": true}, {"method": "p*"}]`,
			[]string{}},

		// Capabilities in between that take every call first.
		{"ask in between", `[{"method": "transfer_money", "constraints": ["amount <= 1000"]}, {"method": "transfer_*", "ask": true}, {"method": "**"}]`,
			[]string{}},
		{"allow in between", `[{"method": "stripe/charges/create", "constraints": ["amount <= 1000"]}, {"method": "stripe/**"}, {"method": "**"}]`,
			[]string{"constraint_lifted 0->1 stripe/charges/create"}},
		{"partly taken", `[{"method": "a/*", "constraints": ["n < 1"]}, {"method": "a/x"}, {"method": "**"}]`,
			[]string{"constraint_lifted 0->1 a/x", "constraint_lifted 0->2 a/a"}},
		{"limited in between", `[{"method": "t", "constraints": ["n < 1"]}, {"method": "t", "max_calls": 3}, {"method": "**"}]`,
			[]string{"constraint_lifted 0->1 t", "constraint_lifted 0->2 t", "max_calls_lifted 1->2 t"}},
		{"constrained in between", `[{"method": "t", "constraints": ["n < 1"]}, {"method": "t", "constraints": ["m < 1"], "ask": true}, {"method": "**"}]`,
			[]string{"constraint_lifted 0->2 t", "ask_bypassed 1->2 t"}},

		// The pattern dialect.
		{"** in the middle", `[{"method": "a/**/b", "constraints": ["n < 1"]}, {"method": "a/b"}]`,
			[]string{"constraint_lifted 0->1 a/b"}},
		{"alternatives", `[{"method": "{x,y}/send", "constraints": ["n < 1"]}, {"method": "y/*"}]`,
			[]string{"constraint_lifted 0->1 y/send"}},
		{"* within a segment", `[{"method": "db/read_*", "constraints": ["n < 1"]}, {"method": "db/*_users"}]`,
			[]string{"constraint_lifted 0->1 db/read_users"}},
		{"* stops at /", `[{"method": "db/*", "constraints": ["n < 1"]}, {"method": "db/a/b"}]`,
			[]string{}},

		// Unreachable capabilities.
		{"shadowed", `[{"method": "weather/*"}, {"method": "weather/forecast"}]`,
			[]string{"unreachable 0->1 "}},
		{"shadowed by two", `[{"method": "a/*"}, {"method": "b/*", "ask": true}, {"method": "{a,b}/x"}]`,
			[]string{"unreachable 0->2 "}},
		{"shadowed by a constrained one", `[{"method": "t", "constraints": ["n < 10"]}, {"method": "t", "constraints": ["n < 5"]}]`,
			[]string{"unreachable 0->1 "}},
		{"not shadowed: max_calls", `[{"method": "weather/*", "max_calls": 2}, {"method": "weather/forecast"}]`,
			[]string{"max_calls_lifted 0->1 weather/forecast"}},
		{"not shadowed: wider", `[{"method": "weather/*"}, {"method": "weather/**"}]`,
			[]string{}},
		{"not shadowed: constraints", `[{"method": "t", "constraints": ["n < 1"]}, {"method": "t", "constraints": ["m < 1"]}]`,
			[]string{"constraint_lifted 0->1 t"}},

		// Invalid capabilities are skipped.
		{"invalid", `[{"method": "t", "constraints": ["n < 1"]}, {"method": "t"}]`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := caps(t, tc.caps)
			if tc.want == nil {
				cs = append([]*Capability{nil, Method(""), Method("a/**b"), Method("t").MaxCalls(-1)}, cs...)
				tc.want = []string{"constraint_lifted 4->5 t"}
			}
			ws := Lint(cs)
			if got := brief(ws); !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
			for _, w := range ws {
				if strings.ContainsAny(w.Message, "\n\r") || !strings.HasSuffix(w.Message, ".") {
					t.Errorf("message %q", w.Message)
				}
				for _, n := range []int{w.Capability, w.Earlier} {
					if !strings.Contains(w.Message, fmt.Sprintf("#%d %s", n, Quote(cs[n].Pattern()))) {
						t.Errorf("message %q does not name #%d %q", w.Message, n, cs[n].Pattern())
					}
				}
				if w.Method != "" && !strings.Contains(w.Message, Quote(w.Method)) {
					t.Errorf("message %q does not show the example %q", w.Message, w.Method)
				}
			}
		})
	}
}

func TestLintMessages(t *testing.T) {
	for _, tc := range []struct {
		caps string
		want string
	}{
		{`[{"method": "t", "constraints": ["a < 1", "b == \"x\""]}, {"method": "t", "constraints": ["c exists"], "max_calls": 9}]`,
			`capability #1 "t" lifts the constraints a < 1 and b == "x" of capability #0 "t": a call to "t" that fails one of them is not allowed by #0 but is allowed by #1 (when it meets #1's own constraints, up to #1's own max_calls 9).`},
		{`[{"method": "search/*", "max_calls": 5}, {"method": "**"}]`,
			`capability #1 "**" lifts the max_calls 5 of capability #0 "search/*": once #0 is used up, a call to "search/x" is allowed by #1.`},
		{`[{"method": "pay", "ask": true, "constraints": ["amount > 1000"]}, {"method": "**"}]`,
			`capability #1 "**" lets calls skip the approval that capability #0 "pay" asks for: a call to "pay" that fails amount > 1000 (for example one where amount is missing or not a number, since constraints fail closed) is allowed by #1 without asking. To allow the other calls without asking, put the allow first with amount <= 1000 and the ask after it.`},
		{`[{"method": "log", "ask": true, "constraints": ["since >= \"2026-01-01\""]}, {"method": "log"}]`,
			`capability #1 "log" lets calls skip the approval that capability #0 "log" asks for: a call to "log" that fails since >= "2026-01-01" (for example one where since is missing or not a string, since constraints fail closed) is allowed by #1 without asking. To allow the other calls without asking, put the allow first with since < "2026-01-01" and the ask after it.`},
		{`[{"method": "mail", "ask": true, "constraints": ["to ends_with \"@x.com\"", "n < 2"]}, {"method": "mail"}]`,
			`capability #1 "mail" lets calls skip the approval that capability #0 "mail" asks for: a call to "mail" that fails one of to ends_with "@x.com" and n < 2 (for example one where to is missing or not a string, since constraints fail closed) is allowed by #1 without asking. To allow the other calls without asking, put the allow first, with the constraints those calls must meet, and the ask after it.`},
		{`[{"method": "a/*"}, {"method": "b/*", "ask": true}, {"method": "{a,b}/x"}]`,
			`capability #2 "{a,b}/x" is never used: every call it would allow is decided first by capabilities #0 "a/*" and #1 "b/*".`},
		{`[{"method": "a"}, {"method": "b"}, {"method": "c"}, {"method": "d"}, {"method": "e"}, {"method": "{a,b,c,d,e}"}]`,
			`capability #5 "{a,b,c,d,e}" is never used: every call it would allow is decided first by capabilities #0 "a", #1 "b", #2 "c" and 2 others.`},
	} {
		ws := Lint(caps(t, tc.caps))
		if len(ws) != 1 || ws[0].Message != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.caps, brief(ws), tc.want)
			for _, w := range ws {
				t.Logf("%s", w.Message)
			}
		}
	}
}

func TestImplies(t *testing.T) {
	for _, tc := range []struct {
		facts []string
		c     string
		want  bool
	}{
		{[]string{"a <= 5"}, "a <= 5", true},
		{[]string{"a <= 5"}, "a <= 6", true},
		{[]string{"a <= 5"}, "a < 6", true},
		{[]string{"a <= 5"}, "a < 5", false},
		{[]string{"a < 5"}, "a <= 5", true},
		{[]string{"a < 5"}, "a < 5.0", true},
		{[]string{"a >= 5"}, "a > 4", true},
		{[]string{"a > 5"}, "a >= 5", true},
		{[]string{"a >= 5"}, "a > 5", false},
		{[]string{"a == 3"}, "a <= 5", true},
		{[]string{`d >= "2026-02"`}, `d >= "2026-01"`, true},
		{[]string{`d >= "2026-01"`}, `d >= "2026-02"`, false},
		{[]string{`d < "b"`}, `d <= "b"`, true},
		{[]string{`d <= "b"`}, `d < "b"`, false},
		{[]string{`d == "a"`}, `d < "b"`, true},
		{[]string{`d in ["a", "ab"]`}, `d < "b"`, true},
		{[]string{`d in ["a", 1]`}, `d < "b"`, false},
		{[]string{"d <= 5"}, `d <= "5"`, false},
		{[]string{`d <= "5"`}, "d <= 5", false},
		{[]string{`d starts_with "a"`}, `d < "b"`, false},
		{[]string{"a in [1, 2, 3]"}, "a < 4", true},
		{[]string{"a in [1, 2, 7]"}, "a < 4", false},
		{[]string{"a in [\"x\", null]"}, "a == \"x\"", true},
		{[]string{"a == \"x\""}, "a in [\"x\", \"y\"]", true},
		{[]string{"a == 1"}, "a in [1.0]", true},
		{[]string{"a <= 5"}, "a exists", true},
		{[]string{"a/b != 1"}, "a exists", true},
		{[]string{"a not_exists"}, "a exists", false},
		{[]string{"ab <= 5"}, "a exists", false},
		{[]string{"a <= 5"}, "b <= 5", false},
		{[]string{"s starts_with \"abc\""}, "s starts_with \"ab\"", true},
		{[]string{"s starts_with \"ab\""}, "s starts_with \"abc\"", false},
		{[]string{"s ends_with \"abc\""}, "s ends_with \"bc\"", true},
		{[]string{"s starts_with \"abc\""}, "s contains \"bc\"", true},
		{[]string{"s contains \"abc\""}, "s contains \"bc\"", false},
		{[]string{"s not_in [1, 2]"}, "s != 1", true},
		{[]string{"s not_in [1, 2]"}, "s not_in [2]", true},
		{[]string{"s not_in [1]"}, "s not_in [1, 2]", false},
		{[]string{"all_of(a < 1, b < 1)"}, "b < 1", true},
		{[]string{"a < 1"}, "any_of(b < 1, a < 2)", true},
		{[]string{"any_of(a < 1, a < 2)"}, "a < 3", true},
		{[]string{"any_of(a < 1, b < 2)"}, "a < 3", false},
		{[]string{"any_of(a < 1, b < 2)"}, "any_of(b < 2, a < 1)", true},
		{[]string{"a < 1", "b < 1"}, "all_of(b < 1, a < 1)", true},
		{nil, "a exists", false},
	} {
		var facts []Constraint
		for _, f := range tc.facts {
			c, err := ParseConstraint(f)
			if err != nil {
				t.Fatal(err)
			}
			facts = append(facts, c)
		}
		c, err := ParseConstraint(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if got := implies(factsOf(facts, true), fact{c, c.String()}); got != tc.want {
			t.Errorf("%q implies %q = %v, want %v", tc.facts, tc.c, got, tc.want)
		}
	}
}

// A long policy lints in reasonable time and finds what it should.
func TestLintManyCapabilities(t *testing.T) {
	var cs []*Capability
	for i := range 100 {
		cs = append(cs, Method(fmt.Sprintf("svc%d/*", i)).Where(Param("amount").Le(i)))
	}
	cs = append(cs, Method("**/create").Ask(), Method("**"))
	ws := Lint(cs)
	if len(ws) != 100 {
		t.Fatalf("%d warnings", len(ws))
	}
	for i, w := range ws {
		if w.Kind != KindConstraintLifted || w.Earlier != i || w.Capability != 101 || w.Method != fmt.Sprintf("svc%d/x", i) {
			t.Fatalf("warning %d: %+v", i, w)
		}
	}
}

// BenchmarkLint lints a policy of n capabilities of the usual shapes.
func BenchmarkLint(b *testing.B) {
	for _, n := range []int{10, 100} {
		var cs []*Capability
		for i := range n {
			switch i % 5 {
			case 0:
				cs = append(cs, Method(fmt.Sprintf("stripe%d/charges/create", i)).Where(Param("amount").Le(1000), Param("currency").In("USD", "EUR")).MaxCalls(10))
			case 1:
				cs = append(cs, Method(fmt.Sprintf("db%d/read_*", i)))
			case 2:
				cs = append(cs, Method(fmt.Sprintf("crm%d/**", i)).Ask())
			case 3:
				cs = append(cs, Method(fmt.Sprintf("email%d/send", i)).Where(Param("to").EndsWith("@example.com")))
			case 4:
				cs = append(cs, Method(fmt.Sprintf("fs%d/{read,list}", i)))
			}
		}
		cs = append(cs, Method("**").MaxCalls(100))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Lint(cs)
			}
		})
	}
}
