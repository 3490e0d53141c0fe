package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/mcptools"
	"github.com/cordonhq/cordon/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain doubles as the upstream servers of the tests, started as
// subprocesses: MCPTOOLS_TEST_SERVER=1 is upstream() over stdio, =raw a
// hostile server that writes its JSON-RPC by hand (rawServer).
func TestMain(m *testing.M) {
	switch os.Getenv("MCPTOOLS_TEST_SERVER") {
	case "1":
		if msg := os.Getenv("MCPTOOLS_TEST_STDERR"); msg != "" {
			os.Stderr.WriteString(msg)
		}
		if err := upstream().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "raw":
		rawServer(os.Stdin, os.Stdout)
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
	s.AddTool(&mcp.Tool{Name: "pid", Description: "The process id", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text(fmt.Sprint(os.Getpid()))}, nil
		})
	s.AddTool(&mcp.Tool{Name: "env", Description: "The process's environment", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: map[string]any{"env": os.Environ()}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "big", Description: "A text result of n bytes", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var p struct{ N int }
			json.Unmarshal(req.Params.Arguments, &p)
			return &mcp.CallToolResult{Content: text(strings.Repeat("x", p.N))}, nil
		})
	s.AddTool(&mcp.Tool{Name: "closeout", Description: "Closes its stdout and stays", InputSchema: obj},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if os.Getenv("MCPTOOLS_TEST_SERVER") == "1" {
				os.Stdout.Close()
			}
			<-ctx.Done()
			return nil, ctx.Err()
		})
	return s
}

// inMemory connects a client to a fresh upstream; it returns the server's
// side too.
func inMemory(t *testing.T) (*mcp.ClientSession, *mcp.ServerSession) {
	t.Helper()
	return connect(t, upstream())
}

// connect connects a client to s in memory, closed when the test ends; it
// returns the server's side too.
func connect(t *testing.T, s *mcp.Server) (*mcp.ClientSession, *mcp.ServerSession) {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
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

// startSelf starts the test binary as the stdio server srv (its Command
// set), serving what $MCPTOOLS_TEST_SERVER selects ("1", the upstream,
// unless srv.Env says otherwise), closed when the test ends.
func startSelf(t *testing.T, srv mcptools.Upstream, opts mcptools.Options) *mcptools.Upstreams {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv.Command = []string{exe}
	srv.Env = maps.Clone(srv.Env)
	if srv.Env == nil {
		srv.Env = map[string]string{}
	}
	if _, ok := srv.Env["MCPTOOLS_TEST_SERVER"]; !ok {
		srv.Env["MCPTOOLS_TEST_SERVER"] = "1"
	}
	ups, err := mcptools.Start(context.Background(), []mcptools.Upstream{srv}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ups.Close() })
	return ups
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
	if got := strings.Join(names, " "); got != "up/big up/closeout up/crash up/env up/fail up/hang up/json_text up/pid up/plain up/structured" {
		t.Fatalf("names: %s", got)
	}
	st, jt := byName["up/structured"], byName["up/json_text"]
	// The server's annotations are not trusted: the description does not
	// repeat them, and the policy sees MCP's defaults.
	if !strings.Contains(jt.Description, `MCP tool "json.text"`) || st.Description != "Structured" {
		t.Errorf("descriptions %q, %q", st.Description, jt.Description)
	}
	if fmt.Sprint(st.Policy.Annotations) != fmt.Sprint(mcptools.DefaultHints()) || st.Policy.Server != "up" {
		t.Errorf("policy info %+v", st.Policy)
	}
	if !strings.Contains(string(st.InputSchema), `"required":["n"]`) || !strings.Contains(string(st.OutputSchema), "double") {
		t.Errorf("schemas %s %s", st.InputSchema, st.OutputSchema)
	}
	if i := infos["up/json_text"]; i.Upstream != "json.text" || i.Server != "up" || infos["up/structured"].Annotations == nil || !infos["up/structured"].Annotations.ReadOnlyHint {
		t.Errorf("infos %+v", infos)
	}

	run := codemodetest.New(t, engine.SandboxConfig{Tools: tools, Limits: engine.Limits{Timeout: 500 * time.Millisecond}}, nil)
	r := codemodetest.RunJS(t, run, `return [(await up.structured({n: 21})).double, await up.json_text({}), await up.plain({})]`)
	if r.IsError() || string(r.Value) != `[42,{"a":[1,2]},"hello there"]` {
		t.Fatalf("%s", r.Text())
	}
	// The input schema is checked on the host.
	r = codemodetest.RunJS(t, run, `try { await up.structured({n: "x"}) } catch (e) { return [e.kind, e.message] }`)
	if !strings.Contains(string(r.Value), `"invalid"`) {
		t.Errorf("bad params: %s", r.Value)
	}
	r = codemodetest.RunJS(t, run, `try { await up.fail({}) } catch (e) { return [e.kind, e.message] }`)
	if !strings.Contains(string(r.Value), `"failed"`) || !strings.Contains(string(r.Value), "no such repo") {
		t.Errorf("isError: %s", r.Value)
	}
	bound := enginetest.Scale(t, 10*time.Second)
	start := time.Now()
	r = codemodetest.RunJS(t, run, `await up.hang({})`)
	if !r.IsError() || time.Since(start) > bound {
		t.Errorf("hang, past %v: %v %s", bound, time.Since(start), r.Text())
	}
	// The session goes on.
	if r := codemodetest.RunJS(t, run, `return await up.plain({})`); string(r.Value) != `"hello there"` {
		t.Errorf("after hang: %s", r.Text())
	}
}

func TestImportCollision(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	h := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }
	s.AddTool(&mcp.Tool{Name: "a.b", InputSchema: json.RawMessage(`{"type":"object"}`)}, h)
	s.AddTool(&mcp.Tool{Name: "a_b", InputSchema: json.RawMessage(`{"type":"object"}`)}, h)
	cs, _ := connect(t, s)
	_, err := mcptools.Import(context.Background(), "up", cs, nil)
	if err == nil || !strings.Contains(err.Error(), `"a.b" and "a_b" would both be up/a_b`) {
		t.Fatalf("err = %v", err)
	}
}

// TestStartStdio starts the test binary as a stdio server, and checks
// that its crash fails the call in flight only: the next call starts the
// server again.
func TestStartStdio(t *testing.T) {
	ups := startSelf(t, mcptools.Upstream{Name: "up"}, mcptools.Options{})
	if i, ok := ups.Info("up/json_text"); !ok || i.Upstream != "json.text" {
		t.Errorf("Info = %+v, %v", i, ok)
	}
	run := codemodetest.New(t, engine.SandboxConfig{Tools: ups.Tools(), Limits: engine.Limits{Timeout: 5 * time.Second}}, nil)
	if r := codemodetest.RunJS(t, run, `return (await up.structured({n: 2})).double`); string(r.Value) != "4" {
		t.Fatalf("%s", r.Text())
	}
	pid := codemodetest.RunJS(t, run, `return await up.pid({})`).Value
	bound := enginetest.Scale(t, 10*time.Second)
	start := time.Now()
	r := codemodetest.RunJS(t, run, `try { await up.crash({}) } catch (e) { return [e.kind, e.message] }`)
	if !strings.Contains(string(r.Value), `"failed"`) || !strings.Contains(string(r.Value), "MCP server up") {
		t.Fatalf("the crashing call: %s", r.Text())
	}
	r = codemodetest.RunJS(t, run, `return [await up.plain({}), await up.pid({})]`)
	if r.IsError() || !strings.HasPrefix(string(r.Value), `["hello there",`) || strings.Contains(string(r.Value), string(pid)) || time.Since(start) > bound {
		t.Fatalf("after the crash (%v, bound %v; pid was %s): %s", time.Since(start), bound, pid, r.Text())
	}
}

func TestStartErrors(t *testing.T) {
	_, err := mcptools.Start(context.Background(), []mcptools.Upstream{{Name: "nope", Command: []string{"/nonexistent/server"}}}, mcptools.Options{})
	if err == nil || !strings.Contains(err.Error(), "mcp_servers[0] (nope): cannot start") {
		t.Fatalf("err = %v", err)
	}
}

// TestPolicyInput: the policy sees an imported tool's server and
// annotations as input.tool (examples/mcp-policy): MCP's defaults for a
// server that is not trusted, whatever it claims, and the pinned hints.
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
	for _, c := range []struct {
		name   string
		server mcptools.Upstream
		want   string
	}{
		// structured says it is read-only, but the server is not
		// trusted: the policy asks, and with no approver the call is
		// denied.
		{"untrusted", mcptools.Upstream{Name: "github"}, `["denied","tool github/structured denied: approval required and no approver is configured: github/structured may change something`},
		{"pinned", mcptools.Upstream{Name: "github", Annotations: map[string]mcptools.Hints{"structured": {ReadOnly: ptr(true)}}}, `[2]`},
		{"trusted", mcptools.Upstream{Name: "github", TrustAnnotations: true}, `[2]`},
		// A server the policy does not name is not permitted, read-only
		// or not.
		{"unnamed server", mcptools.Upstream{Name: "evil", TrustAnnotations: true}, `["denied","tool evil/structured denied: no capability allows method`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cs, _ := inMemory(t)
			tools, _, err := c.server.Import(context.Background(), cs, nil)
			if err != nil {
				t.Fatal(err)
			}
			run := codemodetest.New(t, engine.SandboxConfig{Tools: tools, Policy: pol}, nil)
			r := codemodetest.RunJS(t, run, `try { return [(await globalThis[`+"`"+c.server.Name+"`"+`].structured({n: 1})).double] } catch (e) { return [e.kind, e.message] }`)
			if !strings.HasPrefix(string(r.Value), c.want) {
				t.Fatalf("got %s, want %s...", r.Value, c.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestPolicyInfo: a hint is the pinned one, else the server's when it is
// trusted, else MCP's default; the description says the hints only when
// they are known.
func TestPolicyInfo(t *testing.T) {
	no, yes := false, true
	a := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no, DestructiveHint: &no}
	for _, c := range []struct {
		s    mcptools.Upstream
		want map[string]bool
	}{
		{mcptools.Upstream{Name: "s"}, mcptools.DefaultHints()},
		{mcptools.Upstream{Name: "s", TrustAnnotations: true}, map[string]bool{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}},
		{mcptools.Upstream{Name: "s", Annotations: map[string]mcptools.Hints{"t": {OpenWorld: &no}}}, map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": false}},
		{mcptools.Upstream{Name: "s", TrustAnnotations: true, Annotations: map[string]mcptools.Hints{"t": {ReadOnly: &no, Destructive: &yes}}}, map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": false}},
		{mcptools.Upstream{Name: "s", Annotations: map[string]mcptools.Hints{"other": {ReadOnly: &yes}}}, mcptools.DefaultHints()},
	} {
		got := c.s.PolicyInfo("t", a)
		if got.Server != "s" || fmt.Sprint(got.Annotations) != fmt.Sprint(c.want) {
			t.Errorf("%+v: %v, want %v", c.s, got.Annotations, c.want)
		}
	}
	if d := (mcptools.Upstream{Name: "s", TrustAnnotations: true}).PolicyInfo("t", nil).Annotations; fmt.Sprint(d) != fmt.Sprint(mcptools.DefaultHints()) {
		t.Errorf("trusted, no annotations: %v", d)
	}

	cs, _ := inMemory(t)
	for _, c := range []struct {
		s    mcptools.Upstream
		want string
	}{
		{mcptools.Upstream{Name: "up"}, "Structured"},
		{mcptools.Upstream{Name: "up", TrustAnnotations: true}, "Structured\n(read-only)"},
		{mcptools.Upstream{Name: "up", Annotations: map[string]mcptools.Hints{"structured": {ReadOnly: &no}}}, "Structured\n(may be destructive)"},
	} {
		tools, _, err := c.s.Import(context.Background(), cs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools {
			if tl.Name == "up/structured" && tl.Description != c.want {
				t.Errorf("%+v: description %q, want %q", c.s, tl.Description, c.want)
			}
		}
	}
}

// An upstream server's labels go on every tool it gives, so that a flow
// rule covers it: after a private read, an upstream labelled egress is
// refused.
func TestUpstreamLabelsFlow(t *testing.T) {
	cs, _ := inMemory(t)
	tools, _, err := mcptools.Upstream{Name: "up", Labels: []string{"egress"}}.Import(context.Background(), cs, map[string]mcptools.Info{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if !slices.Equal(tl.Labels, []string{"egress"}) {
			t.Fatalf("%s: labels %q", tl.Name, tl.Labels)
		}
	}
	crm := enginetest.Mock("crm/read", "ada@acme.test")
	crm.Labels = []string{"private"}
	pol := enginetest.Policy(t, dsl.Method("crm/read"), dsl.Method("up/**").UnlessTouched("private"))
	run := codemodetest.New(t, engine.SandboxConfig{Tools: append(tools, crm), Policy: pol}, nil)
	r := codemodetest.RunJS(t, run, `const out = [await up.plain({})]
await crm.read({})
try { await up.plain({}) } catch (e) { out.push(e.kind) }
return out`)
	if string(r.Value) != `["hello there","denied"]` {
		t.Fatalf("%s", r.Text())
	}
}
