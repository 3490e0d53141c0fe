package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
)

// payTwice runs a script that tries n payments and returns how many the
// policy allowed.
func payTimes(t *testing.T, sb *engine.Sandbox, n int) int {
	t.Helper()
	res := enginetest.Run(t, sb, fmt.Sprintf(`let ok = 0
for (let i = 0; i < %d; i++) { try { await pay({i}); ok++ } catch (e) {} }
return ok`, n))
	var ok int
	if _, err := fmt.Sscan(res.Stdout, &ok); err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	return ok
}

// A sandbox that replaces another under the same session id (a broken
// guest, an idle timeout) continues from its counts.
func TestCountersOutliveTheSandbox(t *testing.T) {
	for name, pol := range enginetest.Evaluators(t, dsl.Method("pay").MaxCalls(2)) {
		t.Run(name, func(t *testing.T) {
			var ran atomic.Int32
			id := "replaced-" + t.Name()
			cfg := engine.SandboxConfig{ID: id, Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol,
				Limits: engine.Limits{Timeout: 20 * time.Second}}
			first := enginetest.NewSandbox(t, cfg)
			if n := payTimes(t, first, 1); n != 1 {
				t.Fatalf("first sandbox: %d payments", n)
			}
			// The script kills its own guest.
			if _, err := first.Execute(context.Background(), engine.JavaScript, `const a = []; while (true) a.push(new Uint8Array(32 << 20))`); !errors.Is(err, engine.ErrMemory) {
				t.Fatalf("err %v, want out of memory", err)
			}
			first.Close(context.Background())
			second := enginetest.NewSandbox(t, cfg)
			if n := payTimes(t, second, 3); n != 1 {
				t.Fatalf("the replacement allowed %d payments, want 1 (2 in all)", n)
			}
			second.Close(context.Background())
			third := enginetest.NewSandbox(t, cfg)
			if n := payTimes(t, third, 3); n != 0 || ran.Load() != 2 {
				t.Fatalf("a third sandbox allowed %d payments; the handler ran %d times in all, want 2", n, ran.Load())
			}
		})
	}
}

func TestCountersPerPrincipalSpanSessions(t *testing.T) {
	pol := enginetest.Policy(t, dsl.Method("pay").MaxCalls(3))
	var ran atomic.Int32
	principal := "alice-" + t.Name()
	mk := func(id, who string) *engine.Sandbox {
		return enginetest.NewSandbox(t, engine.SandboxConfig{ID: id + t.Name(), Principal: who, Counters: engine.Counters{Scope: counters.PerPrincipal},
			Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol})
	}
	a, b := mk("a", principal), mk("b", principal)
	if n := payTimes(t, a, 2); n != 2 {
		t.Fatalf("session a: %d", n)
	}
	if n := payTimes(t, b, 5); n != 1 {
		t.Fatalf("session b of the same principal: %d payments, want 1 (3 in all)", n)
	}
	if n := payTimes(t, mk("c", "bob-"+t.Name()), 5); n != 3 {
		t.Fatalf("another principal: %d payments, want its own 3", n)
	}
	// Under that scope a principal is required.
	_, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Counters: engine.Counters{Scope: counters.PerPrincipal}})
	if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), "Principal") {
		t.Fatalf("principal scope without a principal: %v", err)
	}
	if _, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Counters: engine.Counters{Scope: "tenant"}}); !errors.Is(err, engine.ErrInvalid) {
		t.Fatalf("unknown scope: %v", err)
	}
}

func TestCountersPerExecutionStartAtZero(t *testing.T) {
	store := counters.NewMemory(nil)
	pol := enginetest.Policy(t, dsl.Method("pay").MaxCalls(2))
	var ran atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Counters: engine.Counters{Store: store, Scope: counters.PerExecution},
		Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol})
	for i := range 3 {
		if n := payTimes(t, sb, 3); n != 2 {
			t.Fatalf("execution %d: %d payments, want 2", i, n)
		}
	}
	if store.Keys() != 0 {
		t.Fatalf("the store keeps %d keys after the executions ended", store.Keys())
	}
}

func TestCountersWindow(t *testing.T) {
	clock := enginetest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	store := counters.NewMemory(clock.Now)
	pol := enginetest.Policy(t, dsl.Method("pay").MaxCalls(2))
	var ran atomic.Int32
	cfg := engine.SandboxConfig{Principal: "p", Counters: engine.Counters{Store: store, Scope: counters.PerPrincipal, Window: time.Hour},
		Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol}
	sb := enginetest.NewSandbox(t, cfg)
	if n := payTimes(t, sb, 3); n != 2 {
		t.Fatalf("%d payments, want 2", n)
	}
	clock.Advance(59 * time.Minute)
	if n := payTimes(t, enginetest.NewSandbox(t, cfg), 3); n != 0 {
		t.Fatalf("%d payments within the hour, want 0", n)
	}
	clock.Advance(2 * time.Minute)
	if n := payTimes(t, sb, 3); n != 2 {
		t.Fatalf("%d payments an hour later, want 2", n)
	}
}

// noLock hides Memory's Lock, as a store shared by many hosts would not
// have one: the engine then relies on Add's version check alone.
type noLock struct{ counters.Store }

// Many sandboxes of one principal calling at once, each with a batch of
// concurrent calls: exactly max_calls are allowed, with and without the
// store's lock.
func TestCountersExactUnderConcurrentSandboxes(t *testing.T) {
	for _, locked := range []bool{true, false} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			var store counters.Store = counters.NewMemory(nil)
			if !locked {
				store = noLock{store}
			}
			pol := enginetest.Policy(t, dsl.Method("pay").MaxCalls(7))
			var ran atomic.Int32
			const sandboxes = 6
			sbs := make([]*engine.Sandbox, sandboxes)
			for i := range sbs {
				sbs[i] = enginetest.NewSandbox(t, engine.SandboxConfig{Principal: "shared", Counters: engine.Counters{Store: store, Scope: counters.PerPrincipal},
					Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol})
			}
			var wg sync.WaitGroup
			var allowed atomic.Int32
			for _, sb := range sbs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := sb.Execute(context.Background(), engine.JavaScript,
						`const rs = await Promise.allSettled([1,2,3,4].map(i => pay({i}))); return rs.filter(r => r.status == "fulfilled").length`)
					if err != nil {
						t.Error(err)
						return
					}
					var n int32
					fmt.Sscan(res.Stdout, &n)
					allowed.Add(n)
				}()
			}
			wg.Wait()
			if allowed.Load() != 7 || ran.Load() != 7 {
				t.Fatalf("allowed %d, handler ran %d; want exactly 7", allowed.Load(), ran.Load())
			}
		})
	}
}

// failing is a store whose every operation fails.
type failing struct{}

func (failing) Load(context.Context, string, time.Duration) (counters.Snapshot, error) {
	return counters.Snapshot{}, errors.New("store down")
}
func (failing) Add(context.Context, string, time.Duration, uint64, []string) (bool, error) {
	return false, errors.New("store down")
}
func (failing) Sub(context.Context, string, time.Duration, []string) error {
	return errors.New("store down")
}
func (failing) Delete(context.Context, string) error { return errors.New("store down") }

func TestCounterStoreFailureDenies(t *testing.T) {
	var ran atomic.Int32
	var audits []engine.AuditRecord
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Counters: engine.Counters{Store: failing{}},
		Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Audit: func(r engine.AuditRecord) { audits = append(audits, r) }})
	res := enginetest.Run(t, sb, `try { await pay({}) } catch (e) { return e.kind + ": " + e.message }`)
	if ran.Load() != 0 || !strings.Contains(res.Stdout, "denied") || !strings.Contains(res.Stdout, "counters could not be read") {
		t.Fatalf("stdout %q, handler ran %d times", res.Stdout, ran.Load())
	}
	if len(audits) != 1 || audits[0].Decision != "deny" || audits[0].Err == nil || !strings.Contains(audits[0].Err.Error(), "store down") {
		t.Fatalf("audit %+v", audits)
	}
}

// When the store fails, a call whose decision no counter could change (a
// capability without a limit, no rule reading the counters) is still
// allowed, uncounted; a limited capability, an ask and a rule that reads
// the counters are denied. The default policy, which limits every tool,
// denies.
func TestCounterStoreFailureKeepsUnlimitedCalls(t *testing.T) {
	caps := []*dsl.Capability{dsl.Method("pay").MaxCalls(3), dsl.Method("read"), dsl.Method("wire").Ask()}
	for name, pol := range enginetest.Evaluators(t, caps...) {
		t.Run(name, func(t *testing.T) {
			var ran atomic.Int32
			var mu sync.Mutex
			var audits []engine.AuditRecord
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{Counters: engine.Counters{Store: failing{}}, Policy: pol,
				Tools:   []engine.Tool{enginetest.Counting("pay", &ran), enginetest.Counting("read", &ran), enginetest.Counting("wire", &ran)},
				Approve: func(context.Context, *engine.Call) (bool, string) { return true, "" },
				Audit:   func(r engine.AuditRecord) { mu.Lock(); audits = append(audits, r); mu.Unlock() }})
			res := enginetest.Run(t, sb, `const out = []
for (const f of [read, pay, wire]) { try { await f({}); out.push("ok") } catch (e) { out.push(e.kind) } }
return out.join(" ")`)
			if strings.TrimSpace(res.Stdout) != "ok denied denied" || ran.Load() != 1 {
				t.Fatalf("stdout %q, handler ran %d times", res.Stdout, ran.Load())
			}
			if audits[0].Decision != "allow" || audits[0].Err == nil || !strings.Contains(audits[0].Err.Error(), "uncounted") {
				t.Fatalf("the uncounted allow's audit: %+v", audits[0])
			}
		})
	}
	pol := enginetest.NewPolicy(t, policy.Config{Capabilities: caps, Modules: map[string]string{"busy.rego": `package cordon.authz
deny contains "busy" if input.calls.read > 100
`}})
	var ran atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Counters: engine.Counters{Store: failing{}}, Policy: pol, Tools: []engine.Tool{enginetest.Counting("read", &ran)}})
	if res := enginetest.Run(t, sb, `try { await read({}); return "ok" } catch (e) { return e.kind }`); strings.TrimSpace(res.Stdout) != "denied" {
		t.Fatalf("a rule that reads the counters: %q", res.Stdout)
	}
	sb = enginetest.NewSandbox(t, engine.SandboxConfig{Counters: engine.Counters{Store: failing{}}, Tools: []engine.Tool{enginetest.Counting("read", &ran)}})
	if res := enginetest.Run(t, sb, `try { await read({}); return "ok" } catch (e) { return e.kind }`); strings.TrimSpace(res.Stdout) != "denied" {
		t.Fatalf("the default policy: %q", res.Stdout)
	}
}

// A refused ask gives its reservation back to the shared store, so that
// refusals cannot wear a limit out for the principal's other sessions.
func TestRefusedAskReleasesTheSharedCharge(t *testing.T) {
	store := counters.NewMemory(nil)
	pol := enginetest.Policy(t, dsl.Method("pay").MaxCalls(1).Ask())
	var ran atomic.Int32
	mk := func(approve bool) *engine.Sandbox {
		return enginetest.NewSandbox(t, engine.SandboxConfig{Principal: "p", Counters: engine.Counters{Store: store, Scope: counters.PerPrincipal},
			Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol,
			Approve: func(context.Context, *engine.Call) (bool, string) { return approve, "" }})
	}
	if n := payTimes(t, mk(false), 3); n != 0 {
		t.Fatalf("refused asks: %d payments", n)
	}
	if n := payTimes(t, mk(true), 3); n != 1 {
		t.Fatalf("after refusals, %d approved payments, want 1", n)
	}
}

// The policy sees the principal as input.session.principal.
func TestPolicySeesThePrincipal(t *testing.T) {
	pol := enginetest.NewPolicy(t, policy.Config{Modules: map[string]string{"p.rego": `package cordon.authz
permit contains "alice may" if input.session.principal == "alice"
`}})
	var ran atomic.Int32
	for who, want := range map[string]string{"alice": "ok", "mallory": "denied"} {
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{Principal: who, Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol})
		res := enginetest.Run(t, sb, `try { await pay({}); return "ok" } catch (e) { return e.kind }`)
		if strings.TrimSpace(res.Stdout) != want {
			t.Errorf("principal %s: %q, want %q", who, res.Stdout, want)
		}
	}
}

// Each decision has an id of its own, which the records of its answer
// (approved, refused, failed) carry too.
func TestAuditDecisionIDs(t *testing.T) {
	var mu sync.Mutex
	var audits []engine.AuditRecord
	pol := enginetest.Policy(t, dsl.Method("pay").Ask(), dsl.Method("fail"))
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Policy: pol,
		Tools:   []engine.Tool{enginetest.Echo("pay"), enginetest.Failing("fail", errors.New("down"))},
		Approve: func(context.Context, *engine.Call) (bool, string) { return true, "" },
		Audit:   func(r engine.AuditRecord) { mu.Lock(); audits = append(audits, r); mu.Unlock() }})
	enginetest.Run(t, sb, `await pay({}); try { await fail({}) } catch (e) {}`)
	mu.Lock()
	defer mu.Unlock()
	byDecision := map[string]string{}
	for _, r := range audits {
		byDecision[r.Decision] = r.DecisionID
		if len(r.DecisionID) != 36 {
			t.Fatalf("record %s has id %q", r.Decision, r.DecisionID)
		}
	}
	if byDecision["ask"] != byDecision["approved"] || byDecision["allow"] != byDecision["failed"] || byDecision["ask"] == byDecision["allow"] {
		t.Fatalf("ids %v", byDecision)
	}
}

// Capabilities that share a name share one counter: the name is the quota.
func TestNamedCapabilitiesShareACounter(t *testing.T) {
	for name, pol := range enginetest.Evaluators(t, dsl.Method("a").Named("quota").MaxCalls(2), dsl.Method("b").Named("quota").MaxCalls(2)) {
		t.Run(name, func(t *testing.T) {
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{Policy: pol, Tools: []engine.Tool{enginetest.Echo("a"), enginetest.Echo("b")}})
			res := enginetest.Run(t, sb, `const out = []
for (const f of [a, b, b]) { try { await f({}); out.push("ok") } catch (e) { out.push(e.kind) } }
return out.join(" ")`)
			if strings.TrimSpace(res.Stdout) != "ok ok denied" {
				t.Fatalf("%q", res.Stdout)
			}
		})
	}
}

// raceOnce is a store whose first Add loses its compare-and-set, as when
// another host charged the counters between the Load and the Add.
type raceOnce struct {
	counters.Store
	lost atomic.Bool
}

func (r *raceOnce) Add(ctx context.Context, key string, window time.Duration, version uint64, names []string) (bool, error) {
	if r.lost.CompareAndSwap(false, true) {
		return false, nil
	}
	return r.Store.Add(ctx, key, window, version, names)
}

// A decision that loses the race on the counters is made again under a
// new id, and the audit says what became of the first one, so that a
// decision log that holds both can tell which took effect.
func TestSupersededDecisionIsAudited(t *testing.T) {
	var mu sync.Mutex
	var recs []engine.AuditRecord
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:    []engine.Tool{enginetest.Echo("pay")},
		Policy:   enginetest.Policy(t, dsl.Method("pay").MaxCalls(3)),
		Counters: engine.Counters{Store: &raceOnce{Store: counters.NewMemory(nil)}},
		Audit:    func(r engine.AuditRecord) { mu.Lock(); recs = append(recs, r); mu.Unlock() },
	})
	enginetest.Run(t, sb, `await pay({})`)
	mu.Lock()
	defer mu.Unlock()
	if len(recs) != 2 || recs[0].Decision != "superseded" || recs[1].Decision != "allow" ||
		recs[0].DecisionID == "" || recs[0].DecisionID == recs[1].DecisionID {
		t.Fatalf("audit records: %+v", recs)
	}
}
