package policy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

// A policy of capabilities and one Rego rule of the security team's: the
// capability allows transfers up to 1000, and the rule denies any
// transfer from a session without the finance label, whatever the
// capabilities allow.
func ExampleNew() {
	ctx := context.Background()
	p, err := policy.New(ctx, policy.Config{
		Capabilities: []*dsl.Capability{
			dsl.Method("payments/transfer").Where(dsl.Param("amount").Le(1000)),
		},
		Modules: map[string]string{"finance.rego": `package cordon.authz

deny contains "only the finance team moves money" if {
	input.method == "payments/transfer"
	object.get(input.session.labels, "team", "") != "finance"
}`},
	})
	if err != nil {
		log.Fatal(err)
	}
	decide := func(team string, amount int) {
		d, err := p.Decide(ctx, &authz.Input{
			Method:  "payments/transfer",
			Params:  json.RawMessage(fmt.Sprintf(`{"amount": %d}`, amount)),
			Session: authz.Session{Labels: map[string]string{"team": team}},
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(team, amount, d.Allow, d.Reasons)
	}
	decide("finance", 500)
	decide("finance", 5000)
	decide("sales", 500)
	// Output:
	// finance 500 true []
	// finance 5000 false [capability #0 "payments/transfer": amount <= 1000 does not hold (amount is 5000)]
	// sales 500 false [only the finance team moves money]
}

// The security team's Rego tests run against the capabilities, as `opa
// test` would, with the input type-checked against cordon's schema.
func ExampleRunTests() {
	dir, err := os.MkdirTemp("", "policy-tests")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	tests := `package cordon.authz_test

import data.cordon.authz

test_small_transfer_allowed if {
	authz.allow with input as {"method": "payments/transfer", "params": {"amount": 10}}
}

test_large_transfer_denied if {
	not authz.allow with input as {"method": "payments/transfer", "params": {"amount": 5000}}
}
`
	if err := os.WriteFile(filepath.Join(dir, "transfer_test.rego"), []byte(tests), 0o644); err != nil {
		log.Fatal(err)
	}
	caps := []*dsl.Capability{dsl.Method("payments/transfer").Where(dsl.Param("amount").Le(1000))}
	results, err := policy.RunTests(context.Background(), []string{dir}, caps)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		fmt.Println(r.Name, "fail:", r.Fail, "err:", r.Err)
	}
	// Output:
	// test_small_transfer_allowed fail: false err: <nil>
	// test_large_transfer_denied fail: false err: <nil>
}
