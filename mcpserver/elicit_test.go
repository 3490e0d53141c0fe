package mcpserver_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/cordonhq/cordon/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askServer is a server whose policy asks before every inventory/lookup,
// with Elicit as the approver; audit collects the answers.
func askServer(t *testing.T) (*mcpserver.Server, func() []engine.AuditRecord) {
	t.Helper()
	pol, err := policy.New(context.Background(), policy.Config{Capabilities: []*dsl.Capability{dsl.Method("inventory/lookup").Ask()}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var recs []engine.AuditRecord
	srv := newServer(t, mcpserver.Options{}, codemode.WithPolicy(pol), codemode.WithApprover(mcpserver.Elicit),
		codemode.WithAudit(func(r engine.AuditRecord) { mu.Lock(); recs = append(recs, r); mu.Unlock() }))
	return srv, func() []engine.AuditRecord {
		mu.Lock()
		defer mu.Unlock()
		return append([]engine.AuditRecord(nil), recs...)
	}
}

func connectWith(t *testing.T, srv *mcpserver.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

const lookup = `try { return (await inventory.lookup({sku: "A1"})).stock } catch (e) { return e.kind + ": " + e.message }`

func TestElicitApprove(t *testing.T) {
	srv, audit := askServer(t)
	var asked string
	cs := connectWith(t, srv, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = req.Params.Message
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true, "reason": "ok by ann"}}, nil
	}})
	res, r := js(t, cs, lookup)
	if res.IsError || string(r.Value) != "12" {
		t.Fatalf("isError=%v %+v", res.IsError, r)
	}
	if !strings.Contains(asked, "inventory/lookup") || !strings.Contains(asked, `"sku":"A1"`) {
		t.Errorf("the request said %q", asked)
	}
	var found bool
	for _, rec := range audit() {
		if rec.Decision == "approved" && len(rec.Reasons) == 1 && rec.Reasons[0] == "ok by ann" {
			found = true
		}
	}
	if !found {
		t.Errorf("no approval in the audit: %+v", audit())
	}
}

func TestElicitDeny(t *testing.T) {
	srv, audit := askServer(t)
	cs := connectWith(t, srv, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}})
	_, r := js(t, cs, lookup)
	if !strings.Contains(string(r.Value), "denied") || !strings.Contains(string(r.Value), "declined by the user") {
		t.Fatalf("%+v", r)
	}
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Allowed {
		t.Errorf("tool_calls %+v", r.ToolCalls)
	}
	var found bool
	for _, rec := range audit() {
		found = found || rec.Decision == "refused"
	}
	if !found {
		t.Errorf("no refusal in the audit: %+v", audit())
	}
}

func TestElicitUnsupported(t *testing.T) {
	srv, _ := askServer(t)
	cs := connect(t, srv) // no ElicitationHandler: no elicitation capability
	_, r := js(t, cs, lookup)
	if !strings.Contains(string(r.Value), "approval required") || !strings.Contains(string(r.Value), "does not support elicitation") {
		t.Fatalf("%s", r.Value)
	}
}
