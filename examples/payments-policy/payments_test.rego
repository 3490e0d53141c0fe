# cordon policy test --config examples/payments-policy/config.yaml examples/payments-policy
package payments_test

import data.cordon.authz

transfer(amount, team) := {
	"method": "payments/transfer",
	"params": {"to": "acct_1", "amount": amount, "currency": "EUR"},
	"calls": {},
	"capability_calls": {},
	"session": {"id": "test", "labels": {"team": team}},
	"language": "js",
}

test_finance_transfers_within_the_limit if {
	authz.decision.allow with input as transfer(500, "finance")
}

test_finance_transfers_above_the_limit_ask if {
	d := authz.decision with input as transfer(5000, "finance")
	not d.allow
	d.ask
}

test_other_teams_are_denied if {
	d := authz.decision with input as transfer(500, "sales")
	not d.allow
	d.reasons == ["payments/transfer: only the finance team may move money"]
}

test_no_team_is_denied if {
	d := authz.decision with input as object.union(transfer(500, ""), {"session": {"id": "test", "labels": {}}})
	not d.allow
}
