package codemodetest

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
)

// Shop is a fixture for an agent that refunds late orders, as the
// adapters' tests run it: customer c1's orders (o1 of 40, late; o2 of
// 900, late; o3 of 15, on time), and a refund tool that counts the
// refunds it made. The zero Shop is ready to use.
type Shop struct {
	refunds atomic.Int32
}

// Tools returns the shop's tools, with their input schemas:
// orders/list({customer}) answers the orders, and orders/refund({id,
// amount}) counts a refund and answers {"refunded": params}.
func (s *Shop) Tools() []engine.Tool {
	return []engine.Tool{
		{
			Name:        "orders/list",
			Description: "List a customer's orders",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}},"required":["customer"]}`),
			Handler: func(context.Context, json.RawMessage) (any, error) {
				return []map[string]any{{"id": "o1", "amount": 40, "late": true}, {"id": "o2", "amount": 900, "late": true}, {"id": "o3", "amount": 15, "late": false}}, nil
			},
		},
		{
			Name:        "orders/refund",
			Description: "Refund an order",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"amount":{"type":"number"}},"required":["id","amount"]}`),
			Handler: func(_ context.Context, p json.RawMessage) (any, error) {
				s.refunds.Add(1)
				return map[string]any{"refunded": p}, nil
			},
		},
	}
}

// Refunds returns how many refunds the shop's handler made.
func (s *Shop) Refunds() int32 { return s.refunds.Load() }

// ShopPolicy returns the shop's policy: orders may be listed, a refund of
// at most 100 is allowed, and a larger one needs approval (an ask).
func ShopPolicy(tb enginetest.TB) *policy.Policy {
	tb.Helper()
	return enginetest.Policy(tb,
		dsl.Method("orders/list"),
		dsl.Method("orders/refund").Where(dsl.Param("amount").Le(100)),
		dsl.Method("orders/refund").Ask(),
	)
}

// LateOrdersScript returns the ids of c1's late orders: ["o1","o2"].
const LateOrdersScript = `const list = await orders.list({customer: "c1"}); return list.filter(o => o.late).map(o => o.id)`

// RefundScript refunds c1's late orders at once and prints one line per
// order: "o1: refunded", and for o2, under ShopPolicy, the refusal's
// message unless the ask was approved.
const RefundScript = `const list = await orders.list({customer: "c1"})
const late = list.filter(o => o.late)
const results = await Promise.allSettled(late.map(o => orders.refund({id: o.id, amount: o.amount})))
console.log(results.map((r, i) => late[i].id + ": " + (r.status === "fulfilled" ? "refunded" : r.reason.message)).join("\n"))`
