# Rules about the tools of upstream MCP servers (`cordon mcp` or
# `cordon run` with mcp_servers), from input.tool.server and
# input.tool.annotations (readOnlyHint, destructiveHint, idempotentHint,
# openWorldHint).
#
# The annotations are what the config says of a tool, not what its server
# claims: cordon passes a server's own annotations only when its
# mcp_servers entry says trust_annotations: true, and the hints the entry
# pins (annotations: {TOOL: {readOnlyHint: true}}) always; every other
# tool has MCP's defaults (not read-only, destructive, open world). Even
# so, no rule here permits on a hint alone: a tool is permitted because
# its server is one this policy names, within a call limit, and the hints
# only spare a person the question for a read-only tool.
#
# Use it with config.yaml here (`cordon policy lint` finds nothing in it).
# Test: cordon policy test examples/mcp-policy
package cordon.authz

# The servers whose tools scripts may call.
mcp_servers := {"github", "docs", "scratch"}

# The calls of one server's tools allowed per counter scope (a session,
# unless the config's counters say otherwise), asks awaiting an answer
# included.
mcp_max_calls := 50

mcp_server_calls := sum([n |
	some method, n in input.calls
	startswith(method, concat("", [input.tool.server, "/"]))
])

# region permit
permit contains sprintf("a tool of MCP server %s", [input.tool.server]) if {
	input.tool.server in mcp_servers
}
# endregion

deny contains sprintf("%s: the %d calls allowed of MCP server %s are used up", [input.method, mcp_max_calls, input.tool.server]) if {
	input.tool.server in mcp_servers
	mcp_server_calls >= mcp_max_calls
}

# A person approves every call of an MCP tool that the config does not say
# is read-only (over MCP, an elicitation request to the client).
# region ask
ask contains sprintf("%s may change something (the config does not say it is read-only; MCP server %s)", [input.method, input.tool.server]) if {
	input.tool.server != ""
	not input.tool.annotations.readOnlyHint
}
# endregion

# Nothing of the server "scratch" may reach outside it: its tools are
# denied unless the config pins openWorldHint: false for them.
deny contains sprintf("%s may reach outside the scratch server (pin openWorldHint: false for it in the config once you have checked it does not)", [input.method]) if {
	input.tool.server == "scratch"
	input.tool.annotations.openWorldHint
}
