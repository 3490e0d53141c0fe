// Command quickstart embeds cordon: it registers two Go tools, runs an
// agent's script that calls them, and prints what happened.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/cordonhq/cordon/engine"
)

type lookupParams struct {
	SKU string `json:"sku"`
}

type item struct {
	SKU   string  `json:"sku"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
	Stock int     `json:"stock"`
}

var inventory = map[string]item{
	"A1": {"A1", "kettle", 39.5, 12},
	"B2": {"B2", "teapot", 24, 0},
	"C3": {"C3", "mug", 9.25, 140},
}

// script is what an agent would send as one "run code" tool call.
const script = `
const skus = ["A1", "B2", "C3"]
const items = await Promise.all(skus.map(sku => inventory.lookup({sku})))
const inStock = items.filter(i => i.stock > 0)
for (const i of inStock) console.log(i.name.padEnd(8), i.price.toFixed(2))
const order = await orders.create({lines: inStock.map(i => ({sku: i.sku, qty: 1}))})
return order
`

func run(ctx context.Context, w io.Writer) error {
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		return err
	}
	defer eng.Close(ctx)

	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: []engine.Tool{
		{
			Name:        "inventory/lookup",
			Description: "Look up an item by SKU",
			InputSchema: []byte(`{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}`),
			Handler: engine.Func(func(_ context.Context, p lookupParams) (item, error) {
				it, ok := inventory[p.SKU]
				if !ok {
					return item{}, fmt.Errorf("no item %q", p.SKU)
				}
				return it, nil
			}),
		},
		{
			Name:        "orders/create",
			Description: "Create an order",
			Handler: engine.Func(func(_ context.Context, p struct {
				Lines []struct {
					SKU string `json:"sku"`
					Qty int    `json:"qty"`
				} `json:"lines"`
			}) (map[string]any, error) {
				return map[string]any{"id": "ord_1", "lines": len(p.Lines)}, nil
			}),
		},
	}})
	if err != nil {
		return err
	}
	defer sb.Close(ctx)

	res, err := sb.Execute(ctx, engine.JavaScript, script)
	if err != nil {
		return err
	}
	fmt.Fprint(w, res.Stdout)
	fmt.Fprintf(w, "returned %s (exit %d)\n", res.Value, res.ExitCode)
	for _, c := range res.ToolCalls {
		fmt.Fprintf(w, "tool call: %s %s allowed=%v\n", c.Method, c.Params, c.Allowed)
	}
	if res.Stderr != "" {
		fmt.Fprintln(w, "stderr:", strings.TrimSpace(res.Stderr))
	}
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}
