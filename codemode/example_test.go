package codemode_test

import (
	"context"
	"fmt"
	"log"
	"sync"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy"
)

// A model's one call runs a script that calls two tools several times;
// the policy refuses one of the calls, and the result says so.
func Example() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	pol, err := policy.New(ctx, policy.Config{Capabilities: []*dsl.Capability{
		dsl.Method("weather/current").Where(dsl.Param("city").In("SF", "NYC")),
	}})
	if err != nil {
		log.Fatal(err)
	}
	tools := []engine.Tool{{
		Name:        "weather/current",
		Description: "Current weather in a city",
		InputSchema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		Handler: engine.Func(func(_ context.Context, p struct {
			City string `json:"city"`
		}) (map[string]any, error) {
			return map[string]any{"city": p.City, "temp": map[string]int{"SF": 61, "NYC": 75}[p.City]}, nil
		}),
	}}

	run := codemode.New(eng, engine.SandboxConfig{Tools: tools, Policy: pol}, nil)
	defer run.CloseAll(ctx)

	// What a model sends as the arguments of one run_javascript call:
	text, err := run.Call(codemode.WithSession(ctx, "conversation-1"), `{"code": "`+
		`const temps = await Promise.allSettled(['SF', 'NYC', 'Paris'].map(city => weather.current({city})));\n`+
		`return temps.filter(t => t.status === 'fulfilled').map(t => t.value.city + ' ' + t.value.temp)"}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(text)
	// Output:
	// [returned]
	// ["SF 61","NYC 75"]
	// [tool calls denied or failed: 1 of 3]
	// - weather/current denied: capability #0 "weather/current": city in ["SF", "NYC"] does not hold (city is "Paris")
}

// A server answers its clients' handshakes (and lists the tools) while the
// engine is still loading: NewPending takes a function that waits for it,
// and only the first call that needs a sandbox waits too.
func ExampleNewPending() {
	ctx := context.Background()
	type loaded struct {
		eng *engine.Engine
		err error
	}
	ready := make(chan loaded, 1)
	go func() {
		eng, err := engine.New(ctx, engine.NewConfig())
		ready <- loaded{eng, err}
	}()
	var once sync.Once
	var got loaded
	wait := func(ctx context.Context) (*engine.Engine, error) {
		once.Do(func() {
			select {
			case got = <-ready:
			case <-ctx.Done():
				got.err = ctx.Err()
			}
		})
		return got.eng, got.err
	}
	run := codemode.NewPending(wait, engine.SandboxConfig{}, nil)
	defer run.CloseAll(ctx)
	// The tools are known before the engine is.
	for _, t := range run.Tools() {
		fmt.Println(t.Name())
	}
	text, err := run.Call(codemode.WithSession(ctx, "c1"), `{"code": "return 6 * 7"}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(text)
	if got.eng != nil {
		got.eng.Close(ctx)
	}
	// Output:
	// run_javascript
	// run_shell
	// [returned]
	// 42
}
