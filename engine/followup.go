package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/internal/canon"
)

// prepare runs t's Prepare on canonical params and puts its result in
// canonical form. A panic is an error.
func prepare(ctx context.Context, t *tool, params json.RawMessage) (out json.RawMessage, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, errors.New("invalid params: the tool's Prepare panicked")
		}
	}()
	raw, err := t.Prepare(ctx, params)
	if err != nil {
		var te *ToolError
		if errors.As(err, &te) {
			return nil, errors.New(te.Message)
		}
		return nil, err
	}
	out, err = canon.Params(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid params after Prepare: %v", err)
	}
	return out, nil
}

// FollowUp asks the policy about a follow-up of the tool call that ctx was
// passed to: a call of the same tool, with params, that its handler is about
// to make on the script's behalf (a fetch handler following a redirect asks
// about each hop). The params are checked and decided exactly as if the
// script had made the call: put in canonical form, checked against the
// tool's InputSchema, given to its Prepare, then decided by the sandbox's
// policy, which counts the call against its limits and writes an audit
// record whose FollowUpOf is the original call's DecisionID.
//
// It returns the params the policy decided on (Prepare's result) when the
// policy allows the call. When the policy asks, the sandbox's Approver
// decides; without one, or when it refuses, the follow-up is refused.
// Every refusal is a *ToolError of kind "denied" with the policy's
// reasons, which the handler returns to the script as it is. A context
// that carries no call (not a handler's, or the call's execution has
// ended) is an error too: FollowUp never allows a call it cannot count.
func FollowUp(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	c, _ := ctx.Value(callKey{}).(*Call)
	if c == nil || c.x == nil {
		return nil, &ToolError{Kind: string(abi.ToolDenied), Message: "follow-up call refused: the context carries no tool call"}
	}
	x := c.x
	sb := x.sb
	t := sb.tools[c.Method]
	x.mu.Lock()
	done := x.done
	x.mu.Unlock()
	if t == nil || done {
		return nil, &ToolError{Kind: string(abi.ToolDenied), Message: fmt.Sprintf("follow-up of %s refused: its execution has ended", c.Method)}
	}
	if err := ctx.Err(); err != nil {
		return nil, &ToolError{Kind: string(abi.ToolDenied), Message: fmt.Sprintf("follow-up of %s refused: %v", c.Method, context.Cause(ctx))}
	}
	if len(params) > sb.limits.MaxParamBytes {
		return nil, &ToolError{Kind: string(abi.ToolInvalid), Message: fmt.Sprintf("follow-up of %s: params of %d bytes are over the limit of %d", c.Method, len(params), sb.limits.MaxParamBytes)}
	}
	p, err := canon.Params(params)
	if err != nil {
		return nil, &ToolError{Kind: string(abi.ToolInvalid), Message: fmt.Sprintf("follow-up of %s: invalid params: %v", c.Method, err)}
	}
	if t.schema != nil {
		if reasons := validateParams(t.schema, p); reasons != nil {
			return nil, &ToolError{Kind: string(abi.ToolInvalid), Message: fmt.Sprintf("follow-up of %s: invalid params: %s", c.Method, strings.Join(reasons, "; "))}
		}
	}
	if t.Prepare != nil {
		if p, err = prepare(ctx, t, p); err != nil {
			return nil, &ToolError{Kind: string(abi.ToolInvalid), Message: fmt.Sprintf("follow-up of %s: %v", c.Method, err)}
		}
	}
	d := sb.decide(ctx, x.counterKey, c.Method, p, Language(c.lang), c.decisionID)
	if ctx.Err() != nil {
		if d.charged {
			sb.unreserve(x.counterKey, c.Method, d.Capability)
		}
		return nil, &ToolError{Kind: string(abi.ToolDenied), Message: fmt.Sprintf("follow-up of %s refused: %v", c.Method, context.Cause(ctx))}
	}
	switch {
	case d.Allow:
		return p, nil
	case d.Ask:
		f := &Call{Method: c.Method, Params: p, Ask: true, Reasons: d.Reasons, x: x,
			rec: &ToolCall{Method: c.Method, Params: p, Capability: d.capabilityName}, started: time.Now(),
			capability: d.Capability, revision: d.revision, lang: c.lang, decisionID: d.decisionID}
		if sb.approver == nil {
			f.settleAsk(false, "approval required and no approver is configured")
			return nil, &ToolError{Kind: string(abi.ToolDenied), Message: fmt.Sprintf("follow-up of %s refused: approval required and no approver is configured: %s", c.Method, strings.Join(d.Reasons, "; "))}
		}
		ok, reason := safeApprove(withCall(ctx, f), sb.approver, f)
		if !ok || ctx.Err() != nil {
			if reason == "" {
				reason = "not approved"
			}
			f.settleAsk(false, reason)
			return nil, &ToolError{Kind: string(abi.ToolDenied), Message: fmt.Sprintf("follow-up of %s refused: %s", c.Method, reason)}
		}
		f.settleAsk(true, reason)
		return p, nil
	default:
		return nil, &ToolError{Kind: string(abi.ToolDenied), Message: fmt.Sprintf("follow-up of %s denied: %s", c.Method, strings.Join(d.Reasons, "; "))}
	}
}
