package policy_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/open-policy-agent/opa/v1/rego"
)

// userRuleCase is one policy with one user rule, for BenchmarkUserRule:
// cordon's decision (the shipped library, the compiled capabilities and the
// rule) against a plain prepared OPA evaluation of the rule alone.
type userRuleCase struct {
	name  string
	caps  []*dsl.Capability
	rule  string // the user's module
	query string // what the plain evaluation asks for: the rule's own set
	in    *authz.Input
	allow bool
}

var userRuleCases = []userRuleCase{
	{
		// No capabilities: the user's rule is what grants.
		name:  "permit",
		rule:  "package cordon.authz\n\npermit contains \"reads\" if startswith(input.method, \"db/read_\")\n",
		query: "data.cordon.authz.permit",
		in: &authz.Input{
			Method: "db/read_users", Params: json.RawMessage(`{"table":"users","limit":10}`), ParamsCanonical: true,
			Calls: map[string]int{"db/read_users": 3}, CapabilityCalls: map[int]int{}, Language: "js",
			Session: authz.Session{ID: "s1"},
		},
		allow: true,
	},
	{
		// One capability with two constraints and max_calls, and a user deny
		// rule that does not fire.
		name: "caps+deny",
		caps: []*dsl.Capability{dsl.Method("stripe/charges/*").
			Where(dsl.Param("amount").Le(10000), dsl.Param("currency").In("USD", "EUR")).MaxCalls(100)},
		rule:  "package cordon.authz\n\ndeny contains \"no refunds\" if input.method == \"stripe/refunds/create\"\n",
		query: "data.cordon.authz.deny",
		in: &authz.Input{
			Method: "stripe/charges/create", Params: json.RawMessage(`{"amount":500,"currency":"EUR"}`), ParamsCanonical: true,
			Calls: map[string]int{"stripe/charges/create": 3}, CapabilityCalls: map[int]int{0: 3}, Language: "js",
			Session: authz.Session{ID: "s1"},
		},
		allow: true,
	},
}

// BenchmarkUserRule measures the policy cost target side by side: for
// each case, "cordon" is a Policy's Decide (the shipped library, the
// compiled capabilities and one user rule, through OPA) and "opa" is
// rego.PrepareForEval of that user rule alone, evaluated with the same
// input already parsed (policy.InputValue). The target is cordon ≤ 3x opa.
// "interleaved" makes the two calls in turn and reports their times and
// ratio, which the machine's noise moves least. Take medians of several
// runs:
//
//	go test ./policy/ -run XXX -bench UserRule -count 10
func BenchmarkUserRule(b *testing.B) {
	ctx := context.Background()
	for _, c := range userRuleCases {
		p := mustPolicy(b, policy.Config{Capabilities: c.caps, Modules: map[string]string{"user.rego": c.rule}})
		pq, err := rego.New(rego.Query(c.query), rego.Module("user.rego", c.rule)).PrepareForEval(ctx)
		if err != nil {
			b.Fatal(err)
		}
		input, err := policy.InputValue(c.in)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/cordon", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d, err := p.Decide(ctx, c.in)
				if err != nil || d.Allow != c.allow {
					b.Fatal(d, err)
				}
			}
		})
		// Both in turn, each call timed: the machine's noise falls on both
		// alike, and the ratio is reported as a metric.
		b.Run(c.name+"/interleaved", func(b *testing.B) {
			var tc, to time.Duration
			for b.Loop() {
				t0 := time.Now()
				d, err := p.Decide(ctx, c.in)
				t1 := time.Now()
				rs, err2 := pq.Eval(ctx, rego.EvalParsedInput(input))
				t2 := time.Now()
				if err != nil || d.Allow != c.allow || err2 != nil || len(rs) != 1 {
					b.Fatal(d, err, rs, err2)
				}
				tc += t1.Sub(t0)
				to += t2.Sub(t1)
			}
			b.ReportMetric(float64(tc.Nanoseconds())/float64(b.N), "cordon-ns/op")
			b.ReportMetric(float64(to.Nanoseconds())/float64(b.N), "opa-ns/op")
			b.ReportMetric(float64(tc)/float64(to), "ratio")
		})
		b.Run(c.name+"/opa", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rs, err := pq.Eval(ctx, rego.EvalParsedInput(input))
				if err != nil || len(rs) != 1 {
					b.Fatal(rs, err)
				}
			}
		})
	}
}

// BenchmarkCapabilitiesGo is the Go evaluator (capabilities without user
// Rego) on the capability of BenchmarkUserRule's "caps+deny" case; issue
// 37 holds it to ≤ 25 µs per call.
func BenchmarkCapabilitiesGo(b *testing.B) {
	c := userRuleCases[1]
	p := mustPolicy(b, policy.Config{Capabilities: c.caps})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		d, err := p.Decide(ctx, c.in)
		if err != nil || !d.Allow {
			b.Fatal(d, err)
		}
	}
}
