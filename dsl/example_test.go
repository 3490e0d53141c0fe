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

func ExampleLint() {
	caps, err := dsl.ParseCapabilities([]byte(`[
		{"method": "transfer_money", "constraints": ["amount <= 1000"]},
		{"method": "search/*", "max_calls": 5},
		{"method": "**"}
	]`))
	if err != nil {
		panic(err)
	}
	for _, w := range dsl.Lint(caps) {
		fmt.Printf("%s #%d -> #%d %s:\n%s\n", w.Kind, w.Earlier, w.Capability, w.Method, w.Message)
	}
	// "Constrain transfer_money, allow the rest", written without a hole:
	// the other tools listed instead of "**".
	fixed := []*dsl.Capability{
		dsl.Method("transfer_money").Where(dsl.Param("amount").Le(1000)),
		dsl.Method("search/*").MaxCalls(5),
		dsl.Method("weather/*"),
	}
	fmt.Println(len(dsl.Lint(fixed)), "warnings")
	// Output:
	// constraint_lifted #0 -> #2 transfer_money:
	// capability #2 "**" lifts the constraint amount <= 1000 of capability #0 "transfer_money": a call to "transfer_money" that fails it is not allowed by #0 but is allowed by #2.
	// max_calls_lifted #1 -> #2 search/x:
	// capability #2 "**" lifts the max_calls 5 of capability #1 "search/*": once #1 is used up, a call to "search/x" is allowed by #2.
	// 0 warnings
}

// The constraint shorthand of amla-sandbox's create_bash_tool, keyed by
// tool name, becomes one capability per registered tool. A tool without an
// entry stays callable, unconstrained, DefaultMaxCalls times.
func ExampleShorthand_Capabilities() {
	caps, err := dsl.Shorthand{
		Constraints: map[string]map[string]any{
			"transfer_money": {"amount": "<=1000", "currency": []string{"USD", "EUR"}},
			"logs/search":    {"since": `>="2026-01-01"`, "path": "startswith:/var/log/"},
		},
		MaxCalls: map[string]int{"transfer_money": 10},
	}.Capabilities("transfer_money", "logs/search", "weather/current")
	if err != nil {
		panic(err)
	}
	for _, c := range caps {
		fmt.Printf("%s, max_calls %d: %q\n", c.Pattern(), c.CallLimit(), c.Constraints())
	}
	fmt.Println(caps[0].Allows("transfer_money", map[string]any{"amount": 5000, "currency": "USD"}, 0))

	_, err = dsl.Shorthand{MaxCalls: map[string]int{"transfer_mony": 10}}.Capabilities("transfer_money")
	fmt.Println(err)
	// Output:
	// transfer_money, max_calls 10: ["amount <= 1000" "currency in [\"USD\", \"EUR\"]"]
	// logs/search, max_calls 100: ["path starts_with \"/var/log/\"" "since >= \"2026-01-01\""]
	// weather/current, max_calls 100: []
	// false [amount <= 1000 does not hold (amount is 5000)]
	// dsl: max_calls["transfer_mony"]: names no tool (the tools are "transfer_money")
}
