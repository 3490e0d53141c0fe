package codemodetest_test

import (
	"context"
	"fmt"

	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// A code-mode tool over the shop, as the adapters' tests set it up: the
// policy lets the small refund through, and refuses the large one, which
// needs an approval that nobody gives here.
func ExampleShop() {
	new(enginetest.FakeT).Run(func(t enginetest.TB) { // t: the test's *testing.T
		var shop codemodetest.Shop
		tool := codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools(), Policy: codemodetest.ShopPolicy(t)}, nil)
		r := codemodetest.RunJS(t, tool, codemodetest.RefundScript)
		fmt.Print(r.Stdout)
		fmt.Println("refunds:", shop.Refunds())
	})
	// Output:
	// o1: refunded
	// o2: tool orders/refund denied: approval required and no approver is configured: capability #2 "orders/refund" requires approval
	// refunds: 1
}

// The arguments of the two code-mode tools, and a run of each in the
// default session.
func ExampleRun() {
	new(enginetest.FakeT).Run(func(t enginetest.TB) { // t: the test's *testing.T
		var shop codemodetest.Shop
		tool := codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools()}, nil)
		fmt.Println(codemodetest.JS(`return 1`))
		fmt.Println(string(codemodetest.RunJS(t, tool, codemodetest.LateOrdersScript).Value))
		fmt.Print(codemodetest.Call(t, context.Background(), tool.Shell(), codemodetest.Shell(`tool orders/list --customer c1 | jq -c '.[0]'`)))
	})
	// Output:
	// {"code":"return 1"}
	// ["o1","o2"]
	// [stdout]
	// {"amount":40,"id":"o1","late":true}
}
