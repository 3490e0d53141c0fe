package einocordon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/engine"
	einocordon "github.com/cordonhq/cordon/integrations/eino"
)

// An eino agent gets cordon's run_javascript tool in one line. The model
// here is a scripted stand-in that sends one script, then answers with the
// result; use any model.ToolCallingChatModel.
func Example() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	weather := []engine.Tool{{
		Name:        "weather/current",
		Description: "Current weather in a city",
		Handler: func(_ context.Context, p json.RawMessage) (any, error) {
			var in struct{ City string }
			_ = json.Unmarshal(p, &in)
			return map[string]any{"city": in.City, "temp": len(in.City) * 10}, nil
		},
	}}
	model := newModel("run_javascript", `{"code": "const [a, b] = await Promise.all([weather.current({City: 'SF'}), weather.current({City: 'NYC'})]); return a.temp + b.temp"}`)

	// region agent
	run := codemode.New(eng, engine.SandboxConfig{Tools: weather}, nil)
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "answers questions", Model: model,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{
			einocordon.Tool(run), // a tool.InvokableTool
		}}},
	})
	// endregion
	if err != nil {
		log.Fatal(err)
	}
	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(codemode.WithSession(ctx, "conversation-1"), "How warm are SF and NYC together?")
	for {
		ev, ok := iter.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			log.Fatal(ev.Err)
		}
		if msg, err := ev.Output.MessageOutput.GetMessage(); err == nil && msg.Content != "" {
			fmt.Printf("%s: %s", msg.Role, msg.Content)
		}
	}
	// Output:
	// tool: [returned]
	// 50
	// assistant: The sandbox said:
	// [returned]
	// 50
}
