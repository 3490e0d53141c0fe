package dsl_test

import (
	"errors"
	"fmt"

	"github.com/cordonhq/cordon/dsl"
)

func ExampleMethod() {
	c := dsl.Method("stripe/charges/*").
		Where(dsl.Param("amount").Le(10000), dsl.Param("currency").In("USD", "EUR")).
		MaxCalls(100)
	if err := c.Validate(); err != nil {
		panic(err)
	}
	fmt.Println(c.Allows("stripe/charges/create", map[string]any{"amount": 500, "currency": "EUR"}, 0))
	fmt.Println(c.Allows("stripe/charges/create", map[string]any{"amount": 20000}, 100))
	// Output:
	// true []
	// false [amount <= 10000 does not hold (amount is 20000) currency in ["USD", "EUR"] does not hold (currency is missing) max_calls 100 used up]
}

func ExampleParseConstraint() {
	for _, line := range []string{
		`amount <= 10000`,
		`currency  in ["USD","EUR"]`,
		`body/user/id exists`,
		`amount <== 5`,
	} {
		c, err := dsl.ParseConstraint(line)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(c)
	}
	// Output:
	// amount <= 10000
	// currency in ["USD", "EUR"]
	// body/user/id exists
	// dsl: constraint "amount <== 5": unknown operator "<=="
}

func ExampleParseCapabilities() {
	_, err := dsl.ParseCapabilities([]byte(`[
		{"method": "db/*"},
		{"method": "fs/**", "constraints": ["path starts_with \"/workspace/\""]},
		{"method": "stripe/*", "constraints": ["amount <= 5", "amount <== 5"]}
	]`))
	fmt.Println(err)
	var e *dsl.Error
	if errors.As(err, &e) {
		fmt.Printf("capability %d, method %q, %s, constraint %q: %s\n", e.Capability, e.Method, e.Position, e.Constraint, e.Msg)
	}
	// Output:
	// dsl: capability 2 ("stripe/*"): constraint 1 "amount <== 5": unknown operator "<=="
	// capability 2, method "stripe/*", constraint 1, constraint "amount <== 5": unknown operator "<=="
}

func ExampleMatchMethod() {
	for _, m := range []string{"stripe", "stripe/charges/create", "stripex"} {
		ok, _ := dsl.MatchMethod("stripe/**", m)
		fmt.Println(m, ok)
	}
	// Output:
	// stripe true
	// stripe/charges/create true
	// stripex false
}
