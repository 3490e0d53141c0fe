package shellrt

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/netutils"
)

// netCommands returns curl and wget bound to the tool the host marked
// Fetch: each request is that tool's call through h, as a call of the tool
// command is, so the policy, the counters and the audit see it. Without
// such a tool they are netutils.Commands', which say that network access
// is not enabled.
func netCommands(tools []abi.ToolInfo, h *hub.Hub) command.Registry {
	for _, t := range tools {
		if t.Fetch {
			return netutils.New(hubFetcher(h, t.Name))
		}
	}
	return netutils.Commands()
}

// hubFetcher returns a netutils.Fetcher that calls the tool named tool
// through h.
func hubFetcher(h *hub.Hub, tool string) netutils.Fetcher {
	return func(ctx context.Context, req abi.FetchRequest) (abi.FetchResponse, error) {
		if err := ctx.Err(); err != nil {
			return abi.FetchResponse{}, err
		}
		params, err := json.Marshal(req)
		if err != nil {
			return abi.FetchResponse{}, &netutils.CallError{Kind: abi.ToolInvalid, Message: "the request cannot be encoded: " + err.Error()}
		}
		c, err := h.Call(abi.LangShell, tool, params)
		if err != nil {
			return abi.FetchResponse{}, err
		}
		if !c.OK {
			return abi.FetchResponse{}, &netutils.CallError{Kind: c.ErrKind, Message: c.ErrMsg, Reasons: c.Reasons}
		}
		var res abi.FetchResponse
		if err := json.Unmarshal(c.Value, &res); err != nil {
			return abi.FetchResponse{}, &netutils.CallError{Kind: abi.ToolInvalidResult, Message: fmt.Sprintf("tool %s returned a result that is not a fetch response: %v", tool, err)}
		}
		return res, nil
	}
}
