// Package whatif decides recorded tool calls again under a candidate policy
// and reports how the decisions would change ("what-if", `cordon policy
// replay`).
//
// The recorded calls come from traces (package trace) or from the audit
// log `cordon run --log` writes (one JSON line per decision): [ReadFile]
// reads either, telling them apart by their content, into [Record]s.
// [Replay] decides every policy decision among them (allow, deny or ask)
// again with the candidate [engine.Policy], keeping the call counters the
// engine would keep: per session, in record order, a call the candidate
// allows or asks about charges its method, the capability it is charged
// to and the flow labels of its tool, so that max_calls and flow rules
// take effect as they would have. The [Report] counts the decisions that
// change, by kind, by method and by capability, and lists the changed
// calls with their params cut to a budget and the old and new reasons.
//
// The package links no OPA: a candidate built by package policy brings it.
package whatif

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy/authz"
)

// Decisions, as records and reports spell them.
const (
	Allow = "allow"
	Deny  = "deny"
	Ask   = "ask"
)

// DefaultParamBytes is how many bytes of a changed call's params a report
// keeps unless [Options.ParamBytes] says otherwise.
const DefaultParamBytes = 200

// DefaultMaxChanges is how many changed calls a report lists unless
// [Options.MaxChanges] says otherwise.
const DefaultMaxChanges = 100

// Record is one recorded policy decision on one tool call.
type Record struct {
	// Source says where the record comes from: "FILE:LINE" for an audit
	// log, "FILE#call N" for a trace.
	Source string
	// Session, Labels and Principal are the session's, as the policy saw
	// them (input.session); an audit log holds only the session's id.
	Session   string
	Labels    map[string]string
	Principal string
	// Counters names the call counters the record's call is charged to:
	// records with the same Counters share them, as the calls of one
	// session do. Read sets it to the file's name and the session's id
	// (a sandbox id such as sb-1 is unique only within its process); ""
	// means Session.
	Counters string
	// Language is "js" or "sh", or "" when not recorded.
	Language string
	// Method and Params are the call's; Params are canonical.
	Method string
	Params json.RawMessage
	// Decision is the recorded decision: "allow", "deny" or "ask".
	Decision string
	// Refused reports that the recorded ask was refused (its charge was
	// released).
	Refused bool
	// PolicyRevision is the revision of the policy that made the recorded
	// decision, "" when not recorded.
	PolicyRevision string
	// Reasons and Capability are the recorded decision's.
	Reasons    []string
	Capability string
	// Skip, when set, says why the call cannot be decided again (its
	// params were not recorded whole); the report counts it as skipped.
	Skip string
}

// Decision is a decision as a report shows it.
type Decision struct {
	Decision   string   `json:"decision"`
	Reasons    []string `json:"reasons,omitempty"`
	Capability string   `json:"capability,omitempty"`
	// Outcome is "refused" for a recorded ask that was refused.
	Outcome string `json:"outcome,omitempty"`
	// Error is set when the candidate policy failed on the call (which
	// denies it).
	Error string `json:"error,omitempty"`
}

// Change is one call whose decision the candidate changes.
type Change struct {
	Source  string         `json:"source"`
	Session string         `json:"session,omitempty"`
	Method  string         `json:"method"`
	Params  engine.Excerpt `json:"params"`
	Old     Decision       `json:"old"`
	New     Decision       `json:"new"`
}

// Kind names the change: "allow→deny", "deny→ask" and so on.
func (c *Change) Kind() string { return c.Old.Decision + "→" + c.New.Decision }

// Counts counts decisions decided again and how they changed. ToAsk counts
// every change to ask (allow→ask and deny→ask).
type Counts struct {
	Calls       int `json:"calls"`
	Changed     int `json:"changed"`
	AllowToDeny int `json:"allow_to_deny"`
	DenyToAllow int `json:"deny_to_allow"`
	ToAsk       int `json:"to_ask"`
	AskToAllow  int `json:"ask_to_allow"`
	AskToDeny   int `json:"ask_to_deny"`
	// ReasonsChanged counts the calls whose decision stays the same while
	// its reasons change (a denial for another reason); they are not
	// Changed.
	ReasonsChanged int `json:"reasons_changed"`
}

func (c *Counts) add(old, new string, sameReasons bool) {
	c.Calls++
	if old == new {
		if !sameReasons {
			c.ReasonsChanged++
		}
		return
	}
	c.Changed++
	switch {
	case new == Ask:
		c.ToAsk++
	case old == Allow && new == Deny:
		c.AllowToDeny++
	case old == Deny && new == Allow:
		c.DenyToAllow++
	case old == Ask && new == Allow:
		c.AskToAllow++
	case old == Ask && new == Deny:
		c.AskToDeny++
	}
}

// Report is what Replay found.
type Report struct {
	// PolicyRevision is the candidate's revision ("default" for the
	// default policy).
	PolicyRevision string `json:"policy_revision"`
	// RecordedRevisions are the revisions of the policies that made the
	// recorded decisions, sorted.
	RecordedRevisions []string `json:"recorded_revisions,omitempty"`
	// Total counts every call decided again; ByMethod and ByCapability
	// count them by method and by capability. A call is counted under
	// its recorded capability and under the one the candidate charges,
	// when they differ under both; "(none)" counts the calls that
	// neither charged to a capability.
	Total        Counts             `json:"total"`
	ByMethod     map[string]*Counts `json:"by_method"`
	ByCapability map[string]*Counts `json:"by_capability"`
	// Changes are the changed calls in record order, at most the
	// report's limit; ChangesOmitted counts those left out.
	Changes        []Change `json:"changes"`
	ChangesOmitted int      `json:"changes_omitted,omitempty"`
	// Skipped counts the recorded decisions that could not be decided
	// again, and SkippedReasons says why, by reason.
	Skipped        int            `json:"skipped,omitempty"`
	SkippedReasons map[string]int `json:"skipped_reasons,omitempty"`
}

// Changed reports whether the candidate changes any decision.
func (r *Report) Changed() bool { return r.Total.Changed > 0 }

// Options configures Replay; the zero value is the default.
type Options struct {
	// ParamBytes is how many bytes of a changed call's params the report
	// keeps (see [engine.NewExcerpt]); 0 or less means [DefaultParamBytes].
	ParamBytes int
	// MaxChanges is how many changed calls the report lists; the others
	// are only counted. A negative value lists none, 0 means
	// [DefaultMaxChanges].
	MaxChanges int
	// Tools says what the policy sees of each tool (input.tool): its
	// server, annotations and flow labels. Neither traces nor audit logs
	// record it; when it is nil input.tool is absent and the session's
	// flow history (input.session.flow.labels) stays empty.
	Tools func(method string) *authz.ToolInfo
}

// session is the counters of one session, as the engine keeps them.
type session struct {
	calls map[string]int // by method
	caps  map[string]int // by capability name
	flow  map[string]int // by tool label
}

// charge is what one decision charged, so that a refusal can release it.
type charge struct {
	method string
	cap    string
	labels []string
}

func (s *session) add(c charge, n int) {
	s.calls[c.method] += n
	if c.cap != "" {
		s.caps[c.cap] += n
	}
	for _, l := range c.labels {
		s.flow[l] += n
	}
}

// Replay decides every record again under p, in order, and reports the
// differences from the recorded decisions. A nil p is the engine's default
// policy (each method [engine.DefaultMaxCalls] times per session).
// Counters are kept per session ([Record.Counters]) as the engine keeps
// them: a call the candidate allows or asks about is charged; an ask the
// recording shows refused has its charge released right after, and any
// other ask is taken as approved.
// Replay fails only when ctx ends; a policy that errs or panics denies the
// call, as in the engine.
func Replay(ctx context.Context, p engine.Policy, records []Record, opts Options) (*Report, error) {
	o := opts
	if o.ParamBytes <= 0 {
		o.ParamBytes = DefaultParamBytes
	}
	if o.MaxChanges == 0 {
		o.MaxChanges = DefaultMaxChanges
	}
	if isNil(p) {
		p = nil
	}
	r := &Report{PolicyRevision: "default", ByMethod: map[string]*Counts{}, ByCapability: map[string]*Counts{}, Changes: []Change{}}
	var capNames []string
	if p != nil {
		r.PolicyRevision = p.Revision()
		for i := 0; i < 1<<16; i++ {
			name := p.CapabilityName(i)
			if name == "" {
				break
			}
			capNames = append(capNames, name)
		}
	}
	sessions := map[string]*session{}
	for i := range records {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("whatif: %w", err)
		}
		rec := &records[i]
		switch rec.Decision {
		case Allow, Deny, Ask:
		default:
			return nil, fmt.Errorf("whatif: %s: decision %q is not allow, deny or ask", rec.Source, rec.Decision)
		}
		if rev := rec.PolicyRevision; rev != "" && !slices.Contains(r.RecordedRevisions, rev) {
			r.RecordedRevisions = append(r.RecordedRevisions, rev)
		}
		if rec.Skip != "" {
			r.Skipped++
			if r.SkippedReasons == nil {
				r.SkippedReasons = map[string]int{}
			}
			r.SkippedReasons[rec.Skip]++
			continue
		}
		key := rec.Counters
		if key == "" {
			key = rec.Session
		}
		s := sessions[key]
		if s == nil {
			s = &session{calls: map[string]int{}, caps: map[string]int{}, flow: map[string]int{}}
			sessions[key] = s
		}
		var tool *authz.ToolInfo
		if o.Tools != nil {
			tool = o.Tools(rec.Method)
		}
		nd := decide(ctx, p, rec, s, capNames, tool)
		if nd.Decision.Decision != Deny {
			c := charge{method: rec.Method, cap: nd.Capability}
			if nd.Capability == "" && nd.capIndex >= 0 {
				c.cap = "#" + strconv.Itoa(nd.capIndex)
			}
			if tool != nil {
				c.labels = tool.Labels
			}
			s.add(c, 1)
			if nd.Decision.Decision == Ask && rec.Refused {
				s.add(c, -1)
			}
		}
		old := Decision{Decision: rec.Decision, Reasons: rec.Reasons, Capability: rec.Capability}
		if rec.Decision == Ask && rec.Refused {
			old.Outcome = "refused"
		}
		same := slices.Equal(old.Reasons, nd.Reasons)
		for _, c := range countsFor(r, rec.Method, old.Capability, nd.Capability) {
			c.add(old.Decision, nd.Decision.Decision, same)
		}
		r.Total.add(old.Decision, nd.Decision.Decision, same)
		if old.Decision == nd.Decision.Decision {
			continue
		}
		if o.MaxChanges < 0 || len(r.Changes) >= o.MaxChanges {
			r.ChangesOmitted++
			continue
		}
		r.Changes = append(r.Changes, Change{
			Source:  rec.Source,
			Session: rec.Session,
			Method:  rec.Method,
			Params:  engine.NewExcerpt(rec.Params, o.ParamBytes),
			Old:     old,
			New:     nd.Decision,
		})
	}
	slices.Sort(r.RecordedRevisions)
	return r, nil
}

// countsFor returns the counts a call adds to: its method's, and those of
// its old and new capabilities ("(none)" when neither has one).
func countsFor(r *Report, method, oldCap, newCap string) []*Counts {
	get := func(m map[string]*Counts, k string) *Counts {
		if m[k] == nil {
			m[k] = &Counts{}
		}
		return m[k]
	}
	out := []*Counts{get(r.ByMethod, method)}
	switch {
	case oldCap == "" && newCap == "":
		out = append(out, get(r.ByCapability, "(none)"))
	case oldCap == newCap || newCap == "":
		out = append(out, get(r.ByCapability, oldCap))
	case oldCap == "":
		out = append(out, get(r.ByCapability, newCap))
	default:
		out = append(out, get(r.ByCapability, oldCap), get(r.ByCapability, newCap))
	}
	return out
}

// newDecision is the candidate's decision on one call.
type newDecision struct {
	Decision
	capIndex int
}

// decide asks p about rec on the counters of s, under the engine's
// contract (see engine.Policy): an error, a panic or a decision that both
// allows and asks denies the call, and a denial has a reason.
func decide(ctx context.Context, p engine.Policy, rec *Record, s *session, capNames []string, tool *authz.ToolInfo) (nd newDecision) {
	nd.capIndex = -1
	calls := make(map[string]int, len(s.calls))
	for m, n := range s.calls {
		if n > 0 {
			calls[m] = n
		}
	}
	if p == nil {
		if calls[rec.Method] >= engine.DefaultMaxCalls {
			nd.Decision = Decision{Decision: Deny, Reasons: []string{fmt.Sprintf("call limit reached: %s may be called %d times per session", rec.Method, engine.DefaultMaxCalls)}}
		} else {
			nd.Decision = Decision{Decision: Allow}
		}
		return nd
	}
	capCalls := map[int]int{}
	for i, name := range capNames {
		if n := s.caps[name]; n > 0 {
			capCalls[i] = n
		}
	}
	for name, n := range s.caps {
		if i, err := strconv.Atoi(name[min(1, len(name)):]); err == nil && len(name) > 1 && name[0] == '#' && i >= len(capNames) && n > 0 {
			capCalls[i] = n
		}
	}
	flow := map[string]int{}
	for l, n := range s.flow {
		if n > 0 {
			flow[l] = n
		}
	}
	params := rec.Params
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	in := &authz.Input{
		Method:          rec.Method,
		Params:          params,
		Calls:           calls,
		CapabilityCalls: capCalls,
		Session:         authz.Session{ID: rec.Session, Labels: rec.Labels, Principal: rec.Principal, Flow: authz.Flow{Labels: flow}},
		Language:        rec.Language,
		Tool:            tool,
	}
	d, _, _, err := engine.Decide(ctx, p, in)
	switch {
	case d.Allow:
		nd.Decision.Decision = Allow
	case d.Ask:
		nd.Decision.Decision = Ask
	default:
		nd.Decision.Decision = Deny
	}
	nd.Reasons = d.Reasons
	if nd.Decision.Decision != Deny {
		nd.capIndex = d.Capability
		nd.Capability = p.CapabilityName(d.Capability)
	}
	if err != nil {
		nd.Error = err.Error()
	}
	return nd
}

// isNil reports whether p is nil or a nil pointer held in the interface,
// which both mean the default policy, as in the engine.
func isNil(p engine.Policy) bool {
	if p == nil {
		return true
	}
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
