package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/cordonhq/cordon/engine"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type sessionKey struct{}

// sessionFrom returns the MCP session of a tool call's context.
func sessionFrom(ctx context.Context) *mcp.ServerSession {
	ss, _ := ctx.Value(sessionKey{}).(*mcp.ServerSession)
	return ss
}

// maxElicitParams bounds the params shown in an approval request.
const maxElicitParams = 2000

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

// Elicit is an engine.Approver for codemode.WithApprover: a call the
// policy asks about becomes an MCP elicitation request to the client of
// the session that runs the script, showing the method, the params and the
// policy's reasons, and asking the person to approve or deny. The call
// runs only if they accept with approve true. The answer, with their
// reason if they give one, goes to the audit. When the client does not
// support elicitation, or the request fails, the call is denied with a
// reason that says approval was needed and could not be asked. The wait
// counts against the execution's time limit.
//
//	run := codemode.New(eng, tools, codemode.WithPolicy(pol), codemode.WithApprover(mcpserver.Elicit))
func Elicit(ctx context.Context, call *engine.Call) (bool, string) {
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
	params := string(call.Params)
	if len(params) > maxElicitParams {
		params = strings.ToValidUTF8(params[:maxElicitParams], "") + fmt.Sprintf("... (%d bytes in all)", len(call.Params))
	}
	msg := fmt.Sprintf("A script in the cordon sandbox wants to call %s with params:\n%s\n\nThe policy asks for approval: %s\n\nApprove this call?", call.Method, params, why)
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: msg, RequestedSchema: approvalSchema})
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
