package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// listTransactions is amla-sandbox's example tool: it returns the
// customer it was asked about and the name it was registered under.
func listTransactions(name string) engine.Tool {
	return engine.Tool{
		Name:        name,
		Description: "List a customer's transactions.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}},"required":["customer"]}`),
		Handler: func(_ context.Context, p json.RawMessage) (any, error) {
			var params struct {
				Customer string `json:"customer"`
			}
			if err := json.Unmarshal(p, &params); err != nil {
				return nil, err
			}
			return map[string]any{"tool": name, "data": []map[string]any{{"customer": params.Customer, "amount": 5}}}, nil
		},
	}
}

// One registered name is reached from every surface, whether it was
// registered with "." or "/": JS at its dotted path and by its alias, and
// the shell's tool by each form of the name. The policy and the audit see
// the registered name.
func TestOneToolNameWorksEverywhere(t *testing.T) {
	for _, name := range []string{"stripe.listTransactions", "stripe/listTransactions"} {
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{listTransactions(name)}})
		res := enginetest.Run(t, sb, `const a = await stripe.listTransactions({customer: "cus_123"})
const b = await stripe_listTransactions({customer: "cus_456"})
return [a.tool, a.data[0].customer, b.data[0].customer, getToolInfo("stripe.listTransactions").name, getToolInfo("stripe/listTransactions").name]`)
		if want := `["` + name + `","cus_123","cus_456","` + name + `","` + name + `"]`; res.ExitCode != 0 || string(res.Value) != want {
			t.Errorf("%s: JS got %d %s %s, want %s", name, res.ExitCode, res.Value, res.Stderr, want)
		}
		for _, form := range []string{"stripe.listTransactions", "stripe/listTransactions", "stripe_listTransactions"} {
			res := enginetest.RunShell(t, sb, `tool `+form+` --customer cus_123 | jq -r '.tool + " " + .data[0].customer'`)
			if want := name + " cus_123\n"; res.ExitCode != 0 || res.Stdout != want {
				t.Errorf("%s: shell `tool %s` got %d %q %q, want %q", name, form, res.ExitCode, res.Stdout, res.Stderr, want)
			}
			res = enginetest.RunShell(t, sb, `tool --help `+form+` | head -1`)
			if want := "Usage: tool " + name + " --customer string\n"; res.Stdout != want {
				t.Errorf("%s: `tool --help %s` got %q %q, want %q", name, form, res.Stdout, res.Stderr, want)
			}
		}
		res = enginetest.Run(t, sb, `return 1`)
		for _, c := range res.ToolCalls {
			t.Errorf("a call leaked into the next execution: %+v", c)
		}
	}
}

// The audit records the registered name whichever form the script used.
func TestToolCallsAuditTheRegisteredName(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{listTransactions("stripe/listTransactions")}})
	res := enginetest.Run(t, sb, `await stripe.listTransactions({customer: "a"}); await stripe_listTransactions({customer: "b"})
return (await shell("tool stripe.listTransactions --customer c")).exitCode`)
	var methods []string
	for _, c := range res.ToolCalls {
		methods = append(methods, c.Method)
	}
	if want := "stripe/listTransactions stripe/listTransactions stripe/listTransactions"; res.ExitCode != 0 || strings.Join(methods, " ") != want {
		t.Errorf("got %d %s %s, methods %q, want %q", res.ExitCode, res.Value, res.Stderr, methods, want)
	}
}

// Two names that are one JS function are refused at registration, as two
// with one alias are; a tool that is also a namespace is not.
func TestToolNamesThatCollideAreRefused(t *testing.T) {
	for _, c := range []struct {
		tools []engine.Tool
		why   string
	}{
		{[]engine.Tool{enginetest.Mock("a.b", 1), enginetest.Mock("a/b", 2)}, `tools "a.b" and "a/b" are the same function a.b in JavaScript`},
		{[]engine.Tool{enginetest.Mock("a/b.c", 1), enginetest.Mock("a.b/c", 2)}, `tools "a/b.c" and "a.b/c" are the same function a.b.c in JavaScript`},
		{[]engine.Tool{enginetest.Mock("a/b_c", 1), enginetest.Mock("a_b/c", 2)}, `have the same JS alias "a_b_c"`},
		{[]engine.Tool{enginetest.Mock("console.log", 1)}, `its first segment "console" is a JavaScript global`},
		{[]engine.Tool{enginetest.Mock("a..b", 1)}, `segment 2 is empty`},
	} {
		_, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Tools: c.tools})
		if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: err %v, want invalid saying %q", c.tools[0].Name, err, c.why)
		}
	}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Mock("a/b", "b"), enginetest.Mock("a.b.c", "c")}})
	if res := enginetest.Run(t, sb, `return [await a.b(), await a.b.c(), await a_b(), await a_b_c()]`); string(res.Value) != `["b","c","b","c"]` {
		t.Errorf("a tool that is also a namespace: got %s %s", res.Value, res.Stderr)
	}
}

// A mistyped tool gets a hint that names the real one, in JS and in the
// shell, and the mistyped call reaches no handler.
func TestMistypedToolHints(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{listTransactions("stripe.listTransactions")}})
	for _, c := range []struct {
		lang       engine.Language
		code, want string
	}{
		{engine.JavaScript, `await stripe_listTransaction({customer: "cus_123"})`, "ReferenceError: stripe_listTransaction is not defined; did you mean stripe_listTransactions?"},
		{engine.JavaScript, `await stripe.listTransaction({customer: "cus_123"})`, "TypeError: stripe.listTransaction is not a function; did you mean stripe.listTransactions?"},
		{engine.Shell, `tool stripe.listTransaction --customer cus_123`, `tool: unknown tool "stripe.listTransaction"; did you mean stripe.listTransactions?`},
	} {
		res, err := sb.Execute(context.Background(), c.lang, c.code)
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode == 0 || !strings.HasPrefix(res.Stderr, c.want) || len(res.ToolCalls) != 0 {
			t.Errorf("%s:\n got %d %q (%d calls)\nwant %q", c.code, res.ExitCode, res.Stderr, len(res.ToolCalls), c.want)
		}
		if c.lang == engine.JavaScript && res.Exception != c.want {
			t.Errorf("%s: Exception %q, want %q", c.code, res.Exception, c.want)
		}
	}
}

// A tool's output schema reaches scripts: getToolInfo and listTools show
// it as outputSchema, and tool --help summarizes it on its Returns line.
func TestOutputSchemaIsShownToScripts(t *testing.T) {
	tool := listTransactions("stripe/listTransactions")
	tool.OutputSchema = json.RawMessage(`{"type":"object","properties":{"tool":{"type":"string"},"data":{"type":"array","items":{"type":"object","properties":{"customer":{"type":"string"},"amount":{"type":"number"}}}}}}`)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{tool, enginetest.Mock("plain", 1)}})
	res := enginetest.Run(t, sb, `return [getToolInfo("stripe.listTransactions").outputSchema.properties.data.type, listTools("stripe")[0].outputSchema.type, "outputSchema" in getToolInfo("plain")]`)
	if want := `["array","object",false]`; res.ExitCode != 0 || string(res.Value) != want {
		t.Errorf("JS: got %d %s %s, want %s", res.ExitCode, res.Value, res.Stderr, want)
	}
	res = enginetest.RunShell(t, sb, `tool --help stripe_listTransactions | grep Returns`)
	if want := "Returns: {data: {amount: number, customer: string}[], tool: string}\n"; res.Stdout != want {
		t.Errorf("shell: got %q %q, want %q", res.Stdout, res.Stderr, want)
	}
}
