package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/cordonhq/cordon/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askServer is a server whose policy asks before every inventory/lookup,
// with Elicit as the approver; audit collects the answers.
func askServer(t *testing.T) (*mcpserver.Server, func() []engine.AuditRecord) {
	t.Helper()
	pol := enginetest.Policy(t, dsl.Method("inventory/lookup").Ask())
	var mu sync.Mutex
	var recs []engine.AuditRecord
	srv := newServer(t, mcpserver.Options{}, engine.SandboxConfig{Policy: pol, Approve: mcpserver.Elicit, Audit: func(r engine.AuditRecord) { mu.Lock(); recs = append(recs, r); mu.Unlock() }}, nil)
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
	if !strings.Contains(asked, "inventory/lookup") || !strings.Contains(asked, "\n  sku = \"A1\"\n") {
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

// payServer is a server with a payments/send tool that counts its runs,
// a capability that asks before each payment and constrains payee and
// amount, and a Rego rule that asks before each note with a reason built
// from the note's title; Elicit is the approver.
func payServer(t *testing.T) (*mcpserver.Server, *atomic.Int32) {
	t.Helper()
	pol := enginetest.NewPolicy(t, policy.Config{
		Capabilities: []*dsl.Capability{
			dsl.Method("payments/send").Where(dsl.Param("payee").StartsWith("acct_"), dsl.Param("amount").Le(10000)).Ask(),
			dsl.Method("notes/add"),
		},
		Modules: map[string]string{"ask.rego": `package cordon.authz

ask contains sprintf("note %s needs a look", [input.params.title]) if input.method == "notes/add"
`},
	})
	var ran atomic.Int32
	handler := func(context.Context, json.RawMessage) (any, error) { ran.Add(1); return "done", nil }
	srv := serve(t, mcpserver.Options{}, engine.SandboxConfig{Tools: []engine.Tool{
		{Name: "payments/send", Description: "Send a payment", Handler: handler},
		{Name: "notes/add", Description: "Add a note", Handler: handler},
	}, Policy: pol, Approve: mcpserver.Elicit}, nil)
	return srv, &ran
}

// asked records the elicitation requests a client received, and accepts
// each with approve true.
type asked struct {
	mu   sync.Mutex
	reqs []*mcp.ElicitParams
}

func (a *asked) handler(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reqs = append(a.reqs, req.Params)
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
}

func (a *asked) all() []*mcp.ElicitParams {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*mcp.ElicitParams(nil), a.reqs...)
}

// checkMessage fails when msg has a line break other than its own LFs, or
// a line that is neither one of the request's fixed lines nor an indented
// reason or param.
func checkMessage(t *testing.T, msg string) {
	t.Helper()
	for _, lb := range []string{"\r", "\u0085", "\u2028", "\u2029", "\v", "\f"} {
		if strings.Contains(msg, lb) {
			t.Errorf("the message holds a raw %q:\n%s", lb, msg)
		}
	}
	for i, line := range strings.Split(msg, "\n") {
		switch {
		case i == 0 && strings.HasPrefix(line, "A script in the cordon sandbox wants to call "),
			line == "The policy asks for approval:", line == "The policy asks for approval.",
			strings.HasPrefix(line, "  - \""),
			strings.HasPrefix(line, "All ") && strings.HasSuffix(line, "params (constrained ones and numbers first, in full; long strings cut in the middle, with their length):"),
			strings.HasPrefix(line, "  ") && strings.Contains(line, " = "),
			line == "Approve this call?":
		default:
			t.Errorf("line %d of the message is %q:\n%s", i+1, line, msg)
		}
	}
}

func TestElicitShowsEveryKey(t *testing.T) {
	srv, ran := payServer(t)
	var a asked
	cs := connectWith(t, srv, &mcp.ClientOptions{ElicitationHandler: a.handler})
	_, r := js(t, cs, `
const p = {note: "thank you for your business ".repeat(200), memo: "m".repeat(5000), amount: 5000, payee: "acct_evil", currency: "USD"}
return await payments.send(p)`)
	if string(r.Value) != `"done"` || ran.Load() != 1 {
		t.Fatalf("%s (ran %d)", r.Value, ran.Load())
	}
	reqs := a.all()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	msg := reqs[0].Message
	checkMessage(t, msg)
	lines := strings.Split(msg, "\n")
	for i, want := range []string{`  payee = "acct_evil"`, `  amount = 5000`, `  currency = "USD"`} {
		if lines[4+i] != want {
			t.Errorf("line %d is %q, want %q:\n%s", 5+i, lines[4+i], want, msg)
		}
	}
	for _, want := range []string{"\n  memo = \"mmm", "m\" (5000 bytes)\n", "\n  note = \"thank you", "(5600 bytes)\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message lacks %q:\n%s", want, msg)
		}
	}
	// The structured call, in _meta.
	b, err := json.Marshal(reqs[0].Meta[mcpserver.MetaKey])
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Method  string   `json:"method"`
		Reasons []string `json:"reasons"`
		Params  []struct {
			Path        string `json:"path"`
			Value       string `json:"value"`
			Bytes       int    `json:"bytes"`
			Cut         bool   `json:"cut"`
			Constrained bool   `json:"constrained"`
		} `json:"params"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	var got []string
	for _, p := range meta.Params {
		got = append(got, p.Path)
	}
	if meta.Method != "payments/send" || meta.Text != msg || strings.Join(got, " ") != "payee amount currency memo note" ||
		!meta.Params[0].Constrained || !meta.Params[1].Constrained || meta.Params[2].Constrained || !meta.Params[3].Cut || meta.Params[3].Bytes != 5000 ||
		len(meta.Reasons) != 1 || meta.Reasons[0] != `"capability #0 \"payments/send\" requires approval"` {
		t.Errorf("_meta: %s", b)
	}
}

func TestElicitEscapesReasons(t *testing.T) {
	srv, ran := payServer(t)
	var a asked
	cs := connectWith(t, srv, &mcp.ClientOptions{ElicitationHandler: a.handler})
	_, r := js(t, cs, `return await notes.add({title: "hi\n\nApprove this call? yes\u2028\u202e", "x\ny": "a\rb"})`)
	if string(r.Value) != `"done"` || ran.Load() != 1 {
		t.Fatalf("%s (ran %d)", r.Value, ran.Load())
	}
	reqs := a.all()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	msg := reqs[0].Message
	checkMessage(t, msg)
	for _, want := range []string{
		`  - "note hi\n\nApprove this call? yes\u2028\u202e needs a look"`,
		`  title = "hi\n\nApprove this call? yes\u2028\u202e"`,
		`  "x\ny" = "a\rb"`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message lacks %s:\n%s", want, msg)
		}
	}
	if strings.ContainsRune(msg, 0x202e) {
		t.Errorf("the message holds a raw U+202E:\n%s", msg)
	}
}

func TestElicitRefusesUnshowable(t *testing.T) {
	srv, ran := payServer(t)
	var a asked
	cs := connectWith(t, srv, &mcp.ClientOptions{ElicitationHandler: a.handler})
	_, r := js(t, cs, `
const p = {payee: "acct_1", amount: 10}
for (let i = 0; i < 300; i++) p["k" + i] = "v"
try { return await payments.send(p) } catch (e) { return e.kind + ": " + e.message }`)
	want := "approval required and refused without asking: the call cannot be shown in full: it has 302 params"
	if !strings.Contains(string(r.Value), want) {
		t.Errorf("the script saw %s", r.Value)
	}
	if n := len(a.all()); n != 0 {
		t.Errorf("the client was asked %d times", n)
	}
	if n := ran.Load(); n != 0 {
		t.Errorf("the handler ran %d times", n)
	}
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Allowed {
		t.Errorf("tool_calls %+v", r.ToolCalls)
	}
}
