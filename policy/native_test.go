package policy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

// nativeCapabilities is a policy that exercises every operator, patterns
// with * and **, max_calls, ask (one that gates a later capability),
// names, orderings on numbers and on strings, and capabilities that fall
// back to one another.
func nativeCapabilities(t testing.TB) []*dsl.Capability {
	t.Helper()
	texts := [][]string{
		{"amount <= 10000", "currency in [\"USD\", \"EUR\"]"},
		{"amount < 5", "note not_exists"},
		{"customer.id starts_with \"cus_\"", "customer.email ends_with \"@example.com\""},
		{"tags contains \"vip\"", "tags.0 != \"blocked\""},
		{"any_of(mode == \"test\", amount > 100)", "all_of(amount >= 1, amount != 7)"},
		{"region not_in [\"cn\", \"ru\"]", "flag == true", "nested.a.b exists"},
		{"name contains \"x\""},
		{"created_at >= \"2026-01-01\"", "any_of(version < \"v2\", version > \"\\uffff\")"},
		{},
	}
	patterns := []string{"stripe/charges/*", "stripe/charges/*", "crm/**", "crm/customers/list", "stripe/**", "geo/*", "*", "logs/*", "stripe/**"}
	var caps []*dsl.Capability
	for i, p := range patterns {
		c := dsl.Method(p)
		for _, txt := range texts[i] {
			k, err := dsl.ParseConstraint(txt)
			if err != nil {
				t.Fatalf("%s: %v", txt, err)
			}
			c = c.Where(k)
		}
		switch i {
		case 0:
			c = c.MaxCalls(2).Named("small charges")
		case 1:
			c = c.UnlessTouched("private")
		case 4:
			// An ask that can be used up, followed by a broader
			// capability (8): the gate, which a flow rule can lift.
			c = c.Ask().MaxCalls(2).UnlessTouched("secret", "private")
		case 5:
			c = c.MaxCalls(1)
		}
		caps = append(caps, c)
	}
	return caps
}

var nativeMethods = []string{"stripe/charges/create", "stripe/charges", "stripe/refunds/create", "stripe", "crm/customers/list", "crm", "geo/lookup", "logs/search", "other", "", "a/b/c"}

var nativeParams = []string{
	``, `{}`, `null`, `[]`, `"s"`, `{"amount": 5}`, `{"amount": 5000, "currency": "USD"}`, `{"amount": 5000, "currency": "GBP"}`,
	`{"amount": 20000, "currency": "EUR"}`, `{"amount": "5"}`, `{"amount": null}`, `{"amount": 4, "note": "x"}`, `{"amount": 1e3, "currency": "USD"}`,
	`{"customer": {"id": "cus_1", "email": "a@example.com"}}`, `{"customer": {"id": 1}}`, `{"tags": ["vip"]}`, `{"tags": ["blocked", "vip"]}`,
	`{"tags": "vip"}`, `{"mode": "test", "amount": 7}`, `{"mode": "live", "amount": 101}`, `{"region": "us", "flag": true, "nested": {"a": {"b": null}}}`,
	`{"region": "cn", "flag": true, "nested": {"a": {"b": 1}}}`, `{"name": "xyz"}`, `{"name": ["x"]}`, `{"amount": 5, "amount": 50000}`,
	`{"amount": 5} x`, `{"name": "\u00e9x\ud83d\ude00"}`, `{"amount": 12345678901234567890123}`, `{"amount": -0.0}`, `{"amount": 1E100000}`, `{"x": [1e-999999]}`,
	`{"created_at": "2026-01-01", "version": "v1.9"}`, `{"created_at": "2025-12-31T23:59:59Z", "version": "v1"}`,
	`{"created_at": "2026-02-01", "version": "v2"}`, `{"created_at": "2026-02-01", "version": "\ud83d\ude00"}`,
	`{"created_at": "2026-02-01", "version": "\uffff"}`, `{"created_at": 20260101, "version": "v1"}`,
	`{"created_at": ["2027"], "version": "V3"}`, `{"created_at": "2026", "version": 1}`, `{"created_at": "2026-01-01", "version": null}`,
}

// TestNativeAgreesWithRego checks that the Go evaluator (authz.New, and
// policy.New without AlwaysRego, which decides through it) and OPA give
// the same decision, reasons included, for every method, params and
// counter state of a policy that uses every feature of the DSL.
func TestNativeAgreesWithRego(t *testing.T) {
	caps := nativeCapabilities(t)
	ctx := context.Background()
	fast := mustPolicy(t, policy.Config{Capabilities: caps})
	slow := mustPolicy(t, policy.Config{Capabilities: caps, AlwaysRego: true})
	direct, err := authz.New(caps)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range nativeMethods {
		for _, params := range nativeParams {
			for _, calls := range []map[int]int{nil, {0: 1}, {0: 2, 5: 1}, {0: 5, 4: 3}} {
				for _, flow := range []map[string]int{nil, {"private": 1}, {"secret": 2, "private": 0}} {
					in := &authz.Input{Method: m, Params: json.RawMessage(params), CapabilityCalls: calls,
						Session: authz.Session{ID: "s", Flow: authz.Flow{Labels: flow}}}
					compareDecisions(t, ctx, in, slow, fast, direct)
					n++
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d cases", n)
	}
}

// decider is what the engine asks of a policy to decide a call.
type decider interface {
	Decide(context.Context, *authz.Input) (authz.Decision, error)
}

// compareDecisions checks that each of the Go evaluators decides in as
// the Rego policy does.
func compareDecisions(t *testing.T, ctx context.Context, in *authz.Input, rego decider, fast ...decider) {
	t.Helper()
	ds, es := rego.Decide(ctx, in)
	for _, p := range fast {
		df, ef := p.Decide(ctx, in)
		if (ef == nil) != (es == nil) || !reflect.DeepEqual(df, ds) {
			t.Errorf("%s %s %v:\n  Go (%T) %+v %v\n  Rego %+v %v", in.Method, in.Params, in.CapabilityCalls, p, df, ef, ds, es)
		}
	}
}

// FuzzNativeAgreesWithRego compares the two evaluators on arbitrary
// methods, params and constraints.
func FuzzNativeAgreesWithRego(f *testing.F) {
	f.Add("amount <= 10000", "stripe/*", "stripe/charges", `{"amount": 5}`, uint8(0))
	f.Add("tags contains \"a\"", "**", "x/y", `{"tags": ["a", 1]}`, uint8(3))
	f.Add("a.b.0 in [1, \"1\", null]", "a/**", "a", `{"a": {"b": [1]}}`, uint8(1))
	f.Add("amount > 100", "refund", "refund", `{"amount": 5000}`, uint8(10))
	f.Add("created_at >= \"2026-01-01\"", "logs/*", "logs/search", `{"created_at": "2026-03-01T00:00:00Z"}`, uint8(0))
	f.Add("v < \"\\uffff\"", "*", "m", `{"v": "\ud83d\ude00"}`, uint8(9))
	f.Add("v <= \"10\"", "*", "m", `{"v": 9}`, uint8(1))
	f.Add("amount > 1", "pay", "pay", `{"amount": 5}`, uint8(16|32|64))
	f.Add("amount > 1", "pay", "pay", `{"amount": 5}`, uint8(8|16|32|64|1))
	f.Fuzz(func(t *testing.T, constraint, pattern, method, params string, calls uint8) {
		k, err := dsl.ParseConstraint(constraint)
		if err != nil {
			return
		}
		first := dsl.Method(pattern).Where(k).MaxCalls(2)
		if calls&8 != 0 {
			first = first.Ask() // a gate in front of the broader capability
		}
		if calls&16 != 0 {
			first = first.UnlessTouched("private") // a flow rule
		}
		var flow map[string]int
		if calls&32 != 0 {
			flow = map[string]int{"private": int(calls >> 6)}
		}
		caps := []*dsl.Capability{first, dsl.Method("**").Where(k).UnlessTouched("secret"), dsl.Method("**")}
		if dsl.Validate(caps) != nil {
			return
		}
		ctx := context.Background()
		fast, err := policy.New(ctx, policy.Config{Capabilities: caps})
		if err != nil {
			return // a pattern OPA cannot compile is refused by both
		}
		slow, err := policy.New(ctx, policy.Config{Capabilities: caps, AlwaysRego: true})
		if err != nil {
			t.Fatalf("only the Rego policy failed: %v", err)
		}
		direct, err := authz.New(caps)
		if err != nil {
			t.Fatalf("only authz.New failed: %v", err)
		}
		compareDecisions(t, ctx, &authz.Input{Method: method, Params: json.RawMessage(params), CapabilityCalls: map[int]int{0: int(calls % 4)},
			Session: authz.Session{Flow: authz.Flow{Labels: flow}}}, slow, fast, direct)
	})
}

func ExampleConfig_alwaysRego() {
	caps := []*dsl.Capability{dsl.Method("stripe/charges/*").Where(dsl.Param("amount").Le(100))}
	p, _ := policy.New(context.Background(), policy.Config{Capabilities: caps, AlwaysRego: true})
	d, _ := p.Decide(context.Background(), &authz.Input{Method: "stripe/charges/create", Params: json.RawMessage(`{"amount": 500}`)})
	fmt.Println(d.Allow, d.Reasons)
	// Output: false [capability #0 "stripe/charges/*": amount <= 100 does not hold (amount is 500)]
}
