package langchaincordon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/engine"
	langchaincordon "github.com/cordonhq/cordon/integrations/langchaingo"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/tools"
)

// An agent gets cordon's run_javascript tool in one line. The model here
// is a scripted stand-in that sends one script, then answers with the
// result; use any llms.Model.
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

	llm := &scriptedModel{args: `{"__arg1": "` +
		`const [a, b] = await Promise.all([weather.current({City: 'SF'}), weather.current({City: 'NYC'})]); return a.temp + b.temp"}`}

	// region agent
	run := codemode.New(eng, engine.SandboxConfig{Tools: weather}, nil) // Policy, Limits and the rest as needed
	agent := agents.NewOpenAIFunctionsAgent(llm, []tools.Tool{langchaincordon.Tool(run)})
	// endregion

	out, err := chains.Run(codemode.WithSession(ctx, "conversation-1"), agents.NewExecutor(agent), "How warm are SF and NYC together?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output:
	// The sandbox said:
	// [returned]
	// 50
}
