package fleet

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/cordonhq/cordon/engine"
	"github.com/prometheus/client_golang/prometheus"
)

// The Prometheus metrics of an engine ([EngineMetrics]):
//
//	cordon_executions_total{language, outcome}        executions that ended, by language (js, sh) and outcome
//	cordon_execution_duration_seconds{language}       how long each execution took, histogram
//	cordon_tool_calls_total{method, decision}         tool calls decided, by method and decision (allow, ask, deny, error)
//	cordon_decision_duration_seconds                  how long each decision took, histogram
//	cordon_ask_answers_total{method, answer}          answers to the calls the policy asked about: approved, refused
//	cordon_sandboxes                                  live sandboxes
//	cordon_pooled_guests                              booted guests waiting in the pool
//	cordon_guest_memory_bytes                         the live sandboxes' guest linear memory, summed
//
// An execution's outcome is [engine.ExecutionStats.Outcome]: "ok" (the
// script ran to its end and exited 0), "exception" (an uncaught JavaScript
// error), "exit" (a non-zero exit status), or the kind of the execution's
// error (engine.Kind: "timeout", "canceled", "memory", "crash", ...).
//
// A tool call's decision is [engine.DecisionStats.Outcome]: "allow",
// "ask", "deny", or "error" (denied because the policy or the counter
// store failed). Each call is counted once, whatever the policy (the
// default one, capabilities, Rego, or a [Policy] from OPA's management
// plane): a call decided again because its counters changed counts once,
// and a call refused before the policy saw it (a tool that is not
// registered, invalid params, a limit) is not counted. Its method is the
// registered name of its tool, which a script cannot make up; past
// [MaxMethodLabels] distinct methods, the calls of further ones are
// counted under the method [OtherMethod], so that the metrics stay
// bounded whatever tools a host registers.
const (
	MetricExecutions        = "cordon_executions_total"
	MetricExecutionDuration = "cordon_execution_duration_seconds"
	MetricToolCalls         = "cordon_tool_calls_total"
	MetricDecisionDuration  = "cordon_decision_duration_seconds"
	MetricAskAnswers        = "cordon_ask_answers_total"
	MetricSandboxes         = "cordon_sandboxes"
	MetricPooledGuests      = "cordon_pooled_guests"
	MetricGuestMemory       = "cordon_guest_memory_bytes"
)

// MaxMethodLabels bounds the distinct values of the method label of
// [MetricToolCalls] and [MetricAskAnswers].
const MaxMethodLabels = 512

// OtherMethod is the method label of the calls of the methods past the
// first [MaxMethodLabels]. A tool name cannot contain parentheses, so no
// tool's calls are mistaken for these.
const OtherMethod = "(other)"

// EngineMetrics turns an engine's executions, tool calls and state into
// Prometheus metrics: its Observe method is the engine's observer
// ([engine.Config.WithObserver]), its ObserveDecision method the engine's
// decision observer ([engine.Config.WithDecisionObserver]), and the gauges
// read [engine.Engine.Stats] at each scrape once Watch has named the
// engine. It is safe for concurrent use. Package engine itself does not
// import Prometheus.
type EngineMetrics struct {
	executions *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	calls      *prometheus.CounterVec
	latency    prometheus.Histogram
	answers    *prometheus.CounterVec
	eng        atomic.Pointer[engine.Engine]

	mu      sync.Mutex
	methods map[string]bool // the method labels in use, at most MaxMethodLabels

	sandboxes, pooled, memory *prometheus.Desc
}

// NewEngineMetrics makes an engine's metrics and registers them on reg
// (nil registers none). Give the engine its observers, then Watch it:
//
//	m, err := fleet.NewEngineMetrics(reg)
//	eng, err := engine.New(ctx, cfg.WithObserver(m.Observe).WithDecisionObserver(m.ObserveDecision))
//	m.Watch(eng)
//
// A [Policy] on the same registry registers none of these: the tool calls
// it decides are counted here.
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
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricToolCalls,
			Help: "Tool calls decided by the policy, by method and decision (allow, ask, deny, error: denied because the policy or the counter store failed).",
		}, []string{"method", "decision"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    MetricDecisionDuration,
			Help:    "How long deciding a tool call took: the policy (its decision log included) and the call counters.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1},
		}),
		answers: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricAskAnswers,
			Help: "Answers to the tool calls the policy asked about, by method: approved, refused.",
		}, []string{"method", "answer"}),
		methods:   map[string]bool{},
		sandboxes: prometheus.NewDesc(MetricSandboxes, "Live sandboxes: made and not closed yet.", nil, nil),
		pooled:    prometheus.NewDesc(MetricPooledGuests, "Booted guests waiting in the pool for a sandbox.", nil, nil),
		memory:    prometheus.NewDesc(MetricGuestMemory, "Bytes of guest linear memory of the live sandboxes, summed.", nil, nil),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.executions, m.duration, m.calls, m.latency, m.answers, m} {
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

// ObserveDecision records one decided tool call, or the answer to one the
// policy asked about; it is an engine's decision observer
// ([engine.Config.WithDecisionObserver]).
func (m *EngineMetrics) ObserveDecision(s engine.DecisionStats) {
	method := m.method(s.Method)
	switch s.Decision {
	case "approved", "refused":
		m.answers.WithLabelValues(method, s.Decision).Inc()
	default:
		m.calls.WithLabelValues(method, s.Outcome()).Inc()
		m.latency.Observe(s.Duration.Seconds())
	}
}

// method returns the method label of a call of name: name itself, or
// OtherMethod once MaxMethodLabels others are in use.
func (m *EngineMetrics) method(name string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.methods[name] {
		return name
	}
	if len(m.methods) >= MaxMethodLabels {
		return OtherMethod
	}
	m.methods[name] = true
	return name
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
