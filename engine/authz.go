package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"time"

	"github.com/cordonhq/cordon/policy/authz"
)

// Policy decides the tool calls of a sandbox (SandboxConfig.Policy). Two
// implementations come with cordon: authz.CapabilityPolicy (authz.New)
// decides by DSL capabilities alone, in Go, and links no OPA;
// policy.Policy (policy.New) adds Rego rules, data and bundles, evaluated
// by OPA. A program that uses only the first does not build OPA.
//
// The engine calls Decide once for each tool call that passed the
// sandbox's checks (registered tool, size limits, canonical params, input
// schema), before the call's handler may run, and reads the decision
// under this contract:
//
//   - Params are canonical. in.Params is the call's params in the
//     canonical form the handler receives (see Handler), and
//     in.ParamsCanonical is set. A policy decides on those bytes and must
//     not read them any other way.
//   - The engine keeps the counters. in.Calls holds the calls of each
//     method allowed so far in the sandbox, and in.CapabilityCalls the
//     calls charged to each capability, by the index the policy gave in
//     Decision.Capability. A decision that allows or asks charges one
//     call to its method and, when Capability >= 0, one to that
//     capability, before the next call is decided: max_calls is enforced
//     by reading the counters, never by counting inside the policy. An
//     ask reserves its charge, which is released when the ask is refused
//     (by the Approver, Call.Deny or Call.Reject), when the execution ends
//     before it is answered, or when the decision came after the
//     execution's deadline, so that refused asks do not use a capability
//     up.
//   - Fail closed. When Decide returns an error, the call is denied
//     whatever the decision says, with the decision's reasons (or one that
//     names the error) and the error in the audit record (AuditRecord.Err).
//     A decision that both allows and asks is denied, a denial without a
//     reason gets "denied by policy", and a Decide that panics denies its
//     call ("the policy panicked") without taking the host down.
//   - Deadlines. ctx carries the execution's deadline; a decision that
//     returns after it is denied whatever it said.
//   - Concurrency. The calls of one sandbox are decided one at a time,
//     in the order the script made them, with the sandbox's counters
//     locked; the sandboxes of an engine decide concurrently, so an
//     implementation is safe for concurrent use. Decide must not call
//     back into the sandbox and must not keep in or its maps after it
//     returns (the engine reuses them).
//
// Revision identifies the policy's content for audit records
// (AuditRecord.PolicyRevision): two policies with the same revision decide
// alike. CapabilityName labels capability i for audit records and
// ToolCall.Capability ("" for an index it does not know).
//
// A nil Policy (and a nil pointer of a Policy type) means the default
// policy: each registered tool may be called DefaultMaxCalls times per
// sandbox, with revision "default".
type Policy interface {
	Decide(ctx context.Context, in *authz.Input) (authz.Decision, error)
	Revision() string
	CapabilityName(i int) string
}

// nilPolicy reports whether p is nil or a nil pointer held in the
// interface (a *policy.Policy variable that holds no policy), which both
// mean the default policy.
func nilPolicy(p Policy) bool {
	if p == nil {
		return true
	}
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

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
	authz.Decision
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
		in := &authz.Input{
			Method:          method,
			Params:          params,
			ParamsCanonical: true, // accept put them in canonical form
			Calls:           sb.counts,
			CapabilityCalls: sb.capCounts,
			Session:         authz.Session{ID: sb.id, Labels: sb.labels},
			Language:        string(lang),
		}
		if t := sb.tools[method]; t != nil {
			in.Tool = t.Policy
		}
		d.Decision, d.capabilityName, rec.PolicyRevision, rec.Err = safeDecide(ctx, sb.policy, in)
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

// safeDecide asks p about one call and holds its answer to the contract of
// Policy: an error, a panic, or a decision that both allows and asks
// denies the call, and a denial has a reason.
func safeDecide(ctx context.Context, p Policy, in *authz.Input) (d authz.Decision, capName, revision string, err error) {
	defer func() {
		if v := recover(); v != nil {
			d, capName, err = authz.Decision{Reasons: []string{"the policy panicked"}, Capability: -1}, "", fmt.Errorf("engine: the policy panicked deciding %s: %v", in.Method, v)
		}
	}()
	revision = p.Revision()
	d, err = p.Decide(ctx, in)
	switch {
	case err != nil:
		if d.Allow || d.Ask || len(d.Reasons) == 0 {
			d.Reasons = []string{"the policy failed: " + err.Error()}
		}
		d.Allow, d.Ask, d.Capability = false, false, -1
	case d.Allow && d.Ask:
		d = authz.Decision{Reasons: []string{"the policy both allowed the call and asked about it"}, Capability: -1}
		err = fmt.Errorf("engine: the policy's decision on %s both allows and asks", in.Method)
	case !d.Allow && !d.Ask && len(d.Reasons) == 0:
		d.Reasons = []string{"denied by policy"}
	}
	return d, p.CapabilityName(d.Capability), revision, err
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
