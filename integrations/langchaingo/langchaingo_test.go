package langchaincordon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/engine"
	langchaincordon "github.com/cordonhq/cordon/integrations/langchaingo"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
)

// scriptedModel is a fake llms.Model: it answers the first request with a
// call of the run_javascript tool whose arguments are args, and the second
// with the tool's result, which it finds in the messages, as its final
// answer. It records the function definitions it was offered.
type scriptedModel struct {
	args    string
	mu      sync.Mutex
	turns   int
	offered []llms.FunctionDefinition
}

func (m *scriptedModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.turns++
	var o llms.CallOptions
	for _, opt := range opts {
		opt(&o)
	}
	m.offered = o.Functions
	if m.turns == 1 {
		return &llms.ContentResponse{Choices: []*llms.ContentChoice{{ToolCalls: []llms.ToolCall{{
			ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "run_javascript", Arguments: m.args},
		}}}}}, nil
	}
	for _, msg := range msgs {
		for _, p := range msg.Parts {
			if r, ok := p.(llms.ToolCallResponse); ok && r.ToolCallID == "call_1" {
				return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "The sandbox said:\n" + r.Content}}}, nil
			}
		}
	}
	return nil, fmt.Errorf("turn %d: no tool result in the messages", m.turns)
}

func (m *scriptedModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

const refundScript = `const list = await orders_list({customer: "c1"})
const late = list.filter(o => o.late)
const results = await Promise.allSettled(late.map(o => orders.refund({id: o.id, amount: o.amount})))
return results.map((r, i) => late[i].id + ": " + r.status)`

func runAgent(t *testing.T, tool tools.Tool, args string) (string, *scriptedModel) {
	t.Helper()
	model := &scriptedModel{args: args}
	agent := agents.NewOpenAIFunctionsAgent(model, []tools.Tool{tool})
	out, err := chains.Run(codemode.WithSession(context.Background(), t.Name()), agents.NewExecutor(agent), "Refund the late orders of c1")
	if err != nil {
		t.Fatal(err)
	}
	return out, model
}

// The fake model emits one tool call with a script; the agent runs it in
// cordon through the adapter, and the result goes back to the model.
func TestAgentRunsScriptInCordon(t *testing.T) {
	for _, c := range []struct{ name, args string }{
		// langchaingo's functions agent offers {"__arg1": string} ...
		{"arg1", mustJSON(map[string]string{"__arg1": refundScript})},
		// ... and a model that read the description may send {"code": ...}.
		{"code", codemodetest.JS(refundScript)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var shop codemodetest.Shop
			tool := langchaincordon.Tool(codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools(), Policy: codemodetest.ShopPolicy(t)}, nil))
			out, model := runAgent(t, tool, c.args)
			want := "The sandbox said:\n[returned]\n[\"o1: fulfilled\",\"o2: rejected\"]\n[tool calls denied or failed: 1 of 3]\n- orders/refund denied: "
			if !strings.HasPrefix(out, want) || !strings.Contains(out, "requires approval") {
				t.Errorf("agent output:\n%s\nwant it to start with:\n%s", out, want)
			}
			if shop.Refunds() != 1 {
				t.Errorf("%d refunds ran, want 1 (the one within the policy)", shop.Refunds())
			}
			if model.turns != 2 || len(model.offered) != 1 || model.offered[0].Name != "run_javascript" || !strings.Contains(model.offered[0].Description, "refund(params: { id: string; amount: number }): Promise<unknown>;") {
				t.Errorf("model turns %d, offered %+v", model.turns, model.offered)
			}
		})
	}
}

// With an approver (engine.SandboxConfig.Approve), the ask is put to the host's function (a
// human, in a real program) and the refund runs.
func TestAgentWithApprover(t *testing.T) {
	var shop codemodetest.Shop
	var asked []string
	tool := langchaincordon.Tool(codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools(), Policy: codemodetest.ShopPolicy(t), Approve: func(_ context.Context, c *engine.Call) (bool, string) {
		asked = append(asked, c.Method+" "+string(c.Params))
		return true, ""
	}}, nil))
	out, _ := runAgent(t, tool, mustJSON(map[string]string{"__arg1": refundScript}))
	if out != "The sandbox said:\n[returned]\n[\"o1: fulfilled\",\"o2: fulfilled\"]\n" || shop.Refunds() != 2 {
		t.Errorf("agent output (%d refunds):\n%s", shop.Refunds(), out)
	}
	if len(asked) != 1 || asked[0] != `orders/refund {"id":"o2","amount":900}` {
		t.Errorf("asked %q", asked)
	}
}

func TestShellTool(t *testing.T) {
	var shop codemodetest.Shop
	ts := langchaincordon.Tools(codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools()}, nil))
	if len(ts) != 2 || ts[1].Name() != "run_shell" || !strings.HasSuffix(ts[1].Description(), "Input: the shell script, as a string.") {
		t.Fatalf("tools %v", ts)
	}
	out, err := ts[1].Call(context.Background(), `tool orders/list --customer c1 | jq -r '.[].id'`)
	if err != nil || out != "[stdout]\no1\no2\no3\n" {
		t.Errorf("shell: %q, %v", out, err)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
