package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/cordonhq/cordon/engine"
)

func ExampleSandbox_Execute() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)

	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: []engine.Tool{{
		Name:        "weather/current",
		Description: "Current weather for a city",
		Handler: engine.Func(func(_ context.Context, p struct {
			City string `json:"city"`
		}) (map[string]any, error) {
			return map[string]any{"city": p.City, "temp": 72}, nil
		}),
	}}})
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close(ctx)

	res, err := sb.Execute(ctx, engine.JavaScript, `
const w = await weather.current({city: "SF"})
console.log("fetched", w.city)
return w.temp`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Stdout)
	fmt.Println(res.ToolCalls[0].Method, string(res.ToolCalls[0].Params))
	// Output:
	// fetched SF
	// 72
	// weather/current {"city":"SF"}
}

func ExampleExecution_Next() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: []engine.Tool{{Name: "payments/send"}}})
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close(ctx)

	x, err := sb.Start(ctx, engine.JavaScript, `
try { await payments.send({amount: 5000}) } catch (e) { return e.message }`)
	if err != nil {
		log.Fatal(err)
	}
	for {
		calls, err := x.Next(ctx) // the script runs until it waits on tool calls
		if err != nil {
			log.Fatal(err)
		}
		if calls == nil {
			break
		}
		for _, c := range calls {
			var p struct{ Amount int }
			_ = json.Unmarshal(c.Params, &p)
			if p.Amount > 1000 {
				c.Deny("over the approval limit") // or c.Run(ctx), c.Resolve(v), c.Reject(err)
			}
		}
	}
	fmt.Print(x.Result().Stdout)
	// Output:
	// tool payments/send denied: over the approval limit
}

// One engine per process: New compiles the guest once (or reads it from
// the compilation cache) and is safe for concurrent use. Each user or task
// gets a sandbox of its own, with its own files; the zero SandboxConfig is
// a sandbox with no tools and the default limits.
func ExampleNew() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig().WithPool(2))
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)

	for _, user := range []string{"ada", "grace"} {
		sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{})
		if err != nil {
			log.Fatal(err)
		}
		res, err := sb.Execute(ctx, engine.Shell, `echo "`+user+`" > /workspace/me; ls /workspace; cat /workspace/me | tr a-z A-Z`)
		sb.Close(ctx)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(res.Stdout)
	}
	// Output:
	// me
	// ADA
	// me
	// GRACE
}

// A deployment step (or a container image's build) fills the compilation
// cache, so that the processes started later read the compiled guest
// instead of compiling it; New then finds it in the same cache.
func ExamplePrecompile() {
	ctx := context.Background()
	cfg := engine.NewConfig() // the default cache directory, as New uses
	if err := engine.Precompile(ctx, cfg); err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	fmt.Println("the guest is compiled and cached")
	// Output:
	// the guest is compiled and cached
}
