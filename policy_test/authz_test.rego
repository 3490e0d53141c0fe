# Tests of the shipped library (policy/rego/authz.rego), with the compiled
# capabilities mocked, so that the decision contract is tested on its own.
# Run: opa test policy/rego policy_test   (or: cordon policy test policy_test)
package cordon.authz_test

import data.cordon.authz

caps := [
	{"index": 0, "name": "", "method": "stripe/charges/*", "max_calls": 100, "ask": false},
	{"index": 1, "name": "big", "method": "stripe/**", "max_calls": 0, "ask": true},
]

call := {"method": "stripe/charges/create", "params": {"amount": 5}, "calls": {}, "capability_calls": {}, "session": {"id": "s", "labels": {}}, "language": "js"}

test_a_capability_allows if {
	d := authz.decision with input as call
		with data.cordon.capabilities.capabilities as caps
		with data.cordon.capabilities.matched as {0}
		with data.cordon.capabilities.allowed as {0}
		with data.cordon.capabilities.violations as set()
	d == {"allow": true, "ask": false, "reasons": [], "capability": 0}
}

test_the_first_allowing_capability_is_charged if {
	d := authz.decision with input as call
		with data.cordon.capabilities.capabilities as [caps[0], {"index": 1, "name": "", "method": "stripe/**", "max_calls": 0, "ask": false}]
		with data.cordon.capabilities.matched as {0, 1}
		with data.cordon.capabilities.allowed as {1, 0}
		with data.cordon.capabilities.violations as set()
	d.allow
	d.capability == 0
}

test_no_capability_matches if {
	d := authz.decision with input as call
		with data.cordon.capabilities.capabilities as caps
		with data.cordon.capabilities.matched as set()
		with data.cordon.capabilities.allowed as set()
		with data.cordon.capabilities.violations as set()
	d == {"allow": false, "ask": false, "reasons": ["no capability allows method \"stripe/charges/create\""], "capability": -1}
}

test_every_violation_is_a_reason if {
	d := authz.decision with input as call
		with data.cordon.capabilities.capabilities as caps
		with data.cordon.capabilities.matched as {0}
		with data.cordon.capabilities.allowed as set()
		with data.cordon.capabilities.violations as {"b fails", "a fails"}
	not d.allow
	not d.ask
	d.reasons == ["a fails", "b fails"]
}

test_a_capability_can_ask if {
	d := authz.decision with input as call
		with data.cordon.capabilities.capabilities as caps
		with data.cordon.capabilities.matched as {1}
		with data.cordon.capabilities.allowed as {1}
		with data.cordon.capabilities.violations as set()
	not d.allow
	d.ask
	d.capability == 1
	d.reasons == ["capability #1 \"stripe/**\" requires approval"]
}

test_a_user_deny_wins_over_a_capability if {
	d := authz.decision with input as call
		with data.cordon.capabilities.capabilities as caps
		with data.cordon.capabilities.matched as {0}
		with data.cordon.capabilities.allowed as {0}
		with data.cordon.capabilities.violations as set()
		with authz.deny as {"frozen account"}
	not d.allow
	not d.ask
	d.reasons == ["frozen account"]
}

test_deny_wins_over_ask if {
	d := authz.decision with input as call
		with data.cordon.capabilities.capabilities as caps
		with data.cordon.capabilities.matched as {1}
		with data.cordon.capabilities.allowed as {1}
		with data.cordon.capabilities.violations as set()
		with authz.deny as {"no"}
	not d.allow
	not d.ask
	d.reasons == ["no"]
}

test_a_user_permit_grants_without_a_capability if {
	d := authz.decision with input as call
		with data.cordon.capabilities.capabilities as []
		with data.cordon.capabilities.matched as set()
		with data.cordon.capabilities.allowed as set()
		with data.cordon.capabilities.violations as set()
		with authz.permit as {"read-only"}
	d == {"allow": true, "ask": false, "reasons": [], "capability": -1}
}

test_a_user_ask_pauses_an_allowed_call if {
	d := authz.decision with input as call
		with data.cordon.capabilities.capabilities as caps
		with data.cordon.capabilities.matched as {0}
		with data.cordon.capabilities.allowed as {0}
		with data.cordon.capabilities.violations as set()
		with authz.ask as {"over 1000"}
	d == {"allow": false, "ask": true, "reasons": ["over 1000"], "capability": 0}
}

# A call that an asking capability with max_calls would take is never
# allowed by a later capability: when the ask is used up, it is denied.
gate_caps := [
	{"index": 0, "name": "", "method": "refund", "max_calls": 2, "ask": true},
	{"index": 1, "name": "", "method": "refund", "max_calls": 20, "ask": false},
]

test_a_used_up_ask_does_not_fall_through if {
	d := authz.decision with input as object.union(call, {"method": "refund"})
		with data.cordon.capabilities.capabilities as gate_caps
		with data.cordon.capabilities.matched as {0, 1}
		with data.cordon.capabilities.allowed as {1}
		with data.cordon.capabilities.gates as {0}
		with data.cordon.capabilities.violations as {"capability #0 \"refund\": max_calls 2 used up"}
	d == {"allow": false, "ask": false, "capability": -1, "reasons": [
		"capability #0 \"refund\" requires approval and its max_calls 2 is used up",
		"capability #0 \"refund\": max_calls 2 used up",
	]}
}

test_a_used_up_ask_wins_over_permit if {
	d := authz.decision with input as object.union(call, {"method": "refund"})
		with data.cordon.capabilities.capabilities as gate_caps
		with data.cordon.capabilities.matched as {0, 1}
		with data.cordon.capabilities.allowed as {1}
		with data.cordon.capabilities.gates as {0}
		with data.cordon.capabilities.violations as set()
		with authz.permit as {"a rule of yours"}
	not d.allow
	"capability #0 \"refund\" requires approval and its max_calls 2 is used up" in d.reasons
}

test_an_ask_with_room_asks if {
	d := authz.decision with input as object.union(call, {"method": "refund"})
		with data.cordon.capabilities.capabilities as gate_caps
		with data.cordon.capabilities.matched as {0, 1}
		with data.cordon.capabilities.allowed as {0, 1}
		with data.cordon.capabilities.gates as {0}
		with data.cordon.capabilities.violations as set()
	d.ask
	d.capability == 0
}

test_calls_outside_the_gate_fall_through if {
	d := authz.decision with input as object.union(call, {"method": "refund", "params": {"amount": 5}})
		with data.cordon.capabilities.capabilities as gate_caps
		with data.cordon.capabilities.matched as {0, 1}
		with data.cordon.capabilities.allowed as {1}
		with data.cordon.capabilities.gates as set()
		with data.cordon.capabilities.violations as {"capability #0 \"refund\": amount > 100 does not hold (amount is 5)"}
	d.allow
	d.capability == 1
}
