package genkitcordon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/engine"
	genkitcordon "github.com/cordonhq/cordon/integrations/genkit"
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// defineScriptedModel defines a fake Genkit model: its first answer calls
// the tool named toolName with input, and its next answer repeats the
// tool's output, which it finds in the messages. offered records the tools
// it was given.
func defineScriptedModel(g *genkit.Genkit, name, toolName string, input map[string]any, offered *[]*ai.ToolDefinition) ai.Model {
	return genkit.DefineModel(g, name, &ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true}},
		func(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			if offered != nil {
				*offered = req.Tools
			}
			for _, m := range req.Messages {
				for _, p := range m.Content {
					if p.IsToolResponse() && p.ToolResponse.Ref == "call_1" {
						return &ai.ModelResponse{Request: req, FinishReason: ai.FinishReasonStop,
							Message: ai.NewModelTextMessage(fmt.Sprintf("The sandbox said:\n%v", p.ToolResponse.Output))}, nil
					}
				}
			}
			return &ai.ModelResponse{Request: req, FinishReason: ai.FinishReasonStop, Message: &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{
				ai.NewToolRequestPart(&ai.ToolRequest{Name: toolName, Ref: "call_1", Input: input}),
			}}}, nil
		})
}

var (
	gOnce  sync.Once
	g      *genkit.Genkit
	models atomic.Int32
)

func testGenkit() *genkit.Genkit {
	gOnce.Do(func() { g = genkit.Init(context.Background()) })
	return g
}

func newModelName() string { return fmt.Sprintf("test/scripted-%d", models.Add(1)) }

// The fake model calls run_javascript with a script; Genkit runs it in
// cordon through the tool, and the result goes back to the model.
func TestGenerateRunsScriptInCordon(t *testing.T) {
	var shop codemodetest.Shop
	var offered []*ai.ToolDefinition
	ctx := codemode.WithSession(context.Background(), t.Name())
	m := defineScriptedModel(testGenkit(), newModelName(), "run_javascript", map[string]any{"code": codemodetest.LateOrdersScript}, &offered)
	resp, err := genkit.Generate(ctx, testGenkit(), ai.WithModel(m), ai.WithPrompt("Which orders are late?"),
		ai.WithTools(genkitcordon.Tool(codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools()}, nil))))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Text(); got != "The sandbox said:\n[returned]\n[\"o1\",\"o2\"]\n" {
		t.Errorf("response %q", got)
	}
	if len(offered) != 1 || offered[0].Name != "run_javascript" || !strings.Contains(offered[0].Description, "refund(params: { id: string; amount: number }): Promise<unknown>;") {
		t.Errorf("the model was offered %+v", offered)
	}
	if b, _ := json.Marshal(offered[0].InputSchema); !strings.Contains(string(b), `"required":["code"]`) {
		t.Errorf("input schema %s", b)
	}
}

// A refund the policy asks about interrupts generation with the calls to
// approve; restarting the tool with genkitcordon.Resume lets the paused
// script go on, and the model gets its result.
func TestAskInterruptsAndResumes(t *testing.T) {
	for _, c := range []struct {
		name     string
		approval func(req genkitcordon.ApprovalRequest) codemode.Approval
		refunds  int32
		wantLine string
	}{
		{"approved", func(genkitcordon.ApprovalRequest) codemode.Approval { return codemode.Approval{Approve: true} }, 2, "o2: refunded"},
		{"refused", func(req genkitcordon.ApprovalRequest) codemode.Approval {
			return codemode.Approval{Approve: true, Calls: map[int]codemode.Answer{req.Asks[0].ID: {Reason: "over the agent's limit"}}}
		}, 1, "o2: tool orders/refund denied: over the agent's limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var shop codemodetest.Shop
			ctx := codemode.WithSession(context.Background(), t.Name())
			tool := genkitcordon.Tool(codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools(), Policy: codemodetest.ShopPolicy(t)}, nil))
			m := defineScriptedModel(testGenkit(), newModelName(), "run_javascript", map[string]any{"code": codemodetest.RefundScript}, nil)
			resp, err := genkit.Generate(ctx, testGenkit(), ai.WithModel(m), ai.WithPrompt("Refund the late orders of c1"), ai.WithTools(tool))
			if err != nil {
				t.Fatal(err)
			}
			if resp.FinishReason != ai.FinishReasonInterrupted || len(resp.Interrupts()) != 1 {
				t.Fatalf("finish %q, %d interrupts: %s", resp.FinishReason, len(resp.Interrupts()), resp.Text())
			}
			part := resp.Interrupts()[0]
			req, ok := ai.InterruptAs[genkitcordon.ApprovalRequest](part)
			if !ok || len(req.Asks) != 1 || req.Asks[0].Method != "orders/refund" || string(req.Asks[0].Params) != `{"amount":900,"id":"o2"}` && string(req.Asks[0].Params) != `{"id":"o2","amount":900}` || len(req.Asks[0].Reasons) == 0 {
				t.Fatalf("interrupt %+v (%v)", req, ok)
			}
			if shop.Refunds() != 1 {
				t.Errorf("%d refunds before the approval, want 1", shop.Refunds())
			}
			restart, err := genkitcordon.Resume(part, c.approval(req))
			if err != nil {
				t.Fatal(err)
			}
			resp, err = genkit.Generate(ctx, testGenkit(), ai.WithModel(m), ai.WithMessages(resp.History()...), ai.WithTools(tool), ai.WithToolRestarts(restart))
			if err != nil {
				t.Fatal(err)
			}
			want := "The sandbox said:\n[stdout]\no1: refunded\n" + c.wantLine + "\n"
			if resp.FinishReason != ai.FinishReasonStop || !strings.HasPrefix(resp.Text(), want) {
				t.Errorf("after resuming (%s): %q, want it to start with %q", resp.FinishReason, resp.Text(), want)
			}
			if shop.Refunds() != c.refunds {
				t.Errorf("%d refunds, want %d", shop.Refunds(), c.refunds)
			}
		})
	}
}

func TestShellTool(t *testing.T) {
	var shop codemodetest.Shop
	ctx := codemode.WithSession(context.Background(), t.Name())
	m := defineScriptedModel(testGenkit(), newModelName(), "run_shell", map[string]any{"script": `tool orders/list --customer c1 | jq -r '.[].id'`}, nil)
	resp, err := genkit.Generate(ctx, testGenkit(), ai.WithModel(m), ai.WithPrompt("List the orders"), ai.WithTools(genkitcordon.Tools(codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools()}, nil))...))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Text(); got != "The sandbox said:\n[stdout]\no1\no2\no3\n" {
		t.Errorf("response %q", got)
	}
}
