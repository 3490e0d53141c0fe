package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func testTools() []engine.Tool {
	return []engine.Tool{{
		Name:        "inventory/lookup",
		Description: "Look up an item by SKU",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}`),
		Handler: engine.Func(func(_ context.Context, p struct {
			SKU string `json:"sku"`
		}) (map[string]any, error) {
			if p.SKU != "A1" {
				return nil, fmt.Errorf("no item %q", p.SKU)
			}
			return map[string]any{"sku": "A1", "stock": 12}, nil
		}),
	}}
}

// newServer returns a server of code mode over testTools.
func newServer(t *testing.T, o mcpserver.Options, cfg engine.SandboxConfig, opts *codemode.Options) *mcpserver.Server {
	t.Helper()
	cfg.Tools = testTools()
	return serve(t, o, cfg, opts)
}

// serve returns a server of code mode over tools, closed when the test
// ends.
func serve(t testing.TB, o mcpserver.Options, cfg engine.SandboxConfig, opts *codemode.Options) *mcpserver.Server {
	t.Helper()
	srv := mcpserver.New(codemodetest.New(t, cfg, opts), o)
	t.Cleanup(func() { srv.Close(context.Background()) })
	return srv
}

// connect returns a client session connected to srv in memory.
func connect(t *testing.T, srv *mcpserver.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type result struct {
	Stdout   string          `json:"stdout"`
	Stderr   string          `json:"stderr"`
	ExitCode int             `json:"exit_code"`
	Value    json.RawMessage `json:"value"`
	Error    *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
	ToolCalls []struct {
		Method  string   `json:"method"`
		Allowed bool     `json:"allowed"`
		Reasons []string `json:"reasons"`
	} `json:"tool_calls"`
}

func call(t *testing.T, cs *mcp.ClientSession, tool, key, code string) (*mcp.CallToolResult, result) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{key: code}})
	if err != nil {
		t.Fatalf("%s %q: %v", tool, code, err)
	}
	var r result
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("content has %d items, want 1", len(res.Content))
	}
	return res, r
}

func js(t *testing.T, cs *mcp.ClientSession, code string) (*mcp.CallToolResult, result) {
	t.Helper()
	return call(t, cs, codemode.JavaScriptName, "code", code)
}

func text(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

func TestListTools(t *testing.T) {
	cs := connect(t, newServer(t, mcpserver.Options{}, engine.SandboxConfig{}, nil))
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Tools) != 2 {
		t.Fatalf("%d tools, want 2", len(lt.Tools))
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range lt.Tools {
		byName[tl.Name] = tl
	}
	for name, key := range map[string]string{codemode.JavaScriptName: "code", codemode.ShellName: "script"} {
		tl := byName[name]
		if tl == nil {
			t.Fatalf("no tool %s", name)
		}
		if !strings.Contains(tl.Description, "inventory") {
			t.Errorf("%s: description does not describe the tools:\n%s", name, tl.Description)
		}
		b, _ := json.Marshal(tl.InputSchema)
		if !strings.Contains(string(b), `"`+key+`"`) {
			t.Errorf("%s: input schema %s has no %q", name, b, key)
		}
		if tl.OutputSchema == nil {
			t.Errorf("%s: no output schema", name)
		}
	}
}

func TestJavaScriptAndShell(t *testing.T) {
	cs := connect(t, newServer(t, mcpserver.Options{}, engine.SandboxConfig{}, nil))
	res, r := js(t, cs, `console.log("hi"); return (await inventory.lookup({sku: "A1"})).stock`)
	if res.IsError || r.Stdout != "hi\n" || string(r.Value) != "12" || r.ExitCode != 0 || r.Error != nil {
		t.Fatalf("JS: isError=%v %+v", res.IsError, r)
	}
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Method != "inventory/lookup" || !r.ToolCalls[0].Allowed {
		t.Errorf("tool_calls = %+v", r.ToolCalls)
	}
	if !strings.Contains(text(res), "hi") {
		t.Errorf("text = %q", text(res))
	}

	res, r = call(t, cs, codemode.ShellName, "script", `tool inventory/lookup --sku A1 | jq .stock; echo err >&2; exit 3`)
	if !res.IsError || r.ExitCode != 3 || r.Stdout != "12\n" || r.Stderr != "err\n" {
		t.Fatalf("shell: isError=%v %+v", res.IsError, r)
	}

	res, r = js(t, cs, `throw new Error("boom")`)
	if !res.IsError || r.Error == nil || !strings.Contains(text(res), "boom") {
		t.Fatalf("throw: isError=%v %+v text=%q", res.IsError, r, text(res))
	}
}

func TestPersistenceAndIsolation(t *testing.T) {
	srv := newServer(t, mcpserver.Options{}, engine.SandboxConfig{}, nil)
	a, b := connect(t, srv), connect(t, srv)
	js(t, a, `fs.writeFileSync("who", "a")`)
	call(t, b, codemode.ShellName, "script", `echo b > who`)
	_, ra := js(t, a, `return fs.readFileSync("who")`)
	_, rb := call(t, b, codemode.ShellName, "script", `cat who`)
	if string(ra.Value) != `"a"` || rb.Stdout != "b\n" {
		t.Fatalf("a read %s, b read %q", ra.Value, rb.Stdout)
	}
	// JavaScript and shell calls of one session share its sandbox.
	_, r := call(t, a, codemode.ShellName, "script", `cat who`)
	if r.Stdout != "a" {
		t.Fatalf("shell in a read %q", r.Stdout)
	}
	if n := srv.Sessions(); n != 2 {
		t.Errorf("Sessions() = %d, want 2", n)
	}
	// Ending a session closes its sandbox.
	b.Close()
	deadline := time.Now().Add(5 * time.Second)
	for srv.Sessions() != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := srv.Sessions(); n != 1 {
		t.Errorf("after one session closed, Sessions() = %d, want 1", n)
	}
}

func TestTimeout(t *testing.T) {
	cs := connect(t, newServer(t, mcpserver.Options{}, engine.SandboxConfig{Limits: engine.Limits{Timeout: 300 * time.Millisecond}}, nil))
	start := time.Now()
	res, r := js(t, cs, `while (true) {}`)
	if !res.IsError || r.Error == nil || r.Error.Kind != string(engine.KindTimeout) {
		t.Fatalf("isError=%v %+v", res.IsError, r)
	}
	if d, bound := time.Since(start), enginetest.Scale(t, 10*time.Second); d > bound {
		t.Errorf("a time limit of 300ms ended the call after %v, past %v", d, bound)
	}
	// The session goes on.
	if res, r := js(t, cs, `return 1`); res.IsError || string(r.Value) != "1" {
		t.Fatalf("after timeout: isError=%v %+v", res.IsError, r)
	}
}

func TestMaxSessions(t *testing.T) {
	srv := newServer(t, mcpserver.Options{MaxSessions: 1}, engine.SandboxConfig{}, nil)
	a := connect(t, srv)
	if res, _ := js(t, a, `return 1`); res.IsError {
		t.Fatal(text(res))
	}
	// The second session's initialize is refused, with the bound in the
	// message.
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	_, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err == nil || !strings.Contains(err.Error(), "too many sessions") || !strings.Contains(err.Error(), "at most 1") {
		t.Fatalf("over the cap: err = %v", err)
	}
	if res, _ := js(t, a, `return 2`); res.IsError {
		t.Fatal(text(res))
	}
	// Closing the first frees its slot.
	a.Close()
	waitSessions(t, srv, 0)
	if res, _ := js(t, connect(t, srv), `return 3`); res.IsError {
		t.Fatal(text(res))
	}
}

// waitSessions waits until srv holds n sessions.
func waitSessions(t *testing.T, srv *mcpserver.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for srv.Sessions() != n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := srv.Sessions(); got != n {
		t.Fatalf("Sessions() = %d, want %d", got, n)
	}
}

// TestSessionIdle: the session's sandbox is closed after the idle time;
// the next call starts an empty one.
func TestSessionIdle(t *testing.T) {
	cs := connect(t, newServer(t, mcpserver.Options{}, engine.SandboxConfig{}, &codemode.Options{IdleTimeout: 200 * time.Millisecond}))
	js(t, cs, `fs.writeFileSync("f", "x")`)
	if _, r := js(t, cs, `return fs.existsSync("f")`); string(r.Value) != "true" {
		t.Fatalf("%+v", r)
	}
	time.Sleep(600 * time.Millisecond)
	if _, r := js(t, cs, `return fs.existsSync("f")`); string(r.Value) != "false" {
		t.Fatalf("after idle: %+v", r)
	}
}
