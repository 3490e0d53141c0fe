package compile_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/compile"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// result is what the generated module decides for one input.
type result struct {
	matched, allowed []int
	violations       []string
}

// prepared compiles a module once; eval runs it for inputs.
type prepared struct {
	pq rego.PreparedEvalQuery
}

func prepare(t testing.TB, src string) *prepared {
	t.Helper()
	pq, err := rego.New(
		rego.Query(`x := {"matched": data.cordon.capabilities.matched, "allowed": data.cordon.capabilities.allowed, "violations": data.cordon.capabilities.violations}`),
		rego.Module("capabilities.rego", src),
		rego.Schemas(compile.SchemaSet()),
		rego.StrictBuiltinErrors(true),
	).PrepareForEval(context.Background())
	if err != nil {
		t.Fatalf("prepare: %v\n%s", err, src)
	}
	return &prepared{pq: pq}
}

func (p *prepared) eval(t testing.TB, input string) result {
	t.Helper()
	v, err := ast.ValueFromReader(strings.NewReader(input))
	if err != nil {
		t.Fatalf("input %s: %v", input, err)
	}
	rs, err := p.pq.Eval(context.Background(), rego.EvalParsedInput(v))
	if err != nil {
		t.Fatalf("eval %s: %v", input, err)
	}
	if len(rs) != 1 {
		t.Fatalf("eval %s: %d results", input, len(rs))
	}
	x := rs[0].Bindings["x"].(map[string]any)
	var r result
	for _, m := range x["matched"].([]any) {
		n, _ := m.(json.Number).Int64()
		r.matched = append(r.matched, int(n))
	}
	for _, m := range x["allowed"].([]any) {
		n, _ := m.(json.Number).Int64()
		r.allowed = append(r.allowed, int(n))
	}
	for _, m := range x["violations"].([]any) {
		r.violations = append(r.violations, m.(string))
	}
	sort.Ints(r.matched)
	sort.Ints(r.allowed)
	sort.Strings(r.violations)
	return r
}

func eval(t testing.TB, src, input string) (result, *prepared) {
	t.Helper()
	p := prepare(t, src)
	return p.eval(t, input), p
}

func mustRego(t testing.TB, caps ...*dsl.Capability) string {
	t.Helper()
	src, err := compile.Rego(caps)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestEmpty(t *testing.T) {
	src := mustRego(t)
	r, _ := eval(t, src, `{"method": "a", "params": {}}`)
	if len(r.matched)+len(r.allowed)+len(r.violations) != 0 {
		t.Errorf("zero capabilities: %+v", r)
	}
	pq, err := rego.New(rego.Query("data.cordon.capabilities.capabilities"), rego.Module("c.rego", src)).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rs, err := pq.Eval(context.Background())
	if err != nil || len(rs) != 1 || !reflect.DeepEqual(rs[0].Expressions[0].Value, []any{}) {
		t.Errorf("capabilities = %v, %v", rs, err)
	}
}

func TestCapabilitiesList(t *testing.T) {
	src := mustRego(t, dsl.Method("a/*").Named("first").MaxCalls(3), dsl.Method("b/**").Ask().UnlessTouched("private", "secret"))
	pq, err := rego.New(rego.Query("data.cordon.capabilities.capabilities"), rego.Module("c.rego", src)).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rs, err := pq.Eval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(rs[0].Expressions[0].Value)
	want := `[{"ask":false,"index":0,"max_calls":3,"method":"a/*","name":"first","unless_touched":[]},{"ask":true,"index":1,"max_calls":0,"method":"b/**","name":"","unless_touched":["private","secret"]}]`
	if string(got) != want {
		t.Errorf("capabilities = %s, want %s", got, want)
	}
}

// TestDecisions evaluates compiled capabilities with OPA for many inputs.
func TestDecisions(t *testing.T) {
	type call struct {
		input      string
		matched    []int
		allowed    []int
		violations []string
	}
	for _, tc := range []struct {
		name  string
		caps  []*dsl.Capability
		calls []call
	}{
		{
			name: "numbers",
			caps: []*dsl.Capability{dsl.Method("stripe/charges/*").Where(dsl.Param("amount").Le(10000))},
			calls: []call{
				{`{"method": "stripe/charges/create", "params": {"amount": 10000}}`, []int{0}, []int{0}, nil},
				{`{"method": "stripe/charges/create", "params": {"amount": 10000.0}}`, []int{0}, []int{0}, nil},
				{`{"method": "stripe/charges/create", "params": {"amount": 20000}}`, []int{0}, nil,
					[]string{`capability #0 "stripe/charges/*": amount <= 10000 does not hold (amount is 20000)`}},
				{`{"method": "stripe/charges/create", "params": {}}`, []int{0}, nil,
					[]string{`capability #0 "stripe/charges/*": amount <= 10000 does not hold (amount is missing)`}},
				{`{"method": "stripe/charges/create", "params": {"amount": null}}`, []int{0}, nil,
					[]string{`capability #0 "stripe/charges/*": amount <= 10000 does not hold (amount is null)`}},
				{`{"method": "stripe/charges/create", "params": {"amount": "5"}}`, []int{0}, nil,
					[]string{`capability #0 "stripe/charges/*": amount <= 10000 does not hold (amount is "5")`}},
				{`{"method": "stripe/charges/create", "params": {"amount": [5]}}`, []int{0}, nil,
					[]string{`capability #0 "stripe/charges/*": amount <= 10000 does not hold (amount is [5])`}},
				{`{"method": "stripe/refunds/create", "params": {"amount": 5}}`, nil, nil, nil},
				{`{"method": "stripe/charges/create", "params": {"amount": 5}}`, []int{0}, []int{0}, nil},
				{`{"method": "stripe/charges", "params": {"amount": 5}}`, nil, nil, nil},
				{`{"method": "stripe/charges/a/b", "params": {"amount": 5}}`, nil, nil, nil},
			},
		},
		{
			name: "string compared with a number",
			caps: []*dsl.Capability{dsl.Method("m").Where(dsl.Param("n").Ge(100), dsl.Param("n").Lt(1e9))},
			calls: []call{
				{`{"method": "m", "params": {"n": "abc"}}`, []int{0}, nil, []string{
					`capability #0 "m": n < 1000000000 does not hold (n is "abc")`,
					`capability #0 "m": n >= 100 does not hold (n is "abc")`,
				}},
				{`{"method": "m", "params": {"n": true}}`, []int{0}, nil, []string{
					`capability #0 "m": n < 1000000000 does not hold (n is true)`,
					`capability #0 "m": n >= 100 does not hold (n is true)`,
				}},
				{`{"method": "m", "params": {"n": 100}}`, []int{0}, []int{0}, nil},
			},
		},
		{
			name: "string ordering",
			caps: []*dsl.Capability{
				dsl.Method("since").Where(dsl.Param("created_at").Ge("2026-01-01")),
				dsl.Method("before").Where(dsl.Param("s").Lt("b"), dsl.Param("t").Gt("\uffff")),
				dsl.Method("range").Where(dsl.Param("v").Ge("v1.2"), dsl.Param("v").Le("v1.9")),
			},
			calls: []call{
				{`{"method": "since", "params": {"created_at": "2026-01-01"}}`, []int{0}, []int{0}, nil},
				{`{"method": "since", "params": {"created_at": "2026-03-04T05:06:07Z"}}`, []int{0}, []int{0}, nil},
				{`{"method": "since", "params": {"created_at": "2025-12-31T23:59:59Z"}}`, []int{0}, nil, []string{
					`capability #0 "since": created_at >= "2026-01-01" does not hold (created_at is "2025-12-31T23:59:59Z")`}},
				// A number is not ordered against a string (Rego alone would
				// put every number below every string).
				{`{"method": "since", "params": {"created_at": 20260101}}`, []int{0}, nil, []string{
					`capability #0 "since": created_at >= "2026-01-01" does not hold (created_at is 20260101)`}},
				{`{"method": "since", "params": {"created_at": ["2027"]}}`, []int{0}, nil, []string{
					`capability #0 "since": created_at >= "2026-01-01" does not hold (created_at is ["2027"])`}},
				{`{"method": "since", "params": {"created_at": {"a": 1}}}`, []int{0}, nil, []string{
					`capability #0 "since": created_at >= "2026-01-01" does not hold (created_at is {"a":1})`}},
				{`{"method": "since", "params": {"created_at": null}}`, []int{0}, nil, []string{
					`capability #0 "since": created_at >= "2026-01-01" does not hold (created_at is null)`}},
				{`{"method": "since", "params": {}}`, []int{0}, nil, []string{
					`capability #0 "since": created_at >= "2026-01-01" does not hold (created_at is missing)`}},
				// Code point order: "B" < "a", "a" < "ab", U+FFFF < U+1F600
				// (which UTF-16 order would reverse).
				{`{"method": "before", "params": {"s": "B", "t": "\ud83d\ude00"}}`, []int{1}, []int{1}, nil},
				{`{"method": "before", "params": {"s": "a", "t": "\uffff\u0000"}}`, []int{1}, []int{1}, nil},
				{`{"method": "before", "params": {"s": "b", "t": "~"}}`, []int{1}, nil, []string{
					`capability #1 "before": s < "b" does not hold (s is "b")`,
					`capability #1 "before": t > "\uffff" does not hold (t is "~")`}},
				{`{"method": "before", "params": {"s": "é", "t": true}}`, []int{1}, nil, []string{
					`capability #1 "before": s < "b" does not hold (s is "é")`,
					`capability #1 "before": t > "\uffff" does not hold (t is true)`}},
				{`{"method": "range", "params": {"v": "v1.5.3"}}`, []int{2}, []int{2}, nil},
				{`{"method": "range", "params": {"v": "v1.10"}}`, []int{2}, nil, []string{
					`capability #2 "range": v >= "v1.2" does not hold (v is "v1.10")`}},
				{`{"method": "range", "params": {"v": 1.5}}`, []int{2}, nil, []string{
					`capability #2 "range": v <= "v1.9" does not hold (v is 1.5)`,
					`capability #2 "range": v >= "v1.2" does not hold (v is 1.5)`}},
			},
		},
		{
			name: "equality",
			caps: []*dsl.Capability{
				dsl.Method("eq").Where(dsl.Param("v").Eq(1)),
				dsl.Method("ne").Where(dsl.Param("v").Ne(1)),
				dsl.Method("obj").Where(dsl.Param("v").Eq(map[string]any{"a": []any{1, "x", nil}})),
			},
			calls: []call{
				{`{"method": "eq", "params": {"v": 1.0}}`, []int{0}, []int{0}, nil},
				{`{"method": "eq", "params": {"v": "1"}}`, []int{0}, nil, []string{`capability #0 "eq": v == 1 does not hold (v is "1")`}},
				{`{"method": "ne", "params": {"v": "1"}}`, []int{1}, []int{1}, nil},
				{`{"method": "ne", "params": {"v": 1.00}}`, []int{1}, nil, []string{`capability #1 "ne": v != 1 does not hold (v is 1.00)`}},
				{`{"method": "ne", "params": {}}`, []int{1}, nil, []string{`capability #1 "ne": v != 1 does not hold (v is missing)`}},
				{`{"method": "ne", "params": {"v": null}}`, []int{1}, nil, []string{`capability #1 "ne": v != 1 does not hold (v is null)`}},
				{`{"method": "obj", "params": {"v": {"a": [1.0, "x", null]}}}`, []int{2}, []int{2}, nil},
				{`{"method": "obj", "params": {"v": {"a": [1, "x"]}}}`, []int{2}, nil, []string{`capability #2 "obj": v == {"a": [1, "x", null]} does not hold (v is {"a":[1,"x"]})`}},
			},
		},
		{
			name: "membership",
			caps: []*dsl.Capability{
				dsl.Method("in").Where(dsl.Param("c").In("USD", "EUR", nil)),
				dsl.Method("not_in").Where(dsl.Param("c").NotIn("XXX", 1)),
			},
			calls: []call{
				{`{"method": "in", "params": {"c": "EUR"}}`, []int{0}, []int{0}, nil},
				{`{"method": "in", "params": {"c": "usd"}}`, []int{0}, nil, []string{`capability #0 "in": c in ["USD", "EUR", null] does not hold (c is "usd")`}},
				{`{"method": "in", "params": {"c": null}}`, []int{0}, nil, []string{`capability #0 "in": c in ["USD", "EUR", null] does not hold (c is null)`}},
				{`{"method": "in", "params": {}}`, []int{0}, nil, []string{`capability #0 "in": c in ["USD", "EUR", null] does not hold (c is missing)`}},
				{`{"method": "not_in", "params": {"c": "EUR"}}`, []int{1}, []int{1}, nil},
				{`{"method": "not_in", "params": {"c": 1.0}}`, []int{1}, nil, []string{`capability #1 "not_in": c not_in ["XXX", 1] does not hold (c is 1.0)`}},
				{`{"method": "not_in", "params": {}}`, []int{1}, nil, []string{`capability #1 "not_in": c not_in ["XXX", 1] does not hold (c is missing)`}},
				{`{"method": "not_in", "params": {"c": null}}`, []int{1}, nil, []string{`capability #1 "not_in": c not_in ["XXX", 1] does not hold (c is null)`}},
			},
		},
		{
			name: "strings",
			caps: []*dsl.Capability{
				dsl.Method("sw").Where(dsl.Param("p").StartsWith("/tmp/")),
				dsl.Method("ew").Where(dsl.Param("e").EndsWith("@example.com")),
				dsl.Method("ct").Where(dsl.Param("s").Contains("ell")),
				dsl.Method("cn").Where(dsl.Param("s").Contains(2)),
				dsl.Method("neg").Where(dsl.Param("s").Contains(-2), dsl.Param("t").Contains([]any{1}), dsl.Param("u").Contains(map[string]any{"k": "v"})),
			},
			calls: []call{
				{`{"method": "sw", "params": {"p": "/tmp/x"}}`, []int{0}, []int{0}, nil},
				{`{"method": "sw", "params": {"p": "/etc/x"}}`, []int{0}, nil, []string{`capability #0 "sw": p starts_with "/tmp/" does not hold (p is "/etc/x")`}},
				{`{"method": "sw", "params": {"p": ["/tmp/x"]}}`, []int{0}, nil, []string{`capability #0 "sw": p starts_with "/tmp/" does not hold (p is ["/tmp/x"])`}},
				{`{"method": "ew", "params": {"e": "a@example.com"}}`, []int{1}, []int{1}, nil},
				{`{"method": "ew", "params": {"e": 5}}`, []int{1}, nil, []string{`capability #1 "ew": e ends_with "@example.com" does not hold (e is 5)`}},
				{`{"method": "ct", "params": {"s": "hello"}}`, []int{2}, []int{2}, nil},
				{`{"method": "ct", "params": {"s": ["a", "ell"]}}`, []int{2}, []int{2}, nil},
				{`{"method": "ct", "params": {"s": ["hello"]}}`, []int{2}, nil, []string{`capability #2 "ct": s contains "ell" does not hold (s is ["hello"])`}},
				{`{"method": "ct", "params": {"s": {"ell": 1}}}`, []int{2}, nil, []string{`capability #2 "ct": s contains "ell" does not hold (s is {"ell":1})`}},
				{`{"method": "cn", "params": {"s": [1, 2.0]}}`, []int{3}, []int{3}, nil},
				{`{"method": "cn", "params": {"s": "123"}}`, []int{3}, nil, []string{`capability #3 "cn": s contains 2 does not hold (s is "123")`}},
				{`{"method": "neg", "params": {"s": [-2.0], "t": [[1], 2], "u": [{"k": "v"}]}}`, []int{4}, []int{4}, nil},
				{`{"method": "neg", "params": {"s": [2], "t": [1], "u": {"k": "v"}}}`, []int{4}, nil, []string{
					`capability #4 "neg": s contains -2 does not hold (s is [2])`,
					`capability #4 "neg": t contains [1] does not hold (t is [1])`,
					`capability #4 "neg": u contains {"k": "v"} does not hold (u is {"k":"v"})`,
				}},
			},
		},
		{
			name: "presence, nested paths and array indexes",
			caps: []*dsl.Capability{
				dsl.Method("ex").Where(dsl.Param("body/user/id").Exists()),
				dsl.Method("nx").Where(dsl.Param("items/0/sku").NotExists()),
				dsl.Method("ix").Where(dsl.Param("items/1").Eq("b"), dsl.Param("a-b/c d").Eq(true), dsl.Param("in/if").Eq(1)),
			},
			calls: []call{
				{`{"method": "ex", "params": {"body": {"user": {"id": 0}}}}`, []int{0}, []int{0}, nil},
				{`{"method": "ex", "params": {"body": {"user": {"id": false}}}}`, []int{0}, []int{0}, nil},
				{`{"method": "ex", "params": {"body": {"user": {"id": null}}}}`, []int{0}, nil, []string{`capability #0 "ex": body/user/id exists does not hold (body/user/id is null)`}},
				{`{"method": "ex", "params": {"body": {"user": "id"}}}`, []int{0}, nil, []string{`capability #0 "ex": body/user/id exists does not hold (body/user/id is missing)`}},
				{`{"method": "ex", "params": {}}`, []int{0}, nil, []string{`capability #0 "ex": body/user/id exists does not hold (body/user/id is missing)`}},
				{`{"method": "nx", "params": {}}`, []int{1}, []int{1}, nil},
				{`{"method": "nx", "params": {"items": []}}`, []int{1}, []int{1}, nil},
				{`{"method": "nx", "params": {"items": [{"sku": null}]}}`, []int{1}, []int{1}, nil},
				{`{"method": "nx", "params": {"items": {"0": {"sku": 1}}}}`, []int{1}, []int{1}, nil},
				{`{"method": "nx", "params": {"items": [{"sku": "x"}]}}`, []int{1}, nil, []string{`capability #1 "nx": items/0/sku not_exists does not hold (items/0/sku is "x")`}},
				{`{"method": "ix", "params": {"items": ["a", "b"], "a-b": {"c d": true}, "in": {"if": 1}}}`, []int{2}, []int{2}, nil},
				{`{"method": "ix", "params": {"items": ["a"], "a-b": {"c d": true}, "in": {"if": 1}}}`, []int{2}, nil, []string{`capability #2 "ix": items/1 == "b" does not hold (items/1 is missing)`}},
			},
		},
		{
			name: "groups",
			caps: []*dsl.Capability{dsl.Method("pay").Where(
				dsl.AnyOf(dsl.Param("amount").Lt(1000), dsl.AllOf(dsl.Param("amount").Ge(1000), dsl.Param("currency").Eq("usd"))))},
			calls: []call{
				{`{"method": "pay", "params": {"amount": 5}}`, []int{0}, []int{0}, nil},
				{`{"method": "pay", "params": {"amount": 5000, "currency": "usd"}}`, []int{0}, []int{0}, nil},
				{`{"method": "pay", "params": {"amount": 5000, "currency": "eur"}}`, []int{0}, nil, []string{
					`capability #0 "pay": any_of(amount < 1000, all_of(amount >= 1000, currency == "usd")) does not hold (amount is 5000, currency is "eur")`}},
				{`{"method": "pay", "params": {}}`, []int{0}, nil, []string{
					`capability #0 "pay": any_of(amount < 1000, all_of(amount >= 1000, currency == "usd")) does not hold (amount is missing, currency is missing)`}},
			},
		},
		{
			name: "globs",
			caps: []*dsl.Capability{
				dsl.Method("stripe/*"),
				dsl.Method("stripe/**"),
				dsl.Method("**/create"),
				dsl.Method("a/**/b"),
			},
			calls: []call{
				{`{"method": "stripe", "params": {}}`, []int{1}, []int{1}, nil},
				{`{"method": "stripe/charges", "params": {}}`, []int{0, 1}, []int{0, 1}, nil},
				{`{"method": "stripe/charges/create", "params": {}}`, []int{1, 2}, []int{1, 2}, nil},
				{`{"method": "create", "params": {}}`, []int{2}, []int{2}, nil},
				{`{"method": "stripex", "params": {}}`, nil, nil, nil},
				{`{"method": "a/b", "params": {}}`, []int{3}, []int{3}, nil},
				{`{"method": "a/x/y/b", "params": {}}`, []int{3}, []int{3}, nil},
				{`{"method": "a/xb", "params": {}}`, nil, nil, nil},
			},
		},
		{
			name: "fallback and max_calls",
			caps: []*dsl.Capability{
				dsl.Method("db/*").Where(dsl.Param("table").Eq("users")).MaxCalls(2).Named("users"),
				dsl.Method("db/read").MaxCalls(5),
				dsl.Method("db/**").Where(dsl.Param("dry_run").Eq(true)),
			},
			calls: []call{
				{`{"method": "db/read", "params": {"table": "users"}, "capability_calls": {}}`, []int{0, 1, 2}, []int{0, 1}, []string{
					`capability #2 "db/**": dry_run == true does not hold (dry_run is missing)`}},
				{`{"method": "db/read", "params": {"table": "users"}, "capability_calls": {"0": 2}}`, []int{0, 1, 2}, []int{1}, []string{
					`capability #0 "users": max_calls 2 used up`,
					`capability #2 "db/**": dry_run == true does not hold (dry_run is missing)`}},
				{`{"method": "db/read", "params": {"table": "users", "dry_run": true}, "capability_calls": {"0": 2, "1": 5}}`, []int{0, 1, 2}, []int{2}, []string{
					`capability #0 "users": max_calls 2 used up`,
					`capability #1 "db/read": max_calls 5 used up`}},
				{`{"method": "db/write", "params": {"table": "orders"}, "capability_calls": {"0": 0}}`, []int{0, 2}, nil, []string{
					`capability #0 "users": table == "users" does not hold (table is "orders")`,
					`capability #2 "db/**": dry_run == true does not hold (dry_run is missing)`}},
				{`{"method": "db/write", "params": {"table": "users"}}`, []int{0, 2}, nil, []string{
					`capability #0 "users": max_calls 2 cannot be checked (input.capability_calls is missing or invalid)`,
					`capability #2 "db/**": dry_run == true does not hold (dry_run is missing)`}},
				{`{"method": "db", "params": {"dry_run": true}}`, []int{2}, []int{2}, nil},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := prepare(t, mustRego(t, tc.caps...))
			for _, c := range tc.calls {
				got := p.eval(t, c.input)
				want := result{matched: c.matched, allowed: c.allowed, violations: c.violations}
				sort.Strings(want.violations)
				if !sameResult(got, want) {
					t.Errorf("input %s:\n got %+v\nwant %+v", c.input, got, want)
				}
				// The Go evaluator agrees.
				checkAgainstGo(t, tc.caps, c.input, got)
			}
		})
	}
}

func sameResult(a, b result) bool {
	return slices.Equal(a.matched, b.matched) && slices.Equal(a.allowed, b.allowed) && slices.Equal(a.violations, b.violations)
}

// checkAgainstGo checks an OPA result against dsl.Capability.Allows.
func checkAgainstGo(t *testing.T, caps []*dsl.Capability, input string, got result) {
	t.Helper()
	var in struct {
		Method          string         `json:"method"`
		Params          map[string]any `json:"params"`
		CapabilityCalls map[string]any `json:"capability_calls"`
	}
	d := json.NewDecoder(strings.NewReader(input))
	d.UseNumber()
	if err := d.Decode(&in); err != nil {
		t.Fatal(err)
	}
	var want result
	for i, c := range caps {
		ok, err := dsl.MatchMethod(c.Pattern(), in.Method)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			continue
		}
		want.matched = append(want.matched, i)
		calls := -1 // input.capability_calls missing
		if in.CapabilityCalls != nil {
			calls = 0
			if n, ok := in.CapabilityCalls[strconv.Itoa(i)].(json.Number); ok {
				v, _ := n.Int64()
				calls = int(v)
			}
		}
		allowed, reasons := c.Allows(in.Method, in.Params, calls)
		if allowed {
			want.allowed = append(want.allowed, i)
		}
		for _, r := range reasons {
			want.violations = append(want.violations, fmt.Sprintf("capability #%d %s: %s", i, dsl.Quote(c.Label()), r))
		}
	}
	sort.Strings(want.violations)
	if !sameResult(got, want) {
		t.Errorf("OPA and dsl.Allows disagree on %s:\n OPA %+v\n  Go %+v", input, got, want)
	}
}

// methodCases are the cases of dsl's TestMatchMethod (copied: test files
// cannot be imported), plus some that exercise the index hints.
var methodCases = []struct{ pattern, method string }{
	{"stripe/charges/*", "stripe/charges/create"}, {"stripe/charges/*", "stripe/charges"},
	{"stripe/charges/*", "stripe/charges/a/b"}, {"stripe/*", "stripe/charges/create"},
	{"stripe/**", "stripe"}, {"stripe/**", "stripe/charges"}, {"stripe/**", "stripe/charges/create"},
	{"stripe/**", "stripeX"}, {"stripe/**", "xstripe/a"}, {"**/create", "create"}, {"**/create", "a/create"},
	{"**/create", "a/b/create"}, {"**/create", "a/recreate"}, {"a/**/b", "a/b"}, {"a/**/b", "a/x/b"},
	{"a/**/b", "a/x/y/b"}, {"a/**/b", "a/xb"}, {"a/**/b", "ab"}, {"**", "anything/at/all"}, {"*", "one"},
	{"*", "one/two"}, {"db/read_*", "db/read_rows"}, {"db/read_*", "db/write_rows"}, {"db/read_*", "db/read_/x"},
	{"fs/{read,write}", "fs/write"}, {"fs/{read,write}", "fs/delete"}, {"fs/?at", "fs/cat"}, {"fs/[a-c]at", "fs/dat"},
	{"mail.send", "mail.send"}, {"mail.send", "mailXsend"}, {`lit/\*`, "lit/*"}, {`lit/\*`, "lit/x"},
	{"a/**/b/**", "a/b"}, {"a/**/b/**", "a/x/b/y/z"}, {"a/**/b/**", "a/x/c"},
	{"*_x/**", "a_x"}, {"*_x/**", "a_x/b/c"}, {"*.read", "db.read"}, {"*.read", "db/x.read"},
	{`a\{b/**`, "a{b/c"}, {`{x,y}z/**`, "yz/q"}, {`[ab]/c/**`, "b/c/d"}, {`[!a]/c/**`, "a/c/d"},
	{"**/x/**", "x"}, {"**/x/**", "p/x/q"}, {"**/x/**", "p/xq"},
	{`lit/\*/**`, "lit/*/a"}, {`lit/\*/**`, "lit/a/a"}, {`a\/b`, "a/b"}, {`{a\,b,c}/x`, "a,b/x"}, {`{a\,b,c}/x`, "c/x"},
	{`x\[y/**`, "x[y/z"}, {`[\]]/x`, "]/x"}, {`q/\{a\}`, "q/{a}"}, {`**/\?`, "z/?"}, {`**/\?`, "z/a"},
}

// TestMethodsAgree checks that the compiled "matched" agrees with
// dsl.MatchMethod, for the shared cases and every pair of pattern and
// method among them.
func TestMethodsAgree(t *testing.T) {
	var patterns, methods []string
	for _, c := range methodCases {
		if !slices.Contains(patterns, c.pattern) {
			patterns = append(patterns, c.pattern)
		}
		if !slices.Contains(methods, c.method) {
			methods = append(methods, c.method)
		}
	}
	methods = append(methods, "", "a", "b", "stripe/", "/create", "a//b")
	var caps []*dsl.Capability
	for _, p := range patterns {
		caps = append(caps, dsl.Method(p))
	}
	p := prepare(t, mustRego(t, caps...))
	for _, m := range methods {
		in, _ := json.Marshal(map[string]any{"method": m, "params": map[string]any{}})
		got := p.eval(t, string(in))
		var want []int
		for i, pat := range patterns {
			ok, err := dsl.MatchMethod(pat, m)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				want = append(want, i)
			}
		}
		if !slices.Equal(got.matched, want) {
			t.Errorf("method %q: OPA matched %v, MatchMethod %v", m, names(patterns, got.matched), names(patterns, want))
		}
	}
}

func names(patterns []string, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, patterns[i])
	}
	return out
}

// TestRandomAgreement compiles random capabilities and checks that OPA's
// matched, allowed and violations agree with dsl.Capability.Allows for
// random inputs. SEED=n (n > 0) runs 400 rounds from another seed.
func TestRandomAgreement(t *testing.T) {
	seed, _ := strconv.ParseUint(os.Getenv("SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(1, 2+seed))
	rounds, inputs := 40, 60
	if seed != 0 {
		rounds = 400
	}
	if testing.Short() {
		rounds = 5
	}
	for round := 0; round < rounds; round++ {
		var caps []*dsl.Capability
		for i := 0; i < 1+rng.IntN(4); i++ {
			c := dsl.Method(pick(rng, randPatterns))
			for j := 0; j < rng.IntN(4); j++ {
				c.Where(randConstraint(rng, 0))
			}
			if rng.IntN(3) == 0 {
				c.MaxCalls(1 + rng.IntN(3))
			}
			if rng.IntN(3) == 0 {
				c.Named(fmt.Sprintf("cap %d", i))
			}
			caps = append(caps, c)
		}
		p := prepare(t, mustRego(t, caps...))
		for k := 0; k < inputs; k++ {
			in := map[string]any{"method": pick(rng, randMethods), "params": randParams(rng)}
			if rng.IntN(10) > 0 {
				counts := map[string]any{}
				for i := range caps {
					if rng.IntN(2) == 0 {
						counts[strconv.Itoa(i)] = rng.IntN(4)
					}
				}
				in["capability_calls"] = counts
			}
			b, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstGo(t, caps, string(b), p.eval(t, string(b)))
		}
		if t.Failed() {
			for i, c := range caps {
				t.Logf("capability %d: %s %v", i, c.Pattern(), c.Constraints())
			}
			return
		}
	}
}

var (
	randPatterns = []string{"t/*", "t/**", "**/x", "t/x", "*", "t/{x,y}", "t/*_x"}
	randMethods  = []string{"t/x", "t/y", "t", "t/a/x", "x", "t/b_x", "u/x"}
	randKeys     = []string{"a", "b", "c-d", "e"}
	randValues   = []any{
		0, 1, 1.5, -2, 1e3, "x", "xy", "", "abc", "1", true, false, nil, "a<b&c>", "é\u2028😀",
		[]any{}, []any{"x", 1}, []any{1.0, 2}, map[string]any{"a": 1}, map[string]any{"a": []any{"x"}},
	}
)

// randStrings are the string values of random orderings: the strings of
// randValues and their neighbours in code point order.
var randStrings = []string{"", "x", "xy", "abc", "abd", "1", "10", "é", "\uffff", "😀", "a<b&c>"}

func pick[T any](rng *rand.Rand, s []T) T { return s[rng.IntN(len(s))] }

func randPath(rng *rand.Rand) string {
	p := pick(rng, randKeys)
	for rng.IntN(3) == 0 {
		if rng.IntN(2) == 0 {
			p += "/" + strconv.Itoa(rng.IntN(2))
		} else {
			p += "/" + pick(rng, randKeys)
		}
	}
	return p
}

func randConstraint(rng *rand.Rand, depth int) dsl.Constraint {
	if depth < 2 && rng.IntN(6) == 0 {
		var ms []dsl.Constraint
		for i := 0; i < 1+rng.IntN(3); i++ {
			ms = append(ms, randConstraint(rng, depth+1))
		}
		if rng.IntN(2) == 0 {
			return dsl.AnyOf(ms...)
		}
		return dsl.AllOf(ms...)
	}
	p := dsl.Param(randPath(rng))
	for {
		v := pick(rng, randValues)
		switch pick(rng, dsl.Operators()) {
		case dsl.OpLt:
			if rng.IntN(3) == 0 {
				return p.Lt(pick(rng, randStrings))
			}
			return p.Lt(rng.IntN(3))
		case dsl.OpLe:
			if rng.IntN(3) == 0 {
				return p.Le(pick(rng, randStrings))
			}
			return p.Le(1.5)
		case dsl.OpGt:
			if rng.IntN(3) == 0 {
				return p.Gt(pick(rng, randStrings))
			}
			return p.Gt(0)
		case dsl.OpGe:
			if rng.IntN(3) == 0 {
				return p.Ge(pick(rng, randStrings))
			}
			return p.Ge(1)
		case dsl.OpEq:
			if v != nil {
				return p.Eq(v)
			}
		case dsl.OpNe:
			if v != nil {
				return p.Ne(v)
			}
		case dsl.OpIn:
			return p.In([]any{v, pick(rng, randValues)})
		case dsl.OpNotIn:
			return p.NotIn([]any{v, pick(rng, randValues)})
		case dsl.OpStartsWith:
			return p.StartsWith(pick(rng, []string{"x", "", "a"}))
		case dsl.OpEndsWith:
			return p.EndsWith(pick(rng, []string{"y", "c"}))
		case dsl.OpContains:
			return p.Contains(v)
		case dsl.OpExists:
			return p.Exists()
		case dsl.OpNotExists:
			return p.NotExists()
		}
	}
}

func randParams(rng *rand.Rand) map[string]any {
	var value func(depth int) any
	value = func(depth int) any {
		if depth < 2 {
			switch rng.IntN(6) {
			case 0:
				m := map[string]any{}
				for i := 0; i < rng.IntN(3); i++ {
					m[pick(rng, randKeys)] = value(depth + 1)
				}
				return m
			case 1:
				var a []any
				for i := 0; i < rng.IntN(3); i++ {
					a = append(a, value(depth+1))
				}
				return a
			}
		}
		return pick(rng, randValues)
	}
	m := map[string]any{}
	for _, k := range randKeys {
		if rng.IntN(3) > 0 {
			m[k] = value(0)
		}
	}
	return m
}
