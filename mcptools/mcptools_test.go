package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/mcptools"
	"github.com/cordonhq/cordon/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain doubles as a stdio MCP server for TestStartStdio.
func TestMain(m *testing.M) {
	if os.Getenv("MCPTOOLS_TEST_SERVER") == "1" {
		if err := upstream().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func text(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }

// upstream is an MCP server with one tool of each kind of result.
func upstream() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "structured", Description: "Structured", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"double":{"type":"number"}}}`),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var p struct{ N float64 }
			json.Unmarshal(req.Params.Arguments, &p)
			return &mcp.CallToolResult{Content: text("ignored"), StructuredContent: map[string]any{"double": p.N * 2}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "json.text", Description: "JSON text", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text(`{"a":[1,2]}`)}, nil
		})
	s.AddTool(&mcp.Tool{Name: "plain", Description: "Plain text", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text("hello there")}, nil
		})
	s.AddTool(&mcp.Tool{Name: "fail", Description: "Fails", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text("no such repo"), IsError: true}, nil
		})
	s.AddTool(&mcp.Tool{Name: "hang", Description: "Never answers", InputSchema: obj},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(&mcp.Tool{Name: "crash", Description: "Exits the process", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if os.Getenv("MCPTOOLS_TEST_SERVER") == "1" {
				os.Exit(3)
			}
			return &mcp.CallToolResult{Content: text("not a process")}, nil
		})
	return s
}

var (
	engOnce sync.Once
	eng     *engine.Engine
	engErr  error
)

func testEngine(t testing.TB) *engine.Engine {
	t.Helper()
	engOnce.Do(func() {
		eng, engErr = engine.New(context.Background(), engine.NewConfig().WithLogger(slog.New(slog.DiscardHandler)).WithPool(2))
	})
	if engErr != nil {
		t.Fatal(engErr)
	}
	return eng
}

// inMemory connects a client to a fresh upstream; it returns the server's
// side too.
func inMemory(t *testing.T) (*mcp.ClientSession, *mcp.ServerSession) {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := upstream().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, ss
}

func runJS(t *testing.T, tool *codemode.Tool, code string) *codemode.Result {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"code": code})
	r, err := tool.Run(context.Background(), string(b))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestImport(t *testing.T) {
	cs, _ := inMemory(t)
	infos := map[string]mcptools.Info{}
	tools, err := mcptools.Import(context.Background(), "up", cs, infos)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]engine.Tool{}
	for _, tl := range tools {
		names = append(names, tl.Name)
		byName[tl.Name] = tl
	}
	if got := strings.Join(names, " "); got != "up/crash up/fail up/hang up/json_text up/plain up/structured" {
		t.Fatalf("names: %s", got)
	}
	st, jt := byName["up/structured"], byName["up/json_text"]
	if !strings.Contains(jt.Description, `MCP tool "json.text"`) || !strings.Contains(st.Description, "read-only") {
		t.Errorf("descriptions %q, %q", st.Description, jt.Description)
	}
	if !strings.Contains(string(st.InputSchema), `"required":["n"]`) || !strings.Contains(string(st.OutputSchema), "double") {
		t.Errorf("schemas %s %s", st.InputSchema, st.OutputSchema)
	}
	if i := infos["up/json_text"]; i.Upstream != "json.text" || i.Server != "up" || infos["up/structured"].Annotations == nil || !infos["up/structured"].Annotations.ReadOnlyHint {
		t.Errorf("infos %+v", infos)
	}

	run := codemode.New(testEngine(t), tools, codemode.WithLimits(engine.Limits{Timeout: 500 * time.Millisecond}))
	t.Cleanup(func() { run.CloseAll(context.Background()) })
	r := runJS(t, run, `return [(await up.structured({n: 21})).double, await up.json_text({}), await up.plain({})]`)
	if r.IsError() || string(r.Value) != `[42,{"a":[1,2]},"hello there"]` {
		t.Fatalf("%s", r.Text())
	}
	// The input schema is checked on the host.
	r = runJS(t, run, `try { await up.structured({n: "x"}) } catch (e) { return [e.kind, e.message] }`)
	if !strings.Contains(string(r.Value), `"invalid"`) {
		t.Errorf("bad params: %s", r.Value)
	}
	r = runJS(t, run, `try { await up.fail({}) } catch (e) { return [e.kind, e.message] }`)
	if !strings.Contains(string(r.Value), `"failed"`) || !strings.Contains(string(r.Value), "no such repo") {
		t.Errorf("isError: %s", r.Value)
	}
	start := time.Now()
	r = runJS(t, run, `await up.hang({})`)
	if !r.IsError() || time.Since(start) > 10*time.Second {
		t.Errorf("hang: %v %s", time.Since(start), r.Text())
	}
	// The session goes on.
	if r := runJS(t, run, `return await up.plain({})`); string(r.Value) != `"hello there"` {
		t.Errorf("after hang: %s", r.Text())
	}
}

func TestImportCollision(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	h := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }
	s.AddTool(&mcp.Tool{Name: "a.b", InputSchema: json.RawMessage(`{"type":"object"}`)}, h)
	s.AddTool(&mcp.Tool{Name: "a_b", InputSchema: json.RawMessage(`{"type":"object"}`)}, h)
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	_, err = mcptools.Import(context.Background(), "up", cs, nil)
	if err == nil || !strings.Contains(err.Error(), `"a.b" and "a_b" would both be up/a_b`) {
		t.Fatalf("err = %v", err)
	}
}

// TestStartStdio starts the test binary as a stdio server, and checks
// that its crash gives clear tool errors.
func TestStartStdio(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ups, err := mcptools.Start(context.Background(), []mcptools.Server{{
		Name: "up", Command: []string{exe}, Env: map[string]string{"MCPTOOLS_TEST_SERVER": "1"},
	}}, mcptools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ups.Close()
	if i, ok := ups.Info("up/json_text"); !ok || i.Upstream != "json.text" {
		t.Errorf("Info = %+v, %v", i, ok)
	}
	run := codemode.New(testEngine(t), ups.Tools(), codemode.WithLimits(engine.Limits{Timeout: 5 * time.Second}))
	t.Cleanup(func() { run.CloseAll(context.Background()) })
	if r := runJS(t, run, `return (await up.structured({n: 2})).double`); string(r.Value) != "4" {
		t.Fatalf("%s", r.Text())
	}
	start := time.Now()
	runJS(t, run, `try { await up.crash({}) } catch (e) {}`)
	r := runJS(t, run, `try { await up.plain({}) } catch (e) { return [e.kind, e.message] }`)
	if !strings.Contains(string(r.Value), `"failed"`) || !strings.Contains(string(r.Value), "MCP server up") || time.Since(start) > 10*time.Second {
		t.Fatalf("after the crash (%v): %s", time.Since(start), r.Text())
	}
}

func TestStartErrors(t *testing.T) {
	_, err := mcptools.Start(context.Background(), []mcptools.Server{{Name: "nope", Command: []string{"/nonexistent/server"}}}, mcptools.Options{})
	if err == nil || !strings.Contains(err.Error(), "mcp_servers[0] (nope): cannot start") {
		t.Fatalf("err = %v", err)
	}
}

// TestPolicyInput: the policy sees an imported tool's server and
// annotations as input.tool (examples/mcp-policy).
func TestPolicyInput(t *testing.T) {
	results, err := policy.RunTests(context.Background(), []string{"../examples/mcp-policy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatal("no Rego tests ran")
	}
	for _, r := range results {
		if !r.Pass() {
			t.Errorf("%s", r)
		}
	}

	pol, err := policy.New(context.Background(), policy.Config{Paths: []string{"../examples/mcp-policy/mcp.rego"}})
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := inMemory(t)
	tools, err := mcptools.Import(context.Background(), "up", cs, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := codemode.New(testEngine(t), tools, codemode.WithPolicy(pol))
	t.Cleanup(func() { run.CloseAll(context.Background()) })
	// structured is read-only; plain says nothing, so it may be destructive:
	// the policy asks, and with no approver the call is denied.
	r := runJS(t, run, `const a = (await up.structured({n: 1})).double
try { await up.plain({}) } catch (e) { return [a, e.kind, e.message] }`)
	if !strings.Contains(string(r.Value), `[2,"denied"`) || !strings.Contains(string(r.Value), "up/plain may be destructive (MCP server up") {
		t.Fatalf("%s", r.Text())
	}
}

func TestPolicyInfoDefaults(t *testing.T) {
	no := false
	got := mcptools.PolicyInfo("s", &mcp.ToolAnnotations{IdempotentHint: true, OpenWorldHint: &no})
	want := map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": false}
	if got.Server != "s" || fmt.Sprint(got.Annotations) != fmt.Sprint(want) {
		t.Errorf("%+v", got)
	}
	if d := mcptools.PolicyInfo("s", nil).Annotations; !d["destructiveHint"] || !d["openWorldHint"] || d["readOnlyHint"] {
		t.Errorf("defaults %v", d)
	}
}
