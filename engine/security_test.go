package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
)

// payParams is how a handler written docs/embedding.md's way reads its params.
type payParams struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// payTool records what its handler was paid.
func payTool(paid *[]payParams, mu *sync.Mutex) engine.Tool {
	return engine.Tool{Name: "pay", Handler: engine.Func(func(_ context.Context, p payParams) (string, error) {
		mu.Lock()
		*paid = append(*paid, p)
		mu.Unlock()
		return "paid", nil
	})}
}

// The policy and the handler read the same params: a key spelled to match
// a struct field case-insensitively, a number a float64 reads as another,
// and a prototype key are refused before the policy runs, from JS and from
// the shell, and the handler never runs for them.
func TestHandlerReadsWhatThePolicyChecked(t *testing.T) {
	var paid []payParams
	var mu sync.Mutex
	caps := []*dsl.Capability{dsl.Method("pay").Where(dsl.Param("amount").Le(1000), dsl.Param("amount").Gt(0), dsl.Param("currency").In("USD"))}
	for _, always := range []bool{false, true} {
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{
			Tools:  []engine.Tool{payTool(&paid, &mu)},
			Policy: enginetest.NewPolicy(t, policy.Config{Capabilities: caps, AlwaysRego: always}),
		})
		for _, params := range []string{
			`{amount: 5, currency: "USD", AMOUNT: 999999, Currency: "BTC"}`,
			`{amount: 5, currency: "USD", "\u212amount": 1}`,          // no, but Kelvin is k: not a fold of "amount"
			`{amount: 5, currency: "USD", "\u017fome": 1, "some": 2}`, // ſ folds to s
			`JSON.parse('{"amount": 5, "currency": "USD", "__proto__": {"x": 1}}')`,
		} {
			res := enginetest.Run(t, sb, `try { await pay(`+params+`); return "ran" } catch (e) { return e.kind + ": " + e.reasons.join("; ") }`)
			out := strings.TrimSpace(res.Stdout)
			if strings.Contains(params, `\u212amount`) {
				// "Kamount" (with the Kelvin sign) folds to "kamount", not
				// "amount": a distinct key, and the call is fine.
				if out != "ran" {
					t.Errorf("%s: %s", params, out)
				}
				continue
			}
			if !strings.HasPrefix(out, "invalid: param") {
				t.Errorf("AlwaysRego %v, %s: %s", always, params, out)
			}
		}
		for _, script := range []string{
			`tool pay --json '{"amount": 5, "currency": "USD", "CURRENCY": "BTC"}'`,
			`tool pay --json '{"amount": 5, "currency": "USD", "\u017fku": 1, "SKU": 2}'`,
			`tool pay --json '{"amount": 5, "currency": "USD", "Currency": "BTC"}'`,
			`tool pay --json '{"amount": 999.99999999999999999, "currency": "USD"}'`,
			`tool pay --json '{"amount": 1e-400, "currency": "USD"}'`,
			`tool pay --json '{"amount": 9007199254740993, "currency": "USD"}'`,
			`tool pay --json '{"amount": 1` + strings.Repeat("0", 5000) + `, "currency": "USD"}'`,
		} {
			res := enginetest.RunShell(t, sb, script)
			if res.ExitCode == 0 || !strings.Contains(res.Stderr, "invalid params") || !strings.Contains(res.Stderr, "param amount") && !strings.Contains(res.Stderr, "param ") {
				t.Errorf("AlwaysRego %v, %.80s: exit %d, stderr %q", always, script, res.ExitCode, res.Stderr)
			}
		}
		// The audit holds no params for a refused call, and the handler
		// never ran.
		res := enginetest.Run(t, sb, `try { await pay({amount: 5, currency: "USD", AMOUNT: 9}) } catch (e) {}; return 1`)
		if c := res.ToolCalls[0]; c.Allowed || c.Params != nil || !strings.Contains(c.Error, "invalid params") {
			t.Errorf("record of a refused call: %+v", c)
		}
	}
	if len(paid) != 2 {
		t.Fatalf("the handler ran %d times (want 2: the Kelvin-sign calls): %+v", len(paid), paid)
	}
	for _, p := range paid {
		if p.Amount != 5 || p.Currency != "USD" {
			t.Errorf("paid %+v", p)
		}
	}
}

// The handler receives the canonical bytes the policy decided on.
func TestHandlerReceivesCanonicalParams(t *testing.T) {
	var got []string
	var mu sync.Mutex
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "t", Handler: func(_ context.Context, p json.RawMessage) (any, error) {
		mu.Lock()
		got = append(got, string(p))
		mu.Unlock()
		return 1, nil
	}}}})
	res := enginetest.RunShell(t, sb, `tool t --json '{"b": 1.0, "a": 1E2, "z": -0, "s": "\u00e9"}'`)
	want := `{"a":100,"b":1,"s":"é","z":0}` // the shell's tool writes keys sorted
	if res.ExitCode != 0 || len(got) != 1 || got[0] != want || string(res.ToolCalls[0].Params) != want {
		t.Fatalf("exit %d %q; handler got %q, audit %s", res.ExitCode, res.Stderr, got, res.ToolCalls[0].Params)
	}
}

// engine.Func matches keys exactly: a handler never reads a key the policy
// did not check, even when the key is the only spelling present.
func TestFuncDecodesExactKeys(t *testing.T) {
	var paid []payParams
	var mu sync.Mutex
	h := payTool(&paid, &mu).Handler
	if _, err := h(context.Background(), json.RawMessage(`{"AMOUNT": 999999, "Currency": "BTC", "currency": "USD"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := h(context.Background(), json.RawMessage(`{"amount": 1, "amount": 2}`)); err == nil {
		t.Error("a duplicate key was accepted")
	}
	if len(paid) != 1 || paid[0].Amount != 0 || paid[0].Currency != "USD" {
		t.Fatalf("paid %+v", paid)
	}
}

// An ask cannot be worn out: refused asks are not charged, and a call an
// asking capability would take never falls through to a later capability
// that allows it without asking, alone, in a batch, through OPA, and with
// a real approver. Every approval and refusal is an audit record.
func TestAskCannotBeWornOut(t *testing.T) {
	caps := []*dsl.Capability{
		dsl.Method("refund").Where(dsl.Param("amount").Gt(100)).Ask().MaxCalls(2),
		dsl.Method("refund").MaxCalls(20),
	}
	seq := `const out = []
for (let i = 0; i < 4; i++) {
  try { await refund({amount: 5000}); out.push("PAID") } catch (e) { out.push(e.kind) }
}
return out.join(",")`
	batch := `const rs = await Promise.allSettled([1, 2, 3, 4].map(() => refund({amount: 5000})))
return rs.map(r => r.status === "fulfilled" ? "PAID" : r.reason.kind).join(",")`
	for _, always := range []bool{false, true} {
		for _, script := range []string{seq, batch} {
			var ran atomic.Int32
			var audit []engine.AuditRecord
			var mu sync.Mutex
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{
				Tools:  []engine.Tool{enginetest.Counting("refund", &ran)},
				Policy: enginetest.NewPolicy(t, policy.Config{Capabilities: caps, AlwaysRego: always}),
				Audit:  func(r engine.AuditRecord) { mu.Lock(); audit = append(audit, r); mu.Unlock() },
			})
			res := enginetest.Run(t, sb, script)
			if got := strings.TrimSpace(res.Stdout); got != "denied,denied,denied,denied" || ran.Load() != 0 {
				t.Errorf("AlwaysRego %v, no approver: %s, handler ran %d times", always, got, ran.Load())
			}
			// Small refunds do not ask: they go to capability #1.
			if got := strings.TrimSpace(enginetest.Run(t, sb, `return (await refund({amount: 50})).amount`).Stdout); got != "50" {
				t.Errorf("a small refund: %s", got)
			}
			mu.Lock()
			var decisions []string
			for _, r := range audit {
				decisions = append(decisions, r.Decision)
			}
			mu.Unlock()
			want := "ask,refused,ask,refused,ask,refused,ask,refused,allow"
			if script == batch {
				// Both asks of the batch reserve the two calls of the
				// capability, so the other two are denied at once.
				want = "ask,ask,deny,deny,refused,refused,allow"
			}
			if got := strings.Join(decisions, ","); got != want {
				t.Errorf("AlwaysRego %v: audit %s, want %s", always, got, want)
			}
		}
	}

	// With an approver: approve, refuse, approve; then the capability is
	// used up, and the next call is denied with a reason that says so.
	var ran atomic.Int32
	var audit []engine.AuditRecord
	var answers atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Counting("refund", &ran)},
		Policy: enginetest.NewPolicy(t, policy.Config{Capabilities: caps}),
		Approve: func(ctx context.Context, c *engine.Call) (bool, string) {
			if answers.Add(1) == 2 {
				return false, "the second one is refused"
			}
			return true, "ok by alice"
		},
		Audit: func(r engine.AuditRecord) { audit = append(audit, r) },
	})
	res := enginetest.Run(t, sb, seq)
	if got := strings.TrimSpace(res.Stdout); got != "PAID,denied,PAID,denied" || ran.Load() != 2 {
		t.Fatalf("with an approver: %s, ran %d", got, ran.Load())
	}
	last := res.ToolCalls[3]
	if !strings.Contains(last.Error, `capability #0 "refund" requires approval and its max_calls 2 is used up`) {
		t.Errorf("the used-up ask's reason: %q", last.Error)
	}
	var stream []string
	for _, r := range audit {
		stream = append(stream, r.Decision+"("+strings.Join(r.Reasons, "|")+")")
		if r.Time.IsZero() {
			t.Errorf("audit record without a time: %+v", r)
		}
	}
	want := `ask(capability #0 "refund" requires approval),approved(ok by alice),` +
		`ask(capability #0 "refund" requires approval),refused(the second one is refused),` +
		`ask(capability #0 "refund" requires approval),approved(ok by alice),` +
		`deny(capability #0 "refund" requires approval and its max_calls 2 is used up|capability #0 "refund": max_calls 2 used up)`
	if got := strings.Join(stream, ","); got != want {
		t.Errorf("audit:\n got %s\nwant %s", got, want)
	}
}

// Under the step API, answering an ask is the approval: Run approves, Deny
// refuses and releases the charge, and an ask left unanswered when the
// execution ends is released too.
func TestAskSettledByTheStepAPI(t *testing.T) {
	var ran atomic.Int32
	caps := []*dsl.Capability{dsl.Method("refund").Ask().MaxCalls(1), dsl.Method("refund")}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Counting("refund", &ran)}, Policy: enginetest.NewPolicy(t, policy.Config{Capabilities: caps})})
	ctx := context.Background()
	step := func(answer func(c *engine.Call)) string {
		x, err := sb.Start(ctx, engine.JavaScript, `try { await refund({}); return "ran" } catch (e) { return e.kind }`)
		if err != nil {
			t.Fatal(err)
		}
		calls, err := x.Next(ctx)
		for err == nil && calls != nil {
			for _, c := range calls {
				if !c.Ask {
					t.Fatalf("call did not ask: %+v", c)
				}
				answer(c)
			}
			calls, err = x.Next(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(x.Result().Stdout)
	}
	if got := step(func(c *engine.Call) { c.Deny("no") }); got != "denied" {
		t.Fatalf("denied: %s", got)
	}
	x, _ := sb.Start(ctx, engine.JavaScript, `await refund({})`)
	if calls, err := x.Next(ctx); err != nil || len(calls) != 1 {
		t.Fatalf("%v %v", calls, err)
	}
	if err := x.Cancel(ctx); err == nil || !errors.Is(err, engine.ErrCanceled) {
		t.Fatalf("cancel: %v", err)
	}
	// Both the refusal and the abandoned ask were released: the ask is
	// still available once, and then used up.
	if got := step(func(c *engine.Call) { c.Run(ctx) }); got != "ran" {
		t.Fatalf("approved: %s", got)
	}
	res := enginetest.Run(t, sb, `try { await refund({}) } catch (e) { return e.kind }`)
	if strings.TrimSpace(res.Stdout) != "denied" || ran.Load() != 1 {
		t.Fatalf("after the ask was used up: %s, ran %d", res.Stdout, ran.Load())
	}
}

// A slow Rego rule is cut off at the execution's time limit: the call is
// denied, the execution ends with KindTimeout, and the sandbox stays usable.
func TestPolicyDecisionUnderTheDeadline(t *testing.T) {
	slow := `package cordon.authz
deny contains "slow" if {
	some i in numbers.range(1, 1000000000)
	i < 0
}`
	var ran atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Counting("t", &ran)},
		Policy: enginetest.NewPolicy(t, policy.Config{Modules: map[string]string{"slow.rego": slow}, Capabilities: []*dsl.Capability{dsl.Method("**")}}),
		Limits: engine.Limits{Timeout: 500 * time.Millisecond},
	})
	bound := enginetest.Scale(t, 3*time.Second)
	for _, lang := range []engine.Language{engine.JavaScript, engine.Shell} {
		code := `await Promise.all([t({}), t({}), t({})])`
		if lang == engine.Shell {
			code = `tool t; tool t`
		}
		start := time.Now()
		res, err := sb.Execute(context.Background(), lang, code)
		took := time.Since(start)
		if !errors.Is(err, engine.ErrTimeout) || ran.Load() != 0 {
			t.Fatalf("%s: err %v, ran %d", lang, err, ran.Load())
		}
		if took > bound {
			t.Errorf("%s: a 500ms limit ended after %v", lang, took)
		}
		for _, c := range res.ToolCalls {
			if c.Allowed {
				t.Errorf("%s: a call was allowed: %+v", lang, c)
			}
		}
	}
	if sb.Err() != nil {
		t.Fatalf("the sandbox broke: %v", sb.Err())
	}
}

// At most Limits.MaxConcurrentCalls handlers of a batch run at once.
func TestMaxConcurrentCalls(t *testing.T) {
	var now, peak, total atomic.Int32
	tool := engine.Tool{Name: "t", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
		n := now.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(2 * time.Millisecond)
		now.Add(-1)
		total.Add(1)
		return 1, nil
	}}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{tool}, Limits: engine.Limits{MaxConcurrentCalls: 4, Timeout: 30 * time.Second}})
	res := enginetest.Run(t, sb, `return (await Promise.all(Array.from({length: 60}, () => t({})))).length`)
	if strings.TrimSpace(res.Stdout) != "60" || total.Load() != 60 {
		t.Fatalf("stdout %q, %d ran", res.Stdout, total.Load())
	}
	if p := peak.Load(); p > 4 || p < 2 {
		t.Fatalf("peak concurrency %d, want at most 4 (and some)", p)
	}
}

// The engine logs nothing unless the host gives it a logger.
func TestEngineIsSilentByDefault(t *testing.T) {
	var logged atomic.Int32
	old := slog.Default()
	slog.SetDefault(slog.New(countingHandler{&logged}))
	defer slog.SetDefault(old)
	eng, err := engine.New(context.Background(), engine.NewConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	sb, err := eng.NewSandbox(context.Background(), engine.SandboxConfig{Tools: []engine.Tool{enginetest.Mock("t", 1)}})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close(context.Background())
	if _, err := sb.Execute(context.Background(), engine.JavaScript, `await t({secret: "x"}); try { await nope() } catch {}`); err != nil {
		t.Fatal(err)
	}
	if logged.Load() != 0 {
		t.Fatalf("the engine wrote %d records to slog.Default()", logged.Load())
	}
}

type countingHandler struct{ n *atomic.Int32 }

func (h countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h countingHandler) Handle(context.Context, slog.Record) error {
	h.n.Add(1)
	return nil
}
func (h countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h countingHandler) WithGroup(string) slog.Handler      { return h }

// Result.Value is JSON the guest made, whatever the script did to its
// JSON global.
func TestResultValueIsAlwaysJSON(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	for code, want := range map[string]string{
		`JSON.stringify = () => "not json"; return {a: 1}`:             `{"a":1}`,
		`JSON.stringify = () => '{"a":1}} junk'; return [1, "x"]`:      `[1,"x"]`,
		`JSON = {stringify() { return "}" }}; return {n: 1.5, s: "é"}`: `{"n":1.5,"s":"é"}`,
		`return {toJSON() { return "from toJSON" }}`:                   `"from toJSON"`,
	} {
		res := enginetest.Run(t, sb, code)
		if string(res.Value) != want || !json.Valid(res.Value) {
			t.Errorf("%s: value %s, want %s", code, res.Value, want)
		}
	}
}

// input.language names the interpreter that made the call, so that a
// policy keyed on it cannot be bypassed through shell() or node -e.
func TestInputLanguageIsTheCallingInterpreter(t *testing.T) {
	deny := `package cordon.authz
deny contains "no tools from JavaScript" if input.language == "js"`
	var ran atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Counting("t", &ran)},
		Policy: enginetest.NewPolicy(t, policy.Config{Modules: map[string]string{"p.rego": deny}, Capabilities: []*dsl.Capability{dsl.Method("**")}}),
	})
	for _, tc := range []struct {
		lang    engine.Language
		code    string
		allowed bool
	}{
		{engine.Shell, `tool t`, true},
		{engine.Shell, `node -e 'await t({})'`, false},
		{engine.Shell, `sh -c "node -e 'await t({})'"`, false},
		{engine.JavaScript, `await t({})`, false},
		{engine.JavaScript, `const r = shell("tool t"); if (r.exitCode) throw new Error(r.stderr)`, true},
		{engine.JavaScript, `shell("node -e 'await t({})'")`, false},
	} {
		res, err := sb.Execute(context.Background(), tc.lang, tc.code)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.ToolCalls) != 1 || res.ToolCalls[0].Allowed != tc.allowed {
			t.Errorf("%s %q: %+v", tc.lang, tc.code, res.ToolCalls)
		}
	}
}

// Tool names whose segments reach JavaScript's object machinery are
// refused at registration.
func TestReservedToolNameSegments(t *testing.T) {
	for _, name := range []string{"ns/__proto__/valueOf", "__proto__", "a/constructor", "a.prototype.x", "x/prototype"} {
		_, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Tools: []engine.Tool{enginetest.Mock(name, 1)}})
		if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), "is reserved") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Params nested too deeply get a reason that says so.
func TestDeepParamsReason(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Mock("t", 1)}})
	res := enginetest.Run(t, sb, `let p = {}; for (let i = 0; i < 5000; i++) p = {p}
try { await t(p) } catch (e) { return e.kind + ": " + e.reasons.join("; ") }`)
	if got := strings.TrimSpace(res.Stdout); got != "invalid: params: params are nested deeper than 64 levels" {
		t.Fatalf("%s", got)
	}
}
