package compile_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/compile"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// Compile capabilities and ask OPA which of them allow a call, and why the
// others do not.
func ExampleRego() {
	src, err := compile.Rego([]*dsl.Capability{
		dsl.Method("stripe/charges/*").
			Where(dsl.Param("amount").Le(10000), dsl.Param("currency").In("USD", "EUR")).
			MaxCalls(100),
		dsl.Method("stripe/**").Where(dsl.Param("dry_run").Eq(true)),
	})
	if err != nil {
		panic(err)
	}
	pq, err := rego.New(
		rego.Query("data.cordon.capabilities"),
		rego.Module("capabilities.rego", src),
		rego.Schemas(compile.SchemaSet()),
	).PrepareForEval(context.Background())
	if err != nil {
		panic(err)
	}
	input, _ := ast.ValueFromReader(strings.NewReader(`{
		"method": "stripe/charges/create",
		"params": {"amount": 20000, "currency": "EUR"},
		"capability_calls": {"0": 3}}`))
	rs, err := pq.Eval(context.Background(), rego.EvalParsedInput(input))
	if err != nil {
		panic(err)
	}
	doc := rs[0].Expressions[0].Value.(map[string]any)
	fmt.Println("matched:", doc["matched"])
	fmt.Println("allowed:", doc["allowed"])
	for _, v := range doc["violations"].([]any) {
		fmt.Println(v)
	}
	// Output:
	// matched: [0 1]
	// allowed: []
	// capability #0 "stripe/charges/*": amount <= 10000 does not hold (amount is 20000)
	// capability #1 "stripe/**": dry_run == true does not hold (dry_run is missing)
}
