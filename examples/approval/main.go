// Command approval drives an execution step by step: every call to a
// payment tool pauses the script until an operator (here, a rule standing in
// for a human) approves or rejects it. Between steps the guest is paused and
// uses no CPU, so the host can wait as long as it likes.
//
//	go run ./examples/approval
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/cordonhq/cordon/engine"
)

const script = `
const results = []
for (const amount of [25, 5000, 80]) {
  try {
    const r = await payments.send({to: "acct_42", amount})
    results.push("sent " + amount + " as " + r.id)
  } catch (e) {
    results.push("not sent " + amount + ": " + e.message)
  }
}
return results
`

// operator stands in for a human reviewing each payment.
func operator(params json.RawMessage) (approve bool, why string) {
	var p struct {
		Amount float64 `json:"amount"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return false, "unreadable request"
	}
	if p.Amount > 1000 {
		return false, fmt.Sprintf("amount %.0f needs a second approver", p.Amount)
	}
	return true, ""
}

func run(ctx context.Context, w io.Writer) error {
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		return err
	}
	defer eng.Close(ctx)
	sent := 0
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: []engine.Tool{{
		Name:        "payments/send",
		Description: "Send a payment (needs approval)",
		Handler: func(context.Context, json.RawMessage) (any, error) {
			sent++
			return map[string]any{"id": fmt.Sprintf("pay_%d", sent)}, nil
		},
	}}})
	if err != nil {
		return err
	}
	defer sb.Close(ctx)

	x, err := sb.Start(ctx, engine.JavaScript, script)
	if err != nil {
		return err
	}
	for {
		calls, err := x.Next(ctx)
		if err != nil {
			return err
		}
		if calls == nil {
			break // the script finished
		}
		for _, c := range calls {
			ok, why := operator(c.Params)
			fmt.Fprintf(w, "paused on %s %s: approve=%v\n", c.Method, c.Params, ok)
			if ok {
				c.Run(ctx) // run the registered handler
			} else {
				c.Deny(why)
			}
		}
	}
	res := x.Result()
	fmt.Fprint(w, res.Stdout)
	for _, c := range res.ToolCalls {
		fmt.Fprintf(w, "audit: %s %s allowed=%v reasons=%v\n", c.Method, c.Params, c.Allowed, c.Reasons)
	}
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}
