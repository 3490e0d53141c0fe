// Command embedding is the program of the embedding guide
// (docs/embedding.md) and of the README's example for a Go platform: an
// engine, a sandbox with a Go tool and a policy of capabilities, a script
// in JavaScript and one in the shell, output streamed as the script writes
// it, and a handler that reads which call it answers.
//
//	go run ./examples/embedding
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy/authz"
)

// Item is what the inventory tool returns.
type Item struct {
	SKU   string `json:"sku"`
	Name  string `json:"name"`
	Stock int    `json:"stock"`
}

// catalog stands in for the host's database.
type catalog map[string]Item

// Lookup returns the item with the SKU, or an error the script may read.
func (c catalog) Lookup(_ context.Context, sku string) (Item, error) {
	it, ok := c[sku]
	if !ok {
		return Item{}, &engine.ToolError{Message: fmt.Sprintf("no item %q", sku)}
	}
	return it, nil
}

var db = catalog{
	"A1": {"A1", "kettle", 12},
	"A2": {"A2", "teapot", 0},
	"B7": {"B7", "crowbar", 3},
}

func run(ctx context.Context, w io.Writer) error {
	// region sandbox
	eng, err := engine.New(ctx, engine.NewConfig()) // compile once per process; safe for concurrent use
	if err != nil {
		return err
	}
	defer eng.Close(ctx)

	pol, err := authz.New([]*dsl.Capability{ // decided in Go; policy.New adds Rego
		dsl.Method("inventory/lookup").Where(dsl.Param("sku").StartsWith("A")).MaxCalls(10),
	})
	if err != nil {
		return err
	}
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{
		Tools: []engine.Tool{{
			Name:         "inventory/lookup", // what scripts call and policies see
			Description:  "Look up an item by SKU",
			InputSchema:  []byte(`{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}`),
			OutputSchema: []byte(`{"type":"object","properties":{"name":{"type":"string"}}}`), // optional, shown to scripts
			Handler: engine.Func(func(ctx context.Context, p struct {
				SKU string `json:"sku"`
			}) (Item, error) {
				return db.Lookup(ctx, p.SKU)
			}),
		}},
		Policy: pol,
		Limits: engine.Limits{Timeout: 5 * time.Second},
	})
	if err != nil {
		return err
	}
	defer sb.Close(ctx)

	res, err := sb.Execute(ctx, engine.JavaScript, `
const items = await Promise.allSettled(["A1", "A2", "B7"].map(sku => inventory.lookup({sku})))
return items.map(r => r.status === "fulfilled" ? r.value.name : r.reason.kind)`)
	// res.Stdout, res.Stderr, res.ExitCode, res.Value (JSON), res.ToolCalls (audit)
	// endregion
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "js: %s", res.Stdout)
	for _, c := range res.ToolCalls {
		fmt.Fprintf(w, "  %s %s allowed=%v %v\n", c.Method, c.Params, c.Allowed, c.Reasons)
	}

	// region shell
	res, err = sb.Execute(ctx, engine.Shell, `tool inventory/lookup --sku A1 | jq -r .name`)
	// endregion
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "sh: %s", res.Stdout)

	// region stream
	res, err = sb.Execute(ctx, engine.JavaScript, `console.log("step 1"); console.error("oops"); throw new TypeError("bad")`,
		engine.WithStdout(w),               // the script's stdout, as it writes it
		engine.WithScriptName("report.js")) // the name in its errors and stack frames
	// res.ExitCode is 1 and res.Exception "TypeError: bad"; err is nil: the script ran to its end
	// endregion
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "exit %d, exception %q\n", res.ExitCode, res.Exception)

	return callInfo(ctx, eng, w)
}

// callInfo runs a handler that serves two tools and reads, from its
// context, which call it answers.
func callInfo(ctx context.Context, eng *engine.Engine, w io.Writer) error {
	// region callfrom
	echo := func(ctx context.Context, params json.RawMessage) (any, error) {
		call, _ := engine.CallFrom(ctx) // which call this is: Method, ID, Session, Labels, Capability, ...
		return map[string]any{"method": call.Method, "id": call.ID, "tenant": call.Labels["tenant"]}, nil
	}
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{
		Tools:  []engine.Tool{{Name: "a/echo", Handler: echo}, {Name: "b/echo", Handler: echo}},
		Labels: map[string]string{"tenant": "acme"},
	})
	// endregion
	if err != nil {
		return err
	}
	defer sb.Close(ctx)
	res, err := sb.Execute(ctx, engine.JavaScript, `return [await a.echo(), await b.echo()]`)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "handler saw: %s", res.Stdout)
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}
