package enginetest

import (
	"context"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

// Policy returns the policy of caps alone, as [policy.New] makes it: it
// decides in Go, as policy.New does for a policy with no Rego.
func Policy(tb TB, caps ...*dsl.Capability) *policy.Policy {
	tb.Helper()
	return NewPolicy(tb, policy.Config{Capabilities: caps})
}

// PolicyOPA returns the policy of caps with every decision an OPA
// evaluation of the compiled Rego ([policy.Config.AlwaysRego]): the path a
// policy with Rego modules takes.
func PolicyOPA(tb TB, caps ...*dsl.Capability) *policy.Policy {
	tb.Helper()
	return NewPolicy(tb, policy.Config{Capabilities: caps, AlwaysRego: true})
}

// NewPolicy returns policy.New(cfg): for a policy with Rego modules, data
// or files.
func NewPolicy(tb TB, cfg policy.Config) *policy.Policy {
	tb.Helper()
	p, err := policy.New(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("enginetest: policy.New: %v", err)
	}
	return p
}

// Evaluators returns the three implementations of [engine.Policy] that
// decide caps, by name: "authz" ([authz.New], Go and no OPA), "policy"
// (Policy) and "rego" (PolicyOPA). A test that must hold whichever
// evaluator decides runs once for each.
func Evaluators(tb TB, caps ...*dsl.Capability) map[string]engine.Policy {
	tb.Helper()
	direct, err := authz.New(caps)
	if err != nil {
		tb.Fatalf("enginetest: authz.New: %v", err)
	}
	return map[string]engine.Policy{
		"authz":  direct,
		"policy": Policy(tb, caps...),
		"rego":   PolicyOPA(tb, caps...),
	}
}
