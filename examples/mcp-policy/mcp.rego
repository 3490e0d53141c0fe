# Rules about the tools of upstream MCP servers (`cordon mcp` with
# mcp_servers), from what their servers say of them: input.tool.server and
# input.tool.annotations (readOnlyHint, destructiveHint, idempotentHint,
# openWorldHint, with MCP's defaults filled in). Use it with a config:
#
#   mcp_servers: [{name: github, command: [github-mcp-server, stdio]}]
#   policies: [mcp.rego]
#
# Test: cordon policy test examples/mcp-policy
package cordon.authz

# A read-only tool of any MCP server may be called.
permit contains "a read-only MCP tool" if {
	input.tool.annotations.readOnlyHint
}

# Other MCP tools may be called too, but a destructive one needs a person's
# approval (over MCP, an elicitation request to the client).
permit contains "an MCP tool, with approval if destructive" if {
	input.tool.server != ""
}

ask contains sprintf("%s may be destructive (MCP server %s says so, or says nothing)", [input.method, input.tool.server]) if {
	not input.tool.annotations.readOnlyHint
	input.tool.annotations.destructiveHint
}

# Nothing of the server "scratch" may touch the world outside it.
deny contains sprintf("%s reaches outside the scratch server", [input.method]) if {
	input.tool.server == "scratch"
	input.tool.annotations.openWorldHint
}
