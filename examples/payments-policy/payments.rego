package cordon.authz

# Only the finance team's sessions move money, whatever the capabilities
# allow. A session without a team label is denied too: object.get, not
# input.session.labels.team, which would leave the rule undefined.
deny contains sprintf("%s: only the finance team may move money", [input.method]) if {
	startswith(input.method, "payments/")
	object.get(input.session.labels, "team", "") != "finance"
}
