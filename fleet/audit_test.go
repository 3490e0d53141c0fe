package fleet_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/fleet"
)

// askRego asks before every payment.
const askRego = `package cordon.authz

ask contains "payments need approval" if input.method == "payments/pay"
`

// The approvals, refusals and failures of calls reach the decision log,
// each once, under the decision_id of the decision they follow, with the
// outcome in the result; the decisions themselves are logged as before.
func TestAuditOutcomesReachTheDecisionLog(t *testing.T) {
	srv := newBundleServer(t)
	col := newCollector(t)
	srv.set(makeBundleModules(t, "r1", map[string]string{"/policy/authz.rego": askRego, "/system/log.rego": maskRego}))
	p := newPolicy(t, fleet.Config{OPA: opaConfig(opts{bundles: srv.URL, logs: col.URL})})
	var mu sync.Mutex
	var recs []engine.AuditRecord
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools: []engine.Tool{
			enginetest.Echo("payments/pay"),
			enginetest.Failing("files/broken", errors.New("the disk is on fire")),
			enginetest.Echo("files/write"),
		},
		Policy: p,
		Approve: func(_ context.Context, c *engine.Call) (bool, string) {
			if strings.Contains(string(c.Params), `"amount":10`) {
				return true, "small enough"
			}
			return false, "too much"
		},
		Audit: func(r engine.AuditRecord) {
			mu.Lock()
			recs = append(recs, r)
			mu.Unlock()
			p.Audit(r)
		},
	})
	r := enginetest.Run(t, sb, `
const out = [];
for (const [name, f] of [
  ["small", () => payments.pay({amount: 10, secret: "hunter2"})],
  ["large", () => payments.pay({amount: 500})],
  ["broken", () => files.broken({})],
  ["write", () => files.write({path: "/a"})],
]) {
  try { await f(); out.push(name + " ok"); } catch (e) { out.push(name + " " + e.kind); }
}
console.log(out.join(", "));`)
	if got := strings.TrimSpace(r.Stdout); got != "small ok, large denied, broken failed, write ok" {
		t.Fatalf("script: %q %s", got, r.Stderr)
	}

	mu.Lock()
	want := map[string]engine.AuditRecord{} // by decision_id and path
	for _, rec := range recs {
		path := fleet.OutcomePath
		if rec.Decision == "allow" || rec.Decision == "deny" || rec.Decision == "ask" {
			path = fleet.DecisionPath
		}
		want[rec.DecisionID+" "+path] = rec
	}
	mu.Unlock()
	// 4 decisions, 1 approval, 1 refusal, 1 failure.
	if len(want) != 7 {
		t.Fatalf("%d audit records: %+v", len(want), recs)
	}
	eventually(t, 10*time.Second, "the collector did not receive every record", func() bool {
		events, _ := col.snapshot()
		return len(events) >= len(want)
	})
	time.Sleep(enginetest.Scale(t, 1500*time.Millisecond)) // one more upload period: nothing twice
	events, _ := col.snapshot()
	got := map[string]int{}
	outcomes := map[string]string{}
	for _, ev := range events {
		key := fmt.Sprint(ev["decision_id"], " ", ev["path"])
		got[key]++
		rec, ok := want[key]
		if !ok {
			t.Errorf("an event no record matches: %v", ev)
			continue
		}
		if ev["revision"] != "r1" {
			t.Errorf("%s: revision %v", key, ev["revision"])
		}
		if strings.Contains(fmt.Sprint(ev), "hunter2") {
			t.Errorf("%s: the masked param reached the log: %v", key, ev)
		}
		if ev["path"] != fleet.OutcomePath {
			continue
		}
		result, _ := ev["result"].(map[string]any)
		input, _ := ev["input"].(map[string]any)
		reasons := fmt.Sprint(result["reasons"])
		if result["outcome"] != rec.Decision || input["method"] != rec.Method || reasons != fmt.Sprint(rec.Reasons) {
			t.Errorf("%s: result %v, input %v; the record: %s %s %q", key, result, input, rec.Decision, rec.Method, rec.Reasons)
		}
		outcomes[rec.Method+" "+fmt.Sprint(result["outcome"])] = reasons
	}
	for key := range want {
		if got[key] != 1 {
			t.Errorf("%s logged %d times", key, got[key])
		}
	}
	if len(outcomes) != 3 || outcomes["payments/pay approved"] != "[small enough]" || outcomes["payments/pay refused"] != "[too much]" || outcomes["files/broken failed"] == "" {
		t.Errorf("outcomes: %v", outcomes)
	}
}
