// Package einocordon offers cordon's code mode to eino agents: one
// tool.InvokableTool that runs the model's script in a cordon sandbox,
// where each of the script's tool calls goes through the policy.
//
//	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
//		Model: model,
//		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{
//			einocordon.Tool(codemode.New(eng, engine.SandboxConfig{Tools: tools, Policy: pol}, nil)),
//		}}},
//	})
//
// The tool's arguments are codemode's ({"code": "..."}, or {"script": "..."}
// for the shell tool, codemode.Runner.Shell), and its result is
// codemode.Runner's text. An error reaches eino only when the script could
// not be run for a reason the model cannot fix.
//
// Approval maps onto eino's interrupt. A call the policy asks about (with
// no approver (engine.SandboxConfig.Approve) to answer it) pauses the script
// (codemode.Runner.Start), and the tool interrupts with
// tool.StatefulInterrupt: the run's events end with an interrupt whose
// InterruptCtx.Info is an *ApprovalRequest listing the calls. The paused
// script waits in its sandbox, costing no CPU. Resume the run with an
// Approval as the tool's resume data (adk.Runner.ResumeWithParams with
// Targets keyed by the interrupt's ID, or compose.ResumeWithData); eino runs
// the tool again, which answers the calls and lets the script go on, and
// the model gets the result. A resume that targets the tool without data
// refuses the calls. The paused script lives in this process: the
// checkpoint holds its id, not the script, so a run resumed after the
// process restarted, or after the session was closed, fails with
// codemode.ErrNoPause.
//
// The session is codemode.WithSession's, from the context given to the
// run: one sandbox per conversation.
package einocordon

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/cordonhq/cordon/codemode"
	"github.com/eino-contrib/jsonschema"
)

// ApprovalRequest is the Info of the tool's interrupt: the calls a paused
// script waits on.
type ApprovalRequest struct {
	// PauseID names the paused script (codemode.Pause.ID).
	PauseID string
	// Asks are the calls to approve or refuse, with the policy's reasons.
	Asks []codemode.Ask
}

// Approval is the resume data that answers an ApprovalRequest:
// codemode.Approval (approve or refuse all, or call by call, by Ask.ID).
type Approval = codemode.Approval

func init() {
	schema.RegisterName[*ApprovalRequest]("cordon_approval_request")
}

// Tool returns t as an eino tool.
func Tool(t *codemode.Runner) tool.InvokableTool { return &invokable{t: t} }

// Tools returns both tools of t's pair, run_javascript and run_shell.
func Tools(t *codemode.Runner) []tool.BaseTool {
	return []tool.BaseTool{Tool(t.JavaScript()), Tool(t.Shell())}
}

type invokable struct{ t *codemode.Runner }

func (a *invokable) Info(context.Context) (*schema.ToolInfo, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(a.t.InputSchema(), &s); err != nil {
		return nil, fmt.Errorf("einocordon: the input schema: %w", err)
	}
	return &schema.ToolInfo{Name: a.t.Name(), Desc: a.t.Description(), ParamsOneOf: schema.NewParamsOneOfByJSONSchema(&s)}, nil
}

func (a *invokable) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	var res *codemode.Result
	var err error
	if interrupted, hasState, req := tool.GetInterruptState[*ApprovalRequest](ctx); interrupted && hasState && req != nil {
		target, hasData, data := tool.GetResumeContext[any](ctx)
		if !target {
			// Another interrupt is being resumed: stay paused.
			return "", tool.StatefulInterrupt(ctx, req, req)
		}
		res, err = a.t.Resume(ctx, req.PauseID, approval(hasData, data))
	} else {
		res, err = a.t.Start(ctx, args)
	}
	if err != nil {
		return "", err
	}
	if p := res.Pause; p != nil {
		req := &ApprovalRequest{PauseID: p.ID, Asks: p.Asks}
		return "", tool.StatefulInterrupt(ctx, req, req)
	}
	return res.Text(), nil
}

// approval reads the resume data: an Approval or a pointer to one, or a
// bool that answers every call; nothing refuses them.
func approval(hasData bool, data any) Approval {
	switch d := data.(type) {
	case Approval:
		return d
	case *Approval:
		if d != nil {
			return *d
		}
	case bool:
		return Approval{Approve: d}
	}
	if !hasData {
		return Approval{Reason: "resumed without an answer"}
	}
	return Approval{Reason: fmt.Sprintf("resumed with %T, not an einocordon.Approval", data)}
}
