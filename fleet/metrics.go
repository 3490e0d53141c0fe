package fleet

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The Prometheus metrics a Policy registers (Config.Registerer):
//
//	cordon_tool_calls_total{method, decision}         tool calls decided, by method and decision (allow, ask, deny, error)
//	cordon_decision_duration_seconds                  the time Decide took, histogram
//	cordon_policy_activations_total{result}           policies compiled from bundles: ok, refused
//	cordon_policy_revision_info{revision}             1 for the active revision
//	cordon_policy_activation_timestamp_seconds        when the active revision was activated
//	cordon_decision_log_errors_total                  decisions OPA's decision-log plugin did not take
const (
	MetricToolCalls         = "cordon_tool_calls_total"
	MetricDecisionDuration  = "cordon_decision_duration_seconds"
	MetricActivations       = "cordon_policy_activations_total"
	MetricRevision          = "cordon_policy_revision_info"
	MetricActivationTime    = "cordon_policy_activation_timestamp_seconds"
	MetricDecisionLogErrors = "cordon_decision_log_errors_total"
)

type metrics struct {
	calls       *prometheus.CounterVec
	latency     prometheus.Histogram
	activations *prometheus.CounterVec
	revision    *prometheus.GaugeVec
	activatedAt prometheus.Gauge
	logErrors   prometheus.Counter

	mu      sync.Mutex
	lastRev string
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricToolCalls,
			Help: "Tool calls decided by the policy, by method and decision (allow, ask, deny, error).",
		}, []string{"method", "decision"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    MetricDecisionDuration,
			Help:    "The time the policy took to decide a tool call, logging included.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1},
		}),
		activations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricActivations,
			Help: "Policies compiled from activated bundles: ok, or refused (the last good one stays active).",
		}, []string{"result"}),
		revision: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: MetricRevision,
			Help: "1 for the revision of the active policy bundle.",
		}, []string{"revision"}),
		activatedAt: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: MetricActivationTime,
			Help: "When the active policy revision was activated, in seconds since the epoch.",
		}),
		logErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: MetricDecisionLogErrors,
			Help: "Decisions that OPA's decision-log plugin failed to take.",
		}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.calls, m.latency, m.activations, m.revision, m.activatedAt, m.logErrors} {
		if err := reg.Register(c); err != nil {
			var are prometheus.AlreadyRegisteredError
			if errors.As(err, &are) {
				return nil, fmt.Errorf("fleet: metrics: %w (give each Policy a registry of its own)", err)
			}
			return nil, fmt.Errorf("fleet: metrics: %w", err)
		}
	}
	return m, nil
}

func (m *metrics) decided(method, decision string, d time.Duration) {
	m.calls.WithLabelValues(method, decision).Inc()
	m.latency.Observe(d.Seconds())
}

func (m *metrics) activated(revision string) {
	m.activations.WithLabelValues("ok").Inc()
	m.mu.Lock()
	if m.lastRev != "" && m.lastRev != revision {
		m.revision.DeleteLabelValues(m.lastRev)
	}
	m.lastRev = revision
	m.mu.Unlock()
	m.revision.WithLabelValues(revision).Set(1)
	m.activatedAt.Set(float64(time.Now().UnixNano()) / 1e9)
}

func (m *metrics) refused()   { m.activations.WithLabelValues("refused").Inc() }
func (m *metrics) logFailed() { m.logErrors.Inc() }
