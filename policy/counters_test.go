package policy_test

import (
	"context"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

// CountersUnused says a decision read no counter only when the charged
// capability has no limit and no rule of the user's reads the counters.
func TestCountersUnused(t *testing.T) {
	caps := []*dsl.Capability{dsl.Method("pay").MaxCalls(3), dsl.Method("read/*")}
	for _, c := range []struct {
		name    string
		modules map[string]string
		want    [3]bool // capability -1, 0 (limited), 1 (unlimited)
	}{
		{"capabilities only", nil, [3]bool{true, false, true}},
		{"a rule on the method", map[string]string{"m.rego": "package cordon.authz\ndeny contains \"no\" if input.method == \"x\"\n"}, [3]bool{true, false, true}},
		{"a rule on input.calls", map[string]string{"m.rego": "package cordon.authz\ndeny contains \"busy\" if input.calls[input.method] > 5\n"}, [3]bool{false, false, false}},
		{"a rule on capability_calls", map[string]string{"m.rego": "package cordon.authz\ndeny contains \"busy\" if count(input.capability_calls) > 5\n"}, [3]bool{false, false, false}},
		{"input as a whole", map[string]string{"m.rego": "package cordon.authz\ndeny contains \"x\" if { x := input; x.calls.pay > 1 }\n"}, [3]bool{false, false, false}},
		{"input by a variable key", map[string]string{"m.rego": "package cordon.authz\ndeny contains \"x\" if { some k; input[k][\"pay\"] }\n"}, [3]bool{false, false, false}},
		{"a rule on the flow history", map[string]string{"m.rego": "package cordon.authz\ndeny contains \"x\" if input.session.flow.labels.private > 0\n"}, [3]bool{false, false, false}},
		{"the session as a whole", map[string]string{"m.rego": "package cordon.authz\ndeny contains \"x\" if { s := input.session; s.flow.labels.private > 0 }\n"}, [3]bool{false, false, false}},
		{"the session's principal", map[string]string{"m.rego": "package cordon.authz\ndeny contains \"x\" if input.session.principal == \"eve\"\n"}, [3]bool{true, false, true}},
	} {
		p, err := policy.New(context.Background(), policy.Config{Capabilities: caps, Modules: c.modules})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for j, i := range []int{-1, 0, 1} {
			if got := p.CountersUnused(i); got != c.want[j] {
				t.Errorf("%s: CountersUnused(%d) = %v, want %v", c.name, i, got, c.want[j])
			}
		}
	}
	// A flow rule reads the counters of labels: no decision is free of
	// them, in either evaluator.
	flow := []*dsl.Capability{dsl.Method("read/*"), dsl.Method("http/fetch").UnlessTouched("private")}
	p, err := policy.New(context.Background(), policy.Config{Capabilities: flow})
	if err != nil {
		t.Fatal(err)
	}
	a, err := authz.New(flow)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{-1, 0, 1} {
		if p.CountersUnused(i) || a.CountersUnused(i) {
			t.Errorf("with a flow rule, CountersUnused(%d) = %v (policy), %v (authz), want false", i, p.CountersUnused(i), a.CountersUnused(i))
		}
	}
}
