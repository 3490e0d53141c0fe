package fleet

import (
	"context"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/open-policy-agent/opa/v1/plugins/logs"
	"github.com/open-policy-agent/opa/v1/server"
)

// OutcomePath is the path of the decision-log events that record what
// became of a decided call after the policy: an approval or a refusal of
// an ask, or the failure of an allowed call ([Policy.Audit]).
const OutcomePath = "cordon/authz/outcome"

// Audit is an audit hook ([engine.SandboxConfig.Audit], which code mode's
// sandboxes take too): it sends the records that are not policy decisions
// to the decision log, beside the decisions that Decide logs, so that the
// central log tells what became of each call. A record "approved",
// "refused", "failed" or "superseded" (a decision that lost a race on a
// shared counter store and was made again, under a new id) becomes one
// event with:
//
//   - decision_id: the record's DecisionID, the id of the decision's own
//     event, so that the two join on it;
//   - path: [OutcomePath], not [DecisionPath]: it is no evaluation, and a
//     collector that keeps one event per decision_id and path keeps both;
//   - result: {"outcome": "approved" | "refused" | "failed" |
//     "superseded", "reasons": [...]}: the approver's reason, the
//     message the script saw, or why the decision was made again;
//   - input: {"method", "session": {"id"}} only: the params are in the
//     decision's event (and masked there);
//   - revision (and bundles, while that revision is active): the revision
//     that decided the call; timestamp: when the call was answered.
//
// The event passes through the decision-log plugin's system.log drop and
// mask rules like any other. Policy decisions ("allow", "deny", "ask")
// are ignored: Decide has logged them. Audit does nothing without a
// decision-log plugin, and never waits for the network. It is safe for
// concurrent use.
func (p *Policy) Audit(rec engine.AuditRecord) {
	switch rec.Decision {
	case "approved", "refused", "failed", "superseded":
	default:
		return
	}
	lp := logs.Lookup(p.mgr)
	if lp == nil || rec.DecisionID == "" {
		return
	}
	ts := rec.Time
	if ts.IsZero() {
		ts = time.Now()
	}
	info := &server.Info{
		DecisionID: rec.DecisionID,
		Path:       OutcomePath,
		Timestamp:  ts.UTC(),
		Revision:   rec.PolicyRevision,
	}
	if st := p.active.Load(); st != nil && st.revision == rec.PolicyRevision {
		info.Bundles = st.bundles
	}
	var input any = map[string]any{
		"method":  rec.Method,
		"session": map[string]any{"id": rec.Session},
	}
	info.Input = &input
	reasons := make([]any, len(rec.Reasons))
	for i, r := range rec.Reasons {
		reasons[i] = r
	}
	var result any = map[string]any{"outcome": rec.Decision, "reasons": reasons}
	info.Results = &result
	if err := lp.Log(context.Background(), info); err != nil {
		p.metrics.logFailed()
	}
}
