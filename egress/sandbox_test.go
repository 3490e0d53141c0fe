package egress_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/egress"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
)

// auditLog collects a sandbox's audit records.
type auditLog struct {
	mu      sync.Mutex
	records []engine.AuditRecord
}

func (a *auditLog) add(r engine.AuditRecord) {
	a.mu.Lock()
	a.records = append(a.records, r)
	a.mu.Unlock()
}

func (a *auditLog) all() []engine.AuditRecord {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]engine.AuditRecord(nil), a.records...)
}

// echoServer answers with the method, the request URI and the
// Authorization header it got, and redirects /redirect?to=URL.
func echoServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); r.URL.Path == "/redirect" {
			code := http.StatusFound
			if c := r.URL.Query().Get("code"); c != "" {
				fmt.Sscan(c, &code)
			}
			http.Redirect(w, r, to, code)
			return
		}
		fmt.Fprintf(w, "%s %s auth=%s", r.Method, r.URL.RequestURI(), r.Header.Get("Authorization"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func sandbox(t *testing.T, cfg egress.Config, pol engine.Policy, audit *auditLog) *engine.Sandbox {
	t.Helper()
	tool := newTool(t, cfg)
	sc := engine.SandboxConfig{Tools: []engine.Tool{tool}, Policy: pol}
	if audit != nil {
		sc.Audit = audit.add
	}
	return enginetest.NewSandbox(t, sc)
}

// lines runs a script that prints one line per outcome.
func lines(t *testing.T, sb *engine.Sandbox, script string) []string {
	t.Helper()
	res := enginetest.Run(t, sb, script)
	if res.ExitCode != 0 {
		t.Fatalf("script failed: %+v", res)
	}
	return strings.Split(strings.TrimSpace(res.Stdout), "\n")
}

const tryEach = `
const out = []
for (const req of REQS) {
  try { const r = await http.fetch(req); out.push(r.status + " " + (r.body ?? "").replace(/\n/g, " ") + (r.redirected ? " redirected " + r.url : "")) }
  catch (e) { out.push(e.kind + ": " + e.message) }
}
console.log(out.join("\n"))`

func script(reqs ...any) string {
	b, _ := json.Marshal(reqs)
	return strings.Replace(tryEach, "REQS", string(b), 1)
}

func TestSandboxCapabilities(t *testing.T) {
	srv := echoServer(t)
	hp := hostPort(srv)
	pol := enginetest.Policy(t, dsl.Method("http/fetch").Where(
		dsl.Param("host").Eq("127.0.0.1"),
		dsl.Param("path").StartsWith("/ok/"),
		dsl.Param("method").In("GET", "HEAD")))
	sb := sandbox(t, egress.Config{AllowPrivate: []string{hp}}, pol, nil)
	got := lines(t, sb, script(
		map[string]any{"url": srv.URL + "/ok/a?x=1"},
		map[string]any{"url": srv.URL + "/secret"},
		map[string]any{"url": srv.URL + "/ok/../secret"},
		map[string]any{"url": srv.URL + "/ok/%2e%2e/secret"},
		map[string]any{"url": srv.URL + "/ok/a", "method": "POST", "body": "x"},
		map[string]any{"url": "http://localhost:" + strings.Split(hp, ":")[1] + "/ok/a"},
		map[string]any{"url": "http://2130706433/ok/"},
		map[string]any{"url": "file:///etc/passwd"},
	))
	want := []string{
		"200 GET /ok/a?x=1 auth=",
		"denied: ", "denied: ", "denied: ", "denied: ", "denied: ",
		"invalid: ", "invalid: ",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("request %d: %q, want prefix %q", i, got[i], want[i])
		}
	}
	if !strings.Contains(got[6], "canonical IPv4") || !strings.Contains(got[7], `"file" is not supported`) {
		t.Errorf("refusals: %q, %q", got[6], got[7])
	}
}

func TestSandboxRegoDeny(t *testing.T) {
	srv := echoServer(t)
	port := strings.Split(hostPort(srv), ":")[1]
	pol := enginetest.NewPolicy(t, policy.Config{
		Capabilities: []*dsl.Capability{dsl.Method("http/fetch")},
		Modules: map[string]string{"deny.rego": `package cordon.authz

deny contains sprintf("host %s is blocked", [input.params.host]) if {
	input.method == "http/fetch"
	input.params.host == "localhost"
}
`},
	})
	sb := sandbox(t, egress.Config{AllowPrivate: []string{hostPort(srv), "localhost:" + port}}, pol, nil)
	got := lines(t, sb, script(
		map[string]any{"url": srv.URL + "/a"},
		map[string]any{"url": "http://LOCALHOST.:" + port + "/a"},
		// A redirect to the denied host is decided again, and refused.
		map[string]any{"url": srv.URL + "/redirect?to=" + "http://localhost:" + port + "/b"},
		map[string]any{"url": srv.URL + "/redirect?to=/c"},
	))
	if len(got) != 4 || got[0] != "200 GET /a auth=" ||
		!strings.HasPrefix(got[1], "denied: ") || !strings.Contains(got[1], "host localhost is blocked") ||
		!strings.HasPrefix(got[2], "denied: ") || !strings.Contains(got[2], "host localhost is blocked") ||
		got[3] != "200 GET /c auth= redirected "+srv.URL+"/c" {
		t.Errorf("got %q", got)
	}
}

func TestSandboxRedirects(t *testing.T) {
	a, b := echoServer(t), echoServer(t)
	pol := enginetest.Policy(t,
		dsl.Method("http/fetch").Where(dsl.Param("host").Eq("127.0.0.1"), dsl.Param("path").Ne("/denied")))
	audit := &auditLog{}
	sb := sandbox(t, egress.Config{AllowPrivate: []string{hostPort(a), hostPort(b)}, MaxRedirects: 3}, pol, audit)
	auth := [][2]string{{"Authorization", "script-secret"}}
	got := lines(t, sb, script(
		// Same origin: the script's authorization is kept.
		map[string]any{"url": a.URL + "/redirect?to=/same", "headers": auth},
		// Another origin (another port): it is dropped.
		map[string]any{"url": a.URL + "/redirect?to=" + b.URL + "/other", "headers": auth},
		// 303 turns a POST into a GET; 307 keeps it.
		map[string]any{"url": a.URL + "/redirect?code=303&to=/x", "method": "POST", "body": "b"},
		map[string]any{"url": a.URL + "/redirect?code=307&to=/y", "method": "POST", "body": "b"},
		// A hop the policy denies ends the request.
		map[string]any{"url": a.URL + "/redirect?to=/denied"},
		// A hop to a scheme other than http(s) is refused.
		map[string]any{"url": a.URL + "/redirect?to=file:///etc/passwd"},
		// Too many hops.
		map[string]any{"url": a.URL + "/redirect?to=/redirect%3Fto%3D/redirect%253Fto%253D/redirect%25253Fto%25253D/end"},
		map[string]any{"url": a.URL + "/redirect?to=/z", "redirect": "manual"},
		map[string]any{"url": a.URL + "/redirect?to=/z", "redirect": "error"},
	))
	want := []string{
		"200 GET /same auth=script-secret redirected " + a.URL + "/same",
		"200 GET /other auth= redirected " + b.URL + "/other",
		"200 GET /x auth= redirected",
		"200 POST /y auth= redirected",
		"denied: ",
		"invalid: ",
		"failed: ",
		"302 ",
		"failed: ",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("request %d: %q, want prefix %q", i, got[i], want[i])
		}
	}
	if !strings.Contains(got[6], "more than 3 redirects") {
		t.Errorf("too many redirects: %q", got[6])
	}
	followUps := 0
	for _, r := range audit.all() {
		if r.FollowUpOf != "" {
			followUps++
		}
	}
	if followUps < 7 {
		t.Errorf("%d follow-up audit records, want one per hop", followUps)
	}
}

func TestSandboxCredentialsStayOnTheHost(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	const token = "ghp_supersecret_0123456789"
	t.Setenv("EGRESS_E2E_TOKEN", token)
	audit := &auditLog{}
	sb := sandbox(t, egress.Config{
		AllowPrivate: []string{hostPort(srv)},
		Credentials:  []egress.Credential{{Prefix: srv.URL + "/api/", Header: "Authorization", Env: "EGRESS_E2E_TOKEN", ValuePrefix: "token "}},
	}, enginetest.Policy(t, dsl.Method("http/fetch")), audit)
	res := enginetest.Run(t, sb, `
const r = await http.fetch({url: "`+srv.URL+`/api/repos"})
const s = await http.fetch({url: "`+srv.URL+`/other"})
console.log(JSON.stringify([r, s]))`)
	if res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
	shell := enginetest.RunShell(t, sb, `tool http/fetch --json '{"url":"`+srv.URL+`/api/shell"}'`)
	for _, out := range []string{res.Stdout, res.Stderr, shell.Stdout, shell.Stderr} {
		if strings.Contains(out, token) {
			t.Errorf("the token reached the script: %s", out)
		}
	}
	if !strings.Contains(shell.Stdout, `"status"`) || !strings.Contains(shell.Stdout, "200") {
		t.Errorf("shell: %+v", shell)
	}
	records := audit.all()
	if len(records) < 3 {
		t.Errorf("audit: %d records", len(records))
	}
	for _, r := range records {
		if b, _ := json.Marshal(r); strings.Contains(string(b), token) {
			t.Errorf("the token is in an audit record: %s", b)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"/api/repos token " + token, "/other ", "/api/shell token " + token}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("the server saw %q, want %q", seen, want)
	}
}
