package fleet_test

import (
	"encoding/json"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/approval"
	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/counters/redisstore"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/fleet"
)

// A host whose policy comes from OPA's bundles keeps serving, while its
// counter store is down, the calls that no counter decides (a capability
// without max_calls, under a bundle whose rules read no counter), and
// denies the others with the store's error; a bundle whose rules read the
// counters makes every call depend on the store.
func TestStoreDownServesUnlimitedCallsWithBundles(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there now
	store, err := redisstore.Open("redis://127.0.0.1:"+strconv.Itoa(port)+"/0", redisstore.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })

	srv := newBundleServer(t)
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), ""))
	p := newPolicy(t, fleet.Config{
		OPA:          opaConfig(opts{bundles: srv.URL}),
		Capabilities: []*dsl.Capability{dsl.Method("read"), dsl.Method("pay").MaxCalls(5)},
	})
	var reads, pays atomic.Int32
	var mu sync.Mutex
	records := map[string]engine.AuditRecord{}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:     []engine.Tool{enginetest.Counting("read", &reads), enginetest.Counting("pay", &pays)},
		Policy:    p,
		Principal: "alice",
		Counters:  engine.Counters{Store: store, Scope: counters.PerPrincipal},
		Audit: func(r engine.AuditRecord) {
			mu.Lock()
			records[r.Method] = r
			mu.Unlock()
		},
	})
	script := `const out = [];
for (const f of [read, pay]) { try { await f({}); out.push("ok") } catch (e) { out.push(e.message) } }
return out`
	run := func() []string {
		t.Helper()
		res := enginetest.Run(t, sb, script)
		var out []string
		if err := json.Unmarshal(res.Value, &out); err != nil || len(out) != 2 {
			t.Fatalf("result %s: %v", res.Value, err)
		}
		return out
	}
	out := run()
	if out[0] != "ok" || reads.Load() != 1 {
		t.Errorf("r1: read, which no limit decides, saw %q", out[0])
	}
	if !strings.Contains(out[1], "counters could not be read") || pays.Load() != 0 {
		t.Errorf("r1: pay, which max_calls limits, saw %q and ran %d times", out[1], pays.Load())
	}
	mu.Lock()
	if r := records["read"]; r.Decision != "allow" || r.PolicyRevision != "r1" || !errors.Is(r.Err, counters.ErrUnavailable) || !strings.Contains(r.Err.Error(), "uncounted") {
		t.Errorf("r1: read's audit record: %s@%s %v", r.Decision, r.PolicyRevision, r.Err)
	}
	if r := records["pay"]; r.Decision != "deny" || !errors.Is(r.Err, counters.ErrUnavailable) {
		t.Errorf("r1: pay's audit record: %s %v", r.Decision, r.Err)
	}
	mu.Unlock()

	// A bundle whose rules read the counters: read now needs the store too.
	srv.set(makeBundle(t, "r2", "package cordon.authz\n\ndeny contains \"too many\" if input.calls[\"read\"] > 100\n", ""))
	eventually(t, 5*time.Second, "the host did not move to r2", func() bool { return p.Revision() == "r2" })
	out = run()
	if !strings.Contains(out[0], "counters could not be read") || reads.Load() != 1 {
		t.Errorf("r2: read, which the bundle's rules count, saw %q", out[0])
	}
	if !strings.Contains(out[1], "counters could not be read") || pays.Load() != 0 {
		t.Errorf("r2: pay saw %q and ran %d times", out[1], pays.Load())
	}
}

// A managed policy lists the capabilities it compiles every bundle with,
// as a local one does, so that approval prompts show the params a
// capability constrains.
func TestPolicyListsItsCapabilities(t *testing.T) {
	srv := newBundleServer(t)
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), ""))
	caps := []*dsl.Capability{dsl.Method("read"), dsl.Method("pay").Where(dsl.Param("amount").Le(100)).Ask()}
	p := newPolicy(t, fleet.Config{OPA: opaConfig(opts{bundles: srv.URL}), Capabilities: caps})
	if got := strings.Join(approval.Constrained(p, 1), " "); got != "amount" {
		t.Errorf("Constrained(pay) = %q, want amount", got)
	}
	if got := approval.Constrained(p, 0); got != nil {
		t.Errorf("Constrained(read) = %q, want none", got)
	}
}
