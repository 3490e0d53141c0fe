package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy/authz"
)

// capPolicy returns the Go capability policy of caps (no OPA).
func capPolicy(t *testing.T, caps ...*dsl.Capability) engine.Policy {
	t.Helper()
	p, err := authz.New(caps)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Two hosts (two engines, each with its own client of one server) serve
// one principal from several sandboxes each, all calling at once: the
// principal's max_calls holds exactly across them.
func TestPrincipalLimitHoldsAcrossHosts(t *testing.T) {
	url := sharedURL(t)
	prefix := testPrefix(t)
	const limit, sandboxesPerHost, callsPerScript = 37, 3, 20
	hosts := []*engine.Engine{enginetest.Engine(t), enginetest.NewEngine(t, enginetest.Config())}
	var ran atomic.Int32
	pol := capPolicy(t, dsl.Method("pay").MaxCalls(limit))
	var sandboxes []*engine.Sandbox
	var stores []*Store
	for _, eng := range hosts {
		store := openStore(t, url, Options{Prefix: prefix})
		stores = append(stores, store)
		for range sandboxesPerHost {
			sandboxes = append(sandboxes, enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{
				Tools:     []engine.Tool{enginetest.Counting("pay", &ran)},
				Policy:    pol,
				Principal: "alice",
				Counters:  engine.Counters{Store: store, Scope: counters.PerPrincipal},
				Limits:    engine.Limits{Timeout: enginetest.Scale(t, 30*time.Second)},
			}))
		}
	}
	script := `let ok = 0, denied = 0;
await Promise.all(Array.from({length: ` + strconv.Itoa(callsPerScript) + `}, () =>
  pay({}).then(() => { ok++ }, e => { if (e.kind !== "denied") throw e; denied++ })));
return ok`
	var wg sync.WaitGroup
	oks := make([]int, len(sandboxes))
	for i, sb := range sandboxes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := sb.Execute(context.Background(), engine.JavaScript, script)
			if err != nil {
				t.Errorf("sandbox %d: %v", i, err)
				return
			}
			if res.Exception != "" {
				t.Errorf("sandbox %d: %s", i, res.Exception)
				return
			}
			oks[i], _ = strconv.Atoi(string(res.Value))
		}()
	}
	wg.Wait()
	total := 0
	for _, n := range oks {
		total += n
	}
	snap, err := stores[1].Load(context.Background(), counters.Key(counters.PerPrincipal, "alice"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if total != limit || ran.Load() != limit || snap.Counts["method:pay"] != limit {
		t.Fatalf("allowed %d (per sandbox %v), ran %d, counted %d: want %d each", total, oks, ran.Load(), snap.Counts["method:pay"], limit)
	}
	// Each host granted some of them: the limit was shared, not split.
	if oks[0]+oks[1]+oks[2] == 0 || oks[3]+oks[4]+oks[5] == 0 {
		t.Logf("one host granted every call (%v): the test still checks the total", oks)
	}
}

// A store that cannot be reached denies the calls the engine decides, with
// a clear reason and the store's error in the audit record; a server that
// never answers does not hold the script past its deadline.
func TestUnreachableStoreDeniesWithinTheDeadline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // accepted, never answered
		}
	}()
	stores := map[string]*Store{
		"down":   openStore(t, "redis://127.0.0.1:"+strconv.Itoa(freePort(t))+"/0", Options{}),
		"silent": openStore(t, "redis://"+ln.Addr().String()+"/0", Options{Timeout: time.Minute}),
	}
	for name, store := range stores {
		t.Run(name, func(t *testing.T) {
			var ran atomic.Int32
			var mu sync.Mutex
			var records []engine.AuditRecord
			timeout := enginetest.Scale(t, 2*time.Second)
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{
				Tools:     []engine.Tool{enginetest.Counting("pay", &ran)},
				Policy:    capPolicy(t, dsl.Method("pay").MaxCalls(5)),
				Principal: "alice",
				Counters:  engine.Counters{Store: store, Scope: counters.PerPrincipal},
				Limits:    engine.Limits{Timeout: timeout},
				Audit: func(r engine.AuditRecord) {
					mu.Lock()
					records = append(records, r)
					mu.Unlock()
				},
			})
			start := time.Now()
			res, err := sb.Execute(context.Background(), engine.JavaScript,
				`try { await pay({}); return "ran" } catch (e) { return e.kind + ": " + e.message }`)
			elapsed := time.Since(start)
			if elapsed > timeout+enginetest.Scale(t, 2*time.Second) {
				t.Fatalf("the execution took %v, its timeout is %v", elapsed, timeout)
			}
			if ran.Load() != 0 {
				t.Fatal("the tool ran although its counters could not be read")
			}
			if err != nil {
				// The silent server may outlast the execution: a timeout,
				// never a hang and never an allowed call.
				if engine.KindOf(err) != engine.KindTimeout {
					t.Fatalf("Execute: %v", err)
				}
				return
			}
			if got := string(res.Value); !strings.Contains(got, "denied") || !strings.Contains(got, "counters could not be") {
				t.Fatalf("script saw %s, want a denial that names the counters", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(records) != 1 || records[0].Decision != "deny" || !errors.Is(records[0].Err, counters.ErrUnavailable) {
				t.Fatalf("audit records %+v, want one denial whose error is ErrUnavailable", records)
			}
		})
	}
}

// While the store is down the host keeps serving the calls that no
// counter decides: a capability without max_calls runs uncounted, and the
// audit says why; a limited one is denied. Both policy implementations
// that can tell (authz and policy) agree.
func TestStoreDownServesUnlimitedCalls(t *testing.T) {
	store := openStore(t, "redis://127.0.0.1:"+strconv.Itoa(freePort(t))+"/0", Options{})
	caps := []*dsl.Capability{dsl.Method("read"), dsl.Method("pay").MaxCalls(5)}
	for name, pol := range map[string]engine.Policy{"authz": capPolicy(t, caps...), "policy": enginetest.Policy(t, caps...)} {
		t.Run(name, func(t *testing.T) {
			var reads, pays atomic.Int32
			var mu sync.Mutex
			records := map[string]engine.AuditRecord{}
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{
				Tools:     []engine.Tool{enginetest.Counting("read", &reads), enginetest.Counting("pay", &pays)},
				Policy:    pol,
				Principal: "alice",
				Counters:  engine.Counters{Store: store, Scope: counters.PerPrincipal},
				Audit: func(r engine.AuditRecord) {
					mu.Lock()
					records[r.Method] = r
					mu.Unlock()
				},
			})
			res := enginetest.Run(t, sb, `const out = [];
for (const f of [read, pay]) { try { await f({}); out.push("ok") } catch (e) { out.push(e.message) } }
return out`)
			var out []string
			if err := json.Unmarshal(res.Value, &out); err != nil || len(out) != 2 {
				t.Fatalf("result %s: %v", res.Value, err)
			}
			if out[0] != "ok" || reads.Load() != 1 {
				t.Errorf("read, which no limit decides, saw %q", out[0])
			}
			if !strings.Contains(out[1], "counters could not be read") || pays.Load() != 0 {
				t.Errorf("pay, which max_calls limits, saw %q and ran %d times", out[1], pays.Load())
			}
			mu.Lock()
			defer mu.Unlock()
			if r := records["read"]; r.Decision != "allow" || !errors.Is(r.Err, ErrUnavailable) || !strings.Contains(r.Err.Error(), "uncounted") {
				t.Errorf("read's audit record: %s %v", r.Decision, r.Err)
			}
			if r := records["pay"]; r.Decision != "deny" || !errors.Is(r.Err, ErrUnavailable) {
				t.Errorf("pay's audit record: %s %v", r.Decision, r.Err)
			}
		})
	}
}

// An ask reserves its charge in the shared store, and a refusal gives it
// back there: asks one host refuses do not use up the limit another host
// grants from.
func TestRefusedAsksGiveTheirChargeBack(t *testing.T) {
	url := sharedURL(t)
	prefix := testPrefix(t)
	pol := capPolicy(t, dsl.Method("pay").Ask().MaxCalls(2))
	var ran atomic.Int32
	sandbox := func(eng *engine.Engine, approve bool) *engine.Sandbox {
		return enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{
			Tools:     []engine.Tool{enginetest.Counting("pay", &ran)},
			Policy:    pol,
			Principal: "alice",
			Counters:  engine.Counters{Store: openStore(t, url, Options{Prefix: prefix}), Scope: counters.PerPrincipal},
			Approve: func(context.Context, *engine.Call) (bool, string) {
				return approve, "not today"
			},
		})
	}
	script := `const out = [];
for (const i of [1, 2, 3]) { try { await pay({}); out.push("ok") } catch (e) { out.push(e.kind) } }
return out.join(",")`
	refuser := sandbox(enginetest.Engine(t), false)
	if got := string(enginetest.Run(t, refuser, script).Value); got != `"denied,denied,denied"` {
		t.Fatalf("refusing host: %s", got)
	}
	approver := sandbox(enginetest.NewEngine(t, enginetest.Config()), true)
	if got := string(enginetest.Run(t, approver, script).Value); got != `"ok,ok,denied"` {
		t.Fatalf("approving host after three refusals elsewhere: %s, want two calls of max_calls 2", got)
	}
	snap, err := openStore(t, url, Options{Prefix: prefix}).Load(context.Background(), counters.Key(counters.PerPrincipal, "alice"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if ran.Load() != 2 || snap.Counts["method:pay"] != 2 {
		t.Fatalf("ran %d, counted %v, want 2", ran.Load(), snap.Counts)
	}
}

// Two hosts share one principal's max_calls across a restart of a server
// that persists its data: the calls granted before the restart still
// count after it, the hosts' clients carry on over the connections the
// restart broke, and the principal gets exactly its limit in all, with the
// hosts' sandboxes calling at once on both sides of the restart. No call is
// denied for any other reason than the spent limit.
func TestPrincipalLimitHoldsAcrossARestart(t *testing.T) {
	for _, window := range []time.Duration{0, time.Hour} {
		t.Run("window="+window.String(), func(t *testing.T) {
			srv := startServer(t)
			prefix := testPrefix(t)
			const limit, sandboxesPerHost, callsPerScript = 15, 2, 3
			var ran atomic.Int32
			pol := capPolicy(t, dsl.Method("pay").MaxCalls(limit))
			var sandboxes []*engine.Sandbox
			var stores []*Store
			for _, eng := range []*engine.Engine{enginetest.Engine(t), enginetest.NewEngine(t, enginetest.Config())} {
				store := openStore(t, srv.URL(), Options{Prefix: prefix})
				stores = append(stores, store)
				for range sandboxesPerHost {
					sandboxes = append(sandboxes, enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{
						Tools:     []engine.Tool{enginetest.Counting("pay", &ran)},
						Policy:    pol,
						Principal: "alice",
						Counters:  engine.Counters{Store: store, Scope: counters.PerPrincipal, Window: window},
						Limits:    engine.Limits{Timeout: enginetest.Scale(t, 30*time.Second)},
					}))
				}
			}
			script := `let ok = 0;
await Promise.all(Array.from({length: ` + strconv.Itoa(callsPerScript) + `}, () =>
  pay({}).then(() => { ok++ }, e => { if (e.kind !== "denied" || !e.message.includes("max_calls")) throw e })));
return ok`
			// round runs the script in every sandbox at once and returns
			// the calls granted in all.
			round := func(name string) int {
				var wg sync.WaitGroup
				oks := make([]int, len(sandboxes))
				for i, sb := range sandboxes {
					wg.Add(1)
					go func() {
						defer wg.Done()
						res, err := sb.Execute(context.Background(), engine.JavaScript, script)
						if err != nil {
							t.Errorf("%s: sandbox %d: %v", name, i, err)
							return
						}
						if res.Exception != "" {
							t.Errorf("%s: sandbox %d: %s", name, i, res.Exception)
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
				t.Logf("%s: granted per sandbox %v", name, oks)
				return total
			}
			attempts := len(sandboxes) * callsPerScript
			if got := round("before the restart"); got != attempts {
				t.Fatalf("before the restart: granted %d of %d calls, want all (the limit is %d)", got, attempts, limit)
			}
			srv.Restart()
			if got := round("after the restart"); got != limit-attempts {
				t.Fatalf("after the restart: granted %d calls, want the %d left of the limit", got, limit-attempts)
			}
			for i, store := range stores {
				snap, err := store.Load(context.Background(), counters.Key(counters.PerPrincipal, "alice"), window)
				if err != nil {
					t.Fatal(err)
				}
				if snap.Counts["method:pay"] != limit {
					t.Fatalf("host %d reads %d calls counted, want %d", i, snap.Counts["method:pay"], limit)
				}
			}
			if ran.Load() != limit {
				t.Fatalf("the tool ran %d times, want %d", ran.Load(), limit)
			}
		})
	}
}
