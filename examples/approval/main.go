// Command approval drives an execution step by step. The policy allows
// payments, but asks for approval above 1000 (a Rego ask rule); those calls
// pause the script until an operator (here, a rule standing in for a human)
// approves or rejects them. Each paused call is shown as package approval
// renders it for a person: every param, the constrained ones and numbers
// first, with what the script wrote quoted; a call that cannot be shown in
// full is refused without asking. Between steps the guest is paused and
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
	"log/slog"
	"os"

	"github.com/cordonhq/cordon/approval"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy"
)

const script = `
const results = []
for (const amount of [25, 1500, 5000, 80]) {
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
	if p.Amount > 2000 {
		return false, fmt.Sprintf("amount %.0f needs a second approver", p.Amount)
	}
	return true, ""
}

func run(ctx context.Context, w io.Writer) error {
	eng, err := engine.New(ctx, engine.NewConfig().WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return err
	}
	defer eng.Close(ctx)
	sent := 0
	pol, err := policy.New(ctx, policy.Config{
		Capabilities: []*dsl.Capability{dsl.Method("payments/send").Where(dsl.Param("amount").Gt(0)).MaxCalls(10)},
		Modules: map[string]string{"approval.rego": `package cordon.authz

ask contains "payments above 1000 need an operator" if {
	input.method == "payments/send"
	input.params.amount > 1000
}
`},
	})
	if err != nil {
		return err
	}
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Policy: pol, Tools: []engine.Tool{{
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

	// region step
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
			if !c.Ask { // the policy allowed it outright
				c.Run(ctx)
				continue
			}
			// Show the operator the whole call; refuse what cannot be
			// shown in full rather than show a part of it.
			req, err := approval.ForCall(c, approval.Limits{})
			if err != nil {
				c.Deny(approval.DenyReason(err))
				continue
			}
			ok, why := operator(c.Params)
			fmt.Fprintf(w, "%s\noperator: approve=%v\n", req.Text, ok)
			if ok {
				c.Run(ctx) // run the registered handler
			} else {
				c.Deny(why)
			}
		}
	}
	// endregion
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
