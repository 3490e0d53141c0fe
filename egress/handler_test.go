package egress_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/egress"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/internal/abi"
)

// hostPort returns the "127.0.0.1:port" of a test server.
func hostPort(srv *httptest.Server) string {
	return strings.TrimPrefix(srv.URL, "http://")
}

// call runs the tool as the engine does, Prepare then Handler, outside a
// sandbox (so that a redirect it follows is refused: no call to follow up).
func call(t *testing.T, tool engine.Tool, req abi.FetchRequest) (*abi.FetchResponse, error) {
	t.Helper()
	raw, _ := json.Marshal(req)
	params, err := tool.Prepare(context.Background(), raw)
	if err != nil {
		return nil, err
	}
	out, err := tool.Handler(context.Background(), params)
	if err != nil {
		return nil, err
	}
	var resp abi.FetchResponse
	if err := json.Unmarshal(out.(json.RawMessage), &resp); err != nil {
		t.Fatal(err)
	}
	return &resp, nil
}

// resolver maps names to addresses.
type resolver map[string][]netip.Addr

func (r resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func toolKind(err error) string {
	var te *engine.ToolError
	if errors.As(err, &te) {
		return te.Kind
	}
	return "internal"
}

func TestFetchAllowedPrivateLiteral(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		http.SetCookie(w, &http.Cookie{Name: "s", Value: "secret"})
		w.Header().Set("X-Reply", "yes")
		w.WriteHeader(201)
		fmt.Fprintf(w, "%s %s %s", r.Method, r.URL.RequestURI(), r.Host)
	}))
	defer srv.Close()
	tool := newTool(t, egress.Config{AllowPrivate: []string{hostPort(srv)}})
	resp, err := call(t, tool, abi.FetchRequest{URL: srv.URL + "/a/../b?x=1#f", Method: "put", Body: "hi",
		Headers: [][2]string{{"X-Script", "1"}, {"Connection", "x-script"}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 201 || resp.StatusText != "Created" || resp.Body != "PUT /b?x=1 "+hostPort(srv) || resp.URL != srv.URL+"/b?x=1" || resp.Redirected {
		t.Errorf("response = %+v", resp)
	}
	for _, h := range resp.Headers {
		if strings.EqualFold(h[0], "set-cookie") {
			t.Errorf("set-cookie kept: %v", resp.Headers)
		}
	}
	if !contains(resp.Headers, [2]string{"x-reply", "yes"}) {
		t.Errorf("headers = %v", resp.Headers)
	}
	if got.Get("X-Script") != "1" || got.Get("Connection") != "" {
		t.Errorf("request headers = %v", got)
	}

	tool = newTool(t, egress.Config{AllowPrivate: []string{hostPort(srv)}, KeepSetCookie: true})
	resp, err = call(t, tool, abi.FetchRequest{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if !contains(resp.Headers, [2]string{"set-cookie", "s=secret"}) {
		t.Errorf("KeepSetCookie: headers = %v", resp.Headers)
	}
}

// contains reports whether hs has the header h, its name matched without
// regard to case.
func contains(hs [][2]string, h [2]string) bool {
	for _, x := range hs {
		if strings.EqualFold(x[0], h[0]) && x[1] == h[1] {
			return true
		}
	}
	return false
}

func TestFetchRefusesPrivateAddresses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request reached the server: %s", r.URL)
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(hostPort(srv))
	tool := newTool(t, egress.Config{
		AllowPrivate: []string{"localhost:1"},
		Resolver: resolver{
			"rebind.example": {netip.MustParseAddr("127.0.0.1")},
			"mixed.example":  {netip.MustParseAddr("8.8.8.8"), netip.MustParseAddr("10.0.0.1")},
			"mapped.example": {netip.MustParseAddr("::ffff:127.0.0.1")},
			"meta.example":   {netip.MustParseAddr("169.254.169.254")},
		},
	})
	for _, u := range []string{
		srv.URL,
		"http://localhost:" + port + "/",
		"http://rebind.example:" + port + "/",
		"http://mixed.example:" + port + "/",
		"http://mapped.example:" + port + "/",
		"http://meta.example/latest/meta-data/",
		"http://169.254.169.254/latest/meta-data/",
		"http://[::1]:" + port + "/",
		"http://[64:ff9b::7f00:1]:" + port + "/",
		"http://[2002:7f00:1::]:" + port + "/",
		"http://0.0.0.0:" + port + "/",
		"http://10.0.0.1:" + port + "/",
		"http://100.64.0.1:" + port + "/",
		"http://[fd00::1]:" + port + "/",
	} {
		_, err := call(t, tool, abi.FetchRequest{URL: u})
		if !errors.Is(err, egress.ErrPrivateAddress) || toolKind(err) != "denied" || !strings.Contains(err.Error(), "SSRF protection") {
			t.Errorf("%s: %v (kind %s), want ErrPrivateAddress, denied", u, err, toolKind(err))
		}
	}
	_, err := call(t, tool, abi.FetchRequest{URL: "http://10.0.0.1/"})
	if want := "connecting to 10.0.0.1:80 refused: private address (SSRF protection); allow it by its literal address (Config.AllowPrivate, http.allow_private in the config, cordon run --allow-host)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want %q", err, want)
	}
}

func TestFetchAllowPrivateIsLiteral(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(hostPort(srv))
	tool := newTool(t, egress.Config{
		AllowPrivate: []string{"localhost:" + port},
		Resolver:     resolver{"alias.example": {netip.MustParseAddr("127.0.0.1")}},
	})
	if resp, err := call(t, tool, abi.FetchRequest{URL: "http://LocalHost:" + port + "/"}); err != nil || resp.Body != "ok" {
		t.Errorf("localhost:%s listed: %v %v", port, resp, err)
	}
	for _, u := range []string{srv.URL, "http://alias.example:" + port + "/", "http://localhost:1/"} {
		if _, err := call(t, tool, abi.FetchRequest{URL: u}); !errors.Is(err, egress.ErrPrivateAddress) {
			t.Errorf("%s: %v, want ErrPrivateAddress", u, err)
		}
	}
	// An entry without a port permits every port of that host, and still
	// only that host as written.
	for _, entry := range []string{"127.0.0.1", "[::1]"} {
		tool = newTool(t, egress.Config{AllowPrivate: []string{entry},
			Resolver: resolver{"alias.example": {netip.MustParseAddr("127.0.0.1")}}})
		if entry == "127.0.0.1" {
			if resp, err := call(t, tool, abi.FetchRequest{URL: srv.URL}); err != nil || resp.Body != "ok" {
				t.Errorf("%s with %s listed: %v %v", srv.URL, entry, resp, err)
			}
		}
		for _, u := range []string{"http://localhost:" + port + "/", "http://alias.example:" + port + "/", "http://127.0.0.2:" + port + "/"} {
			if _, err := call(t, tool, abi.FetchRequest{URL: u}); !errors.Is(err, egress.ErrPrivateAddress) {
				t.Errorf("%s with %s listed: %v, want ErrPrivateAddress", u, entry, err)
			}
		}
	}
	// An entry that writes the address permits it written that way: the
	// IPv4-mapped IPv6 form, like the decimal and octal forms, is refused
	// before the policy decides.
	tool = newTool(t, egress.Config{AllowPrivate: []string{hostPort(srv)}})
	if resp, err := call(t, tool, abi.FetchRequest{URL: srv.URL}); err != nil || resp.Body != "ok" {
		t.Errorf("%s listed: %v %v", srv.URL, resp, err)
	}
	for _, u := range []string{"http://[::ffff:127.0.0.1]:" + port + "/", "http://[::ffff:7f00:1]:" + port + "/", "http://2130706433:" + port + "/"} {
		if _, err := call(t, tool, abi.FetchRequest{URL: u}); !errors.Is(err, egress.ErrNonCanonicalIP) {
			t.Errorf("%s with %s listed: %v, want ErrNonCanonicalIP", u, hostPort(srv), err)
		}
	}
}

func TestFetchResponseLimits(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Write([]byte(strings.Repeat("x", 2000)))
		case "/chunked":
			for range 20 {
				w.Write([]byte(strings.Repeat("y", 100)))
				w.(http.Flusher).Flush()
			}
		case "/slow":
			w.(http.Flusher).Flush()
			select {
			case <-time.After(10 * time.Second):
			case <-r.Context().Done():
			}
		case "/binary":
			w.Write([]byte{0, 0xff, 0xfe})
		default:
			w.Write([]byte(strings.Repeat("z", 1000)))
		}
	}))
	defer srv.Close()
	tool := newTool(t, egress.Config{AllowPrivate: []string{hostPort(srv)}, MaxResponseBytes: 1000, Timeout: 300 * time.Millisecond})
	for _, p := range []string{"/big", "/chunked"} {
		_, err := call(t, tool, abi.FetchRequest{URL: srv.URL + p})
		if !errors.Is(err, egress.ErrTooLarge) || toolKind(err) != "too_large" {
			t.Errorf("%s: %v, want too_large", p, err)
		}
	}
	if resp, err := call(t, tool, abi.FetchRequest{URL: srv.URL + "/exact"}); err != nil || len(resp.Body) != 1000 {
		t.Errorf("a body at the limit: %v", err)
	}
	start := time.Now()
	_, err := call(t, tool, abi.FetchRequest{URL: srv.URL + "/slow"})
	if err == nil || toolKind(err) != "" || !strings.Contains(err.Error(), "longer than 300ms") {
		t.Errorf("slow: %v (kind %q)", err, toolKind(err))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("slow response took %s", d)
	}
	resp, err := call(t, tool, abi.FetchRequest{URL: srv.URL + "/binary"})
	if err != nil || resp.Body != "" || resp.BodyBase64 != "AP/+" {
		t.Errorf("binary: %+v %v", resp, err)
	}
}

func TestFetchRedirectModes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/next", http.StatusFound)
	}))
	defer srv.Close()
	tool := newTool(t, egress.Config{AllowPrivate: []string{hostPort(srv)}})
	resp, err := call(t, tool, abi.FetchRequest{URL: srv.URL, Redirect: "manual"})
	if err != nil || resp.Status != 302 || !contains(resp.Headers, [2]string{"location", "/next"}) {
		t.Errorf("manual: %+v %v", resp, err)
	}
	if _, err := call(t, tool, abi.FetchRequest{URL: srv.URL, Redirect: "error"}); !errors.Is(err, egress.ErrRedirect) {
		t.Errorf("error mode: %v", err)
	}
	// Outside a sandbox there is no call to follow up: the hop is refused.
	if _, err := call(t, tool, abi.FetchRequest{URL: srv.URL}); toolKind(err) != "denied" {
		t.Errorf("follow outside a sandbox: %v", err)
	}
}

func TestFetchCredentials(t *testing.T) {
	var seen atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Header.Get("Authorization") + "|" + r.Header.Get("X-Key"))
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	t.Setenv("EGRESS_TEST_TOKEN", "tok-123")
	tool := newTool(t, egress.Config{AllowPrivate: []string{hostPort(srv)}, Credentials: []egress.Credential{
		{Prefix: srv.URL + "/api/", Header: "authorization", Env: "EGRESS_TEST_TOKEN", ValuePrefix: "Bearer "},
		{Host: "127.0.0.1", Header: "X-Key", Value: func(ctx context.Context, req *http.Request) (string, error) {
			if req.URL.Path == "/fail" {
				return "", errors.New("vault down: key k-999")
			}
			return "k-" + req.URL.Path, nil
		}},
	}})
	cases := map[string]string{
		"/api/x":  "Bearer tok-123|k-/api/x",
		"/api":    "|k-/api",
		"/apix/y": "|k-/apix/y",
	}
	for path, want := range cases {
		raw, _ := json.Marshal(abi.FetchRequest{URL: srv.URL + path, Headers: [][2]string{{"Authorization", "script"}}})
		params, err := tool.Prepare(context.Background(), raw)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(params), "tok-123") {
			t.Errorf("params carry the token: %s", params)
		}
		if _, err := tool.Handler(context.Background(), params); err != nil {
			t.Fatal(err)
		}
		if path == "/api/x" {
			if got := seen.Load(); got != want {
				t.Errorf("%s: server saw %q, want %q", path, got, want)
			}
		} else if got := seen.Load(); got != "script|"+strings.TrimPrefix(want, "|") {
			t.Errorf("%s: server saw %q", path, got)
		}
	}
	_, err := call(t, tool, abi.FetchRequest{URL: srv.URL + "/fail"})
	var te *engine.ToolError
	if err == nil || errors.As(err, &te) {
		t.Errorf("a failing credential callback: %v, want an internal error", err)
	}
	t.Setenv("EGRESS_TEST_TOKEN", "")
	if _, err := call(t, tool, abi.FetchRequest{URL: srv.URL + "/api/x"}); err == nil || errors.As(err, &te) {
		t.Errorf("an unset credential variable: %v, want an internal error", err)
	}
}

func TestFetchConcurrencyCap(t *testing.T) {
	var cur, peak atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := cur.Add(1)
		defer cur.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(30 * time.Millisecond)
	}))
	defer srv.Close()
	tool := newTool(t, egress.Config{AllowPrivate: []string{hostPort(srv)}, MaxConcurrent: 2})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := call(t, tool, abi.FetchRequest{URL: srv.URL}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 2 || p < 1 {
		t.Errorf("peak concurrency %d, want at most 2", p)
	}
}

func TestHandlerRefusesUnpreparedParams(t *testing.T) {
	tool := newTool(t, egress.Config{})
	for _, params := range []string{
		`{"url":"http://127.0.0.1/","scheme":"http","host":"example.com","port":80,"path":"/","query":{},"headers":{},"method":"GET","body_size":0,"redirect":"follow"}`,
		`{"url":"http://example.com/","scheme":"http","host":"example.com","port":80,"path":"/","query":{},"headers":{"host":"evil"},"method":"GET","body_size":0,"redirect":"follow"}`,
		`{"url":"http://example.com/"}`,
	} {
		if _, err := tool.Handler(context.Background(), json.RawMessage(params)); err == nil || toolKind(err) != "invalid" {
			t.Errorf("Handler(%s) = %v, want invalid", params, err)
		}
	}
}

// The dialer resolves a name once and checks what it got: a name that
// resolves to loopback is refused, even on a port AllowPrivate opens for
// the literal address, and is not resolved a second time.
func TestFetchDialsTheCheckedAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "reached")
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(hostPort(srv))
	var lookups atomic.Int32
	tool := newTool(t, egress.Config{
		AllowPrivate: []string{"127.0.0.1:" + port},
		Resolver: egress.ResolverFunc(func(_ context.Context, _, name string) ([]netip.Addr, error) {
			lookups.Add(1)
			if name != "svc.test" {
				return nil, errors.New("unknown")
			}
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}),
	})
	resp, err := call(t, tool, abi.FetchRequest{URL: "http://svc.test:" + port + "/"})
	if err == nil || !strings.Contains(err.Error(), "loopback") || resp != nil || lookups.Load() != 1 {
		t.Errorf("resp %+v, err %v, %d lookups", resp, err, lookups.Load())
	}
	if _, err := egress.New(egress.Config{AllowPrivate: []string{"svc.test:" + port}}); !errors.Is(err, egress.ErrConfig) {
		t.Errorf("a name in AllowPrivate: %v, want ErrConfig", err)
	}
}

// A client of the host's makes the requests through its own transport (a
// TLS test server's here); one without a transport gets the tool's, with
// its address rules.
func TestFetchHostClient(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "tls ok")
	}))
	defer srv.Close()
	tool := newTool(t, egress.Config{Client: srv.Client()})
	if resp, err := call(t, tool, abi.FetchRequest{URL: srv.URL}); err != nil || resp.Body != "tls ok" {
		t.Errorf("the host's client: %+v %v", resp, err)
	}
	tool = newTool(t, egress.Config{Client: &http.Client{}})
	if _, err := call(t, tool, abi.FetchRequest{URL: srv.URL}); !errors.Is(err, egress.ErrPrivateAddress) {
		t.Errorf("a client without a transport: %v, want ErrPrivateAddress", err)
	}
}

// A Host credential does not travel over plain http to a host that is
// not loopback or listed in AllowPrivate.
func TestHostCredentialNeedsHTTPS(t *testing.T) {
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("X-Key"))
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(hostPort(srv))
	t.Setenv("EGRESS_TEST_KEY", "k1")
	tool := newTool(t, egress.Config{
		Client: &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "tcp", hostPort(srv))
		}}},
		Credentials: []egress.Credential{{Host: "api.example", Header: "X-Key", Env: "EGRESS_TEST_KEY"}},
	})
	if _, err := call(t, tool, abi.FetchRequest{URL: "http://api.example:" + port + "/"}); err != nil {
		t.Fatal(err)
	}
	if got := auth.Load(); got != "" {
		t.Errorf("a Host credential went over plain http: %q", got)
	}
}
