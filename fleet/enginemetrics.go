package fleet

import (
	"fmt"
	"sync/atomic"

	"github.com/cordonhq/cordon/engine"
	"github.com/prometheus/client_golang/prometheus"
)

// The Prometheus metrics of an engine ([EngineMetrics]):
//
//	cordon_executions_total{language, outcome}        executions that ended, by language (js, sh) and outcome
//	cordon_execution_duration_seconds{language}       how long each execution took, histogram
//	cordon_sandboxes                                  live sandboxes
//	cordon_pooled_guests                              booted guests waiting in the pool
//	cordon_guest_memory_bytes                         the live sandboxes' guest linear memory, summed
//
// An execution's outcome is [engine.ExecutionStats.Outcome]: "ok" (the
// script ran to its end and exited 0), "exception" (an uncaught JavaScript
// error), "exit" (a non-zero exit status), or the kind of the execution's
// error (engine.Kind: "timeout", "canceled", "memory", "crash", ...).
const (
	MetricExecutions        = "cordon_executions_total"
	MetricExecutionDuration = "cordon_execution_duration_seconds"
	MetricSandboxes         = "cordon_sandboxes"
	MetricPooledGuests      = "cordon_pooled_guests"
	MetricGuestMemory       = "cordon_guest_memory_bytes"
)

// EngineMetrics turns an engine's executions and state into Prometheus
// metrics: its Observe method is the engine's observer
// ([engine.Config.WithObserver]), and the gauges read [engine.Engine.Stats]
// at each scrape once Watch has named the engine. It is safe for concurrent
// use. Package engine itself does not import Prometheus.
type EngineMetrics struct {
	executions *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	eng        atomic.Pointer[engine.Engine]

	sandboxes, pooled, memory *prometheus.Desc
}

// NewEngineMetrics makes an engine's metrics and registers them on reg
// (nil registers none). Give the engine its Observe method, then Watch it:
//
//	m, err := fleet.NewEngineMetrics(reg)
//	eng, err := engine.New(ctx, cfg.WithObserver(m.Observe))
//	m.Watch(eng)
func NewEngineMetrics(reg prometheus.Registerer) (*EngineMetrics, error) {
	m := &EngineMetrics{
		executions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricExecutions,
			Help: "Script executions that ended, by language and outcome (ok, exception, exit, or the error's kind: timeout, canceled, memory, ...).",
		}, []string{"language", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    MetricExecutionDuration,
			Help:    "How long script executions took, tool calls and approvals included, by language.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"language"}),
		sandboxes: prometheus.NewDesc(MetricSandboxes, "Live sandboxes: made and not closed yet.", nil, nil),
		pooled:    prometheus.NewDesc(MetricPooledGuests, "Booted guests waiting in the pool for a sandbox.", nil, nil),
		memory:    prometheus.NewDesc(MetricGuestMemory, "Bytes of guest linear memory of the live sandboxes, summed.", nil, nil),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.executions, m.duration, m} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("fleet: engine metrics: %w", err)
		}
	}
	return m, nil
}

// Observe records one ended execution; it is an engine's observer
// ([engine.Config.WithObserver]).
func (m *EngineMetrics) Observe(s engine.ExecutionStats) {
	lang := string(s.Language)
	m.executions.WithLabelValues(lang, s.Outcome()).Inc()
	m.duration.WithLabelValues(lang).Observe(s.Duration.Seconds())
}

// Watch makes the gauges (sandboxes, pooled guests, guest memory) report
// eng's [engine.Engine.Stats]; until it is called they report nothing.
func (m *EngineMetrics) Watch(eng *engine.Engine) { m.eng.Store(eng) }

// Describe implements prometheus.Collector for the gauges.
func (m *EngineMetrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.sandboxes
	ch <- m.pooled
	ch <- m.memory
}

// Collect implements prometheus.Collector: it reads the watched engine's
// Stats.
func (m *EngineMetrics) Collect(ch chan<- prometheus.Metric) {
	eng := m.eng.Load()
	if eng == nil {
		return
	}
	st := eng.Stats()
	ch <- prometheus.MustNewConstMetric(m.sandboxes, prometheus.GaugeValue, float64(st.Sandboxes))
	ch <- prometheus.MustNewConstMetric(m.pooled, prometheus.GaugeValue, float64(st.Pooled))
	ch <- prometheus.MustNewConstMetric(m.memory, prometheus.GaugeValue, float64(st.MemoryBytes))
}
