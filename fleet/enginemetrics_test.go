package fleet_test

import (
	"context"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/fleet"
	"github.com/prometheus/client_golang/prometheus"
)

func TestEngineMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := fleet.NewEngineMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fleet.NewEngineMetrics(reg); err == nil {
		t.Fatal("the same metrics registered twice on one registry")
	}
	// Before Watch, the gauges report nothing.
	if n := count(t, reg, fleet.MetricSandboxes); n != 0 {
		t.Fatalf("%d samples of %s before Watch", n, fleet.MetricSandboxes)
	}
	eng := enginetest.NewEngine(t, enginetest.Config().WithPool(1).WithObserver(m.Observe))
	m.Watch(eng)
	eventually(t, 20*time.Second, "the pool did not fill", func() bool { return value(t, reg, fleet.MetricPooledGuests) == 1 })

	sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Limits: engine.Limits{Timeout: 300 * time.Millisecond}})
	if n := value(t, reg, fleet.MetricSandboxes); n != 1 {
		t.Fatalf("%s = %v with one sandbox", fleet.MetricSandboxes, n)
	}
	if n := value(t, reg, fleet.MetricGuestMemory); n < 1<<20 {
		t.Fatalf("%s = %v with one sandbox", fleet.MetricGuestMemory, n)
	}
	enginetest.Run(t, sb, `console.log(1)`)
	enginetest.Run(t, sb, `console.log(2)`)
	enginetest.Run(t, sb, `throw new TypeError("no")`)
	enginetest.RunShell(t, sb, `exit 2`)
	if _, err := sb.Execute(context.Background(), engine.Shell, `while :; do :; done`); engine.KindOf(err) != engine.KindTimeout {
		t.Fatalf("the endless loop: %v", err)
	}
	for _, c := range []struct {
		lang, outcome string
		want          float64
	}{
		{"js", "ok", 2}, {"js", "exception", 1}, {"sh", "exit", 1}, {"sh", "timeout", 1},
	} {
		if v := value(t, reg, fleet.MetricExecutions, c.lang, c.outcome); v != c.want {
			t.Errorf("%s{%s, %s} = %v, want %v", fleet.MetricExecutions, c.lang, c.outcome, v, c.want)
		}
	}
	if n := histogramCount(t, reg, fleet.MetricExecutionDuration, "js"); n != 3 {
		t.Errorf("%s{js} has %d samples, want 3", fleet.MetricExecutionDuration, n)
	}
	if n := histogramCount(t, reg, fleet.MetricExecutionDuration, "sh"); n != 2 {
		t.Errorf("%s{sh} has %d samples, want 2", fleet.MetricExecutionDuration, n)
	}
	sb.Close(context.Background())
	if n := value(t, reg, fleet.MetricSandboxes); n != 0 {
		t.Fatalf("%s = %v once the sandbox is closed", fleet.MetricSandboxes, n)
	}
	if n := value(t, reg, fleet.MetricGuestMemory); n != 0 {
		t.Fatalf("%s = %v once the sandbox is closed", fleet.MetricGuestMemory, n)
	}
}

// count returns how many samples the metric name has.
func count(t *testing.T, reg *prometheus.Registry, name string) int {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return len(mf.GetMetric())
		}
	}
	return 0
}

// histogramCount returns the sample count of the histogram name whose one
// label has the value label.
func histogramCount(t *testing.T, reg *prometheus.Registry, name, label string) uint64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == label {
				return m.GetHistogram().GetSampleCount()
			}
		}
	}
	return 0
}
