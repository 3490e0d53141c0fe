package flow_test

import data.cordon.authz

call(method, host, tool_labels, flow) := {
	"method": method,
	"params": {"host": host},
	"calls": {},
	"capability_calls": {},
	"session": {"id": "s", "labels": {}, "principal": "", "flow": {"labels": flow}},
	"language": "js",
	"tool": {"server": "", "annotations": {}, "labels": tool_labels},
}

test_egress_anywhere_before_private_data if {
	d := authz.decision with input as call("net/post", "paste.example", ["egress"], {})
	d.allow
}

test_untrusted_reads_do_not_close_egress if {
	d := authz.decision with input as call("net/post", "paste.example", ["egress"], {"untrusted": 3})
	d.allow
}

test_egress_off_the_allowlist_asks_after_private_data if {
	d := authz.decision with input as call("net/post", "paste.example", ["egress"], {"private": 1})
	not d.allow
	d.ask
	"egress after a private read, to a host off the allowlist" in d.reasons
}

test_the_allowlist_stays_open_after_private_data if {
	d := authz.decision with input as call("http/fetch", "api.github.com", ["egress"], {"private": 2})
	d.allow
}

test_private_reads_stay_allowed if {
	d := authz.decision with input as call("crm/contacts/read", "", ["private"], {"private": 5})
	d.allow
}

# The Rego rule reads labels, not names: it covers any tool labelled
# egress, an upstream MCP server's (mcp_servers: labels) as well.
test_the_rule_covers_any_egress_tool if {
	asks := authz.ask with input as call("mail/send", "smtp.example", ["egress"], {"private": 1})
	"egress after a private read, to a host off the allowlist" in asks
}
