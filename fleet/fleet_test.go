package fleet_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/fleet"
	"github.com/cordonhq/cordon/internal/slack"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/prometheus/client_golang/prometheus"
)

const secret = "the fleet's signing secret"

// regoDeny is a bundle's policy that denies the methods named.
func regoDeny(methods ...string) string {
	var b strings.Builder
	b.WriteString("package cordon.authz\n\n")
	for _, m := range methods {
		fmt.Fprintf(&b, "deny contains %q if input.method == %q\n\n", "no "+m, m)
	}
	return b.String()
}

// maskRego is a bundle's decision-log mask: params/secret never leaves the
// host.
const maskRego = `package system.log

mask contains "/input/params/secret"
`

type opts struct {
	bundles, logs string
	persist       string
	signed        bool
	eventBuffer   bool // decision logs in OPA's event buffer, rate-limited
}

// opaConfig is an OPA configuration for one host: the bundle polled every
// second, decision logs and status reported every second.
func opaConfig(o opts) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "services:\n  bundles:\n    url: %s\n", o.bundles)
	if o.logs != "" {
		fmt.Fprintf(&b, "  logs:\n    url: %s\n", o.logs)
	}
	b.WriteString("bundles:\n  cordon:\n    service: bundles\n    resource: /bundles/cordon.tar.gz\n")
	b.WriteString("    polling:\n      min_delay_seconds: 1\n      max_delay_seconds: 1\n")
	if o.signed {
		b.WriteString("    signing:\n      keyid: k1\n")
	}
	if o.persist != "" {
		b.WriteString("    persist: true\n")
		fmt.Fprintf(&b, "persistence_directory: %s\n", o.persist)
	}
	if o.signed {
		fmt.Fprintf(&b, "keys:\n  k1:\n    algorithm: HS256\n    key: %q\n", secret)
	}
	if o.logs != "" {
		b.WriteString("decision_logs:\n  service: logs\n  reporting:\n    min_delay_seconds: 1\n    max_delay_seconds: 1\n")
		if o.eventBuffer {
			b.WriteString("    buffer_type: event\n    buffer_size_limit_events: 1000\n    max_decisions_per_second: 1000\n")
		}
		b.WriteString("status:\n  service: logs\n")
	}
	return []byte(b.String())
}

func newPolicy(t *testing.T, cfg fleet.Config) *fleet.Policy {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), slack.Scale(t, 10*time.Second))
	defer cancel()
	if cfg.Capabilities == nil {
		cfg.Capabilities = []*dsl.Capability{dsl.Method("**")}
	}
	p, err := fleet.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		p.Close(ctx)
	})
	if err := p.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	return p
}

func decide(t *testing.T, p *fleet.Policy, method, params string) authz.Decision {
	t.Helper()
	d, err := p.Decide(context.Background(), &authz.Input{Method: method, Params: []byte(params), Session: authz.Session{ID: "s1"}})
	if err != nil {
		t.Fatalf("Decide %s: %v", method, err)
	}
	return d
}

// eventually polls cond every 50ms for up to d (scaled).
func eventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(slack.Scale(t, d))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", slack.Scale(t, d), what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestBundleChangeReachesEveryHost(t *testing.T) {
	srv := newBundleServer(t)
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), secret))
	var hosts []*fleet.Policy
	for range 2 {
		hosts = append(hosts, newPolicy(t, fleet.Config{OPA: opaConfig(opts{bundles: srv.URL, signed: true})}))
	}
	for i, h := range hosts {
		if h.Revision() != "r1" {
			t.Fatalf("host %d: revision %q, want r1", i, h.Revision())
		}
		if d := decide(t, h, "files/delete", `{}`); d.Allow {
			t.Fatalf("host %d: r1 allowed files/delete", i)
		}
		if d := decide(t, h, "files/write", `{}`); !d.Allow {
			t.Fatalf("host %d: r1 denied files/write: %v", i, d.Reasons)
		}
	}
	changed := time.Now()
	srv.set(makeBundle(t, "r2", regoDeny("files/delete", "files/write"), secret))
	// The polling interval is one second: every host has r2 within it
	// (and the time to download and compile).
	for i, h := range hosts {
		eventually(t, 3*time.Second, fmt.Sprintf("host %d still has revision %q", i, h.Revision()), func() bool { return h.Revision() == "r2" })
		d, rev, err := h.DecideRevision(context.Background(), &authz.Input{Method: "files/write", Params: []byte(`{}`)})
		if err != nil || d.Allow || d.Reasons[0] != "no files/write" || rev != "r2" {
			t.Fatalf("host %d: r2 decided files/write %+v at revision %q, %v", i, d, rev, err)
		}
	}
	t.Logf("both hosts on r2 after %v", time.Since(changed))
}

func TestBadSignatureIsRefused(t *testing.T) {
	srv := newBundleServer(t)
	col := newCollector(t)
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), secret))
	reg := prometheus.NewRegistry()
	p := newPolicy(t, fleet.Config{OPA: opaConfig(opts{bundles: srv.URL, logs: col.URL, signed: true}), Registerer: reg})
	srv.set(makeBundle(t, "r2", regoDeny("files/delete", "files/write"), "another secret"))
	// The status report says the bundle failed, and r1 stays.
	eventually(t, 5*time.Second, "no status report of the refused bundle", func() bool {
		_, sts := col.snapshot()
		for _, st := range sts {
			bs, _ := st["bundles"].(map[string]any)
			b, _ := bs["cordon"].(map[string]any)
			if strings.Contains(fmt.Sprint(b["errors"], b["message"]), "signature") {
				return true
			}
		}
		return false
	})
	if p.Revision() != "r1" {
		t.Fatalf("revision %q after a bad signature, want r1", p.Revision())
	}
	if d := decide(t, p, "files/write", `{}`); !d.Allow {
		t.Fatalf("the refused bundle decided: %v", d.Reasons)
	}
	if n := value(t, reg, fleet.MetricRevision, "r1"); n != 1 {
		t.Fatalf("%s{revision=r1} = %v", fleet.MetricRevision, n)
	}
}

func TestBundlesThatDoNotCompileAreRefused(t *testing.T) {
	srv := newBundleServer(t)
	col := newCollector(t)
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), ""))
	p := newPolicy(t, fleet.Config{OPA: opaConfig(opts{bundles: srv.URL, logs: col.URL})})
	// OPA refuses a bundle that does not compile; cordon never sees it.
	srv.set(makeBundle(t, "r-broken", "package cordon.authz\n\ndeny contains \"x\" if {\n", ""))
	eventually(t, 5*time.Second, "no status report of the broken bundle", func() bool {
		_, sts := col.snapshot()
		for _, st := range sts {
			bs, _ := st["bundles"].(map[string]any)
			b, _ := bs["cordon"].(map[string]any)
			if b["code"] == "bundle_error" && b["active_revision"] == "r1" {
				return true
			}
		}
		return false
	})
	if p.Revision() != "r1" || p.Err() != nil {
		t.Fatalf("after a bundle that does not compile: revision %q, Err %v", p.Revision(), p.Err())
	}
	// OPA compiles this; cordon refuses it: http.send is off in policies.
	srv.set(makeBundle(t, "r2", "package cordon.authz\n\ndeny contains \"x\" if http.send({\"method\": \"get\", \"url\": \"http://example.com\"}).status_code == 200\n", ""))
	eventually(t, 5*time.Second, "the bundle was not refused", func() bool { return p.Err() != nil })
	if !strings.Contains(p.Err().Error(), "http.send") {
		t.Fatalf("Err: %v", p.Err())
	}
	if p.Revision() != "r1" {
		t.Fatalf("revision %q, want r1", p.Revision())
	}
	eventually(t, 5*time.Second, "no status report with the cordon plugin's error", func() bool {
		_, sts := col.snapshot()
		for _, st := range sts {
			pls, _ := st["plugins"].(map[string]any)
			pl, _ := pls[fleet.StatusPlugin].(map[string]any)
			if pl["state"] == "ERROR" && strings.Contains(fmt.Sprint(pl["message"]), "r1 stays active") {
				return true
			}
		}
		return false
	})
}

func TestPersistBootsWithTheServerDown(t *testing.T) {
	srv := newBundleServer(t)
	dir := t.TempDir()
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), secret))
	cfg := fleet.Config{OPA: opaConfig(opts{bundles: srv.URL, persist: dir, signed: true})}
	first := newPolicy(t, cfg)
	if first.Revision() != "r1" {
		t.Fatalf("revision %q", first.Revision())
	}
	first.Close(context.Background())
	if _, err := os.Stat(filepath.Join(dir, "bundles", "cordon")); err != nil {
		t.Fatalf("nothing persisted: %v", err)
	}
	srv.setDown(true)
	second := newPolicy(t, cfg)
	if second.Revision() != "r1" {
		t.Fatalf("booted with revision %q, want r1", second.Revision())
	}
	if d := decide(t, second, "files/delete", `{}`); d.Allow {
		t.Fatal("the persisted bundle allowed files/delete")
	}
}

func TestNoBundleDeniesEverything(t *testing.T) {
	srv := newBundleServer(t)
	srv.setDown(true)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := fleet.New(ctx, fleet.Config{OPA: opaConfig(opts{bundles: srv.URL}), Capabilities: []*dsl.Capability{dsl.Method("**")}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	d, err := p.Decide(ctx, &authz.Input{Method: "files/read", Params: []byte(`{}`)})
	if err == nil || d.Allow || d.Ask {
		t.Fatalf("no bundle: %+v, %v", d, err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer wcancel()
	if err := p.Wait(wctx); err == nil {
		t.Fatal("Wait returned nil with no bundle")
	}
}

func TestDecisionLogsExactlyOnceAcrossAFailure(t *testing.T) {
	for _, buffer := range []string{"size", "event"} {
		t.Run(buffer, func(t *testing.T) { testDecisionLogsExactlyOnce(t, buffer == "event") })
	}
}

func testDecisionLogsExactlyOnce(t *testing.T, eventBuffer bool) {
	srv := newBundleServer(t)
	col := newCollector(t)
	col.failLogs = 1
	// The mask rides in the same bundle, as a second module.
	srv.set(makeBundleModules(t, "r1", map[string]string{"/policy/authz.rego": regoDeny("files/delete"), "/system/log.rego": maskRego}))
	reg := prometheus.NewRegistry()
	var seen []fleet.Decided
	p := newPolicy(t, fleet.Config{
		OPA:        opaConfig(opts{bundles: srv.URL, logs: col.URL, eventBuffer: eventBuffer}),
		Registerer: reg,
		Decided:    func(d fleet.Decided) { seen = append(seen, d) },
	})
	const n = 20
	want := map[string]string{}
	for i := range n {
		id := fmt.Sprintf("audit-%02d", i)
		method := "files/write"
		if i%4 == 0 {
			method = "files/delete"
		}
		ctx := authz.WithDecisionID(context.Background(), id)
		if _, err := p.Decide(ctx, &authz.Input{Method: method, Params: []byte(`{"path":"/a","secret":"hunter2"}`), Session: authz.Session{ID: "s1"}}); err != nil {
			t.Fatal(err)
		}
		want[id] = method
	}
	// One whose context has ended (the engine denies it, whatever OPA's
	// evaluation made of it) is logged all the same.
	late, cancel := context.WithCancel(authz.WithDecisionID(context.Background(), "audit-late"))
	cancel()
	_, _ = p.Decide(late, &authz.Input{Method: "files/write", Params: []byte(`{}`)})
	want["audit-late"] = "files/write"
	// One without an id in ctx gets one of its own, which Decided reports.
	decide(t, p, "files/read", `{}`)
	own := seen[len(seen)-1].ID
	if own == "" || seen[0].ID != "audit-00" || seen[0].Revision != "r1" {
		t.Fatalf("Decided: %+v ... %+v", seen[0], seen[len(seen)-1])
	}
	want[own] = "files/read"
	eventually(t, 10*time.Second, "the collector did not receive every decision", func() bool {
		events, _ := col.snapshot()
		return len(events) >= len(want)
	})
	time.Sleep(slack.Scale(t, 1500*time.Millisecond)) // one more upload period: nothing twice
	events, _ := col.snapshot()
	col.mu.Lock()
	failed := col.failed
	col.mu.Unlock()
	if failed != 1 {
		t.Fatalf("the collector failed %d uploads, want 1", failed)
	}
	got := map[string]int{}
	for _, ev := range events {
		id, _ := ev["decision_id"].(string)
		got[id]++
		if ev["path"] != fleet.DecisionPath {
			t.Errorf("%s: path %v", id, ev["path"])
		}
		bs, _ := ev["bundles"].(map[string]any)
		if b, _ := bs["cordon"].(map[string]any); b["revision"] != "r1" {
			t.Errorf("%s: bundles %v", id, ev["bundles"])
		}
		input, _ := ev["input"].(map[string]any)
		if input["method"] != want[id] {
			t.Errorf("%s: input.method %v, want %s", id, input["method"], want[id])
		}
		params, _ := input["params"].(map[string]any)
		if _, leaked := params["secret"]; leaked || strings.Contains(fmt.Sprint(ev), "hunter2") {
			t.Errorf("%s: the masked param reached the log: %v", id, params)
		}
		result, _ := ev["result"].(map[string]any)
		if id == "audit-late" && result == nil {
			if ev["error"] == nil {
				t.Errorf("%s: neither a result nor an error", id)
			}
			continue
		}
		if allow := result["allow"] == true; allow == (want[id] == "files/delete") {
			t.Errorf("%s: result %v", id, result)
		}
	}
	for id := range want {
		if got[id] != 1 {
			t.Errorf("decision %s logged %d times", id, got[id])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d distinct decisions logged, want %d", len(got), len(want))
	}
	// The engine counts the calls (EngineMetrics), each once: the Policy
	// does not count them again.
	if c := count(t, reg, fleet.MetricToolCalls); c != 0 {
		t.Errorf("the Policy registers %s (%d samples): the engine's calls would be counted twice", fleet.MetricToolCalls, c)
	}
}

func TestDecisionsNeverWaitForTheNetwork(t *testing.T) {
	srv := newBundleServer(t)
	col := newCollector(t)
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), ""))
	p := newPolicy(t, fleet.Config{OPA: opaConfig(opts{bundles: srv.URL, logs: col.URL})})
	// Both services now hang on every request, then fail it.
	hang := make(chan struct{})
	released := false
	release := func() {
		if !released {
			released = true
			close(hang)
		}
	}
	defer release()
	srv.mu.Lock()
	srv.hang = hang
	srv.mu.Unlock()
	col.mu.Lock()
	col.hang = hang
	col.mu.Unlock()
	deadline := 200 * time.Millisecond
	end := time.Now().Add(slack.Scale(t, 3*time.Second)) // across several upload and poll periods
	ids := map[string]bool{}
	for i := 0; time.Now().Before(end); i++ {
		id := fmt.Sprintf("hung-%d", i)
		ids[id] = true
		ctx, cancel := context.WithTimeout(authz.WithDecisionID(context.Background(), id), deadline)
		start := time.Now()
		d, err := p.Decide(ctx, &authz.Input{Method: "files/write", Params: []byte(`{}`)})
		took := time.Since(start)
		cancel()
		if err != nil || !d.Allow {
			t.Fatalf("decision %d: %+v, %v", i, d, err)
		}
		if took > deadline {
			t.Fatalf("decision %d took %v, past its deadline %v", i, took, deadline)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The services come back: every decision made meanwhile arrives, once.
	col.mu.Lock()
	col.hang = nil
	col.mu.Unlock()
	srv.mu.Lock()
	srv.hang = nil
	srv.mu.Unlock()
	release()
	eventually(t, 10*time.Second, "the decisions made while the collector hung did not all arrive", func() bool {
		events, _ := col.snapshot()
		n := 0
		for _, ev := range events {
			if ids[fmt.Sprint(ev["decision_id"])] {
				n++
			}
		}
		return n >= len(ids)
	})
	events, _ := col.snapshot()
	got := map[string]int{}
	for _, ev := range events {
		got[fmt.Sprint(ev["decision_id"])]++
	}
	for id := range ids {
		if got[id] != 1 {
			t.Errorf("%s logged %d times", id, got[id])
		}
	}
}

// value returns the value of the metric name whose label values are
// labels, in the order the metric declares them.
func value(t *testing.T, reg *prometheus.Registry, name string, labels ...string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	metrics:
		for _, m := range mf.GetMetric() {
			if len(m.GetLabel()) != len(labels) {
				continue
			}
			for i, l := range m.GetLabel() {
				if l.GetValue() != labels[i] {
					continue metrics
				}
			}
			switch {
			case m.Counter != nil:
				return m.GetCounter().GetValue()
			case m.Gauge != nil:
				return m.GetGauge().GetValue()
			}
		}
	}
	t.Fatalf("no metric %s%v", name, labels)
	return 0
}

// A running sandbox moves to a new revision at its next call, and each
// audit record names the revision that decided it.
func TestSandboxMovesAtItsNextCall(t *testing.T) {
	srv := newBundleServer(t)
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), ""))
	p := newPolicy(t, fleet.Config{OPA: opaConfig(opts{bundles: srv.URL})})
	var mu sync.Mutex
	var recs []engine.AuditRecord
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Echo("files/write"), enginetest.Echo("files/delete")},
		Policy: p,
		Audit: func(r engine.AuditRecord) {
			mu.Lock()
			recs = append(recs, r)
			mu.Unlock()
		},
	})
	const script = `
let out = [];
for (const m of ["write", "delete"]) {
  try { await files[m]({path: "/a"}); out.push(m + " ok"); } catch (e) { out.push(m + " " + e.kind); }
}
console.log(out.join(", "));`
	if r := enginetest.Run(t, sb, script); strings.TrimSpace(r.Stdout) != "write ok, delete denied" {
		t.Fatalf("r1: %q %v", r.Stdout, r.Exception)
	}
	srv.set(makeBundle(t, "r2", regoDeny("files/delete", "files/write"), ""))
	eventually(t, 3*time.Second, "r2 did not arrive", func() bool { return p.Revision() == "r2" })
	if r := enginetest.Run(t, sb, script); strings.TrimSpace(r.Stdout) != "write denied, delete denied" {
		t.Fatalf("r2: %q %v", r.Stdout, r.Exception)
	}
	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, r := range recs {
		got = append(got, r.Method+"="+r.Decision+"@"+r.PolicyRevision)
	}
	want := "files/write=allow@r1 files/delete=deny@r1 files/write=deny@r2 files/delete=deny@r2"
	if strings.Join(got, " ") != want {
		t.Fatalf("audit:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// Two hosts, one bundle server, one collector, and a policy change mid-run:
// every decision reaches the collector once, from its host, with the
// revision that decided it, and each host's status reports the new
// revision.
func TestTwoHostsOneCollector(t *testing.T) {
	srv := newBundleServer(t)
	col := newCollector(t)
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), secret))
	var mu sync.Mutex
	decided := map[string]fleet.Decided{}
	record := func(d fleet.Decided) {
		mu.Lock()
		decided[d.ID] = d
		mu.Unlock()
	}
	hosts := map[string]*fleet.Policy{}
	for _, id := range []string{"host-a", "host-b"} {
		hosts[id] = newPolicy(t, fleet.Config{ID: id, OPA: opaConfig(opts{bundles: srv.URL, logs: col.URL, signed: true}), Decided: record})
	}
	hostOf := map[string]string{}
	round := func(tag string) {
		for id, h := range hosts {
			for i := range 5 {
				did := fmt.Sprintf("%s-%s-%d", id, tag, i)
				hostOf[did] = id
				ctx := authz.WithDecisionID(context.Background(), did)
				if _, err := h.Decide(ctx, &authz.Input{Method: "files/write", Params: []byte(`{}`), Session: authz.Session{ID: id}}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	round("before")
	srv.set(makeBundle(t, "r2", regoDeny("files/delete", "files/write"), secret))
	for id, h := range hosts {
		eventually(t, 3*time.Second, id+" did not move to r2", func() bool { return h.Revision() == "r2" })
	}
	round("after")
	eventually(t, 10*time.Second, "the collector did not receive every decision", func() bool {
		events, _ := col.snapshot()
		return len(events) >= len(hostOf)
	})
	events, _ := col.snapshot()
	seen := map[string]int{}
	mu.Lock()
	defer mu.Unlock()
	for _, ev := range events {
		did, _ := ev["decision_id"].(string)
		seen[did]++
		labels, _ := ev["labels"].(map[string]any)
		d, ok := decided[did]
		switch {
		case !ok:
			t.Errorf("a decision the hosts did not make: %v", ev)
		case labels["id"] != hostOf[did]:
			t.Errorf("%s: from %v, want %s", did, labels["id"], hostOf[did])
		case ev["revision"] != d.Revision:
			t.Errorf("%s: logged with revision %v, decided by %s", did, ev["revision"], d.Revision)
		}
		result, _ := ev["result"].(map[string]any)
		if allow := result["allow"] == true; allow != (d.Revision == "r1") {
			t.Errorf("%s: result %v at %s", did, result, d.Revision)
		}
	}
	for did := range hostOf {
		if seen[did] != 1 {
			t.Errorf("%s logged %d times", did, seen[did])
		}
	}
	eventually(t, 5*time.Second, "the hosts' status reports do not both say r2", func() bool {
		_, sts := col.snapshot()
		on := map[any]bool{}
		for _, st := range sts {
			labels, _ := st["labels"].(map[string]any)
			bs, _ := st["bundles"].(map[string]any)
			b, _ := bs["cordon"].(map[string]any)
			if b["active_revision"] == "r2" {
				on[labels["id"]] = true
			}
		}
		return on["host-a"] && on["host-b"]
	})
}
