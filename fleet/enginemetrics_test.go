package fleet_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/dsl"
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
// label has the value label, or that has no label when label is "".
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
			if (label == "" && len(m.GetLabel()) == 0) || (len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == label) {
				return m.GetHistogram().GetSampleCount()
			}
		}
	}
	return 0
}

// downStore is a counter store whose every operation fails.
type downStore struct{}

func (downStore) Load(context.Context, string, time.Duration) (counters.Snapshot, error) {
	return counters.Snapshot{}, errors.New("store down")
}
func (downStore) Add(context.Context, string, time.Duration, uint64, []string) (bool, error) {
	return false, errors.New("store down")
}
func (downStore) Sub(context.Context, string, time.Duration, []string) error {
	return errors.New("store down")
}
func (downStore) Delete(context.Context, string) error { return errors.New("store down") }

// askPayRego asks before every payment and denies deletes.
const askPayRego = `package cordon.authz

ask contains "payments need approval" if input.method == "payments/pay"

deny contains "no deletes" if input.method == "files/delete"
`

// The engine's metrics count each decided tool call once, by method and
// decision, with its latency, whatever the policy: a local one
// (capabilities, Rego) or a Policy from OPA's management plane on the same
// registry. Asks are counted again when they are answered, a call the
// counter store made fail is an "error", and a call of a tool that is not
// registered is not counted.
func TestEngineMetricsToolCalls(t *testing.T) {
	srv := newBundleServer(t)
	srv.set(makeBundle(t, "r1", askPayRego, ""))
	policies := map[string]func(reg prometheus.Registerer) engine.Policy{
		"local": func(prometheus.Registerer) engine.Policy {
			return enginetest.Policy(t, dsl.Method("files/write"), dsl.Method("payments/pay").Ask())
		},
		"opa": func(reg prometheus.Registerer) engine.Policy {
			return newPolicy(t, fleet.Config{OPA: opaConfig(opts{bundles: srv.URL}), Registerer: reg})
		},
	}
	for name, mk := range policies {
		t.Run(name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			pol := mk(reg)
			m, err := fleet.NewEngineMetrics(reg)
			if err != nil {
				t.Fatal(err)
			}
			eng := enginetest.NewEngine(t, enginetest.Config().WithObserver(m.Observe).WithDecisionObserver(m.ObserveDecision))
			tools := []engine.Tool{enginetest.Echo("files/write"), enginetest.Echo("files/delete"), enginetest.Echo("payments/pay")}
			sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{
				Tools:  tools,
				Policy: pol,
				Approve: func(_ context.Context, c *engine.Call) (bool, string) {
					return strings.Contains(string(c.Params), `"amount":10`), ""
				},
			})
			r := enginetest.Run(t, sb, `const out = [];
for (const f of [() => files.write({}), () => files.write({}), () => files.delete({}),
  () => payments.pay({amount: 10}), () => payments.pay({amount: 500})]) {
  try { await f(); out.push("ok") } catch (e) { out.push(e.kind) }
}
return out.join(" ")`)
			if got := strings.TrimSpace(r.Stdout); got != "ok ok denied ok denied" {
				t.Fatalf("script: %q %s", got, r.Stderr)
			}
			enginetest.RunShell(t, sb, `tool made.up --x 1; tool another.one; exit 0`)
			down := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Tools: tools, Counters: engine.Counters{Store: downStore{}}})
			enginetest.Run(t, down, `try { await files.write({}) } catch (e) {}`)

			for _, c := range []struct {
				method, decision string
				want             float64
			}{
				{"files/write", "allow", 2}, {"files/delete", "deny", 1}, {"payments/pay", "ask", 2},
				{"files/write", "error", 1},
			} {
				if v := value(t, reg, fleet.MetricToolCalls, c.decision, c.method); v != c.want {
					t.Errorf("%s{%s, %s} = %v, want %v", fleet.MetricToolCalls, c.method, c.decision, v, c.want)
				}
			}
			if n := count(t, reg, fleet.MetricToolCalls); n != 4 {
				t.Errorf("%s has %d samples, want 4", fleet.MetricToolCalls, n)
			}
			for _, answer := range []string{"approved", "refused"} {
				if v := value(t, reg, fleet.MetricAskAnswers, answer, "payments/pay"); v != 1 {
					t.Errorf("%s{payments/pay, %s} = %v, want 1", fleet.MetricAskAnswers, answer, v)
				}
			}
			if n := histogramCount(t, reg, fleet.MetricDecisionDuration, ""); n != 6 {
				t.Errorf("%s has %d samples, want 6 (one per decided call)", fleet.MetricDecisionDuration, n)
			}
		})
	}
}

// However many methods a host's tools have, the method label takes at
// most MaxMethodLabels values: the calls of the methods past them are
// counted under OtherMethod.
func TestEngineMetricsMethodLabelsBounded(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := fleet.NewEngineMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fleet.MaxMethodLabels + 10 {
		m.ObserveDecision(engine.DecisionStats{Method: fmt.Sprintf("tool%d", i), Decision: "allow", Duration: time.Millisecond})
	}
	m.ObserveDecision(engine.DecisionStats{Method: "tool0", Decision: "deny", Duration: time.Millisecond})
	m.ObserveDecision(engine.DecisionStats{Method: "late", Decision: "refused"})
	if n := count(t, reg, fleet.MetricToolCalls); n != fleet.MaxMethodLabels+2 {
		t.Errorf("%s has %d samples, want %d", fleet.MetricToolCalls, n, fleet.MaxMethodLabels+2)
	}
	if v := value(t, reg, fleet.MetricToolCalls, "allow", fleet.OtherMethod); v != 10 {
		t.Errorf("%s{%s, allow} = %v, want 10", fleet.MetricToolCalls, fleet.OtherMethod, v)
	}
	if v := value(t, reg, fleet.MetricToolCalls, "deny", "tool0"); v != 1 {
		t.Errorf("%s{tool0, deny} = %v: a method in use keeps its label", fleet.MetricToolCalls, v)
	}
	if v := value(t, reg, fleet.MetricAskAnswers, "refused", fleet.OtherMethod); v != 1 {
		t.Errorf("%s{%s, refused} = %v, want 1", fleet.MetricAskAnswers, fleet.OtherMethod, v)
	}
}
