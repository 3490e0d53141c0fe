package main

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpHTTP is a running `cordon mcp --http`.
type mcpHTTP struct {
	url    string
	stderr *syncBuffer
	cancel context.CancelFunc
	done   chan int
}

// startMCP runs `cordon mcp` with args and waits until it serves.
func startMCP(t *testing.T, args ...string) *mcpHTTP {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	m := &mcpHTTP{stderr: &syncBuffer{}, cancel: cancel, done: make(chan int, 1)}
	go func() {
		m.done <- run(ctx, append([]string{"mcp"}, args...), strings.NewReader(""), io.Discard, m.stderr)
	}()
	re := regexp.MustCompile(`https?://\S+/mcp`)
	for deadline := time.Now().Add(60 * time.Second); m.url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case code := <-m.done:
			t.Fatalf("cordon mcp exited %d: %q", code, m.stderr.String())
		default:
		}
		m.url = re.FindString(m.stderr.String())
	}
	if m.url == "" {
		cancel()
		t.Fatalf("no address: %q", m.stderr.String())
	}
	t.Cleanup(func() { m.stop(t) })
	return m
}

// stop ends the server as SIGINT does and checks that it exits 0.
func (m *mcpHTTP) stop(t *testing.T) {
	t.Helper()
	if m.cancel == nil {
		return
	}
	m.cancel()
	m.cancel = nil
	select {
	case code := <-m.done:
		if code != 0 {
			t.Errorf("exit %d, stderr %q", code, m.stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Error("cordon mcp --http did not shut down")
	}
}

// bearerRT adds an Authorization header to each request.
type bearerRT struct {
	token string
	base  http.RoundTripper
}

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	if b.base == nil {
		return http.DefaultTransport.RoundTrip(r)
	}
	return b.base.RoundTrip(r)
}

// dialMCP connects an MCP client to url with a bearer token (none if "").
func dialMCP(url, token string, base http.RoundTripper) (*mcp.ClientSession, error) {
	return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerRT{token, base}}}, nil)
}

func mustDialMCP(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	cs, err := dialMCP(url, token, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

const rawInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawPost sends one JSON-RPC message with token and session (if not "")
// and returns the response's status, WWW-Authenticate header and body.
func rawPost(t *testing.T, url, token, session, body string) (int, string, string) {
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
	hr, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer hr.Body.Close()
	b, _ := io.ReadAll(hr.Body)
	return hr.StatusCode, hr.Header.Get("WWW-Authenticate"), string(b)
}

// rpcMessage returns the message of a JSON-RPC error body, or the body.
func rpcMessage(body string) string {
	var m struct{ Error struct{ Message string } }
	if json.Unmarshal([]byte(body), &m) != nil || m.Error.Message == "" {
		return body
	}
	return m.Error.Message
}

// waitFor polls until ok holds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestMCPHTTP: by default the server generates a bearer token, prints it
// once, and refuses requests without it; sessions are isolated and
// bounded.
func TestMCPHTTP(t *testing.T) {
	t.Setenv(tokenEnv, "")
	m := startMCP(t, "--http", "127.0.0.1:0", "--max-sessions", "2")
	tok := regexp.MustCompile(`shown only here \(--token-file or \$CORDON_MCP_TOKEN sets one\): (\S+)\n`).FindStringSubmatch(m.stderr.String())
	if tok == nil {
		t.Fatalf("no generated token: %q", m.stderr.String())
	}
	token := tok[1]
	if !strings.Contains(m.stderr.String(), `bearer token from generated, principal "token"`) || !strings.Contains(m.stderr.String(), "sessions: 2 at once") {
		t.Errorf("start-up lines: %q", m.stderr.String())
	}

	// No token, or a wrong one: 401 with a Bearer challenge.
	if _, err := dialMCP(m.url, "", nil); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("without a token: %v", err)
	}
	if _, err := dialMCP(m.url, token[:len(token)-1]+"x", nil); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("with a wrong token: %v", err)
	}
	code, challenge, _ := rawPost(t, m.url, "", "", rawInitialize)
	if code != http.StatusUnauthorized || !strings.HasPrefix(challenge, "Bearer ") {
		t.Fatalf("raw, without a token: %d %q", code, challenge)
	}
	code, challenge, _ = rawPost(t, m.url, "wrong-token-0123456789", "", rawInitialize)
	if code != http.StatusUnauthorized || !strings.Contains(challenge, `error="invalid_token"`) {
		t.Fatalf("raw, with a wrong token: %d %q", code, challenge)
	}

	a := mustDialMCP(t, m.url, token)
	b := mustDialMCP(t, m.url, token)
	mcpCall(t, a, "run_javascript", "code", `fs.writeFileSync("who", "a")`)
	_, sc := mcpCall(t, b, "run_javascript", "code", `return fs.existsSync("who")`)
	if sc["value"] != false {
		t.Fatalf("b sees a's file: %v", sc)
	}
	_, sc = mcpCall(t, a, "run_javascript", "code", `return fs.readFileSync("who")`)
	if sc["value"] != "a" {
		t.Fatalf("a lost its file: %v", sc)
	}
	// A third session is over --max-sessions; the bound per principal is
	// --max-sessions too, as every client is the one principal.
	_, _, body := rawPost(t, m.url, token, "", rawInitialize)
	if !strings.Contains(body, "too many sessions: the server holds at most 2 at once") {
		t.Fatalf("third session: %q", body)
	}
	a.Close()
	waitFor(t, "a's slot", func() bool {
		cs, err := dialMCP(m.url, token, nil)
		if err == nil {
			cs.Close()
		}
		return err == nil
	})
	m.stop(t)
	if n := strings.Count(m.stderr.String(), token); n != 1 {
		t.Fatalf("the token is printed %d times: %q", n, m.stderr.String())
	}
}

// TestMCPHTTPTokenFileAndEnv: the token comes from --token-file, else
// from $CORDON_MCP_TOKEN; neither is printed. --session-memory bounds the
// sessions at budget / memory_mb.
func TestMCPHTTPTokenFileAndEnv(t *testing.T) {
	t.Setenv(tokenEnv, "env-token-0123456789-abcdef")
	fileToken := "file-token-0123456789-abcdef"
	file := writeFile(t, "token", fileToken+"\n") // mode 0644
	m := startMCP(t, "--http", "127.0.0.1:0", "--token-file", file, "--principal", "ci")
	if !strings.Contains(m.stderr.String(), "bearer token from "+file+`, principal "ci"`) || (runtime.GOOS != "windows") != strings.Contains(m.stderr.String(), "may be read by others") {
		t.Errorf("start-up lines: %q", m.stderr.String())
	}
	if _, err := dialMCP(m.url, "env-token-0123456789-abcdef", nil); err == nil {
		t.Fatal("the environment's token is accepted when --token-file is given")
	}
	cs := mustDialMCP(t, m.url, fileToken)
	if res, sc := mcpCall(t, cs, "run_javascript", "code", `return 1 + 1`); res.IsError || sc["value"] != 2.0 {
		t.Fatalf("%v", sc)
	}
	m.stop(t)
	if strings.Contains(m.stderr.String(), fileToken) {
		t.Fatalf("the token is printed: %q", m.stderr.String())
	}

	m = startMCP(t, "--http", "127.0.0.1:0", "--session-memory", "512")
	if !strings.Contains(m.stderr.String(), "bearer token from $CORDON_MCP_TOKEN") || !strings.Contains(m.stderr.String(), "512 MiB of guest memory at 256 MiB each") {
		t.Errorf("start-up line: %q", m.stderr.String())
	}
	a := mustDialMCP(t, m.url, "env-token-0123456789-abcdef")
	mustDialMCP(t, m.url, "env-token-0123456789-abcdef")
	_, err := dialMCP(m.url, "env-token-0123456789-abcdef", nil)
	_, _, body := rawPost(t, m.url, "env-token-0123456789-abcdef", "", rawInitialize)
	if err == nil || !strings.Contains(body, "session memory budget reached: 2 sessions of 256 MiB each hold 512 MiB of the 512 MiB budget") {
		t.Fatalf("third session: %v, %q", err, body)
	}
	a.Close()
	waitFor(t, "a's memory", func() bool {
		code, _, _ := rawPost(t, m.url, "env-token-0123456789-abcdef", "", rawInitialize)
		return code == http.StatusOK
	})
	m.stop(t)
	if strings.Contains(m.stderr.String(), "env-token") {
		t.Fatalf("the token is printed: %q", m.stderr.String())
	}
}

// writePublicKey writes pub as a PEM file and returns its name.
func writePublicKey(t *testing.T, pub crypto.PublicKey) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "key.pem", string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})))
}

// TestMCPHTTPJWT: JWTs signed by the configured key name the principal
// (sub); sessions are bounded per principal and bound to it; the server
// publishes its protected resource metadata.
func TestMCPHTTPJWT(t *testing.T) {
	t.Setenv(tokenEnv, "")
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	const iss, aud = "https://idp.test", "https://cordon.test/mcp"
	m := startMCP(t, "--http", "127.0.0.1:0", "--jwt-key", writePublicKey(t, &key.PublicKey), "--jwt-issuer", iss, "--jwt-audience", aud,
		"--max-sessions", "3", "--max-sessions-per-principal", "2")
	mint := func(sub string, exp time.Time) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": iss, "aud": aud, "sub": sub, "exp": exp.Unix()}).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	alice, bob := mint("alice", time.Now().Add(time.Hour)), mint("bob", time.Now().Add(time.Hour))

	// Refused tokens: expired, for another audience, signed by another key.
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	forged, _ := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": iss, "aud": aud, "sub": "alice", "exp": time.Now().Add(time.Hour).Unix()}).SignedString(other)
	elsewhere, _ := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": iss, "aud": "https://other.test/mcp", "sub": "alice", "exp": time.Now().Add(time.Hour).Unix()}).SignedString(key)
	for name, tok := range map[string]string{"expired": mint("alice", time.Now().Add(-time.Hour)), "forged": forged, "elsewhere": elsewhere} {
		code, challenge, _ := rawPost(t, m.url, tok, "", rawInitialize)
		if code != http.StatusUnauthorized || challenge != `Bearer realm="cordon", error="invalid_token", resource_metadata="https://cordon.test/.well-known/oauth-protected-resource/mcp"` {
			t.Errorf("%s: %d %q", name, code, challenge)
		}
	}
	// The metadata the challenge points at, served without a token.
	hr, err := http.Get(strings.TrimSuffix(m.url, "/mcp") + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	json.NewDecoder(hr.Body).Decode(&meta)
	hr.Body.Close()
	if meta.Resource != aud || len(meta.AuthorizationServers) != 1 || meta.AuthorizationServers[0] != iss {
		t.Fatalf("metadata %+v", meta)
	}

	a1 := mustDialMCP(t, m.url, alice)
	a2 := mustDialMCP(t, m.url, alice)
	mcpCall(t, a2, "run_javascript", "code", `fs.writeFileSync("secret", "alice's")`)
	// Alice's third session is over her bound; bob still gets one.
	if _, _, body := rawPost(t, m.url, alice, "", rawInitialize); !strings.Contains(rpcMessage(body), `too many sessions for principal "alice": each principal holds at most 2`) {
		t.Fatalf("alice's third: %q", body)
	}
	mustDialMCP(t, m.url, bob)
	// The server is full now.
	if _, _, body := rawPost(t, m.url, bob, "", rawInitialize); !strings.Contains(body, "at most 3 at once") {
		t.Fatalf("bob's second: %q", body)
	}
	// Bob's valid token does not open alice's session.
	steal := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_javascript","arguments":{"code":"return fs.readFileSync('secret')"}}}`
	if code, _, body := rawPost(t, m.url, bob, a2.ID(), steal); code != http.StatusForbidden || strings.Contains(body, "alice's") {
		t.Fatalf("bob on alice's session: %d %q", code, body)
	}
	if _, sc := mcpCall(t, a2, "run_javascript", "code", `return fs.readFileSync("secret")`); sc["value"] != "alice's" {
		t.Fatalf("alice's session after bob's attempt: %v", sc)
	}
	// Closing one of alice's sessions lets bob in.
	a1.Close()
	waitFor(t, "a1's slot", func() bool {
		code, _, _ := rawPost(t, m.url, bob, "", rawInitialize)
		return code == http.StatusOK
	})
}

// TestMCPHTTPNoAuth: --no-auth serves loopback without tokens, loudly.
func TestMCPHTTPNoAuth(t *testing.T) {
	t.Setenv(tokenEnv, "")
	m := startMCP(t, "--http", "127.0.0.1:0", "--no-auth")
	if !strings.Contains(m.stderr.String(), "WARNING: --no-auth") || !strings.Contains(m.stderr.String(), "NO AUTHENTICATION") || strings.Contains(m.stderr.String(), "generated") {
		t.Errorf("stderr %q", m.stderr.String())
	}
	cs := mustDialMCP(t, m.url, "")
	if res, sc := mcpCall(t, cs, "run_shell", "script", `echo ok`); res.IsError || sc["stdout"] != "ok\n" {
		t.Fatalf("%v", sc)
	}
}

// TestMCPHTTPTLS: --tls-cert and --tls-key serve HTTPS.
func TestMCPHTTPTLS(t *testing.T) {
	t.Setenv(tokenEnv, "tls-token-0123456789-abcdef")
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "cordon test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)

	m := startMCP(t, "--http", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile)
	if !strings.HasPrefix(m.url, "https://") {
		t.Fatalf("url %s", m.url)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	cs, err := dialMCP(m.url, "tls-token-0123456789-abcdef", &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res, sc := mcpCall(t, cs, "run_javascript", "code", `return "over tls"`); res.IsError || sc["value"] != "over tls" {
		t.Fatalf("%v", sc)
	}
}

// TestListen: loopback names and addresses are served; others only with
// --allow-remote, never with --no-auth.
func TestListen(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "127.0.0.2:0"} {
		var stderr strings.Builder
		hf := &httpFlags{addr: addr}
		ln, err := hf.listen(&stderr)
		if err != nil {
			t.Errorf("%s: %v", addr, err)
			continue
		}
		if !isLoopback(ln.Addr()) || stderr.Len() != 0 {
			t.Errorf("%s: bound %v, stderr %q", addr, ln.Addr(), stderr.String())
		}
		ln.Close()
	}
	for _, a := range []string{"0.0.0.0:80", "[::]:80", "10.1.2.3:80", "[2001:db8::1]:80", "[::ffff:10.0.0.1]:80"} {
		tcp, _ := net.ResolveTCPAddr("tcp", a)
		if isLoopback(tcp) {
			t.Errorf("%s is taken for loopback", a)
		}
	}
	for _, a := range []string{"127.0.0.1:80", "127.9.9.9:80", "[::1]:80", "[::ffff:127.0.0.1]:80"} {
		tcp, _ := net.ResolveTCPAddr("tcp", a)
		if !isLoopback(tcp) {
			t.Errorf("%s is not taken for loopback", a)
		}
	}
	if err := (&httpFlags{}).checkRemote("0.0.0.0:80"); err == nil || !strings.Contains(err.Error(), "--allow-remote") {
		t.Errorf("without --allow-remote: %v", err)
	}
	if err := (&httpFlags{allowRemote: true}).checkRemote("0.0.0.0:80"); err != nil {
		t.Errorf("--allow-remote: %v", err)
	}
	if err := (&httpFlags{allowRemote: true, noAuth: true}).checkRemote("0.0.0.0:80"); err == nil {
		t.Error("--no-auth --allow-remote is served remotely")
	}
}

// `cordon mcp --http` keeps call counters per principal: a client that
// reconnects does not get its max_calls back. A config that keeps them
// per session is served with a warning that says what it allows.
func TestMCPHTTPCountersOutliveSessions(t *testing.T) {
	t.Setenv(tokenEnv, "counters-token-0123456789")
	cfg := writeFile(t, "pay.yaml", `tools: [{name: pay, echo: true}]
capabilities: [{method: pay, max_calls: 2}]
`)
	m := startMCP(t, "--http", "127.0.0.1:0", "--config", cfg)
	pay := `let ok = 0; for (let i = 0; i < 3; i++) { try { await pay({i}); ok++ } catch (e) {} } return ok`
	a := mustDialMCP(t, m.url, "counters-token-0123456789")
	if _, sc := mcpCall(t, a, "run_javascript", "code", pay); sc["value"] != float64(2) {
		t.Fatalf("first session: %v", sc)
	}
	a.Close()
	b := mustDialMCP(t, m.url, "counters-token-0123456789")
	if _, sc := mcpCall(t, b, "run_javascript", "code", pay); sc["value"] != float64(0) {
		t.Fatalf("after a reconnect: %v, want 0 more payments", sc)
	}
	if strings.Contains(m.stderr.String(), "counters.scope is") {
		t.Errorf("a warning without a scope in the config: %q", m.stderr.String())
	}
	perSession := writeFile(t, "session.yaml", `tools: [{name: pay, echo: true}]
counters: {scope: session}
`)
	m2 := startMCP(t, "--http", "127.0.0.1:0", "--config", perSession)
	if !strings.Contains(m2.stderr.String(), "counters.scope is session: over HTTP a client resets its call limits by opening a new session") {
		t.Errorf("no warning for per-session counters over HTTP: %q", m2.stderr.String())
	}
}
