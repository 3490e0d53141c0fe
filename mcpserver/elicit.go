package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/cordonhq/cordon/approval"
	"github.com/cordonhq/cordon/engine"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type sessionKey struct{}

// sessionFrom returns the MCP session of a tool call's context.
func sessionFrom(ctx context.Context) *mcp.ServerSession {
	ss, _ := ctx.Value(sessionKey{}).(*mcp.ServerSession)
	return ss
}

// approvalSchema is the form of an approval request: approve, and an
// optional reason.
var approvalSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"approve": map[string]any{"type": "boolean", "title": "Approve this call", "default": false},
		"reason":  map[string]any{"type": "string", "title": "Reason (optional)"},
	},
	"required": []string{"approve"},
}

// MetaKey is the key, in the _meta of the elicitation request that Elicit
// sends, of the call in structured form: the [approval.Request], as JSON
// (method, reasons, params with path, type, value, bytes, cut and
// constrained, params_bytes, text). Every string in it is quoted and
// escaped as in the message, so a client may show any of it as it is.
const MetaKey = "cordon/approval"

// Elicit is an [engine.Approver] for code mode's sandboxes ([engine.SandboxConfig.Approve]): a call the
// policy asks about becomes an MCP elicitation request to the client of
// the session that runs the script, asking to approve or deny it. The
// request shows the whole call as package approval renders it, within
// approval's default limits (see ElicitWith): the message is the
// [approval.Request]'s text (the method, the policy's reasons, and every
// param on a line of its own, constrained ones and numbers first, all
// that came from the script or the policy quoted and escaped), and its
// _meta holds the same in structured form under MetaKey. A call that
// cannot be shown in full is denied without asking ([approval.DenyReason]).
//
// The call runs only if the client accepts with approve true. The answer,
// with the reason given if any, goes to the audit. When the client does
// not support elicitation, or the request fails, the call is denied with
// a reason that says approval was needed and could not be asked. The wait
// counts against the execution's time limit.
//
// The session's client answers, whoever it is: when that client is an
// automated agent, not a person, the agent approves its own script's
// calls. Use elicitation as a human check only when a person stands
// behind the client.
//
//	run := codemode.New(eng, engine.SandboxConfig{Tools: tools, Policy: pol, Approve: mcpserver.Elicit}, nil)
func Elicit(ctx context.Context, call *engine.Call) (bool, string) {
	return elicit(ctx, call, approval.Limits{})
}

// ElicitWith returns an approver that does what Elicit does, with l as
// the budget of the approval request: a call that cannot be shown in full
// within l is denied without asking.
func ElicitWith(l approval.Limits) engine.Approver {
	return func(ctx context.Context, call *engine.Call) (bool, string) {
		return elicit(ctx, call, l)
	}
}

func elicit(ctx context.Context, call *engine.Call, l approval.Limits) (bool, string) {
	why := strings.Join(call.Reasons, "; ")
	if why == "" {
		why = "the policy asks for approval"
	}
	ss := sessionFrom(ctx)
	if ss == nil {
		return false, "approval required (" + why + ") and could not be asked: the call did not come from an MCP session"
	}
	if p := ss.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false, "approval required (" + why + ") and could not be asked: the MCP client does not support elicitation"
	}
	req, err := approval.ForCall(call, l)
	if err != nil {
		return false, approval.DenyReason(err)
	}
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Meta: mcp.Meta{MetaKey: req}, Message: req.Text, RequestedSchema: approvalSchema})
	if err != nil {
		return false, fmt.Sprintf("approval required (%s) and could not be asked: %v", why, err)
	}
	reason, _ := res.Content["reason"].(string)
	switch res.Action {
	case "accept":
		if ok, _ := res.Content["approve"].(bool); ok {
			if reason == "" {
				reason = "approved by the user"
			}
			return true, reason
		}
		if reason == "" {
			reason = "not approved by the user"
		}
		return false, reason
	case "decline":
		if reason == "" {
			reason = "declined by the user"
		}
		return false, reason
	default:
		return false, "the user dismissed the approval request"
	}
}
