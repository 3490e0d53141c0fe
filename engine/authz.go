package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/cordonhq/cordon/policy"
)

// Approver decides a call that the policy asked about (decision "ask") when
// the script runs under Execute. It returns whether to run the call and,
// when not, the reason the script will see. Under the step API the caller
// answers such calls itself (Call.Ask is set).
type Approver func(ctx context.Context, call *Call) (approve bool, reason string)

// AuditRecord is the record of one policy decision.
type AuditRecord struct {
	Time    time.Time
	Session string
	Labels  map[string]string
	Method  string
	Params  json.RawMessage
	// Decision is "allow", "deny" or "ask".
	Decision string
	Reasons  []string
	// Capability names the capability charged, or "".
	Capability string
	// PolicyRevision identifies the policy's content; "default" when no
	// policy is configured (each tool may be called DefaultMaxCalls times).
	PolicyRevision string
	Language       string
	// Err is set when the policy failed to evaluate (the call was denied).
	Err error
}

type decision struct {
	policy.Decision
	capabilityName string
}

// decide checks one call against the sandbox's policy and charges the
// counters when it passes (allow or ask). It runs in the one goroutine that
// accepts a batch, so concurrent calls cannot overrun a limit.
func (sb *Sandbox) decide(ctx context.Context, method string, params json.RawMessage, lang Language) decision {
	rec := AuditRecord{
		Time:     time.Now(),
		Session:  sb.id,
		Labels:   sb.labels,
		Method:   method,
		Params:   params,
		Language: string(lang),
	}
	var d decision
	sb.mu.Lock()
	if sb.policy == nil {
		rec.PolicyRevision = "default"
		if sb.counts[method] >= DefaultMaxCalls {
			d.Reasons = []string{fmt.Sprintf("call limit reached: %s may be called %d times per session", method, DefaultMaxCalls)}
		} else {
			d.Allow = true
		}
		d.Capability = -1
	} else {
		rec.PolicyRevision = sb.policy.Revision()
		in := &policy.Input{
			Method:          method,
			Params:          params,
			Calls:           sb.counts,
			CapabilityCalls: sb.capCounts,
			Session:         policy.Session{ID: sb.id, Labels: sb.labels},
			Language:        string(lang),
		}
		d.Decision, rec.Err = sb.policy.Decide(ctx, in)
		d.capabilityName = sb.policy.CapabilityName(d.Capability)
	}
	if d.Allow || d.Ask {
		sb.counts[method]++
		if d.Capability >= 0 {
			sb.capCounts[d.Capability]++
		}
	}
	sb.mu.Unlock()

	switch {
	case d.Allow:
		rec.Decision = "allow"
	case d.Ask:
		rec.Decision = "ask"
	default:
		rec.Decision = "deny"
	}
	rec.Reasons = d.Reasons
	rec.Capability = d.capabilityName
	sb.audit(rec)
	return d
}

func (sb *Sandbox) audit(rec AuditRecord) {
	level := slog.LevelInfo
	if rec.Decision == "deny" {
		level = slog.LevelWarn
	}
	if logger := sb.e.cfg.logger; logger.Enabled(context.Background(), level) {
		sb.log(logger, level, rec)
	}
	if sb.onAudit != nil {
		sb.onAudit(rec)
	}
}

func (sb *Sandbox) log(logger *slog.Logger, level slog.Level, rec AuditRecord) {
	attrs := []slog.Attr{
		slog.String("session", rec.Session),
		slog.String("method", rec.Method),
		slog.String("decision", rec.Decision),
		slog.Any("reasons", rec.Reasons),
		slog.String("capability", rec.Capability),
		slog.String("policy_revision", rec.PolicyRevision),
		slog.Any("params", rec.Params),
	}
	if rec.Err != nil {
		attrs = append(attrs, slog.String("error", rec.Err.Error()))
	}
	logger.LogAttrs(context.Background(), level, "cordon: tool call decision", attrs...)
}

// approve asks the sandbox's Approver about a call the policy asked about.
// Without an Approver the call is denied.
func (sb *Sandbox) approve(ctx context.Context, c *Call) bool {
	if sb.approver == nil {
		c.Deny("approval required and no approver is configured: " + strings.Join(c.Reasons, "; "))
		return false
	}
	ok, reason := safeApprove(ctx, sb.approver, c)
	if !ok {
		if reason == "" {
			reason = "not approved"
		}
		c.Deny(reason)
	}
	return ok
}

func safeApprove(ctx context.Context, a Approver, c *Call) (ok bool, reason string) {
	defer func() {
		if p := recover(); p != nil {
			ok, reason = false, "the approver panicked"
		}
	}()
	return a(ctx, c)
}
