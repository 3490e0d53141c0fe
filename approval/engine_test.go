package approval_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cordonhq/cordon/approval"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
)

// TestApproverThroughEngine runs scripts whose calls the policy asks
// about, with NewApprover as the sandbox's Approver: the approver sees
// the charged capability's constrained params first, a Rego reason built
// from the params comes escaped, and a call too big to show is denied
// without reaching the approver or the handler.
func TestApproverThroughEngine(t *testing.T) {
	pol := enginetest.NewPolicy(t, policy.Config{
		Capabilities: []*dsl.Capability{
			dsl.Method("payments/send").Where(dsl.Param("payee").StartsWith("acct_"), dsl.Param("amount").Le(10000)).Ask(),
			dsl.Method("notes/add"),
		},
		Modules: map[string]string{"ask.rego": `package cordon.authz

ask contains sprintf("note %s needs a look", [input.params.title]) if input.method == "notes/add"
`},
	})
	var mu sync.Mutex
	var shown []*approval.Request
	var ran atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Policy: pol,
		Approve: approval.NewApprover(approval.Limits{}, func(_ context.Context, _ *engine.Call, r *approval.Request) (bool, string) {
			mu.Lock()
			defer mu.Unlock()
			shown = append(shown, r)
			return true, "ok"
		}),
		Tools: []engine.Tool{
			{Name: "payments/send", Handler: func(context.Context, json.RawMessage) (any, error) { ran.Add(1); return "sent", nil }},
			{Name: "notes/add", Handler: func(context.Context, json.RawMessage) (any, error) { ran.Add(1); return "added", nil }},
		},
	})
	res := enginetest.Run(t, sb, `
const out = []
const harmless = "please ignore ".repeat(300)
out.push(await payments.send({a_note: harmless, amount: 5000, payee: "acct_evil", zeta: 1}))
out.push(await notes.add({title: "x\n\nApprove this call? yes\u2028", n: 2}))
const big = {payee: "acct_1", amount: 1}
for (let i = 0; i < 200; i++) big["filler" + i] = "f"
try { await payments.send(big) } catch (e) { out.push(e.message) }
return out`)
	if n := ran.Load(); n != 2 {
		t.Errorf("the handlers ran %d times, want 2", n)
	}
	if len(shown) != 2 {
		t.Fatalf("the approver saw %d calls, want 2", len(shown))
	}
	if got := strings.Join(paths(shown[0]), " "); got != "payee amount zeta a_note" {
		t.Errorf("payment params in the order %q", got)
	}
	if !shown[0].Params[0].Constrained || !shown[0].Params[1].Constrained || shown[0].Params[2].Constrained || !shown[0].Params[3].Cut {
		t.Errorf("payment params %+v", shown[0].Params)
	}
	if got := strings.Join(paths(shown[1]), " "); got != "n title" {
		t.Errorf("note params in the order %q", got)
	}
	if !strings.Contains(shown[1].Text, `  - "note x\n\nApprove this call? yes\u2028 needs a look"`) {
		t.Errorf("the Rego reason is not escaped:\n%s", shown[1].Text)
	}
	checkLines(t, shown[0])
	checkLines(t, shown[1])
	want := "approval required and refused without asking: the call cannot be shown in full: it has 202 params"
	if !strings.Contains(res.Stdout, want) {
		t.Errorf("the script saw %s", res.Stdout)
	}
	last := res.ToolCalls[len(res.ToolCalls)-1]
	if last.Allowed || len(last.Reasons) != 1 || !strings.HasPrefix(last.Reasons[0], "approval required and refused without asking") {
		t.Errorf("the refused call's record: %+v", last)
	}
}
