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
//	cordon_policy_activations_total{result}           policies compiled from bundles: ok, refused
//	cordon_policy_revision_info{revision}             1 for the active revision
//	cordon_policy_activation_timestamp_seconds        when the active revision was activated
//	cordon_decision_log_errors_total                  decisions OPA's decision-log plugin did not take
//
// The tool calls a Policy decides, and the decisions' latency, are the
// engine's metrics ([EngineMetrics]), whatever the policy: each call is
// counted once there.
const (
	MetricActivations       = "cordon_policy_activations_total"
	MetricRevision          = "cordon_policy_revision_info"
	MetricActivationTime    = "cordon_policy_activation_timestamp_seconds"
	MetricDecisionLogErrors = "cordon_decision_log_errors_total"
)

type metrics struct {
	activations *prometheus.CounterVec
	revision    *prometheus.GaugeVec
	activatedAt prometheus.Gauge
	logErrors   prometheus.Counter

	mu      sync.Mutex
	lastRev string
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
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
	for _, c := range []prometheus.Collector{m.activations, m.revision, m.activatedAt, m.logErrors} {
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
