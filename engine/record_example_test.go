package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"os"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/trace"
)

func ExampleWithRecord() {
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
	f, err := os.CreateTemp("", "trace-*.json")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()

	// region record
	var t trace.Trace
	_, err = sb.Execute(ctx, engine.JavaScript, `const w = await weather.current({city: "SF"})
console.log(new Date().getFullYear() > 2000)
return w.temp`, engine.WithRecord(&t, engine.RecordVFS()))
	if err != nil {
		log.Fatal(err)
	}
	// t is filled: write it to a file, read it back with trace.Read.
	if err := t.Write(f); err != nil {
		log.Fatal(err)
	}
	// endregion
	c := t.Calls[0]
	fmt.Println(c.ID, c.Method, string(c.Params), c.Decision, string(c.Result))
	fmt.Println(t.PolicyRevision, len(t.Clock) > 0, t.VFS.Digest != "", len(t.VFS.Tar) > 0)
	fmt.Printf("%q %s\n", t.Output.Stdout, t.Output.Value)
	// Output:
	// 1 weather/current {"city":"SF"} allow {"city":"SF","temp":72}
	// default true true true
	// "true\n72\n" 72
}

func ExampleEngine_Replay() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: []engine.Tool{{
		Name: "dice/roll",
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return rand.IntN(6) + 1, nil
		},
	}}})
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close(ctx)
	var rec trace.Trace
	recorded, err := sb.Execute(ctx, engine.JavaScript, `console.log(await dice.roll({}), Math.random(), Date.now())`,
		engine.WithRecord(&rec, engine.RecordVFS()))
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rec.Write(&buf); err != nil {
		log.Fatal(err)
	}
	f := &buf // a trace file

	// region replay
	t, err := trace.Read(f)
	if err != nil {
		log.Fatal(err)
	}
	out, err := eng.Replay(ctx, t, engine.ReplayConfig{})
	var d *engine.DivergenceError
	if errors.As(err, &d) {
		log.Fatalf("the script left its trace at call %d: %v", d.Call, d)
	}
	stdout := out.Result.Stdout // what the recorded run printed, byte for byte
	// endregion
	fmt.Println(stdout == recorded.Stdout, out.Identical())
	// Output: true true
}
