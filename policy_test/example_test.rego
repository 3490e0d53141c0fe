# End-to-end tests of a compiled policy: example.yaml compiled to
# capabilities.rego (kept up to date by a Go test), with the shipped library.
# Run: opa test policy/rego policy_test   (or: cordon policy test policy_test)
package example_test

import data.cordon.authz

call(method, params) := {
	"method": method,
	"params": params,
	"calls": {},
	"capability_calls": {},
	"session": {"id": "s", "labels": {}},
	"language": "js",
}

charge(params) := d if {
	d := authz.decision with input as call("stripe/charges/create", params)
}

test_a_charge_within_the_limits_is_allowed if {
	d := charge({"amount": 500, "currency": "USD"})
	d == {"allow": true, "ask": false, "reasons": [], "capability": 0}
}

test_a_charge_outside_capability_0_falls_back_to_capability_1_which_asks if {
	d := charge({"amount": 50, "currency": "USD"})
	not d.allow
	d.ask
	d.capability == 1
}

test_a_charge_outside_every_capability_is_denied_with_every_reason if {
	d := charge({"amount": 500000, "currency": "GBP"})
	not d.allow
	not d.ask
	d.reasons == [
		"capability #0 \"stripe/charges/*\": amount <= 10000 does not hold (amount is 500000)",
		"capability #0 \"stripe/charges/*\": currency in [\"USD\", \"EUR\"] does not hold (currency is \"GBP\")",
		"capability #1 \"stripe/**\": amount <= 100000 does not hold (amount is 500000)",
	]
}

test_a_missing_param_fails_closed if {
	d := authz.decision with input as call("stripe/refunds/create", {})
	not d.allow
	not d.ask
	d.reasons == ["capability #1 \"stripe/**\": amount <= 100000 does not hold (amount is missing)"]
}

test_a_string_amount_is_a_type_mismatch if {
	d := charge({"amount": "500", "currency": "USD"})
	not d.allow
	"capability #0 \"stripe/charges/*\": amount >= 100 does not hold (amount is \"500\")" in d.reasons
}

test_max_calls_runs_out_then_capability_1_asks if {
	c := json.patch(call("stripe/charges/create", {"amount": 500, "currency": "USD"}), [{"op": "replace", "path": "/capability_calls", "value": {"0": 2}}])
	d := authz.decision with input as c
	d.ask
	d.capability == 1
}

test_double_star_matches_the_bare_prefix if {
	d := authz.decision with input as call("stripe", {"amount": 1})
	d.ask
	d.capability == 1
}

test_star_stays_within_a_segment if {
	d := authz.decision with input as call("db/read_users/all", {})
	not d.allow
	d.reasons == ["no capability allows method \"db/read_users/all\""]
}

test_reads_are_allowed if {
	authz.decision.allow with input as call("db/read_users", {})
}
