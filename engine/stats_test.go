package engine_test

import (
	"context"
	"sync"
	"testing"
	"time"

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
