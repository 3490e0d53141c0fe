package whatif_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/cordonhq/cordon/whatif"
)

// Replay decides an audit log's calls again under a candidate that limits
// transfers to 100 and allows three of them per session.
func ExampleReplay() {
	log := strings.Join([]string{
		`{"msg":"cordon: tool call decision","session":"sb-1","method":"payments/transfer","decision":"allow","params":{"json":{"amount":50},"bytes":13}}`,
		`{"msg":"cordon: tool call decision","session":"sb-1","method":"payments/transfer","decision":"allow","params":{"json":{"amount":500},"bytes":14}}`,
		`{"msg":"cordon: tool call decision","session":"sb-1","method":"payments/transfer","decision":"deny","reasons":["too large"],"params":{"json":{"amount":20},"bytes":13}}`,
		`{"msg":"cordon: tool call decision","session":"sb-1","method":"payments/transfer","decision":"allow","params":{"json":{"amount":30},"bytes":13}}`,
	}, "\n")
	records, err := whatif.Read(strings.NewReader(log), "audit.log")
	if err != nil {
		fmt.Println(err)
		return
	}
	candidate, err := authz.New([]*dsl.Capability{
		dsl.Method("payments/transfer").Named("transfers").Where(dsl.Param("amount").Le(100)).MaxCalls(2),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := whatif.Replay(context.Background(), candidate, records, whatif.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range report.Changes {
		fmt.Println(c.Source, c.Kind(), string(c.Params.JSON), c.New.Reasons)
	}
	fmt.Println("changed:", report.Total.Changed, "allow→deny:", report.Total.AllowToDeny, "deny→allow:", report.Total.DenyToAllow)
	// Output:
	// audit.log:2 allow→deny {"amount":500} [capability #0 "transfers": amount <= 100 does not hold (amount is 500)]
	// audit.log:3 deny→allow {"amount":20} []
	// audit.log:4 allow→deny {"amount":30} [capability #0 "transfers": max_calls 2 used up]
	// changed: 3 allow→deny: 2 deny→allow: 1
}
