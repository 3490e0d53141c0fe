// Package authz is the decision contract between the engine and a policy,
// without OPA: the input of one decision (Input), its answer (Decision),
// and CapabilityPolicy, which decides by DSL capabilities alone, in Go.
//
// An embedder that grants tools with capabilities (package dsl) and writes
// no Rego uses New and links no OPA:
//
//	pol, err := authz.New([]*dsl.Capability{dsl.Method("weather/*").MaxCalls(10)})
//	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Policy: pol, ...})
//
// Package policy (OPA) decides with the same types: a policy.Policy made of
// capabilities alone decides through a CapabilityPolicy, and one with Rego
// rules of the user's is evaluated by OPA. The two evaluators are tested to
// give the same decisions, reasons included.
//
// Decisions fail closed: params that cannot be read deny the call with a
// reason that says so, and an error says why.
package authz

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/internal/canon"
)

// Input is the input document of one decision (input in Rego).
type Input struct {
	// Method is the tool's name (input.method).
	Method string
	// Params is the call's JSON object (input.params). Decide puts it in
	// canonical form (see Handler in package engine) unless
	// ParamsCanonical says it is.
	Params json.RawMessage
	// ParamsCanonical reports that Params is already in canonical form,
	// as the engine hands it over, so that Decide does not read it twice.
	// A caller that sets it for params that are not canonical only gets
	// decisions on what it passed.
	ParamsCanonical bool
	// Calls counts the allowed calls per method in this session so far
	// (input.calls).
	Calls map[string]int
	// CapabilityCalls counts the calls charged to each capability, by
	// index (input.capability_calls).
	CapabilityCalls map[int]int
	// Session is the sandbox session the call comes from (input.session).
	Session Session
	// Language is the language of the script that made the call, "js" or
	// "sh" (input.language).
	Language string
	// Tool is what the host says of the tool (input.tool), or nil: for a
	// tool imported from an MCP server, its server and its annotations.
	Tool *ToolInfo
}

// ToolInfo is what the policy sees of a tool as input.tool.
type ToolInfo struct {
	// Server names the MCP server the tool comes from (mcp_servers'
	// name), or "".
	Server string `json:"server,omitempty"`
	// Annotations are the tool's MCP annotations, by their MCP names:
	// readOnlyHint, destructiveHint, idempotentHint, openWorldHint (with
	// MCP's defaults filled in: false, true, false, true).
	Annotations map[string]bool `json:"annotations,omitempty"`
	// Labels are the tool's flow labels (engine.Tool.Labels): "private",
	// "untrusted", "egress", as the host's configuration names them.
	Labels []string `json:"labels,omitempty"`
}

// Session identifies the sandbox session a call comes from.
type Session struct {
	// ID is the session's id (input.session.id).
	ID string
	// Labels are the session's labels (input.session.labels).
	Labels map[string]string
	// Principal is who the session acts for (input.session.principal):
	// the authenticated identity of the MCP client, or a name the
	// embedding host set; "" when there is none.
	Principal string
	// Flow is what the calls allowed so far in the call counters' scope
	// have touched (input.session.flow): for each tool label, the number
	// of allowed calls to tools with that label (input.session.flow.labels).
	// Flow rules read it: after a call to a "private" tool, egress only to
	// some hosts ([dsl.Capability.UnlessTouched]).
	Flow Flow
}

// Flow is the session's flow history (input.session.flow).
type Flow struct {
	// Labels counts, per tool label, the allowed calls to tools with it.
	Labels map[string]int
}

// Decision is the answer for one call. At most one of Allow and Ask is
// true; when neither is, the call is denied.
type Decision struct {
	// Allow lets the call run.
	Allow bool
	// Ask lets the call run once a human approves it.
	Ask bool
	// Reasons explain a denial or a request for approval.
	Reasons []string
	// Capability is the index of the capability to charge, or -1.
	Capability int
}

// denied is a decision that denies the call for reason, charging no
// capability.
func denied(reason string) Decision {
	return Decision{Reasons: []string{reason}, Capability: -1}
}

// canonical returns in with its params in canonical form (in itself when
// in.ParamsCanonical is set), or a denial and an error that says which
// param cannot be read and why. The evaluator decides on the canonical
// form, so that it and the tool's handler agree on every key and number.
func canonical(in *Input) (*Input, Decision, error) {
	if in.ParamsCanonical {
		return in, Decision{}, nil
	}
	text, err := canon.Params(in.Params)
	if err != nil {
		return nil, denied(err.Error()), fmt.Errorf("authz: input: %w", err)
	}
	cp := *in
	cp.Params, cp.ParamsCanonical = text, true
	return &cp, Decision{}, nil
}

// CapabilityPolicy decides calls by a list of DSL capabilities and the
// rules of the shipped library (package cordon.authz in policy/rego), in
// Go: its decisions are those that package policy's OPA evaluation gives
// for the same capabilities and input, reasons included. A call is allowed
// (or asked about) by the first capability, in order, whose method pattern
// matches, whose constraints hold and whose max_calls is not used up,
// except that an asking capability with max_calls that would take the call
// but is used up denies it (no later capability may allow it). A
// CapabilityPolicy is safe for concurrent use.
type CapabilityPolicy struct {
	caps     []*dsl.Capability
	checkers []*dsl.Checker
	revision string
}

// New validates the capabilities and prepares them for deciding. An error
// names each capability that does not validate (see [dsl.Validate]).
func New(caps []*dsl.Capability) (*CapabilityPolicy, error) {
	if err := dsl.Validate(caps); err != nil {
		return nil, fmt.Errorf("authz: %w", err)
	}
	p := &CapabilityPolicy{caps: caps}
	h := sha256.New()
	fmt.Fprintf(h, "cordon capabilities\x00")
	for _, c := range caps {
		k, err := c.Checker()
		if err != nil {
			return nil, fmt.Errorf("authz: %w", err)
		}
		p.checkers = append(p.checkers, k)
		fmt.Fprintf(h, "%q\x00%d\x00%t\x00%q\x00%q\x00", c.Pattern(), c.CallLimit(), c.Asks(), c.Name(), c.UnlessTouchedLabels())
		for _, k := range c.Constraints() {
			fmt.Fprintf(h, "%s\x00", k)
		}
		h.Write([]byte{0xff})
	}
	p.revision = hex.EncodeToString(h.Sum(nil))[:12]
	return p, nil
}

// Capabilities returns the capabilities the policy decides by (nil for a
// nil CapabilityPolicy). The slice must not be modified.
func (p *CapabilityPolicy) Capabilities() []*dsl.Capability {
	if p == nil {
		return nil
	}
	return p.caps
}

// Revision identifies the capabilities: two CapabilityPolicies with the
// same revision decide alike. It is not the revision package policy gives
// the same capabilities, which is a digest of their Rego.
func (p *CapabilityPolicy) Revision() string { return p.revision }

// CapabilityName returns a readable label for capability i (its name, or
// its index and method pattern), or "" when i is out of range.
func (p *CapabilityPolicy) CapabilityName(i int) string {
	if i < 0 || i >= len(p.caps) {
		return ""
	}
	if name := p.caps[i].Name(); name != "" {
		return name
	}
	return fmt.Sprintf("#%d %s", i, p.caps[i].Pattern())
}

// CountersUnused reports whether a decision that charged capability i (-1
// for none) read no call counter: capability i has no call limit, and no
// capability has a flow rule (UnlessTouched). The
// engine then allows such a call when its counter store fails, uncounted
// (see engine.CounterFreePolicy).
func (p *CapabilityPolicy) CountersUnused(i int) bool {
	for _, c := range p.caps {
		if len(c.UnlessTouchedLabels()) > 0 {
			return false // a flow rule reads the counters of labels
		}
	}
	if i < 0 {
		return true
	}
	return i < len(p.caps) && p.caps[i].CallLimit() <= 0
}

// Decide decides one call. It never allows on failure: params that are
// not a JSON object that can be put in canonical form deny the call, and
// the error says why. It reads in and changes nothing; ctx is not used (a
// decision takes no I/O and a bounded time).
func (p *CapabilityPolicy) Decide(_ context.Context, in *Input) (Decision, error) {
	in, d, err := canonical(in)
	if err != nil {
		return d, err
	}
	params, err := decodeParams(in.Params)
	if err != nil {
		return denied("the call's params are not a JSON object"), fmt.Errorf("authz: input: %w", err)
	}
	return p.combine(in.Method, p.evaluate(in, params), Extension{}), nil
}

// Extension is what a policy's own Rego rules add to the shipped library's
// decision (package cordon.authz in policy/rego): whether some rule of
// theirs adds to permit, and the reasons their deny and ask rules add. A
// rule that adds to permit grants a call that no capability allows; deny
// and ask reasons refuse the call, or make it wait for approval, whatever
// the capabilities say.
type Extension struct {
	// Permit reports that the user's permit rules hold something.
	Permit bool
	// Deny holds the reasons the user's deny rules give.
	Deny []string
	// Ask holds the reasons the user's ask rules give.
	Ask []string
}

// Evaluation is what the capabilities make of one call before the user's
// rules are added (see [CapabilityPolicy.Evaluate]).
type Evaluation struct {
	p      *CapabilityPolicy
	method string
	r      result
}

// Evaluate runs the capabilities over one call, for a policy whose own
// Rego rules add to the shipped library's permit, deny and ask: package
// policy evaluates those rules with OPA and completes the decision with
// [Evaluation.Decide], which gives the decision a whole OPA evaluation
// would give, reasons included. When the params cannot be read, it
// returns an error and the decision that denies the call, as Decide does.
func (p *CapabilityPolicy) Evaluate(in *Input) (Evaluation, Decision, error) {
	in, d, err := canonical(in)
	if err != nil {
		return Evaluation{}, d, err
	}
	params, err := decodeParams(in.Params)
	if err != nil {
		return Evaluation{}, denied("the call's params are not a JSON object"), fmt.Errorf("authz: input: %w", err)
	}
	return Evaluation{p: p, method: in.Method, r: p.evaluate(in, params)}, Decision{}, nil
}

// Denies reports whether the shipped library denies the call, whatever
// the user's deny rules say, when the user's permit rules hold something
// (permitted) or not. The library reads the user's ask rules only when
// nothing denies the call.
func (e Evaluation) Denies(permitted bool) bool {
	return e.r.charged < 0 && (e.r.gate >= 0 || !permitted)
}

// Decide completes the decision with what the user's rules add.
func (e Evaluation) Decide(ext Extension) Decision {
	return e.p.combine(e.method, e.r, ext)
}

// result is what the capabilities make of a call: the capability charged
// (-1 for none), the gate (-1 for none), whether any pattern matched, and
// the violations of the matched capabilities, which are collected only
// when no capability is charged.
type result struct {
	charged, gate int
	matched       bool
	violations    []string
}

// evaluate runs the capabilities over one call.
func (p *CapabilityPolicy) evaluate(in *Input, params any) result {
	r := result{charged: -1, gate: -1}
	for i, k := range p.checkers {
		if !k.Match(in.Method) {
			continue
		}
		r.matched = true
		ok, reasons := k.Allows(params, in.CapabilityCalls[i])
		untouched, flowReasons := k.Untouched(in.Session.Flow.Labels)
		ok = ok && untouched
		if ok && r.gate < 0 {
			r.charged = i
			break // the first allowing capability is charged; violations are not needed
		}
		if !ok && r.gate < 0 && p.caps[i].Asks() && p.caps[i].CallLimit() > 0 && untouched && k.Holds(params) {
			// An asking capability that would take the call but is used
			// up: no later capability may allow it (the library's gate).
			r.gate = i
		}
		for _, reason := range reasons {
			r.violations = append(r.violations, fmt.Sprintf("capability #%d %s: %s", i, dsl.Quote(p.caps[i].Label()), reason))
		}
		for _, reason := range flowReasons {
			r.violations = append(r.violations, fmt.Sprintf("capability #%d %s: %s", i, dsl.Quote(p.caps[i].Label()), reason))
		}
	}
	return r
}

// combine mirrors policy/rego/authz.rego: permit is the set of
// capabilities that allow the call up to the gate (the first asking
// capability with max_calls whose constraints hold) and what the user's
// rules add; deny holds the gate's reason when no capability is eligible,
// the capabilities' failures when nothing permits, and the user's
// reasons; ask holds the charged capability's ask and the user's reasons.
// A deny wins over ask, and ask over allow.
func (p *CapabilityPolicy) combine(method string, r result, ext Extension) Decision {
	var deny []string
	if r.charged < 0 {
		if r.gate >= 0 {
			c := p.caps[r.gate]
			deny = append(deny, fmt.Sprintf("capability #%d %q requires approval and its max_calls %d is used up", r.gate, c.Pattern(), c.CallLimit()))
		}
		if !ext.Permit {
			switch {
			case !r.matched:
				deny = append(deny, fmt.Sprintf("no capability allows method %q", method))
			case len(r.violations) == 0:
				deny = append(deny, fmt.Sprintf("no capability allows this call to %q", method))
			default:
				deny = append(deny, r.violations...)
			}
		}
	}
	deny = append(deny, ext.Deny...)
	if len(deny) > 0 {
		return Decision{Capability: r.charged, Reasons: sortedSet(deny)}
	}
	var ask []string
	if r.charged >= 0 && p.caps[r.charged].Asks() {
		ask = append(ask, fmt.Sprintf("capability #%d %q requires approval", r.charged, p.caps[r.charged].Pattern()))
	}
	ask = append(ask, ext.Ask...)
	if len(ask) > 0 {
		return Decision{Ask: true, Capability: r.charged, Reasons: sortedSet(ask)}
	}
	return Decision{Allow: true, Capability: r.charged}
}

// sortedSet sorts s and drops repeated strings, as a Rego set of reasons
// sorted in the library does.
func sortedSet(s []string) []string {
	sort.Strings(s)
	return dedupSorted(s)
}

func dedupSorted(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
