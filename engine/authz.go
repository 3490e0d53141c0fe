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
// answers such calls itself (Call.Ask is set). ctx carries the call's
// CallInfo (CallFrom).
type Approver func(ctx context.Context, call *Call) (approve bool, reason string)

// AuditRecord is the record of one policy decision.
type AuditRecord struct {
	Time    time.Time
	Session string
	Labels  map[string]string
	Method  string
	Params  json.RawMessage
	// Decision is "allow", "deny" or "ask" for a policy decision, and
	// "approved" or "refused" for the answer to an ask: each approval and
	// each refusal is a record of its own, with the approver's reason (if
	// any) in Reasons and the time of the answer in Time.
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
	revision       string
}

// decide checks one call against the sandbox's policy and charges the
// counters when it passes. An ask reserves its charge: the reservation is
// released when the ask is refused (see Call.settleAsk), so that refused
// asks cannot wear a capability out, while the asks of one batch that wait
// together cannot overrun its max_calls. It runs in the one goroutine that
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
			ParamsCanonical: true, // accept put them in canonical form
			Calls:           sb.counts,
			CapabilityCalls: sb.capCounts,
			Session:         policy.Session{ID: sb.id, Labels: sb.labels},
			Language:        string(lang),
		}
		if t := sb.tools[method]; t != nil {
			in.Tool = t.Policy
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
	d.revision = rec.PolicyRevision
	sb.audit(rec)
	return d
}

// unreserve releases the charge an ask reserved, when the ask is refused.
func (sb *Sandbox) unreserve(method string, capability int) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.counts[method] > 0 {
		sb.counts[method]--
	}
	if capability >= 0 && sb.capCounts[capability] > 0 {
		sb.capCounts[capability]--
	}
}

func (sb *Sandbox) audit(rec AuditRecord) {
	level := slog.LevelInfo
	if rec.Decision == "deny" || rec.Decision == "refused" {
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
		slog.Any("params", NewExcerpt(rec.Params, DefaultExcerptBytes)),
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
		return false
	}
	c.settleAsk(true, reason)
	return true
}

// settleAsk records the answer to a call the policy asked about, once: an
// approval keeps the charge the ask reserved, a refusal releases it. Each
// is an audit record of its own. It does nothing for a call that did not
// ask, or whose ask is settled.
func (c *Call) settleAsk(approved bool, reason string) {
	x := c.x
	x.mu.Lock()
	if !c.Ask || c.settled {
		x.mu.Unlock()
		return
	}
	c.settled = true
	x.mu.Unlock()
	sb := x.sb
	rec := AuditRecord{
		Time:           time.Now(),
		Session:        sb.id,
		Labels:         sb.labels,
		Method:         c.Method,
		Params:         c.Params,
		Decision:       "approved",
		Reasons:        []string{},
		Capability:     c.rec.Capability,
		PolicyRevision: c.revision,
		Language:       c.lang,
	}
	if reason != "" {
		rec.Reasons = []string{reason}
	}
	if !approved {
		rec.Decision = "refused"
		sb.unreserve(c.Method, c.capability)
	}
	sb.audit(rec)
}

func safeApprove(ctx context.Context, a Approver, c *Call) (ok bool, reason string) {
	defer func() {
		if p := recover(); p != nil {
			ok, reason = false, "the approver panicked"
		}
	}()
	return a(ctx, c)
}
