package engine_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// Stats counts the live sandboxes, the pooled guests and the live guests'
// memory; the observer sees every execution once, with its language and
// outcome.
func TestStatsAndObserver(t *testing.T) {
	var mu sync.Mutex
	var seen []engine.ExecutionStats
	eng := enginetest.NewEngine(t, enginetest.Config().WithPool(1).WithObserver(func(s engine.ExecutionStats) {
		mu.Lock()
		seen = append(seen, s)
		mu.Unlock()
	}))
	waitFor := func(what string, cond func(engine.Stats) bool) engine.Stats {
		t.Helper()
		deadline := time.Now().Add(enginetest.Scale(t, 20*time.Second))
		for {
			st := eng.Stats()
			if cond(st) {
				return st
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %+v", what, st)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("the pool did not fill", func(st engine.Stats) bool { return st.Pooled == 1 && st.Sandboxes == 0 && st.MemoryBytes == 0 })

	a := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{ID: "a"})
	b := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{ID: "b", Limits: engine.Limits{Timeout: 200 * time.Millisecond}})
	st := eng.Stats()
	if st.Sandboxes != 2 || st.MemoryBytes < 2<<20 || st.MemoryBytes%65536 != 0 {
		t.Fatalf("two sandboxes: %+v", st)
	}
	before := st.MemoryBytes
	// A script that allocates grows its guest's memory.
	// (16 MiB: under the growth after which the sandbox gives its
	// guest's memory back, DefaultRecycleAfter.)
	enginetest.Run(t, a, `globalThis.keep = new Uint8Array(16 << 20); console.log(keep.length)`)
	if st := eng.Stats(); st.MemoryBytes <= before {
		t.Fatalf("memory did not grow: %d, then %+v", before, st)
	}
	enginetest.RunShell(t, a, `exit 3`)
	if _, err := b.Execute(context.Background(), engine.JavaScript, `for (;;) {}`); engine.KindOf(err) != engine.KindTimeout {
		t.Fatalf("the endless loop: %v", err)
	}

	mu.Lock()
	got := append([]engine.ExecutionStats(nil), seen...)
	mu.Unlock()
	if len(got) != 3 {
		t.Fatalf("the observer saw %d executions, want 3: %+v", len(got), got)
	}
	want := []struct {
		session string
		lang    engine.Language
		kind    engine.Kind
		exit    int
	}{
		{"a", engine.JavaScript, "", 0},
		{"a", engine.Shell, "", 3},
		{"b", engine.JavaScript, engine.KindTimeout, 1},
	}
	for i, outcome := range []string{"ok", "exit", "timeout"} {
		if got[i].Outcome() != outcome {
			t.Errorf("execution %d: outcome %q, want %q", i, got[i].Outcome(), outcome)
		}
	}
	if o := (engine.ExecutionStats{Result: &engine.Result{ExitCode: 1, Exception: "Error: no"}}).Outcome(); o != "exception" {
		t.Errorf("an uncaught exception: outcome %q", o)
	}
	for i, w := range want {
		s := got[i]
		if s.Session != w.session || s.Language != w.lang || s.Kind != w.kind || s.Result == nil || s.Result.ExitCode != w.exit {
			t.Errorf("execution %d: %+v, want %+v", i, s, w)
			continue
		}
		if (s.Err == nil) != (w.kind == "") || s.Start.IsZero() || s.Duration <= 0 || s.Duration != s.Result.Duration {
			t.Errorf("execution %d: err %v, start %v, duration %v (result's %v)", i, s.Err, s.Start, s.Duration, s.Result.Duration)
		}
	}
	if got[2].Duration < 200*time.Millisecond {
		t.Errorf("the timed-out execution took %v", got[2].Duration)
	}

	a.Close(context.Background())
	b.Close(context.Background())
	waitFor("closed sandboxes are still counted", func(st engine.Stats) bool { return st.Sandboxes == 0 && st.MemoryBytes == 0 && st.Pooled == 1 })
}

// The decision observer sees each decided call once, with its registered
// method, its decision and its latency: a call decided again because its
// counters changed is seen once, an ask is seen again when it is
// answered, a call the counter store made fail is an "error", and a call
// of a tool that is not registered is not seen at all.
func TestDecisionObserver(t *testing.T) {
	var mu sync.Mutex
	var seen []engine.DecisionStats
	eng := enginetest.NewEngine(t, enginetest.Config().WithDecisionObserver(func(s engine.DecisionStats) {
		mu.Lock()
		seen = append(seen, s)
		mu.Unlock()
	}))
	tools := []engine.Tool{enginetest.Echo("pay"), enginetest.Echo("wire")}
	sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{
		ID:       "obs",
		Tools:    tools,
		Policy:   enginetest.Policy(t, dsl.Method("pay").MaxCalls(1), dsl.Method("wire").Ask()),
		Counters: engine.Counters{Store: &raceOnce{Store: counters.NewMemory(nil)}},
		Approve: func(_ context.Context, c *engine.Call) (bool, string) {
			return strings.Contains(string(c.Params), "yes"), "operator"
		},
	})
	res := enginetest.Run(t, sb, `const out = []
for (const f of [() => pay({}), () => pay({}), () => wire({ok: "yes"}), () => wire({ok: "no"})]) {
  try { await f(); out.push("ok") } catch (e) { out.push(e.kind) }
}
return out.join(" ")`)
	if got := strings.TrimSpace(res.Stdout); got != "ok denied ok denied" {
		t.Fatalf("stdout %q", got)
	}
	enginetest.RunShell(t, sb, `tool nosuch.method --x 1; exit 0`)
	broken := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{
		ID:       "broken",
		Tools:    tools,
		Policy:   enginetest.Policy(t, dsl.Method("pay").MaxCalls(1)),
		Counters: engine.Counters{Store: failing{}},
	})
	enginetest.Run(t, broken, `try { await pay({}) } catch (e) {}`)

	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, s := range seen {
		got = append(got, s.Session+" "+s.Method+" "+s.Outcome())
		if s.Start.IsZero() || s.Duration <= 0 || s.DecisionID == "" || s.PolicyRevision == "" {
			t.Errorf("%s %s %s: start %v, duration %v, id %q, revision %q", s.Session, s.Method, s.Decision, s.Start, s.Duration, s.DecisionID, s.PolicyRevision)
		}
	}
	want := []string{
		"obs pay allow", "obs pay deny",
		"obs wire ask", "obs wire approved",
		"obs wire ask", "obs wire refused",
		"broken pay error",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("observed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := seen[len(seen)-1]; s.Decision != "deny" || s.Err == nil || !strings.Contains(s.Err.Error(), "store down") {
		t.Errorf("the store's failure: %+v", s)
	}
}
