# Run with the stock OPA CLI:
#   opa test policy/rego examples/tenant-policy/policy examples/tenant-policy/capabilities.rego
# or without it:
#   cordon policy test --config examples/tenant-policy/config.yaml examples/tenant-policy/policy
package tenants_test

import data.cordon.authz

call(method, params, tenant) := {
	"method": method,
	"params": params,
	"calls": {},
	"capability_calls": {},
	"session": {"id": "test", "labels": {"tenant": tenant}},
	"language": "js",
}

test_small_refund_is_allowed if {
	authz.decision.allow with input as call("stripe/refunds/create", {"amount": 100, "currency": "USD"}, "acme")
}

test_refund_above_the_tenant_limit_is_denied if {
	d := authz.decision with input as call("stripe/refunds/create", {"amount": 100, "currency": "USD"}, "globex")
	not d.allow
	d.reasons == ["tenant \"globex\" may refund at most 50 per refund"]
}

test_unknown_tenant_is_denied if {
	d := authz.decision with input as call("stripe/charges/create", {"amount": 10, "currency": "USD"}, "initech")
	not d.allow
	"unknown tenant \"initech\"" in d.reasons
}

test_big_charge_asks if {
	d := authz.decision with input as call("stripe/charges/create", {"amount": 5000, "currency": "USD"}, "acme")
	not d.allow
	d.ask
}

test_charge_count_is_limited if {
	c := json.patch(call("stripe/charges/create", {"amount": 10, "currency": "USD"}, "globex"), [{"op": "replace", "path": "/calls", "value": {"stripe/charges/create": 1}}])
	d := authz.decision with input as c
	not d.allow
	d.reasons == ["tenant \"globex\" is limited to 1 charges per session"]
}

test_limits_come_from_data if {
	d := authz.decision with input as call("stripe/refunds/create", {"amount": 100, "currency": "USD"}, "globex")
		with data.tenants.globex.max_refund as 1000
	d.allow
}
