# The same rule in plain Rego, for a policy without the capability
# shorthand: any tool labelled egress, after a private read, may reach only
# the allowlist; other calls ask. input.tool.labels are the labels of the
# tool called, input.session.flow.labels count the allowed calls to tools
# of each label in the counter scope (the session, or the principal).
package cordon.authz

egress_allowlist := {"api.github.com", "api.acme.test"}

ask contains "egress after a private read, to a host off the allowlist" if {
	"egress" in input.tool.labels
	input.session.flow.labels.private > 0
	not input.params.host in egress_allowlist
}
