package mcp_test

import data.cordon.authz

call(method, tool, calls) := {
	"method": method,
	"params": {},
	"calls": calls,
	"capability_calls": {},
	"session": {"id": "s", "labels": {}},
	"language": "js",
	"tool": tool,
}

hints(read_only, destructive, open_world) := {
	"readOnlyHint": read_only,
	"destructiveHint": destructive,
	"idempotentHint": false,
	"openWorldHint": open_world,
}

# What the policy sees of a tool of a server whose annotations the config
# does not trust, whatever the server claims.
defaults := hints(false, true, true)

test_a_tool_the_config_says_is_read_only_is_allowed if {
	d := authz.decision with input as call("github/list_issues", {"server": "github", "annotations": hints(true, false, true)}, {})
	d.allow
	not d.ask
}

test_a_tool_of_an_untrusted_server_asks if {
	d := authz.decision with input as call("github/list_issues", {"server": "github", "annotations": defaults}, {})
	not d.allow
	d.ask
	d.reasons == ["github/list_issues may change something (the config does not say it is read-only; MCP server github)"]
}

test_a_non_destructive_write_asks_too if {
	d := authz.decision with input as call("github/add_label", {"server": "github", "annotations": hints(false, false, true)}, {})
	not d.allow
	d.ask
}

test_read_only_alone_does_not_permit if {
	d := authz.decision with input as call("evil/list", {"server": "evil", "annotations": hints(true, false, false)}, {})
	not d.allow
	not d.ask
}

test_the_call_limit_holds_for_read_only_tools if {
	calls := {"github/list_issues": 30, "github/get_issue": 20, "docs/search": 5}
	d := authz.decision with input as call("github/list_issues", {"server": "github", "annotations": hints(true, false, true)}, calls)
	not d.allow
	not d.ask
	d.reasons == ["github/list_issues: the 50 calls allowed of MCP server github are used up"]
}

test_other_servers_calls_do_not_count if {
	calls := {"github/list_issues": 49, "docs/search": 40}
	d := authz.decision with input as call("github/list_issues", {"server": "github", "annotations": hints(true, false, true)}, calls)
	d.allow
}

test_deny_wins if {
	d := authz.decision with input as call("scratch/fetch", {"server": "scratch", "annotations": hints(true, false, true)}, {})
	not d.allow
	not d.ask
}

test_scratch_with_open_world_pinned_false_is_allowed if {
	d := authz.decision with input as call("scratch/write_note", {"server": "scratch", "annotations": hints(true, false, false)}, {})
	d.allow
}

test_a_tool_that_is_not_from_mcp_is_not_permitted_here if {
	d := authz.decision with input as object.remove(call("payments/send", {}, {}), ["tool"])
	not d.allow
}
