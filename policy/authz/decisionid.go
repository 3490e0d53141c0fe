package authz

import "context"

type decisionIDKey struct{}

// WithDecisionID returns ctx carrying id, the identifier of the decision
// about to be made. A caller of Decide that keeps its own audit trail sets
// it so that a policy that logs decisions elsewhere (package fleet, OPA's
// decision log) logs them under the same id.
func WithDecisionID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, decisionIDKey{}, id)
}

// DecisionID returns the decision id ctx carries ([WithDecisionID]), or "".
func DecisionID(ctx context.Context) string {
	id, _ := ctx.Value(decisionIDKey{}).(string)
	return id
}
