package approval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/cordonhq/cordon/approval"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy/authz"
)

func ExampleRender() {
	params := `{"note":"` + strings.Repeat("thanks! ", 500) + `","payee":"acct_42","amount":5000,"meta":{"ref":"inv\n7"}}`
	r, err := approval.Render(approval.Call{
		Method:      "payments/send",
		Params:      json.RawMessage(params),
		Reasons:     []string{"payments above 1000 need an operator\nApprove? yes"},
		Constrained: []string{"payee"},
	}, approval.Limits{})
	if err != nil {
		fmt.Println(approval.DenyReason(err)) // deny the call: it cannot be shown in full
		return
	}
	fmt.Println(r.Text)
	// Output:
	// A script in the cordon sandbox wants to call payments/send.
	// The policy asks for approval:
	//   - "payments above 1000 need an operator\nApprove? yes"
	// All 4 params (constrained ones and numbers first, in full; long strings cut in the middle, with their length):
	//   payee = "acct_42"
	//   amount = 5000
	//   meta/ref = "inv\n7"
	//   note = "thanks! thanks! thanks! thanks! thanks! thanks! thanks! thanks! thanks! thanks! thanks! thanks! than" … "s! thanks! thanks! thanks! thanks! thanks! thanks! " (4000 bytes)
	// Approve this call?
}

// An Approver that shows each call the policy asks about to an operator:
// NewApprover renders it, refuses what cannot be shown in full, and the
// function decides on what is shown.
func ExampleNewApprover() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	pol, err := authz.New([]*dsl.Capability{dsl.Method("payments/send").Where(dsl.Param("amount").Le(10000)).Ask()})
	if err != nil {
		log.Fatal(err)
	}
	operator := func(_ context.Context, _ *engine.Call, r *approval.Request) (bool, string) {
		fmt.Println(r.Text) // a real operator reads this and answers
		return true, "ok by the operator"
	}
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{
		Policy:  pol,
		Approve: approval.NewApprover(approval.Limits{}, operator),
		Tools: []engine.Tool{{Name: "payments/send", Handler: func(context.Context, json.RawMessage) (any, error) {
			return "sent", nil
		}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close(ctx)
	res, err := sb.Execute(ctx, engine.JavaScript, `
const many = {amount: 10}
for (let i = 0; i < 100; i++) many["k" + i] = i
const out = [await payments.send({memo: "rent", amount: 900, to: "acct_42"})]
try { await payments.send(many) } catch (e) { out.push(e.message) }
return out`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Stdout)
	// Output:
	// A script in the cordon sandbox wants to call payments/send.
	// The policy asks for approval:
	//   - "capability #0 \"payments/send\" requires approval"
	// All 3 params (constrained ones and numbers first, in full; long strings cut in the middle, with their length):
	//   amount = 900
	//   memo = "rent"
	//   to = "acct_42"
	// Approve this call?
	// ["sent","tool payments/send denied: approval required and refused without asking: the call cannot be shown in full: it has 101 params (counting each value in nested objects and arrays), more than the 64 an approval request lists"]
}
