// Package langchaincordon offers cordon's code mode to langchaingo agents:
// one tool that runs the model's script in a cordon sandbox, where each of
// the script's tool calls goes through the policy.
//
//	agent := agents.NewOpenAIFunctionsAgent(llm, []tools.Tool{
//		langchaincordon.Tool(codemode.New(eng, engine.SandboxConfig{Tools: tools, Policy: pol}, nil)),
//	})
//
// langchaingo passes a tool one string. The tool takes it as the script
// itself, or as the JSON arguments {"code": "..."} ({"script": "..."} for
// the shell tool, codemode.Runner.Shell) when it is such an object, as models
// given the tool's description sometimes send. The result is
// codemode.Runner.Call's text; an error reaches the agent only when the
// script could not be run (the model cannot fix that), since langchaingo's
// executor ends the run on a tool's error.
//
// Approval: langchaingo has no human-in-the-loop mechanism that pauses an
// agent inside a tool call. A call the policy asks about goes to the
// function given as engine.SandboxConfig.Approve, which may block (within the
// run's time limit) while it asks a human; without one the call is denied
// and the model reads why ("needs approval"), so that it can tell the
// user.
//
// The session is codemode.WithSession's, from the context given to the
// executor (chains.Run): one sandbox per conversation.
package langchaincordon

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/engine"
	"github.com/tmc/langchaingo/tools"
)

// Tool returns t as a langchaingo tool.
func Tool(t *codemode.Runner) tools.Tool { return &tool{t: t} }

// Tools returns both tools of t's pair, run_javascript and run_shell.
func Tools(t *codemode.Runner) []tools.Tool {
	return []tools.Tool{Tool(t.JavaScript()), Tool(t.Shell())}
}

type tool struct{ t *codemode.Runner }

func (a *tool) Name() string { return a.t.Name() }

func (a *tool) Description() string {
	input := "Input: the JavaScript source of the script, as a string."
	if a.t.Language() == engine.Shell {
		input = "Input: the shell script, as a string."
	}
	return a.t.Description() + "\n\n" + input
}

func (a *tool) Call(ctx context.Context, input string) (string, error) {
	return a.t.Call(ctx, Arguments(a.t, input))
}

// Arguments turns the string an agent passes to the tool into its JSON
// arguments: input itself when it is a JSON object with the script under
// "code" or "script", else {"code": input} ({"script": input} for the
// shell).
func Arguments(t *codemode.Runner, input string) string {
	if s := strings.TrimSpace(input); strings.HasPrefix(s, "{") {
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &obj) == nil && (obj["code"] != nil || obj["script"] != nil) {
			return s
		}
	}
	key := "code"
	if t.Language() == engine.Shell {
		key = "script"
	}
	b, _ := json.Marshal(map[string]string{key: input})
	return string(b)
}
