package engine

import (
	"context"
	"maps"
)

// CallInfo describes the tool call that a handler or an Approver answers.
// One handler can then serve many tools (it switches on Method), and a
// handler can log, bill or route a call by its session, its labels or the
// capability the policy charged it to.
type CallInfo struct {
	// Method is the tool's name.
	Method string
	// ID numbers the call within its execution, from 1, in the order the
	// script made its calls: it is the ID of the call's ToolCall in
	// [Result.ToolCalls]. (Scripts never see it.)
	ID int
	// Session is the sandbox's session id ([SandboxConfig.ID], or the one
	// generated), and Labels a copy of [SandboxConfig.Labels]: what the
	// policy saw as input.session.
	Session string
	Labels  map[string]string
	// Principal is who the sandbox acts for ([SandboxConfig.Principal]), as
	// the policy saw it in input.session.principal.
	Principal string
	// Language is the interpreter that made the call, as the policy's
	// input.language: JavaScript for the JS inside `sh -c "node -e ..."`.
	Language Language
	// Capability names the capability the call was charged to ("" when
	// none was: no policy is configured, or a Rego permit allowed it), and
	// CapabilityIndex is its index in the policy's capabilities (-1 when
	// none).
	Capability      string
	CapabilityIndex int
}

type callKey struct{}

// withCall returns ctx carrying c for CallFrom.
func withCall(ctx context.Context, c *Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// CallFrom returns the CallInfo of the tool call that ctx was passed to: the
// context of a Handler run under Execute or by [Call.Run], or of an Approver.
// It reports false for any other context.
func CallFrom(ctx context.Context) (CallInfo, bool) {
	c, _ := ctx.Value(callKey{}).(*Call)
	if c == nil {
		return CallInfo{}, false
	}
	return c.Info(), true
}

// Info returns the call's CallInfo, as CallFrom does for a handler.
func (c *Call) Info() CallInfo {
	sb := c.x.sb
	return CallInfo{
		Method:          c.Method,
		ID:              c.rec.ID,
		Session:         sb.id,
		Labels:          maps.Clone(sb.labels),
		Principal:       sb.principal,
		Language:        Language(c.lang),
		Capability:      c.rec.Capability,
		CapabilityIndex: c.capability,
	}
}
