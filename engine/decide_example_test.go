package engine_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy/authz"
)

// Deciding a call outside a sandbox, as the engine would: a policy of
// capabilities, and the call's input.
func ExampleDecide() {
	pol, err := authz.New([]*dsl.Capability{dsl.Method("payments/send").Where(dsl.Param("amount").Le(100))})
	if err != nil {
		panic(err)
	}
	for _, params := range []string{`{"amount": 50}`, `{"amount": 500}`} {
		d, capability, _, err := engine.Decide(context.Background(), pol, &authz.Input{Method: "payments/send", Params: json.RawMessage(params)})
		fmt.Println(d.Allow, capability, d.Reasons, err)
	}
	// Output:
	// true #0 payments/send [] <nil>
	// false  [capability #0 "payments/send": amount <= 100 does not hold (amount is 500)] <nil>
}
