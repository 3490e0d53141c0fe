// Package dsl builds cordon capabilities: which tool methods an agent's
// script may call, with which params, how many times, and whether a human
// must approve. Capabilities are written in Go with builders that read
// well,
//
//	cap := dsl.Method("stripe/charges/*").
//		Where(dsl.Param("amount").Le(10000), dsl.Param("currency").In("USD", "EUR")).
//		MaxCalls(100)
//
// or in the capabilities list of a config file, whose constraints use the
// text form "PARAM OP VALUE" (see ParseConstraint and ParseCapabilities).
// Shorthand reads the compact form of amla-sandbox's create_bash_tool,
// constraints and max_calls keyed by tool name ({"transfer_money":
// {"amount": "<=1000"}}), into one capability per tool.
// Package policy/compile turns capabilities into a Rego module; Allows is
// the same semantics in Go, which documents it and cross-checks the Rego.
//
// The orderings < <= > >= compare numbers by value and strings by Unicode
// code point, as Rego does ("2026-01-01" < "2026-02-01", "B" < "a").
//
// Everything fails closed: a missing or null parameter fails every
// constraint except exists and not_exists, a parameter of the wrong type
// fails (a string against amount <= 1000, a number against
// created_at >= "2026-01-01"), and a capability that does not validate
// allows nothing.
package dsl
