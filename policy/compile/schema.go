package compile

import (
	"encoding/json"

	"github.com/open-policy-agent/opa/v1/ast"
)

// inputSchema is the JSON Schema of the input document.
const inputSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "cordon policy input",
  "description": "The input document of every cordon policy decision: one tool call.",
  "type": "object",
  "properties": {
    "method": {
      "type": "string",
      "description": "The method name of the tool, e.g. stripe/charges/create."
    },
    "params": {
      "type": "object",
      "description": "The params object of the call, as the script passed it."
    },
    "calls": {
      "type": "object",
      "description": "Calls made so far in the sandbox session, by method.",
      "additionalProperties": {"type": "integer"}
    },
    "capability_calls": {
      "type": "object",
      "description": "Calls charged so far to each capability, by index (\"0\", \"1\", ...).",
      "additionalProperties": {"type": "integer"}
    },
    "session": {
      "type": "object",
      "description": "The sandbox session.",
      "properties": {
        "id": {"type": "string", "description": "The session id."},
        "principal": {"type": "string", "description": "Who the session acts for: the authenticated MCP client's identity, or a name the embedding host set; empty when there is none."},
        "labels": {
          "type": "object",
          "description": "Labels the host gave the session.",
          "additionalProperties": {"type": "string"}
        },
        "flow": {
          "type": "object",
          "description": "What the calls allowed so far in the call counters' scope have touched.",
          "properties": {
            "labels": {
              "type": "object",
              "description": "For each tool label (private, untrusted, egress, ...), the number of allowed calls to tools with that label.",
              "additionalProperties": {"type": "integer"}
            }
          },
          "additionalProperties": false
        }
      },
      "additionalProperties": false
    },
    "language": {
      "type": "string",
      "description": "The language of the script: js or sh."
    },
    "tool": {
      "type": "object",
      "description": "What the host says of the tool, when it says anything: for a tool imported from an MCP server (mcp_servers), the server and its MCP annotations. Absent otherwise.",
      "properties": {
        "server": {"type": "string", "description": "The name of the MCP server the tool comes from."},
        "labels": {"type": "array", "items": {"type": "string"}, "description": "The tool's flow labels, as the host's configuration names them."},
        "annotations": {
          "type": "object",
          "description": "The tool's MCP annotations, with MCP's defaults filled in.",
          "properties": {
            "readOnlyHint": {"type": "boolean", "description": "The tool does not modify its environment (default false)."},
            "destructiveHint": {"type": "boolean", "description": "The tool may perform destructive updates (default true; meaningful when readOnlyHint is false)."},
            "idempotentHint": {"type": "boolean", "description": "Calling it again with the same arguments has no further effect (default false)."},
            "openWorldHint": {"type": "boolean", "description": "The tool interacts with an open world of external entities (default true)."}
          },
          "additionalProperties": false
        }
      },
      "additionalProperties": false
    }
  },
  "additionalProperties": false
}
`

// InputSchema returns the JSON Schema of the input document that cordon's
// policies see:
//
//	{"method": string, "params": object,
//	 "calls": {METHOD: integer}, "capability_calls": {"<index>": integer},
//	 "session": {"id": string, "labels": {KEY: string}, "principal": string,
//	             "flow": {"labels": {LABEL: integer}}},
//	 "language": string,
//	 "tool": {"server": string, "labels": [string],
//	          "annotations": {"readOnlyHint": boolean, ...}}}
//
// with no other properties allowed at the top level, in session or in
// tool; tool is present only for tools the host describes (MCP imports). Given
// to OPA's type checker (see SchemaSet), it turns a reference such as
// input.metod in a hand-written policy into a compile error. The caller
// owns the returned slice.
func InputSchema() []byte { return []byte(inputSchema) }

// SchemaSet returns InputSchema as an OPA schema set for the input
// document, for rego.Schemas or ast.Compiler.WithSchemas.
func SchemaSet() *ast.SchemaSet {
	var schema any
	if err := json.Unmarshal([]byte(inputSchema), &schema); err != nil {
		panic("compile: the input schema is not JSON: " + err.Error())
	}
	ss := ast.NewSchemaSet()
	ss.Put(ast.SchemaRootRef, schema)
	return ss
}
