package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"mcp", "--bogus"},
		{"mcp", "--max-sessions", "-1"},
		{"mcp", "--session-idle", "soon"},
		{"mcp", "--label", "novalue"},
		{"mcp", "extra"},
		{"mcp", "--config", "/nonexistent/cordon.yaml"},
		{"mcp", "--http", "256.0.0.1:bad"},
	} {
		code, stdout, stderr := cli(t, "", args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "cordon: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

func mcpCall(t *testing.T, cs *mcp.ClientSession, tool, key, code string) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{key: code}})
	if err != nil {
		t.Fatal(err)
	}
	var sc map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &sc)
	return res, sc
}

func TestMCPStdio(t *testing.T) {
	cr, sw := io.Pipe() // server to client
	sr, cw := io.Pipe() // client to server
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"mcp"}, sr, sw, &stderr)
		sw.Close()
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(lt.Tools) != 2 {
		t.Fatalf("tools %v, %v", lt, err)
	}
	mcpCall(t, cs, "run_shell", "script", `echo kept > f`)
	res, sc := mcpCall(t, cs, "run_javascript", "code", `const w = await weather.current({city: "SF"}); return [w.temp, fs.readFileSync("f")]`)
	if res.IsError || !strings.Contains(toJSON(sc["value"]), `[72,"kept\n"]`) {
		t.Fatalf("isError=%v %v", res.IsError, sc)
	}
	cs.Close()
	cw.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cordon mcp did not return when the client left")
	}
}

func TestMCPHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"mcp", "--http", "127.0.0.1:0", "--max-sessions", "2"}, strings.NewReader(""), io.Discard, &stderr)
	}()
	re := regexp.MustCompile(`http://\S+/mcp`)
	var url string
	for deadline := time.Now().Add(60 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		url = re.FindString(stderr.String())
	}
	if url == "" {
		t.Fatalf("no address: %q", stderr.String())
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	a, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mcpCall(t, a, "run_javascript", "code", `fs.writeFileSync("who", "a")`)
	_, sc := mcpCall(t, b, "run_javascript", "code", `return fs.existsSync("who")`)
	if sc["value"] != false {
		t.Fatalf("b sees a's file: %v", sc)
	}
	_, sc = mcpCall(t, a, "run_javascript", "code", `return fs.readFileSync("who")`)
	if sc["value"] != "a" {
		t.Fatalf("a lost its file: %v", sc)
	}
	cancel() // SIGINT
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cordon mcp --http did not shut down")
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestMCPUpstream: an upstream MCP server's tools are sandbox tools,
// NAME/<tool>, under the config's policy.
func TestMCPUpstream(t *testing.T) {
	up := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	up.AddTool(&mcp.Tool{Name: "greet", Description: "Greets someone", InputSchema: json.RawMessage(`{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var p struct{ Who string }
			json.Unmarshal(req.Params.Arguments, &p)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + p.Who}}}, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return up }, nil))
	defer hs.Close()
	cfg := writeFile(t, "c.yaml", "mcp_servers:\n  - name: up\n    url: "+hs.URL+"\ncapabilities:\n  - method: up/greet\n    max_calls: 1\n")

	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"mcp", "--config", cfg}, sr, sw, &stderr)
		sw.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatalf("%v (stderr %q)", err, stderr.String())
	}
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(lt.Tools) != 2 || !strings.Contains(lt.Tools[0].Description, "greet") {
		t.Fatalf("tools %v, %v", lt, err)
	}
	res, sc := mcpCall(t, cs, "run_javascript", "code", `return await up.greet({who: "ann"})`)
	if res.IsError || sc["value"] != "hello ann" {
		t.Fatalf("isError=%v %v (stderr %q)", res.IsError, sc, stderr.String())
	}
	// The second call is over the policy's limit.
	res, sc = mcpCall(t, cs, "run_shell", "script", `tool up/greet --who bob`)
	if !res.IsError || !strings.Contains(toJSON(sc["tool_calls"]), `"allowed":false`) {
		t.Fatalf("isError=%v %v", res.IsError, sc)
	}
	cs.Close()
	cw.Close()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}

	// An upstream that cannot start is a startup error.
	bad := writeFile(t, "bad.yaml", "mcp_servers:\n  - name: gone\n    command: [/nonexistent/server]\n")
	code, _, errText := cli(t, "", "mcp", "--config", bad)
	if code != exitUsage || !strings.Contains(errText, "mcp_servers[0] (gone): cannot start") || strings.Count(errText, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q", code, errText)
	}
}

// TestRunUpstream: `cordon run` gives the script the tools of the config's
// upstream MCP servers too, under the config's policy, and stops them.
func TestRunUpstream(t *testing.T) {
	up := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	up.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var p struct{ Who string }
			json.Unmarshal(req.Params.Arguments, &p)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + p.Who}}}, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return up }, nil))
	defer hs.Close()
	cfg := writeFile(t, "c.yaml", "mcp_servers:\n  - name: up\n    url: "+hs.URL+"\ncapabilities:\n  - method: up/greet\n    max_calls: 1\n")

	code, out, errText := cli(t, "", "run", "--config", cfg, "-e", `return await up.greet({who: "ann"})`)
	if code != 0 || !strings.Contains(out, "hello ann") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errText)
	}
	// The policy still decides: the second call is over max_calls.
	code, out, errText = cli(t, "", "run", "--config", cfg, "--lang", "shell", "-e", `tool up/greet --who a; tool up/greet --who b`)
	if code == 0 || !strings.Contains(out, "hello a") || !strings.Contains(errText, "max_calls") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errText)
	}
	// An upstream that cannot start is a usage error that names it.
	bad := writeFile(t, "bad.yaml", "mcp_servers:\n  - name: gone\n    command: [/nonexistent/server]\n")
	code, _, errText = cli(t, "", "run", "--config", bad, "-e", "return 1")
	if code != exitUsage || !strings.Contains(errText, "mcp_servers[0] (gone): cannot start") {
		t.Fatalf("exit %d, stderr %q", code, errText)
	}
}
