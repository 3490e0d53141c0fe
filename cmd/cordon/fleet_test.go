package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/bundle"
)

// fleetServer serves one bundle (revision fleet-7, which denies
// files/delete) at /bundles/cordon.tar.gz and collects decision logs at
// /logs.
type fleetServer struct {
	*httptest.Server
	mu     sync.Mutex
	events []map[string]any
}

func newFleetServer(t *testing.T) *fleetServer {
	t.Helper()
	var tarball bytes.Buffer
	if err := bundle.NewWriter(&tarball).Write(bundle.Bundle{
		Manifest: bundle.Manifest{Revision: "fleet-7", Roots: &[]string{""}},
		Modules: []bundle.ModuleFile{{URL: "/authz.rego", Path: "/authz.rego", Raw: []byte(
			"package cordon.authz\n\ndeny contains \"deletes are off\" if input.method == \"files/delete\"\n")}},
		Data: map[string]any{},
	}); err != nil {
		t.Fatal(err)
	}
	f := &fleetServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/bundles/cordon.tar.gz":
			_, _ = w.Write(tarball.Bytes())
		case "/logs":
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body, _ := io.ReadAll(zr)
			var evs []map[string]any
			if err := json.Unmarshal(body, &evs); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			f.mu.Lock()
			f.events = append(f.events, evs...)
			f.mu.Unlock()
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

// config writes a config of two echo tools, files/write and files/delete,
// whose policy comes from f.
func (f *fleetServer) config(t *testing.T) string {
	t.Helper()
	return writeFile(t, "c.yaml", `
tools:
  - {name: files/write, echo: true}
  - {name: files/delete, echo: true}
capabilities:
  - method: "files/**"
opa:
  services:
    fleet: {url: "`+f.URL+`"}
  bundles:
    cordon: {service: fleet, resource: bundles/cordon.tar.gz}
  decision_logs:
    service: fleet
    reporting: {min_delay_seconds: 300, max_delay_seconds: 600}
`)
}

// With opa: in the config, cordon run takes its policy from the bundle
// service and uploads its decisions to the log service before it exits.
func TestRunWithOPAManagedPolicy(t *testing.T) {
	f := newFleetServer(t)
	cfg := f.config(t)
	code, stdout, stderr := cli(t, "", "run", "--config", cfg, "-e", `
await files.write({path: "/a"});
try { await files.delete({path: "/a"}); } catch (e) { console.log(e.kind, e.message); }`)
	if code != 0 || !strings.Contains(stdout, "denied") || !strings.Contains(stdout, "deletes are off") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	events := f.events
	if len(events) != 2 {
		t.Fatalf("%d decisions logged before exit, want 2: %v", len(events), events)
	}
	for i, method := range []string{"files/write", "files/delete"} {
		in, _ := events[i]["input"].(map[string]any)
		if in["method"] != method || events[i]["revision"] != "fleet-7" {
			t.Errorf("event %d: %v", i, events[i])
		}
	}
}

// With opa:, cordon run also logs what became of an asked call (here
// approved by --approve allow) under the decision's id.
func TestRunLogsOutcomesWithOPA(t *testing.T) {
	f := newFleetServer(t)
	base, err := os.ReadFile(f.config(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(base), `  - method: "files/**"`, `  - {method: "files/write", ask: true}`, 1)
	code, stdout, stderr := cli(t, "", "run", "--config", writeFile(t, "ask.yaml", cfg), "--approve", "allow", "-e", `await files.write({path: "/a"}); console.log("written")`)
	if code != 0 || !strings.Contains(stdout, "written") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.events) != 2 {
		t.Fatalf("%d events logged before exit, want 2: %v", len(f.events), f.events)
	}
	decision, outcome := f.events[0], f.events[1]
	result, _ := outcome["result"].(map[string]any)
	if decision["path"] != "cordon/authz/decision" || outcome["path"] != "cordon/authz/outcome" ||
		outcome["decision_id"] != decision["decision_id"] || result["outcome"] != "approved" || outcome["revision"] != "fleet-7" {
		t.Fatalf("events: %v", f.events)
	}
}

// opa: and policies: do not mix, nor opa: and --policy.
func TestOPAConfigRefusesLocalPolicies(t *testing.T) {
	cfg := writeFile(t, "c.yaml", "opa:\n  services: {a: {url: \"http://127.0.0.1:1\"}}\npolicies: [p.rego]\n")
	code, _, stderr := cli(t, "", "run", "--config", cfg, "-e", "1")
	if code == 0 || !strings.Contains(stderr, "cannot be combined with opa") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	cfg = writeFile(t, "c.yaml", "opa:\n  services: {a: {url: \"http://127.0.0.1:1\"}}\n")
	code, _, stderr = cli(t, "", "run", "--config", cfg, "--policy", "x.rego", "-e", "1")
	if code == 0 || !strings.Contains(stderr, "--policy cannot be combined") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// cordon mcp --http with opa: serves the policy's metrics at /metrics,
// beside the engine's, behind the server's bearer token.
func TestMCPHTTPMetricsWithOPA(t *testing.T) {
	f := newFleetServer(t)
	t.Setenv(tokenEnv, "metrics-token-0123456789")
	m := startMCP(t, "--config", f.config(t), "--http", "127.0.0.1:0")
	metricsURL := strings.TrimSuffix(m.url, "/mcp") + "/metrics"
	if resp, err := http.Get(metricsURL); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/metrics without the token: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	cs := mustDialMCP(t, m.url, "metrics-token-0123456789")
	_, sc := mcpCall(t, cs, "run_javascript", "code", `await files.write({}); try { await files.delete({}); } catch (e) { return e.kind; }`)
	if sc["value"] != "denied" {
		t.Fatalf("result %v", sc)
	}
	req, _ := http.NewRequest("GET", metricsURL, nil)
	req.Header.Set("Authorization", "Bearer metrics-token-0123456789")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics with the token: %v %v", resp, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, want := range []string{
		`cordon_tool_calls_total{decision="allow",method="files/write"} 1`,
		`cordon_tool_calls_total{decision="deny",method="files/delete"} 1`,
		`cordon_policy_revision_info{revision="fleet-7"} 1`,
		"cordon_decision_duration_seconds_count 2",
		`cordon_executions_total{language="js",outcome="ok"} 1`,
		`cordon_execution_duration_seconds_count{language="js"} 1`,
		"cordon_sandboxes 1",
		"cordon_pooled_guests ",
		"cordon_guest_memory_bytes ",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics has no %s:\n%s", want, body)
		}
	}
}

// Without opa:, cordon mcp --http serves the engine's metrics at /metrics,
// behind the server's bearer token: executions, and the tool calls the
// local policy decided with their latency; none of a fleet policy's.
func TestMCPHTTPEngineMetrics(t *testing.T) {
	t.Setenv(tokenEnv, "metrics-token-0123456789")
	cfg := writeFile(t, "c.yaml", `
tools:
  - {name: files/write, echo: true}
  - {name: files/delete, echo: true}
capabilities:
  - method: files/write
`)
	m := startMCP(t, "--config", cfg, "--http", "127.0.0.1:0")
	metricsURL := strings.TrimSuffix(m.url, "/mcp") + "/metrics"
	if resp, err := http.Get(metricsURL); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/metrics without the token: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	cs := mustDialMCP(t, m.url, "metrics-token-0123456789")
	if _, sc := mcpCall(t, cs, "run_javascript", "code", `return 1 + 1`); sc["value"] != 2.0 {
		t.Fatalf("result %v", sc)
	}
	mcpCall(t, cs, "run_javascript", "code", `throw new Error("no")`)
	if _, sc := mcpCall(t, cs, "run_javascript", "code", `await files.write({}); try { await files.delete({}); } catch (e) { return e.kind; }`); sc["value"] != "denied" {
		t.Fatalf("result %v", sc)
	}
	req, _ := http.NewRequest("GET", metricsURL, nil)
	req.Header.Set("Authorization", "Bearer metrics-token-0123456789")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics with the token: %v %v", resp, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, want := range []string{
		`cordon_executions_total{language="js",outcome="ok"} 2`,
		`cordon_executions_total{language="js",outcome="exception"} 1`,
		`cordon_execution_duration_seconds_count{language="js"} 3`,
		`cordon_tool_calls_total{decision="allow",method="files/write"} 1`,
		`cordon_tool_calls_total{decision="deny",method="files/delete"} 1`,
		"cordon_decision_duration_seconds_count 2",
		"cordon_sandboxes 1",
		"cordon_guest_memory_bytes ",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics has no %s:\n%s", want, body)
		}
	}
	if strings.Contains(string(body), "cordon_policy_revision_info") {
		t.Errorf("/metrics has a fleet policy's metrics without opa:")
	}
}
