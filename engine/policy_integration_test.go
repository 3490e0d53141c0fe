package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

func TestPolicyMaxCallsUnderAConcurrentBatch(t *testing.T) {
	for name, pol := range enginetest.Evaluators(t, dsl.Method("stripe/charges/*").MaxCalls(2)) {
		t.Run(name, func(t *testing.T) { testMaxCallsUnderAConcurrentBatch(t, pol) })
	}
}

func testMaxCallsUnderAConcurrentBatch(t *testing.T, pol engine.Policy) {
	var ran atomic.Int32
	var audits []engine.AuditRecord
	var mu sync.Mutex
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Counting("stripe/charges/create", &ran)},
		Policy: pol,
		Audit: func(r engine.AuditRecord) {
			mu.Lock()
			audits = append(audits, r)
			mu.Unlock()
		},
	})
	res := enginetest.Run(t, sb, `const rs = await Promise.allSettled([1, 2, 3, 4].map(i => stripe.charges.create({i})))
return rs.map(r => r.status)`)
	if res.Stdout != `["fulfilled","fulfilled","rejected","rejected"]`+"\n" || ran.Load() != 2 {
		t.Fatalf("stdout %q, handler ran %d times", res.Stdout, ran.Load())
	}
	allowed := 0
	for _, c := range res.ToolCalls {
		if c.Allowed {
			allowed++
			if c.Capability != "#0 stripe/charges/*" {
				t.Errorf("capability %q", c.Capability)
			}
		} else if !strings.Contains(c.Error, "max_calls 2 used up") {
			t.Errorf("denied call error %q", c.Error)
		}
	}
	if allowed != 2 || len(audits) != 4 || audits[0].PolicyRevision == "" || audits[0].Decision != "allow" || audits[3].Decision != "deny" {
		t.Errorf("allowed %d audits %+v", allowed, audits)
	}
}

func TestPolicyDenialIsCatchableAndNeverRunsTheHandler(t *testing.T) {
	for name, pol := range enginetest.Evaluators(t, dsl.Method("pay").Where(dsl.Param("amount").Le(100), dsl.Param("currency").Eq("USD"))) {
		t.Run(name, func(t *testing.T) { testDenialIsCatchable(t, pol) })
	}
}

func testDenialIsCatchable(t *testing.T, pol engine.Policy) {
	var ran atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Counting("pay", &ran), enginetest.Counting("admin/delete", &ran)},
		Policy: pol,
	})
	res := enginetest.Run(t, sb, `const out = []
for (const f of [() => pay({amount: 500, currency: "EUR"}), () => admin.delete({})]) {
  try { await f() } catch (e) { out.push([e.name, e.kind, e.message, e.reasons.length]) }
}
return out`)
	if ran.Load() != 0 {
		t.Errorf("a denied handler ran %d times", ran.Load())
	}
	want := `[["ToolError","denied","tool pay denied: capability #0 \"pay\": amount <= 100 does not hold (amount is 500); capability #0 \"pay\": currency == \"USD\" does not hold (currency is \"EUR\")",2],["ToolError","denied","tool admin/delete denied: no capability allows method \"admin/delete\"",1]]` + "\n"
	if res.Stdout != want {
		t.Errorf("got  %s\nwant %s", res.Stdout, want)
	}
}

func TestPolicyAsk(t *testing.T) {
	var ran atomic.Int32
	pol := enginetest.NewPolicy(t, policy.Config{
		Capabilities: []*dsl.Capability{dsl.Method("pay")},
		Modules: map[string]string{"ask.rego": `package cordon.authz

ask contains "payments above 1000 need approval" if input.params.amount > 1000
`},
	})
	var asked []string
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Counting("pay", &ran)},
		Policy: pol,
		Approve: func(_ context.Context, c *engine.Call) (bool, string) {
			asked = append(asked, string(c.Params)+" "+strings.Join(c.Reasons, ","))
			var p struct{ Amount int }
			json.Unmarshal(c.Params, &p)
			return p.Amount < 5000, "too much for the approver"
		},
	})
	res := enginetest.Run(t, sb, `const out = []
for (const amount of [10, 2000, 9000]) {
  try { await pay({amount}); out.push("paid " + amount) } catch (e) { out.push(e.message) }
}
return out`)
	if res.Stdout != `["paid 10","paid 2000","tool pay denied: too much for the approver"]`+"\n" || ran.Load() != 2 || len(asked) != 2 {
		t.Errorf("stdout %q ran %d asked %v", res.Stdout, ran.Load(), asked)
	}
	if !res.ToolCalls[1].Allowed || res.ToolCalls[2].Allowed {
		t.Errorf("records %+v", res.ToolCalls)
	}

	// Without an approver an ask is a denial; in the step API the caller sees it.
	sb2 := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Counting("pay", &ran)}, Policy: pol})
	res = enginetest.Run(t, sb2, `try { await pay({amount: 2000}) } catch (e) { return e.message }`)
	if !strings.Contains(res.Stdout, "approval required and no approver is configured") {
		t.Errorf("no approver: %q", res.Stdout)
	}
	x, err := sb2.Start(context.Background(), engine.JavaScript, `return await pay({amount: 3000})`)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := x.Next(context.Background())
	if err != nil || len(calls) != 1 || !calls[0].Ask || calls[0].Reasons[0] != "payments above 1000 need approval" {
		t.Fatalf("step: %+v %v", calls, err)
	}
	calls[0].Run(context.Background())
	if calls, err := x.Next(context.Background()); calls != nil || err != nil || x.Result().Stdout != `{"amount":3000}`+"\n" {
		t.Errorf("after approval: %v %v %q", calls, err, x.Result().Stdout)
	}
}

func TestPolicyEvaluationErrorDenies(t *testing.T) {
	var ran atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools: []engine.Tool{enginetest.Counting("pay", &ran)},
		Policy: enginetest.NewPolicy(t, policy.Config{
			Capabilities: []*dsl.Capability{dsl.Method("pay")},
			Modules:      map[string]string{"bad.rego": "package cordon.authz\n\ndeny contains x if { x := 1 / input.params.zero }\n"},
		}),
	})
	res := enginetest.Run(t, sb, `try { await pay({zero: 0}) } catch (e) { return e.message }`)
	if !strings.Contains(res.Stdout, "the policy failed to evaluate") || ran.Load() != 0 {
		t.Errorf("stdout %q ran %d", res.Stdout, ran.Load())
	}
}

// fakePolicy is an embedder's Policy: it returns what it is told to, to
// check that the engine holds any implementation to the contract.
type fakePolicy struct {
	d      authz.Decision
	err    error
	panics bool
	inputs []authz.Input
}

func (f *fakePolicy) Decide(_ context.Context, in *authz.Input) (authz.Decision, error) {
	if f.panics {
		panic("boom")
	}
	cp := *in // the engine's maps change after Decide returns: keep a copy
	cp.Calls, cp.CapabilityCalls = maps.Clone(in.Calls), maps.Clone(in.CapabilityCalls)
	f.inputs = append(f.inputs, cp)
	return f.d, f.err
}

func (f *fakePolicy) Revision() string { return "fake-1" }

func (f *fakePolicy) CapabilityName(i int) string {
	if i == 0 {
		return "only"
	}
	return ""
}

// An embedder's Policy is held to the contract: an error, a panic, or a
// decision that both allows and asks denies the call, and the input is
// canonical and carries the engine's counters.
func TestCustomPolicyFailsClosed(t *testing.T) {
	for _, tc := range []struct {
		name string
		pol  *fakePolicy
		want string
	}{
		{"error", &fakePolicy{d: authz.Decision{Allow: true, Capability: 0}, err: errors.New("backend down")}, "the policy failed: backend down"},
		{"error with reasons", &fakePolicy{d: authz.Decision{Reasons: []string{"no quota"}, Capability: -1}, err: errors.New("quota")}, "no quota"},
		{"panic", &fakePolicy{panics: true}, "the policy panicked"},
		{"allow and ask", &fakePolicy{d: authz.Decision{Allow: true, Ask: true, Capability: 0}}, "the policy both allowed the call and asked about it"},
		{"no reason", &fakePolicy{d: authz.Decision{Capability: -1}}, "denied by policy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ran atomic.Int32
			var audits []engine.AuditRecord
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{
				Tools:  []engine.Tool{enginetest.Counting("pay", &ran)},
				Policy: tc.pol,
				Audit:  func(r engine.AuditRecord) { audits = append(audits, r) },
			})
			res := enginetest.Run(t, sb, `try { await pay({amount: 1.0}); return "ran" } catch (e) { return e.kind + ": " + e.message }`)
			if res.Stdout != "denied: tool pay denied: "+tc.want+"\n" || ran.Load() != 0 {
				t.Errorf("stdout %q, handler ran %d times", res.Stdout, ran.Load())
			}
			if len(audits) != 1 || audits[0].Decision != "deny" || audits[0].PolicyRevision != "fake-1" || (tc.pol.err != nil || tc.pol.panics || tc.name == "allow and ask") != (audits[0].Err != nil) {
				t.Errorf("audits %+v", audits)
			}
		})
	}
}

// The engine hands an embedder's Policy canonical params and its counters,
// charges the capability the policy names, and labels it by
// CapabilityName.
func TestCustomPolicyInput(t *testing.T) {
	var ran atomic.Int32
	pol := &fakePolicy{d: authz.Decision{Allow: true, Capability: 0}}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Counting("pay", &ran)},
		Policy: pol,
		Labels: map[string]string{"team": "a"},
	})
	res := enginetest.Run(t, sb, `await pay({amount: 1.0, note: "x"}); await pay({}); return "ok"`)
	if res.Stdout != "ok\n" || ran.Load() != 2 || len(pol.inputs) != 2 || res.ToolCalls[0].Capability != "only" {
		t.Fatalf("stdout %q ran %d inputs %+v calls %+v", res.Stdout, ran.Load(), pol.inputs, res.ToolCalls)
	}
	in := pol.inputs[1]
	if string(pol.inputs[0].Params) != `{"amount":1,"note":"x"}` || !in.ParamsCanonical || in.Method != "pay" || in.Language != "js" ||
		in.Session.Labels["team"] != "a" || in.Calls["pay"] != 1 || in.CapabilityCalls[0] != 1 {
		t.Errorf("inputs %+v", pol.inputs)
	}
}

// A nil pointer of a Policy type (a *policy.Policy variable that holds no
// policy, as config.Policy returns without one) is the default policy,
// as a nil Policy is.
func TestNilPolicyPointerIsTheDefault(t *testing.T) {
	var none *policy.Policy
	for name, pol := range map[string]engine.Policy{"nil": nil, "nil pointer": none, "nil authz": (*authz.CapabilityPolicy)(nil)} {
		t.Run(name, func(t *testing.T) {
			var ran atomic.Int32
			var audits []engine.AuditRecord
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{
				Tools:  []engine.Tool{enginetest.Counting("pay", &ran)},
				Policy: pol,
				Audit:  func(r engine.AuditRecord) { audits = append(audits, r) },
			})
			res := enginetest.Run(t, sb, `await pay({}); return "ok"`)
			if res.Stdout != "ok\n" || ran.Load() != 1 || len(audits) != 1 || audits[0].PolicyRevision != "default" {
				t.Errorf("stdout %q ran %d audits %+v", res.Stdout, ran.Load(), audits)
			}
		})
	}
}
