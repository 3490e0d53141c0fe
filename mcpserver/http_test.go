package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	tokenA = "token-of-alice-0123456789"
	tokenB = "token-of-bob-0123456789ab"
)

// twoTokens is a verifier of two principals, alice and bob.
func twoTokens(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	switch token {
	case tokenA:
		return &auth.TokenInfo{UserID: "alice"}, nil
	case tokenB:
		return &auth.TokenInfo{UserID: "bob"}, nil
	}
	return nil, fmt.Errorf("test: %w", auth.ErrInvalidToken)
}

// whoTools are testTools plus who/ami, which returns the principal its
// handler's context carries.
func whoTools() []engine.Tool {
	return append(testTools(), engine.Tool{
		Name:        "who/ami",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: engine.Func(func(ctx context.Context, _ struct{}) (string, error) {
			return mcpserver.PrincipalFrom(ctx), nil
		}),
	})
}

// serveHTTP serves h at a loopback address and returns its /mcp URL.
func serveHTTP(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	hs := &http.Server{Handler: mux}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

// httpServer is a server with the two-principal verifier, served over
// HTTP.
func httpServer(t *testing.T, o mcpserver.Options) (*mcpserver.Server, string) {
	t.Helper()
	if o.Verifier == nil && !o.AllowUnauthenticated {
		o.Verifier = twoTokens
	}
	srv := serve(t, o, engine.SandboxConfig{Tools: whoTools()}, nil)
	return srv, serveHTTP(t, srv.HTTPHandler(nil))
}

// bearerTransport adds an Authorization header to each request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// dial connects a client to url with token (none if "").
func dial(url, token string) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	return c.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:   url,
		HTTPClient: &http.Client{Transport: bearerTransport{token}},
	}, nil)
}

func mustDial(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	cs, err := dial(url, token)
	if err != nil {
		t.Fatalf("connect with %q: %v", token, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// post sends one raw JSON-RPC message, with token and session id if not
// "", and returns the status, the WWW-Authenticate header and the body.
func post(t *testing.T, url, token, session, body string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (int, string, string) {
	t.Helper()
	hr, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer hr.Body.Close()
	b, _ := io.ReadAll(hr.Body)
	return hr.StatusCode, hr.Header.Get("WWW-Authenticate"), string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestHTTPNoToken(t *testing.T) {
	_, url := httpServer(t, mcpserver.Options{})
	code, challenge, body := post(t, url, "", "", initialize)
	if code != http.StatusUnauthorized || challenge != `Bearer realm="cordon"` || !strings.Contains(body, "bearer token is required") {
		t.Fatalf("%d %q %q", code, challenge, body)
	}
	// Another scheme is no bearer token.
	req, _ := http.NewRequest("POST", url, strings.NewReader(initialize))
	req.Header.Set("Authorization", "Basic "+tokenA)
	if code, challenge, _ := do(t, req); code != http.StatusUnauthorized || !strings.HasPrefix(challenge, "Bearer ") {
		t.Fatalf("Basic: %d %q", code, challenge)
	}
	// GET and DELETE are authenticated too.
	for _, m := range []string{"GET", "DELETE"} {
		req, _ := http.NewRequest(m, url, nil)
		req.Header.Set("Mcp-Session-Id", "whatever")
		if code, challenge, _ := do(t, req); code != http.StatusUnauthorized || challenge == "" {
			t.Fatalf("%s: %d %q", m, code, challenge)
		}
	}
	if _, err := dial(url, ""); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("SDK client without a token: %v", err)
	}
}

func TestHTTPWrongToken(t *testing.T) {
	_, url := httpServer(t, mcpserver.Options{ResourceMetadataURL: "https://mcp.example/.well-known/oauth-protected-resource/mcp"})
	code, challenge, body := post(t, url, "token-of-mallory-01234567", "", initialize)
	if code != http.StatusUnauthorized || !strings.Contains(body, "invalid token") {
		t.Fatalf("%d %q", code, body)
	}
	want := `Bearer realm="cordon", error="invalid_token", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"`
	if challenge != want {
		t.Fatalf("WWW-Authenticate = %q, want %q", challenge, want)
	}
	if _, err := dial(url, "token-of-mallory-01234567"); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("SDK client with a wrong token: %v", err)
	}
}

func TestHTTPRightToken(t *testing.T) {
	srv, url := httpServer(t, mcpserver.Options{})
	cs := mustDial(t, url, tokenA)
	js(t, cs, `fs.writeFileSync("f", "kept")`)
	res, r := js(t, cs, `return [fs.readFileSync("f"), await who.ami({})]`)
	if res.IsError || string(r.Value) != `["kept","alice"]` {
		t.Fatalf("isError=%v %+v", res.IsError, r)
	}
	if srv.Sessions() != 1 {
		t.Fatalf("Sessions() = %d", srv.Sessions())
	}
}

// TestHTTPSessionBoundToPrincipal: a session answers only the principal
// that opened it; another principal's valid token on its id is refused,
// for POST, GET and DELETE, and the session goes on.
func TestHTTPSessionBoundToPrincipal(t *testing.T) {
	_, url := httpServer(t, mcpserver.Options{})
	a := mustDial(t, url, tokenA)
	js(t, a, `fs.writeFileSync("secret", "alice's")`)
	id := a.ID()
	if id == "" {
		t.Fatal("no session id")
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_javascript","arguments":{"code":"return fs.readFileSync('secret')"}}}`
	code, _, body := post(t, url, tokenB, id, call)
	if code != http.StatusForbidden || strings.Contains(body, "alice's") {
		t.Fatalf("bob on alice's session: %d %q", code, body)
	}
	for _, m := range []string{"GET", "DELETE"} {
		req, _ := http.NewRequest(m, url, nil)
		req.Header.Set("Authorization", "Bearer "+tokenB)
		req.Header.Set("Mcp-Session-Id", id)
		req.Header.Set("Accept", "text/event-stream")
		if code, _, _ := do(t, req); code != http.StatusForbidden {
			t.Fatalf("bob's %s on alice's session: %d", m, code)
		}
	}
	// Without a token, the same request is a 401.
	if code, _, _ := post(t, url, "", id, call); code != http.StatusUnauthorized {
		t.Fatalf("no token on alice's session: %d", code)
	}
	res, r := js(t, a, `return [fs.readFileSync("secret"), await who.ami({})]`)
	if res.IsError || string(r.Value) != `["alice's","alice"]` {
		t.Fatalf("alice after the attempts: isError=%v %+v", res.IsError, r)
	}
	// Bob has his own session, and principal.
	b := mustDial(t, url, tokenB)
	if _, r := js(t, b, `return [fs.existsSync("secret"), await who.ami({})]`); string(r.Value) != `[false,"bob"]` {
		t.Fatalf("bob: %+v", r)
	}
}

// refusedBody returns the JSON-RPC error message of a 503.
func refusedBody(t *testing.T, url, token string) string {
	t.Helper()
	code, _, body := post(t, url, token, "", initialize)
	if code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503 (%q)", code, body)
	}
	var m struct {
		JSONRPC string
		Error   struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.JSONRPC != "2.0" || m.Error.Code != -32000 {
		t.Fatalf("body %q: %v", body, err)
	}
	return m.Error.Message
}

func TestHTTPMaxSessions(t *testing.T) {
	srv, url := httpServer(t, mcpserver.Options{MaxSessions: 2})
	a := mustDial(t, url, tokenA)
	mustDial(t, url, tokenB)
	if _, err := dial(url, tokenA); err == nil || !strings.Contains(err.Error(), "Service Unavailable") {
		t.Fatalf("third session: %v", err)
	}
	if msg := refusedBody(t, url, tokenB); !strings.Contains(msg, "too many sessions") || !strings.Contains(msg, "max-sessions 2") {
		t.Fatalf("message %q", msg)
	}
	a.Close()
	waitSessions(t, srv, 1)
	mustDial(t, url, tokenA)
}

func TestHTTPMaxSessionsPerPrincipal(t *testing.T) {
	srv, url := httpServer(t, mcpserver.Options{MaxSessions: 10, MaxSessionsPerPrincipal: 2})
	a1 := mustDial(t, url, tokenA)
	mustDial(t, url, tokenA)
	msg := refusedBody(t, url, tokenA)
	if !strings.Contains(msg, `principal "alice"`) || !strings.Contains(msg, "max-sessions-per-principal 2") {
		t.Fatalf("message %q", msg)
	}
	// Bob is not held back by alice's sessions.
	mustDial(t, url, tokenB)
	a1.Close()
	waitSessions(t, srv, 2)
	mustDial(t, url, tokenA)
}

func TestHTTPMemoryBudget(t *testing.T) {
	srv, url := httpServer(t, mcpserver.Options{SessionMemoryMB: 256, MemoryBudgetMB: 600})
	a := mustDial(t, url, tokenA)
	mustDial(t, url, tokenB)
	msg := refusedBody(t, url, tokenA)
	if !strings.Contains(msg, "memory budget") || !strings.Contains(msg, "512 MiB of the 600 MiB") || !strings.Contains(msg, "session-memory 600") {
		t.Fatalf("message %q", msg)
	}
	a.Close()
	waitSessions(t, srv, 1)
	mustDial(t, url, tokenA)
}

// TestHTTPBoundUnderConcurrency: sessions that start at once are admitted
// exactly up to the bound; the rest are refused at initialize.
func TestHTTPBoundUnderConcurrency(t *testing.T) {
	srv, url := httpServer(t, mcpserver.Options{MaxSessions: 3})
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for range 12 {
		wg.Go(func() {
			cs, err := dial(url, tokenA)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
				t.Cleanup(func() { cs.Close() })
			case strings.Contains(err.Error(), "too many sessions") || strings.Contains(err.Error(), "Service Unavailable"):
				refused++
			default:
				t.Errorf("connect: %v", err)
			}
		})
	}
	wg.Wait()
	if ok != 3 || refused != 9 || srv.Sessions() != 3 {
		t.Fatalf("%d admitted, %d refused, Sessions() = %d", ok, refused, srv.Sessions())
	}
}

// TestHTTPFailsClosed: without a verifier, the handler serves no request
// that nobody authenticated; AllowUnauthenticated serves them as
// Options.Principal, and a TokenInfo set by the embedder's own middleware
// is used as is.
func TestHTTPFailsClosed(t *testing.T) {
	run := codemodetest.New(t, engine.SandboxConfig{Tools: whoTools()}, nil)
	closed := mcpserver.New(run, mcpserver.Options{})
	t.Cleanup(func() { closed.Close(context.Background()) })
	url := serveHTTP(t, closed.HTTPHandler(nil))
	if code, challenge, _ := post(t, url, tokenA, "", initialize); code != http.StatusUnauthorized || challenge == "" {
		t.Fatalf("no verifier: %d %q", code, challenge)
	}

	open := mcpserver.New(run, mcpserver.Options{AllowUnauthenticated: true, Principal: "local"})
	t.Cleanup(func() { open.Close(context.Background()) })
	cs := mustDial(t, serveHTTP(t, open.HTTPHandler(nil)), "")
	if _, r := js(t, cs, `return await who.ami({})`); string(r.Value) != `"local"` {
		t.Fatalf("anonymous: %+v", r)
	}

	embedded := mcpserver.New(run, mcpserver.Options{})
	t.Cleanup(func() { embedded.Close(context.Background()) })
	url = serveHTTP(t, auth.RequireBearerToken(twoTokens, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(embedded.HTTPHandler(nil)))
	cs = mustDial(t, url, tokenB)
	if _, r := js(t, cs, `return await who.ami({})`); string(r.Value) != `"bob"` {
		t.Fatalf("embedder's auth: %+v", r)
	}
	// A token that names no principal cannot own a session.
	nameless := mcpserver.New(run, mcpserver.Options{Verifier: func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{}, nil
	}})
	t.Cleanup(func() { nameless.Close(context.Background()) })
	if code, _, body := post(t, serveHTTP(t, nameless.HTTPHandler(nil)), tokenA, "", initialize); code != http.StatusUnauthorized || !strings.Contains(body, "no valid principal") {
		t.Fatalf("nameless: %d %q", code, body)
	}
	// An expired TokenInfo is refused.
	expired := mcpserver.New(run, mcpserver.Options{Verifier: func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{UserID: "x", Expiration: time.Now().Add(-time.Minute)}, nil
	}})
	t.Cleanup(func() { expired.Close(context.Background()) })
	if code, _, body := post(t, serveHTTP(t, expired.HTTPHandler(nil)), tokenA, "", initialize); code != http.StatusUnauthorized || !strings.Contains(body, "expired") {
		t.Fatalf("expired: %d %q", code, body)
	}
}

// TestPrincipalInMemory: sessions without a token have Options.Principal.
func TestPrincipalInMemory(t *testing.T) {
	srv := serve(t, mcpserver.Options{Principal: "local"}, engine.SandboxConfig{Tools: whoTools()}, nil)
	if _, r := js(t, connect(t, srv), `return await who.ami({})`); string(r.Value) != `"local"` {
		t.Fatalf("%+v", r)
	}
}

// TestHTTPHostHeader: on loopback, a request whose Host is not a loopback
// name is refused (the SDK's DNS rebinding protection), which is why a
// reverse proxy must send a loopback Host (docs/mcp-http.md).
func TestHTTPHostHeader(t *testing.T) {
	_, url := httpServer(t, mcpserver.Options{})
	req, _ := http.NewRequest("POST", url, strings.NewReader(initialize))
	req.Host = "mcp.example.com"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tokenA)
	if code, _, body := do(t, req); code != http.StatusForbidden || !strings.Contains(body, "Host") {
		t.Fatalf("%d %q", code, body)
	}
}
