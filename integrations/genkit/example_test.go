package genkitcordon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/engine"
	genkitcordon "github.com/cordonhq/cordon/integrations/genkit"
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// Genkit gets cordon's run_javascript tool in one line. The model here is a
// scripted stand-in that sends one script, then answers with the result;
// use any Genkit model.
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
	g := testGenkit()
	model := defineScriptedModel(g, "example/scripted", "run_javascript", map[string]any{
		"code": "const [a, b] = await Promise.all([weather.current({City: 'SF'}), weather.current({City: 'NYC'})]); return a.temp + b.temp"}, nil)

	// region generate
	run := codemode.New(eng, engine.SandboxConfig{Tools: weather}, nil)
	resp, err := genkit.Generate(codemode.WithSession(ctx, "conversation-1"), g, ai.WithModel(model),
		ai.WithPrompt("How warm are SF and NYC together?"),
		ai.WithTools(genkitcordon.Tool(run)))
	// endregion
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(resp.Text())
	// Output:
	// The sandbox said:
	// [returned]
	// 50
}
