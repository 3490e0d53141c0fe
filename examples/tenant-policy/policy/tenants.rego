# Per-tenant payment limits, as a security team would write them. The
# tenant comes from the sandbox session's labels (the host sets
# labels: {tenant: ...}); the limits live in data.json, so that changing a
# limit is a data change, reviewed like any other.
package cordon.authz

tenant := input.session.labels.tenant

limits := data.tenants[tenant]

# A session without a known tenant may not touch payments at all.
deny contains sprintf("unknown tenant %q", [object.get(input.session.labels, "tenant", "")]) if {
	startswith(input.method, "stripe/")
	not limits
}

deny contains sprintf("tenant %q may refund at most %v per refund", [tenant, limits.max_refund]) if {
	input.method == "stripe/refunds/create"
	input.params.amount > limits.max_refund
}

deny contains sprintf("tenant %q is limited to %d charges per session", [tenant, limits.max_charges]) if {
	input.method == "stripe/charges/create"
	object.get(input.calls, input.method, 0) >= limits.max_charges
}

ask contains sprintf("charges above %v need a human for tenant %q", [limits.approval_above, tenant]) if {
	input.method == "stripe/charges/create"
	input.params.amount > limits.approval_above
}
