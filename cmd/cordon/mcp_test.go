package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/internal/slack"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPUsageErrors(t *testing.T) {
	t.Setenv(tokenEnv, "")
	dir := t.TempDir()
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("abc\n"), 0o600)
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte(" \n"), 0o600)
	spaced := filepath.Join(dir, "spaced")
	os.WriteFile(spaced, []byte("0123456789abcdef 0123456789abcdef\n"), 0o600)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("a", maxTokenFile+1)), 0o600)
	priv := filepath.Join(dir, "priv.pem")
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalECPrivateKey(k)
	os.WriteFile(priv, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600)
	pub := writePublicKey(t, &k.PublicKey)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "bogus"},
		{[]string{"--max-sessions", "-1"}, "--max-sessions"},
		{[]string{"--max-sessions-per-principal", "-1"}, "--max-sessions-per-principal"},
		{[]string{"--session-memory", "-1"}, "--session-memory"},
		{[]string{"--session-idle", "soon"}, "session-idle"},
		{[]string{"--http", "127.0.0.1:0", "--session-idle", "0"}, "--session-idle 0"},
		{[]string{"--label", "novalue"}, "KEY=VALUE"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"--config", "/nonexistent/cordon.yaml"}, "nonexistent"},
		{[]string{"--http", "256.0.0.1:bad"}, "256.0.0.1"},
		{[]string{"--principal", "a\nb"}, "control character"},
		// Flags of --http alone.
		{[]string{"--token-file", short}, "--token-file needs --http"},
		{[]string{"--no-auth"}, "--no-auth needs --http"},
		{[]string{"--allow-remote"}, "--allow-remote needs --http"},
		{[]string{"--jwt-key", pub}, "--jwt-key needs --http"},
		// Addresses beyond this machine.
		{[]string{"--http", "0.0.0.0:0"}, "--allow-remote"},
		{[]string{"--http", ":0"}, "--allow-remote"},
		{[]string{"--http", "[::]:0"}, "--allow-remote"},
		{[]string{"--http", "192.0.2.1:0"}, "beyond this machine"},
		{[]string{"--http", "0.0.0.0:0", "--no-auth", "--allow-remote"}, "--no-auth serves only a loopback address"},
		// Tokens.
		{[]string{"--http", "127.0.0.1:0", "--token-file", short}, "at least 16"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", empty}, "is empty"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", spaced}, `" "`},
		{[]string{"--http", "127.0.0.1:0", "--token-file", big}, "larger than"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", filepath.Join(dir, "none")}, "no such file"},
		{[]string{"--http", "127.0.0.1:0", "--no-auth", "--token-file", short}, "choose one"},
		// JWTs.
		{[]string{"--http", "127.0.0.1:0", "--jwt-key", pub}, "--jwt-issuer and --jwt-audience"},
		{[]string{"--http", "127.0.0.1:0", "--jwt-key", pub, "--jwt-issuer", "i"}, "--jwt-issuer and --jwt-audience"},
		{[]string{"--http", "127.0.0.1:0", "--jwt-issuer", "i", "--jwt-audience", "a"}, "need --jwt-key"},
		{[]string{"--http", "127.0.0.1:0", "--jwt-key", priv, "--jwt-issuer", "i", "--jwt-audience", "a"}, "private key"},
		{[]string{"--http", "127.0.0.1:0", "--jwt-key", short, "--jwt-issuer", "i", "--jwt-audience", "a"}, "no PEM public key"},
		{[]string{"--http", "127.0.0.1:0", "--jwt-key", pub, "--jwt-issuer", "i", "--jwt-audience", "a", "--principal", "p"}, "sub claim"},
		{[]string{"--http", "127.0.0.1:0", "--jwt-key", pub, "--jwt-issuer", "i", "--jwt-audience", "a", "--token-file", short}, "choose one"},
		// TLS.
		{[]string{"--http", "127.0.0.1:0", "--tls-cert", pub}, "go together"},
		{[]string{"--http", "127.0.0.1:0", "--tls-cert", pub, "--tls-key", priv}, "--tls-cert"},
		// Bounds.
		{[]string{"--http", "127.0.0.1:0", "--session-memory", "100"}, "no session could open"},
	} {
		code, stdout, stderr := cli(t, "", append([]string{"mcp"}, c.args...)...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "cordon: ") || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q (want %q)", c.args, code, stdout, stderr, c.want)
		}
	}
	// A token in the environment is checked like one in a file, and
	// conflicts with --no-auth.
	t.Setenv(tokenEnv, "short")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--http", "127.0.0.1:0"}, "$CORDON_MCP_TOKEN"},
		{[]string{"--http", "127.0.0.1:0", "--no-auth"}, "unset it"},
	} {
		code, _, stderr := cli(t, "", append([]string{"mcp"}, c.args...)...)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q with $%s: exit %d, stderr %q", c.args, tokenEnv, code, stderr)
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
	var stderr enginetest.Buffer
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
	bound := slack.Scale(t, 10*time.Second)
	cs.Close()
	cw.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	case <-time.After(bound):
		t.Fatalf("cordon mcp did not return within %v of the client leaving", bound)
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
	var stderr enginetest.Buffer
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

// TestMCPHelp: `cordon mcp --help` lists the mcp flags, and run's help
// does not.
func TestMCPHelp(t *testing.T) {
	code, stdout, stderr := cli(t, "", "mcp", "--help")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage: cordon mcp") {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	for _, f := range []string{"--http", "--token-file", "--jwt-key", "--no-auth", "--allow-remote", "--tls-cert", "--max-sessions N", "--max-sessions-per-principal", "--session-memory", "--session-idle", "--principal", "CORDON_MCP_TOKEN"} {
		if !strings.Contains(stdout, f) {
			t.Errorf("mcp --help does not mention %s", f)
		}
	}
	if _, stdout, _ := cli(t, "", "run", "--help"); strings.Contains(stdout, "--token-file") {
		t.Errorf("run --help lists mcp flags:\n%s", stdout)
	}
}
