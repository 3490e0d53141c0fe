// Package genkitcordon offers cordon's code mode to Genkit: one tool that
// runs the model's script in a cordon sandbox, where each of the script's
// tool calls goes through the policy.
//
//	resp, err := genkit.Generate(ctx, g, ai.WithPrompt("..."),
//		ai.WithTools(genkitcordon.Tool(codemode.New(eng, engine.SandboxConfig{Tools: tools, Policy: pol}, nil))))
//
// The tool's input is codemode's ({"code": "..."}, or {"script": "..."} for
// the shell tool, codemode.Runner.Shell), and its output is codemode.Runner's
// text. An error reaches Genkit only when the script could not be run for a
// reason the model cannot fix.
//
// Approval maps onto Genkit's tool interrupts. A call the policy asks
// about (with no approver (engine.SandboxConfig.Approve) to answer it) pauses the
// script (codemode.Runner.Start) and the tool interrupts with
// ai.InterruptWith: the response's FinishReason is "interrupted", and each
// of resp.Interrupts() carries an ApprovalRequest (ai.InterruptAs). The
// paused script waits in its sandbox, costing no CPU. Resume passes the
// answer: generate again with the history and
// ai.WithToolRestarts(genkitcordon.Resume(part, approval)); Genkit runs the
// tool again, which answers the calls and lets the script go on, and the
// model gets the result. The paused script lives in this process; a
// restart after the session was closed, or with a part that Resume did not
// make, fails. Answering the interrupt with ai.WithToolResponses instead
// leaves the script paused until the session's next call abandons it.
//
// The session is codemode.WithSession's, from the context given to
// Generate: one sandbox per conversation.
package genkitcordon

import (
	"encoding/json"
	"errors"
	"maps"

	"github.com/cordonhq/cordon/codemode"
	"github.com/firebase/genkit/go/ai"
)

// ApprovalRequest is the metadata of the tool's interrupt (ai.InterruptAs):
// the calls a paused script waits on.
type ApprovalRequest struct {
	// PauseID names the paused script (codemode.Pause.ID).
	PauseID string `json:"pause_id"`
	// Asks are the calls to approve or refuse, with the policy's reasons.
	Asks []codemode.Ask `json:"asks"`
}

// resumed is the metadata Resume gives the restarted tool.
type resumed struct {
	PauseID string `json:"pause_id"`
	codemode.Approval
}

// Tool returns t as a Genkit tool, to pass to Generate with ai.WithTools.
func Tool(t *codemode.Runner) *ai.ToolDef[any, string] {
	return ai.NewTool(t.Name(), t.Description(), run(t), ai.WithInputSchema(inputSchema(t)))
}

// Tools returns both tools of t's pair, run_javascript and run_shell.
func Tools(t *codemode.Runner) []ai.ToolRef {
	return []ai.ToolRef{Tool(t.JavaScript()), Tool(t.Shell())}
}

func inputSchema(t *codemode.Runner) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(t.InputSchema(), &m); err != nil {
		panic(err) // codemode's schemas are constants
	}
	return m
}

func run(t *codemode.Runner) ai.ToolFunc[any, string] {
	return func(tc *ai.ToolContext, input any) (string, error) {
		var res *codemode.Result
		var err error
		if tc.IsResumed() {
			var r resumed
			if b, jerr := json.Marshal(tc.Resumed); jerr != nil || json.Unmarshal(b, &r) != nil || r.PauseID == "" {
				return "", errors.New("genkitcordon: restart the interrupted tool with genkitcordon.Resume, which carries the answer")
			}
			res, err = t.Resume(tc, r.PauseID, r.Approval)
		} else {
			args, merr := json.Marshal(input)
			if merr != nil {
				return "", merr
			}
			res, err = t.Start(tc, string(args))
		}
		if err != nil {
			return "", err
		}
		if p := res.Pause; p != nil {
			return "", ai.InterruptWith(tc, ApprovalRequest{PauseID: p.ID, Asks: p.Asks})
		}
		return res.Text(), nil
	}
}

// Resume returns the part that restarts the tool request interrupt (one of
// resp.Interrupts()) with the answer a, for ai.WithToolRestarts.
func Resume(interrupt *ai.Part, a codemode.Approval) (*ai.Part, error) {
	req, ok := ai.InterruptAs[ApprovalRequest](interrupt)
	if !ok || req.PauseID == "" || interrupt.ToolRequest == nil {
		return nil, errors.New("genkitcordon: the part is not an interrupt of a cordon tool")
	}
	meta, err := toMap(resumed{PauseID: req.PauseID, Approval: a})
	if err != nil {
		return nil, err
	}
	p := ai.NewToolRequestPart(&ai.ToolRequest{Name: interrupt.ToolRequest.Name, Ref: interrupt.ToolRequest.Ref, Input: interrupt.ToolRequest.Input})
	p.Metadata = maps.Clone(interrupt.Metadata)
	if p.Metadata == nil {
		p.Metadata = map[string]any{}
	}
	delete(p.Metadata, "interrupt")
	p.Metadata["resumed"] = meta
	return p, nil
}

func toMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}
