package engine_test

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy/authz"
)

// BenchmarkFirstToolCall measures the first-call target in a live sandbox
// (one that ran before, as an agent's sandbox runs its scripts, with a
// capability policy that allows the tool): four scripts run in turn in
// every iteration, each timed, and the metrics are medians of the
// iterations' differences, which the machine's noise moves least:
//
//   - first-ns: a script with one tool call, less `return 1` (the cost of
//     a script's first call, await included);
//
//   - later-ns: a script with two calls, less one with one call;
//
//   - await-ns: `await 0; return 1`, less `return 1` (top-level await);
//
//   - ratio: first-ns / later-ns (the target is ≤ 2; top-level await ≤ 10 µs).
//
// In "busy" the scripts run back to back; in "idle" each comes after a
// pause (untimed), as an agent's scripts come after the model's turn, which
// the guest uses to make the next interpreter ahead (prepareLater).
//
//	go test ./engine/ -run XXX -bench FirstToolCall -count 5
func BenchmarkFirstToolCall(b *testing.B) {
	for _, mode := range []struct {
		name  string
		pause time.Duration
	}{{"busy", 0}, {"idle", time.Millisecond}} {
		b.Run(mode.name, func(b *testing.B) { benchFirstToolCall(b, mode.pause) })
	}
}

func benchFirstToolCall(b *testing.B, pause time.Duration) {
	ctx := context.Background()
	pol, err := authz.New([]*dsl.Capability{dsl.Method("t")})
	if err != nil {
		b.Fatal(err)
	}
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{
		Policy: pol,
		Limits: engine.Limits{Timeout: time.Minute, MaxToolCalls: math.MaxInt32},
		Tools:  []engine.Tool{okTool},
	})
	scripts := []string{`return 1`, `await t({}); return 1`, `await t({}); await t({}); return 1`, `await 0; return 1`}
	run := func(i int) time.Duration {
		if pause > 0 {
			time.Sleep(pause)
		}
		start := time.Now()
		res, err := sb.Execute(ctx, engine.JavaScript, scripts[i])
		took := time.Since(start)
		if err != nil || res.ExitCode != 0 {
			b.Fatal(err, res.Stderr)
		}
		return took
	}
	for i := range scripts {
		run(i) // each script is compiled and cached before the loop
	}
	var first, later, await []float64
	for b.Loop() {
		var t [4]time.Duration
		for i := range scripts {
			t[i] = run(i)
		}
		first = append(first, float64(t[1]-t[0]))
		later = append(later, float64(t[2]-t[1]))
		await = append(await, float64(t[3]-t[0]))
	}
	f, l := median(first), median(later)
	b.ReportMetric(f, "first-ns")
	b.ReportMetric(l, "later-ns")
	b.ReportMetric(median(await), "await-ns")
	b.ReportMetric(f/l, "ratio")
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}
