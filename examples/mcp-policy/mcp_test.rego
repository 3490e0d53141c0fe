package mcp_test

import data.cordon.authz

call(method, tool) := {
	"method": method,
	"params": {},
	"calls": {},
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

test_a_read_only_tool_is_allowed if {
	d := authz.decision with input as call("github/list_issues", {"server": "github", "annotations": hints(true, false, true)})
	d.allow
	not d.ask
}

test_a_destructive_tool_asks if {
	d := authz.decision with input as call("github/delete_repo", {"server": "github", "annotations": hints(false, true, true)})
	not d.allow
	d.ask
	d.reasons == ["github/delete_repo may be destructive (MCP server github says so, or says nothing)"]
}

test_a_non_destructive_write_is_allowed if {
	d := authz.decision with input as call("github/add_label", {"server": "github", "annotations": hints(false, false, true)})
	d.allow
}

test_deny_wins if {
	d := authz.decision with input as call("scratch/fetch", {"server": "scratch", "annotations": hints(true, false, true)})
	not d.allow
	not d.ask
}

test_a_tool_that_is_not_from_mcp_is_not_permitted_here if {
	d := authz.decision with input as object.remove(call("payments/send", {}), ["tool"])
	not d.allow
}
