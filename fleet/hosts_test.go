package fleet_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/counters/redisstore"
	"github.com/cordonhq/cordon/counters/redisstore/redistest"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/fleet"
)

// host is one cordon host of a fleet: an engine of its own, its managed
// policy (with its own OPA plugin manager), its client of the shared
// Redis, and the audit records of its sandboxes.
type host struct {
	id    string
	eng   *engine.Engine
	pol   *fleet.Policy
	store *redisstore.Store

	mu   sync.Mutex
	recs []engine.AuditRecord
}

// sandbox opens a sandbox of principal alice on h, whose counters are the
// principal's in the shared store.
func (h *host) sandbox(t *testing.T) *engine.Sandbox {
	return enginetest.NewSandboxOf(t, h.eng, engine.SandboxConfig{
		Tools:     []engine.Tool{enginetest.Echo("files/write"), enginetest.Echo("files/delete"), enginetest.Echo("payments/pay")},
		Policy:    h.pol,
		Principal: "alice",
		Counters:  engine.Counters{Store: h.store, Scope: counters.PerPrincipal},
		Limits:    engine.Limits{Timeout: enginetest.Scale(t, 30*time.Second)},
		Audit: func(r engine.AuditRecord) {
			h.mu.Lock()
			h.recs = append(h.recs, r)
			h.mu.Unlock()
			h.pol.Audit(r)
		},
	})
}

func (h *host) records() []engine.AuditRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]engine.AuditRecord(nil), h.recs...)
}

// A fleet in one process: three hosts, one bundle server serving signed
// bundles, one decision-log collector that fails an upload, and one
// redis-server. A bundle change reaches every host within the polling
// interval; a bundle with a bad signature is refused and the last good one
// stays active; the collector receives every decision and outcome once,
// from its host, with the revision that decided it, across the failed
// upload; the masked param never leaves a host; and the principal's
// max_calls holds exactly across hosts calling at once.
func TestFleetOfHosts(t *testing.T) {
	redisURL := redistest.Start(t).URL()
	prefix := redistest.Prefix(t)
	srv := newBundleServer(t)
	col := newCollector(t)
	col.failLogs = 1
	bundle := func(rev string, deny []string, key string) []byte {
		return makeSigned(t, rev, map[string]string{"/policy/authz.rego": regoDeny(deny...), "/system/log.rego": maskRego}, key)
	}
	srv.set(bundle("r1", []string{"files/delete"}, secret))

	const limit = 10
	caps := []*dsl.Capability{dsl.Method("payments/pay").MaxCalls(limit), dsl.Method("files/*")}
	var hosts []*host
	for i := range 3 {
		h := &host{id: fmt.Sprintf("host-%d", i)}
		h.pol = newPolicy(t, fleet.Config{ID: h.id, OPA: opaConfig(opts{bundles: srv.URL, logs: col.URL, signed: true}), Capabilities: caps})
		h.eng = enginetest.NewEngine(t, enginetest.Config().WithPool(0))
		store, err := redisstore.Open(redisURL, redisstore.Options{Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		h.store = store
		hosts = append(hosts, h)
	}
	for _, h := range hosts {
		if h.pol.Revision() != "r1" {
			t.Fatalf("%s: revision %q, want r1", h.id, h.pol.Revision())
		}
	}

	// Every host runs two sandboxes of alice's, all at once, each paying
	// 6 times at once: 36 attempts, 10 allowed in all.
	const perScript = 6
	pay := `let ok = 0;
await Promise.all(Array.from({length: ` + strconv.Itoa(perScript) + `}, () =>
  payments.pay({amount: 1}).then(() => { ok++ }, e => { if (e.kind !== "denied") throw e })));
await files.write({path: "/a", secret: "hunter2"});
try { await files.delete({path: "/a"}); } catch (e) { if (e.kind !== "denied") throw e }
return ok`
	var sandboxes []*engine.Sandbox
	for _, h := range hosts {
		sandboxes = append(sandboxes, h.sandbox(t), h.sandbox(t))
	}
	oks := make([]int, len(sandboxes))
	var wg sync.WaitGroup
	for i, sb := range sandboxes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := sb.Execute(context.Background(), engine.JavaScript, pay)
			if err != nil || res.Exception != "" {
				t.Errorf("sandbox %d: %v %s", i, err, res.Stderr)
				return
			}
			oks[i], _ = strconv.Atoi(string(res.Value))
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	total := 0
	for _, n := range oks {
		total += n
	}
	snap, err := hosts[0].store.Load(context.Background(), counters.Key(counters.PerPrincipal, "alice"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if total != limit {
		t.Fatalf("allowed %d payments (per sandbox %v), want %d", total, oks, limit)
	}
	t.Logf("payments allowed per sandbox: %v; counters %v", oks, snap.Counts)

	// A new bundle reaches every host within the polling interval (one
	// second), plus the time to download and compile it.
	changed := time.Now()
	srv.set(bundle("r2", []string{"files/delete", "files/write"}, secret))
	for _, h := range hosts {
		eventually(t, 3*time.Second, h.id+" did not move to r2", func() bool { return h.pol.Revision() == "r2" })
	}
	t.Logf("every host on r2 after %v", time.Since(changed))
	write := `try { await files.write({path: "/b", secret: "hunter2"}); return "ok" } catch (e) { return e.kind }`
	for i, sb := range sandboxes {
		if r := enginetest.Run(t, sb, write); string(r.Value) != `"denied"` {
			t.Fatalf("sandbox %d on r2: files/write %s", i, r.Value)
		}
	}

	// A bundle signed with another key is refused by every host; r2 stays.
	srv.set(bundle("r3", nil, "another secret"))
	eventually(t, 10*time.Second, "not every host reported the bad signature", func() bool {
		_, sts := col.snapshot()
		bad := map[any]bool{}
		for _, st := range sts {
			labels, _ := st["labels"].(map[string]any)
			bs, _ := st["bundles"].(map[string]any)
			b, _ := bs["cordon"].(map[string]any)
			if strings.Contains(fmt.Sprint(b["errors"], b["message"]), "signature") && b["active_revision"] == "r2" {
				bad[labels["id"]] = true
			}
		}
		return len(bad) == len(hosts)
	})
	for i, sb := range sandboxes {
		if r := enginetest.Run(t, sb, write); string(r.Value) != `"denied"` {
			t.Fatalf("sandbox %d after the bad bundle: files/write %s", i, r.Value)
		}
	}
	for _, h := range hosts {
		if h.pol.Revision() != "r2" {
			t.Fatalf("%s: revision %q after a bad signature, want r2", h.id, h.pol.Revision())
		}
	}

	// Every decision (and the failure of none: every call here is allowed
	// or denied) reaches the collector once, from its host, with its
	// revision, across the failed upload.
	type entry struct {
		host string
		rec  engine.AuditRecord
	}
	want := map[string]entry{}
	superseded := map[string]entry{}
	for _, h := range hosts {
		for _, r := range h.records() {
			if r.Decision == "superseded" {
				superseded[r.DecisionID] = entry{h.id, r}
				continue
			}
			want[r.DecisionID] = entry{h.id, r}
		}
	}
	if len(want) != len(sandboxes)*(perScript+2+2) {
		t.Fatalf("%d decisions audited, want %d", len(want), len(sandboxes)*(perScript+4))
	}
	eventually(t, 15*time.Second, "the collector did not receive every decision", func() bool {
		events, _ := col.snapshot()
		return len(events) >= len(want)+2*len(superseded)
	})
	time.Sleep(enginetest.Scale(t, 1500*time.Millisecond)) // one more upload period: nothing twice
	events, _ := col.snapshot()
	col.mu.Lock()
	failed := col.failed
	col.mu.Unlock()
	if failed != 1 {
		t.Errorf("the collector failed %d uploads, want 1", failed)
	}
	// The log also has the evaluations that lost a race: with a shared
	// store the engine charges a call's counters with a compare-and-set,
	// and decides the call again, under a new id, when another host's
	// charge came first. Only the last decision took effect; each one
	// before it has its decision event and an outcome event "superseded"
	// (engine.AuditRecord, fleet.Policy.Audit), under its own id.
	got := map[string]int{}
	outcomes := map[string]int{}
	retried := 0
	for _, ev := range events {
		id, _ := ev["decision_id"].(string)
		w, ok := want[id]
		labels, _ := ev["labels"].(map[string]any)
		input, _ := ev["input"].(map[string]any)
		if strings.Contains(fmt.Sprint(ev), "hunter2") {
			t.Errorf("%s: the masked param reached the log: %v", id, input)
		}
		if ev["path"] == fleet.OutcomePath {
			result, _ := ev["result"].(map[string]any)
			if s, isSuperseded := superseded[id]; !isSuperseded || result["outcome"] != "superseded" || labels["id"] != s.host {
				t.Errorf("an outcome event for no superseded decision: %v", ev)
			}
			outcomes[id]++
			continue
		}
		got[id]++
		switch {
		case !ok && superseded[id].host != "" && ev["path"] == fleet.DecisionPath:
			retried++
			if labels["id"] != superseded[id].host {
				t.Errorf("%s: a superseded decision from %v, audited by %s", id, labels["id"], superseded[id].host)
			}
			continue
		case !ok:
			t.Errorf("an event no host audited: %v", ev)
			continue
		case labels["id"] != w.host:
			t.Errorf("%s: from %v, audited by %s", id, labels["id"], w.host)
		case ev["revision"] != w.rec.PolicyRevision:
			t.Errorf("%s: logged with revision %v, audited with %s", id, ev["revision"], w.rec.PolicyRevision)
		case ev["path"] != fleet.DecisionPath:
			t.Errorf("%s: path %v", id, ev["path"])
		}
		result, _ := ev["result"].(map[string]any)
		if allow := result["allow"] == true; allow != (w.rec.Decision == "allow") {
			t.Errorf("%s: result %v, audited %s", id, result, w.rec.Decision)
		}
	}
	t.Logf("%d events, %d decisions audited, %d decided again after a lost race", len(events), len(want), retried)
	for id, w := range want {
		if got[id] != 1 {
			t.Errorf("%s (%s %s@%s on %s) logged %d times", id, w.rec.Method, w.rec.Decision, w.rec.PolicyRevision, w.host, got[id])
		}
	}
	for id := range superseded {
		if got[id] != 1 || outcomes[id] != 1 {
			t.Errorf("superseded decision %s: %d decision events and %d outcome events, want 1 and 1", id, got[id], outcomes[id])
		}
	}
}
