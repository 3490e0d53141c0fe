package einocordon_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/engine"
	einocordon "github.com/cordonhq/cordon/integrations/eino"
)

// scriptedModel is a fake eino chat model: its first answer calls the
// tool named toolName with args, and its next answer repeats the tool's
// result, which it finds in the messages. It records the tools it was
// given.
type scriptedModel struct {
	toolName, args string
	mu             *sync.Mutex
	turns          *int
	tools          *[]*schema.ToolInfo
}

func newModel(toolName, args string) *scriptedModel {
	return &scriptedModel{toolName: toolName, args: args, mu: &sync.Mutex{}, turns: new(int), tools: new([]*schema.ToolInfo)}
}

func (m *scriptedModel) Generate(_ context.Context, msgs []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	*m.turns++
	for _, msg := range msgs {
		if msg.Role == schema.Tool && msg.ToolCallID == "call_1" {
			return schema.AssistantMessage("The sandbox said:\n"+msg.Content, nil), nil
		}
	}
	return schema.AssistantMessage("", []schema.ToolCall{{ID: "call_1", Function: schema.FunctionCall{Name: m.toolName, Arguments: m.args}}}), nil
}

func (m *scriptedModel) Stream(ctx context.Context, msgs []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, msgs, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func (m *scriptedModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	m.mu.Lock()
	*m.tools = tools
	m.mu.Unlock()
	return m, nil
}

type memStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memStore) Set(_ context.Context, key string, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = value
	return nil
}

func (s *memStore) Get(_ context.Context, key string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok, nil
}

func newAgent(t *testing.T, m *scriptedModel, tools ...tool.BaseTool) *adk.Runner {
	t.Helper()
	agent, err := adk.NewChatModelAgent(context.Background(), &adk.ChatModelAgentConfig{
		Name:        "support",
		Description: "refunds late orders",
		Instruction: "You refund late orders.",
		Model:       m,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return adk.NewRunner(context.Background(), adk.RunnerConfig{Agent: agent, CheckPointStore: &memStore{m: map[string][]byte{}}})
}

// drain reads a run's events: the messages, and the interrupt if any.
func drain(t *testing.T, iter *adk.AsyncIterator[*adk.AgentEvent]) (msgs []string, interrupt *adk.InterruptInfo) {
	t.Helper()
	for {
		ev, ok := iter.Next()
		if !ok {
			return msgs, interrupt
		}
		if ev.Err != nil {
			t.Fatal(ev.Err)
		}
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			msg, err := ev.Output.MessageOutput.GetMessage()
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, string(msg.Role)+": "+msg.Content)
		}
		if ev.Action != nil && ev.Action.Interrupted != nil {
			interrupt = ev.Action.Interrupted
		}
	}
}

// The fake model calls run_javascript with a script; the agent runs it in
// cordon, and the result goes back to the model.
func TestAgentRunsScriptInCordon(t *testing.T) {
	var shop codemodetest.Shop
	m := newModel("run_javascript", codemodetest.JS(codemodetest.LateOrdersScript))
	runner := newAgent(t, m, einocordon.Tool(codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools()}, nil)))
	msgs, interrupt := drain(t, runner.Query(codemode.WithSession(context.Background(), "c1"), "Which orders are late?", adk.WithCheckPointID("run-1")))
	want := []string{"assistant: ", "tool: [returned]\n[\"o1\",\"o2\"]\n", "assistant: The sandbox said:\n[returned]\n[\"o1\",\"o2\"]\n"}
	if interrupt != nil || strings.Join(msgs, "|") != strings.Join(want, "|") {
		t.Errorf("messages %q (interrupt %v), want %q", msgs, interrupt, want)
	}
	if len(*m.tools) != 1 || (*m.tools)[0].Name != "run_javascript" || !strings.Contains((*m.tools)[0].Desc, "refund(params: { id: string; amount: number }): Promise<unknown>;") {
		t.Errorf("the model was given %+v", *m.tools)
	}
	js, err := (*m.tools)[0].ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(js); !strings.Contains(string(b), `"required":["code"]`) {
		t.Errorf("the tool's parameters: %s", b)
	}
}

// A refund the policy asks about interrupts the agent with the calls to
// approve; resuming with an Approval lets the paused script go on, and
// the model gets its result.
func TestAskInterruptsAndResumes(t *testing.T) {
	for _, c := range []struct {
		name     string
		answer   func(req *einocordon.ApprovalRequest) any
		refunds  int32
		wantLine string
	}{
		{"approved", func(*einocordon.ApprovalRequest) any { return einocordon.Approval{Approve: true} }, 2, "o2: refunded"},
		{"approved by pointer", func(*einocordon.ApprovalRequest) any { return &einocordon.Approval{Approve: true} }, 2, "o2: refunded"},
		{"approved with true", func(*einocordon.ApprovalRequest) any { return true }, 2, "o2: refunded"},
		{"refused by call", func(req *einocordon.ApprovalRequest) any {
			return einocordon.Approval{Approve: true, Calls: map[int]codemode.Answer{req.Asks[0].ID: {Reason: "over the agent's limit"}}}
		}, 1, "o2: tool orders/refund denied: over the agent's limit"},
		{"no data", func(*einocordon.ApprovalRequest) any { return nil }, 1, "o2: tool orders/refund denied: resumed without an answer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var shop codemodetest.Shop
			m := newModel("run_javascript", codemodetest.JS(codemodetest.RefundScript))
			runner := newAgent(t, m, einocordon.Tool(codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools(), Policy: codemodetest.ShopPolicy(t)}, nil)))
			ctx := codemode.WithSession(context.Background(), "c1")
			msgs, interrupt := drain(t, runner.Query(ctx, "Refund the late orders of c1", adk.WithCheckPointID("run-1")))
			if interrupt == nil || len(interrupt.InterruptContexts) != 1 {
				t.Fatalf("no interrupt; messages %q", msgs)
			}
			ic := interrupt.InterruptContexts[0]
			req, ok := ic.Info.(*einocordon.ApprovalRequest)
			if !ok || len(req.Asks) != 1 || req.Asks[0].Method != "orders/refund" || string(req.Asks[0].Params) != `{"id":"o2","amount":900}` || len(req.Asks[0].Reasons) == 0 {
				t.Fatalf("interrupt info %#v", ic.Info)
			}
			if shop.Refunds() != 1 {
				t.Errorf("%d refunds before the approval, want 1", shop.Refunds())
			}
			iter, err := runner.ResumeWithParams(ctx, "run-1", &adk.ResumeParams{Targets: map[string]any{ic.ID: c.answer(req)}})
			if err != nil {
				t.Fatal(err)
			}
			msgs, interrupt = drain(t, iter)
			if interrupt != nil || len(msgs) != 2 || !strings.HasPrefix(msgs[0], "tool: [stdout]\no1: refunded\n"+c.wantLine+"\n") || msgs[1] != "assistant: The sandbox said:\n"+strings.TrimPrefix(msgs[0], "tool: ") {
				t.Errorf("after resuming: %q (interrupt %v)", msgs, interrupt)
			}
			if shop.Refunds() != c.refunds {
				t.Errorf("%d refunds, want %d", shop.Refunds(), c.refunds)
			}
		})
	}
}

func TestShellTool(t *testing.T) {
	var shop codemodetest.Shop
	ts := einocordon.Tools(codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools()}, nil))
	info, err := ts[1].Info(context.Background())
	if err != nil || info.Name != "run_shell" {
		t.Fatalf("%+v %v", info, err)
	}
	out, err := ts[1].(tool.InvokableTool).InvokableRun(context.Background(), `{"script": "tool orders/list --customer c1 | jq -r '.[].id'"}`)
	if err != nil || out != "[stdout]\no1\no2\no3\n" {
		t.Errorf("shell: %q, %v", out, err)
	}
}
