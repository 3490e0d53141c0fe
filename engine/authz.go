package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/policy/authz"
)

// Policy decides the tool calls of a sandbox ([SandboxConfig.Policy]). Two
// implementations come with cordon: [authz.CapabilityPolicy] ([authz.New])
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
//   - Concurrency. Decide runs on the goroutine that drives the
//     execution (the caller of Execution.Next; under Execute, its caller
//     for the first batch of calls and Execute's own goroutine for the
//     later ones), holding the execution's lock: the calls of one sandbox are decided one at a
//     time, in the order the script made them, and answers to that
//     execution's calls (Call.Resolve and the others) wait until the
//     batch is decided. When the counter store implements
//     counters.Locker (the engine's in-memory store does), Decide also
//     holds the store's lock on the counters' key, so that the decisions
//     of every sandbox that shares those counters (one principal's, say)
//     are made one at a time in this process; with a store that does not,
//     they run concurrently and a decision whose counters changed
//     meanwhile is made again. The sandboxes of an engine decide
//     concurrently, so an implementation is safe for concurrent use.
//     Decide must not call back into the sandbox or its execution (that
//     would wait for the lock it holds) and must not keep in or its maps
//     after it returns (the engine reuses them). SandboxConfig.Audit
//     receives the record of each decision under the same locks, and
//     follows the same rule.
//
// Revision identifies the policy's content for audit records
// ([AuditRecord.PolicyRevision]): two policies with the same revision decide
// alike. CapabilityName labels capability i for audit records and
// [ToolCall.Capability] ("" for an index it does not know).
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
// answers such calls itself ([Call.Ask] is set). ctx carries the call's
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
	// any) in Reasons and the time of the answer in Time. A call that
	// was allowed and then failed (its handler returned an error, or the
	// host rejected it) has a record "failed" too, with the message the
	// script saw in Reasons and the whole error in Err. A decision that
	// lost a race on the call counters (another decision charged them
	// first, on a store many sandboxes or hosts share) has a record
	// "superseded", and the call is decided again under a new
	// DecisionID: only the last decision of a call takes effect.
	Decision string
	Reasons  []string
	// Capability names the capability charged, or "".
	Capability string
	// PolicyRevision identifies the policy's content; "default" when no
	// policy is configured (each tool may be called DefaultMaxCalls times).
	PolicyRevision string
	Language       string
	// Err is set when the policy failed to evaluate (the call was
	// denied), and on a "failed" record, where it is the whole error.
	Err error
	// DecisionID identifies the policy decision: the same on the records
	// of its approval, refusal or failure, and, for a policy that logs
	// its decisions (package fleet), the decision_id of the log.
	DecisionID string
	// FollowUpOf is, for a follow-up call that a handler made on the
	// script's behalf ([FollowUp]: a redirect hop of a fetch), the
	// DecisionID of the call whose handler made it; "" for a call the
	// script made.
	FollowUpOf string
}

type decision struct {
	authz.Decision
	capabilityName string
	revision       string
	decisionID     string
	// charged is set when the decision's charge was added to the
	// counters (an allow or an ask), so that it may be released.
	charged bool
}

// CounterFreePolicy is implemented by a policy that can tell when the call
// counters could not have changed a decision: [policy.Policy] and
// [authz.CapabilityPolicy] do. When the counter store fails, the engine
// asks the policy with empty counters and allows the call, uncounted,
// only if the decision allows it and CountersUnused(d.Capability) reports
// that no counter could have changed it (the charged capability, or -1
// for none, has no call limit, and no rule reads input.calls or
// input.capability_calls); every other call is denied. Without this
// method a failing store denies every call.
type CounterFreePolicy interface {
	Policy
	CountersUnused(capability int) bool
}

// maxChargeAttempts bounds how many times one call is decided again
// because another decision changed its counters first (a store without
// [counters.Locker], shared by many sandboxes or hosts).
const maxChargeAttempts = 64

// setCounters sets up the sandbox's call counters from cfg: the store, the
// scope and its key, and the policy's capability names.
func (sb *Sandbox) setCounters(cfg Counters, generatedID bool) error {
	scope, err := counters.ParseScope(string(cfg.Scope))
	if err != nil {
		return &Error{Kind: KindInvalid, Message: "SandboxConfig.Counters.Scope", Err: err}
	}
	if cfg.Window < 0 {
		return errorf(KindInvalid, "SandboxConfig.Counters.Window %v is negative", cfg.Window)
	}
	sb.scope = scope
	if sb.store == nil {
		sb.store = sb.e.counters
	}
	switch scope {
	case counters.PerPrincipal:
		if sb.principal == "" {
			return errorf(KindInvalid, "SandboxConfig.Counters.Scope is %q but SandboxConfig.Principal is empty: name the principal whose calls are counted", scope)
		}
		sb.key = counters.Key(scope, sb.principal)
	case counters.PerSession:
		if generatedID {
			// A generated id is this process's alone; in a store that many
			// hosts share, sandbox ids would collide.
			sb.key, sb.ownKey = counters.Key(scope, sb.id+"/"+randomID()), true
		} else {
			sb.key = counters.Key(scope, sb.id)
		}
	}
	if sb.policy != nil {
		sb.capIndex = map[string][]int{}
		for i := 0; i < 1<<16; i++ {
			name := sb.policy.CapabilityName(i)
			if name == "" {
				break
			}
			sb.capNames = append(sb.capNames, name)
			sb.capIndex[name] = append(sb.capIndex[name], i)
		}
	}
	return nil
}

// randomID returns 16 random hex digits.
func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Counter names in the store: one per method, one per capability.
const (
	methodPrefix     = "method:"
	capabilityPrefix = "capability:"
	labelPrefix      = "label:"
)

// capabilityCounter returns the name of capability i's counter: its name
// (CapabilityName), so that a capability keeps its counts when the policy
// is reordered, and capabilities that share a name share a limit.
func (sb *Sandbox) capabilityCounter(i int) string {
	if i < len(sb.capNames) {
		return capabilityPrefix + sb.capNames[i]
	}
	return capabilityPrefix + "#" + strconv.Itoa(i)
}

// charges returns the counters a decision charges: the method's, the
// capability's, and one per label of the tool (the flow history).
func (sb *Sandbox) charges(method string, capability int) []string {
	names := []string{methodPrefix + method}
	if capability >= 0 {
		names = append(names, sb.capabilityCounter(capability))
	}
	if t := sb.tools[method]; t != nil {
		for _, l := range t.Labels {
			names = append(names, labelPrefix+l)
		}
	}
	return names
}

// inputCounts turns a snapshot into the policy's input.calls,
// input.capability_calls and input.session.flow.labels.
func (sb *Sandbox) inputCounts(snap counters.Snapshot) (calls map[string]int, capCalls map[int]int, flow map[string]int) {
	calls, capCalls, flow = map[string]int{}, map[int]int{}, map[string]int{}
	for name, n := range snap.Counts {
		if n <= 0 {
			continue
		}
		switch {
		case strings.HasPrefix(name, methodPrefix):
			calls[name[len(methodPrefix):]] = n
		case strings.HasPrefix(name, labelPrefix):
			flow[name[len(labelPrefix):]] = n
		case strings.HasPrefix(name, capabilityPrefix):
			cname := name[len(capabilityPrefix):]
			if idx, ok := sb.capIndex[cname]; ok {
				// Every capability of that name reads the shared count.
				for _, i := range idx {
					capCalls[i] = n
				}
			} else if i, err := strconv.Atoi(strings.TrimPrefix(cname, "#")); err == nil && strings.HasPrefix(cname, "#") && i >= len(sb.capNames) {
				capCalls[i] = n
			}
		}
	}
	return calls, capCalls, flow
}

// decide checks one call against the sandbox's policy and charges the
// counters of key when it passes. The counters are read from the store,
// the policy decides on them, and the charge is added only if no other
// decision changed them in between ([counters.Store.Add]); otherwise the
// call is decided again on the new counts, so that a limit holds exactly
// whoever shares the scope. An ask reserves its charge: the reservation is
// released when the ask is refused (see Call.settleAsk), so that refused
// asks cannot wear a capability out, while the asks that wait together
// cannot overrun its max_calls. A store that fails denies the call, unless
// the policy says no counter could have changed the decision
// ([CounterFreePolicy]).
func (sb *Sandbox) decide(ctx context.Context, key, method string, params json.RawMessage, lang Language, followUpOf string) decision {
	rec := AuditRecord{
		Time:       time.Now(),
		Session:    sb.id,
		Labels:     sb.labels,
		Method:     method,
		Params:     params,
		Language:   string(lang),
		FollowUpOf: followUpOf,
	}
	rec.PolicyRevision = "default"
	if sb.policy != nil {
		rec.PolicyRevision = sb.policy.Revision()
	}
	var d decision
	rec.DecisionID = newDecisionID()
	storeFailed := func(what string, err error) {
		d.Decision = authz.Decision{Reasons: []string{"the call counters could not be " + what}, Capability: -1}
		d.capabilityName = ""
		rec.Err = fmt.Errorf("engine: counter store: %s %q: %w", what, key, err)
	}
	if l, ok := sb.store.(counters.Locker); ok {
		unlock, err := l.Lock(ctx, key)
		if err != nil {
			storeFailed("locked", err)
			return sb.decided(d, rec)
		}
		defer unlock()
	}
	decideOn := func(calls map[string]int, capCalls map[int]int, flow map[string]int) {
		rec.DecisionID = newDecisionID() // each decision its own, a retried one too
		if sb.policy == nil {
			d = decision{Decision: authz.Decision{Capability: -1}}
			if calls[method] >= DefaultMaxCalls {
				d.Reasons = []string{fmt.Sprintf("call limit reached: %s may be called %d times per session", method, DefaultMaxCalls)}
			} else {
				d.Allow = true
			}
			return
		}
		in := &authz.Input{
			Method:          method,
			Params:          params,
			ParamsCanonical: true, // accept put them in canonical form
			Calls:           calls,
			CapabilityCalls: capCalls,
			Session:         authz.Session{ID: sb.id, Labels: sb.labels, Principal: sb.principal, Flow: authz.Flow{Labels: flow}},
			Language:        string(lang),
		}
		if t := sb.tools[method]; t != nil {
			in.Tool = t.info
		}
		d = decision{}
		d.Decision, d.capabilityName, rec.PolicyRevision, rec.Err = Decide(authz.WithDecisionID(ctx, rec.DecisionID), sb.policy, in)
	}
	// uncounted decides a call when the store failed: it is allowed only
	// when no counter could change the decision (a capability without a
	// call limit, and no rule that reads the counters), and then without
	// a charge, since none can be made.
	uncounted := func(what string, err error) {
		if cf, ok := sb.policy.(CounterFreePolicy); ok {
			decideOn(map[string]int{}, map[int]int{}, map[string]int{})
			if d.Allow && !d.Ask && rec.Err == nil && cf.CountersUnused(d.Capability) {
				rec.Err = fmt.Errorf("engine: counter store: %s %q (the call was allowed uncounted: its decision reads no counter): %w", what, key, err)
				return
			}
		}
		storeFailed(what, err)
	}
	for attempt := 1; ; attempt++ {
		snap, err := sb.store.Load(ctx, key, sb.window)
		if err != nil {
			uncounted("read", err)
			break
		}
		decideOn(sb.inputCounts(snap))
		if !d.Allow && !d.Ask {
			break
		}
		ok, err := sb.store.Add(ctx, key, sb.window, snap.Version, sb.charges(method, d.Capability))
		if err != nil {
			uncounted("charged", err)
			break
		}
		if ok {
			d.charged = true
			break
		}
		// The counters changed under the decision: it is made again on
		// fresh counts, under a new id. A policy that logs its
		// decisions (package fleet) has logged this one: say what
		// became of it, so that a log reader can tell it from the
		// decision that counts.
		sb.audit(AuditRecord{
			Time: time.Now(), Session: sb.id, Labels: sb.labels, Method: method, Params: params,
			Decision: "superseded", Reasons: []string{"the call counters changed while it was decided: decided again"},
			Capability: d.capabilityName, PolicyRevision: rec.PolicyRevision, Language: string(lang),
			DecisionID: rec.DecisionID, FollowUpOf: followUpOf,
		})
		if attempt == maxChargeAttempts || ctx.Err() != nil {
			d.Decision = authz.Decision{Reasons: []string{"the call counters kept changing under concurrent calls; the call was not decided"}, Capability: -1}
			d.capabilityName = ""
			rec.Err = fmt.Errorf("engine: counter store: %q changed %d times while deciding %s", key, attempt, method)
			break
		}
	}
	return sb.decided(d, rec)
}

// decided completes a decision's audit record and sends it.
func (sb *Sandbox) decided(d decision, rec AuditRecord) decision {
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
	d.decisionID = rec.DecisionID
	sb.audit(rec)
	sb.e.observeDecision(&rec, rec.Time, time.Since(rec.Time))
	return d
}

// newDecisionID returns a random UUID (version 4): one per policy
// decision, also when a call is decided again.
func newDecisionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// revisionDecider is a Policy whose revision can change between Revision
// and Decide (package fleet's): it says which revision decided.
type revisionDecider interface {
	DecideRevision(ctx context.Context, in *authz.Input) (authz.Decision, string, error)
}

// Decide asks p about one call as the engine does, and holds its answer to
// the contract of Policy: an error, a panic, or a decision that both allows
// and asks denies the call (the error says why), and a denial has a
// reason. It returns the capability's name (Policy.CapabilityName) and the
// revision that decided. Tools that decide calls outside a sandbox (package
// whatif) use it, so that they fail closed exactly as the engine does. p
// must not be nil.
func Decide(ctx context.Context, p Policy, in *authz.Input) (d authz.Decision, capName, revision string, err error) {
	defer func() {
		if v := recover(); v != nil {
			d, capName, err = authz.Decision{Reasons: []string{"the policy panicked"}, Capability: -1}, "", fmt.Errorf("engine: the policy panicked deciding %s: %v", in.Method, v)
		}
	}()
	if rd, ok := p.(revisionDecider); ok {
		d, revision, err = rd.DecideRevision(ctx, in)
	} else {
		revision = p.Revision()
		d, err = p.Decide(ctx, in)
	}
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

// unreserve releases the charge an ask reserved in the counters of key,
// when the ask is refused. A store that fails to release keeps the charge:
// the error goes to the engine's log.
func (sb *Sandbox) unreserve(key, method string, capability int) {
	if err := sb.store.Sub(context.Background(), key, sb.window, sb.charges(method, capability)); err != nil {
		sb.e.cfg.logger.Warn("cordon: counter store: releasing a refused ask's charge", "session", sb.id, "method", method, "err", err)
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
// ask, or whose ask is settled, and approves nothing once the execution
// has ended (finish refuses the asks left then). It reports whether it
// settled the ask.
func (c *Call) settleAsk(approved bool, reason string) bool {
	x := c.x
	x.mu.Lock()
	if !c.Ask || c.settled || (approved && x.done) {
		x.mu.Unlock()
		return false
	}
	c.settled, c.refused = true, !approved
	x.mu.Unlock()
	x.rec.settled(c.rec, approved)
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
		DecisionID:     c.decisionID,
	}
	if reason != "" {
		rec.Reasons = []string{reason}
	}
	if !approved {
		rec.Decision = "refused"
		sb.unreserve(x.counterKey, c.Method, c.capability)
	}
	sb.audit(rec)
	sb.e.observeDecision(&rec, c.started, rec.Time.Sub(c.started))
	return true
}

// auditFailure records that call c failed, with the whole error: the
// script saw only its public form, msg (see ToolError).
func (sb *Sandbox) auditFailure(c *Call, msg string, err error) {
	sb.audit(AuditRecord{
		Time:           time.Now(),
		Session:        sb.id,
		Labels:         sb.labels,
		Method:         c.Method,
		Params:         c.Params,
		Decision:       "failed",
		Reasons:        []string{msg},
		Capability:     c.rec.Capability,
		PolicyRevision: c.revision,
		Language:       c.lang,
		Err:            err,
		DecisionID:     c.decisionID,
	})
}

func safeApprove(ctx context.Context, a Approver, c *Call) (ok bool, reason string) {
	defer func() {
		if p := recover(); p != nil {
			ok, reason = false, "the approver panicked"
		}
	}()
	return a(ctx, c)
}
