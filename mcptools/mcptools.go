// Package mcptools makes the tools of MCP servers tools of a cordon
// sandbox: each upstream tool becomes an [engine.Tool] named SERVER/<tool>,
// with its description, input schema and output schema, whose handler calls
// the upstream server. Every call a script makes to it goes through the
// sandbox's policy like any other tool call.
//
//	cs, _ := mcp.NewClient(impl, nil).Connect(ctx, transport, nil)
//	tools, _ := mcptools.Import(ctx, "github", cs, nil)   // github/<tool>, ...
//
// Start connects to the servers of a config's mcp_servers and imports them
// all, once per process; its tools are shared by every sandbox.
//
// An upstream server is untrusted. What it says of its tools is text and
// hints, not facts: names and descriptions are made safe to show a model
// ([describe.SafeText]), schemas past a size and depth budget are refused,
// and its annotations (readOnlyHint, destructiveHint, ...) reach the
// policy only when the config trusts them ([Upstream.TrustAnnotations]) or
// pins them ([Upstream.Annotations]); otherwise the policy sees MCP's defaults.
// Under Start, a server's command gets a minimal environment, a url
// server's credentials never travel in clear text or to another host, a
// message over the frame limit fails its own call (ErrTooLarge) and not the
// connection, and a server that dies or drops the connection is started or
// connected again, with backoff, so that only the calls in flight fail.
package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Info is what an imported tool's [engine.Tool] does not say of it.
type Info struct {
	// Server is the name the tools were imported under.
	Server string
	// Upstream is the tool's name on the server (the engine tool's name
	// may differ: see Import).
	Upstream string
	// Annotations are the tool's MCP annotations as the server gave them,
	// or nil: hints, not facts. What the policy sees of them is the
	// engine tool's Policy ([Server.PolicyInfo]).
	Annotations *mcp.ToolAnnotations
}

// Upstream is an upstream MCP server: a command that speaks MCP over stdio,
// or the URL of a streamable HTTP endpoint. config.MCPServer, the entry of
// a config file's mcp_servers list, is this type.
type Upstream struct {
	// Name is the namespace of the server's tools: its tool "search"
	// becomes NAME/search. Letters, digits, "_", "-" and ":".
	Name string `json:"name"`
	// Command is the argv of a stdio server, and Cwd its working directory
	// (relative to the config file's directory). The command does not
	// inherit cordon's environment: it gets the variables DefaultEnv names
	// (PATH, HOME, LANG, ...) that are set, those InheritEnv names, and
	// Env, which is added last and wins.
	Command    []string          `json:"command,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
	InheritEnv []string          `json:"inherit_env,omitempty"`
	Cwd        string            `json:"cwd,omitempty"`
	// URL is the endpoint of a streamable HTTP server (http or https);
	// Headers are sent with every request to it (Authorization, say).
	// Headers, or credentials in the URL, are refused over plain http
	// unless the host is a loopback address (localhost, 127.0.0.1, ::1),
	// and a redirect to another host or from https to http is not
	// followed when there are any (ErrInsecureCredentials, ErrRedirect).
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// TrustAnnotations lets the policy see the annotations the server
	// gives its tools (input.tool.annotations). Without it, the policy
	// sees MCP's defaults for every tool of the server (readOnlyHint
	// false, destructiveHint true, idempotentHint false, openWorldHint
	// true), whatever the server claims, except where Annotations pins a
	// hint. Trust a server's annotations only when you trust the server.
	TrustAnnotations bool `json:"trust_annotations,omitempty"`
	// Annotations pins hints per tool, by the tool's name on the server:
	// the policy sees a pinned hint whatever the server says, and MCP's
	// default or (with TrustAnnotations) the server's own for the others.
	// Pin the hints you have checked.
	Annotations map[string]Hints `json:"annotations,omitempty"`
	// Labels are flow labels for every tool of the server
	// ([engine.Tool.Labels]): "untrusted" for a server that reads the
	// open web, "private" for one that reads a CRM, "egress" for one
	// that sends mail.
	Labels []string `json:"labels,omitempty"`
}

// Hints are MCP tool annotations, pinned by a config: each one that is
// set replaces what the server says of the tool ([Upstream.Annotations]).
type Hints struct {
	// ReadOnly is readOnlyHint: the tool does not change its environment.
	ReadOnly *bool `json:"readOnlyHint,omitempty"`
	// Destructive is destructiveHint: the tool may destroy or overwrite.
	Destructive *bool `json:"destructiveHint,omitempty"`
	// Idempotent is idempotentHint: calling the tool again with the same
	// arguments has no further effect.
	Idempotent *bool `json:"idempotentHint,omitempty"`
	// OpenWorld is openWorldHint: the tool reaches entities outside the
	// server (the web, other systems).
	OpenWorld *bool `json:"openWorldHint,omitempty"`
}

// DefaultHints returns MCP's defaults for a tool whose annotations say
// nothing, by the annotations' MCP names: readOnlyHint false,
// destructiveHint true, idempotentHint false, openWorldHint true. They are
// what the policy sees of a server whose annotations are not trusted.
func DefaultHints() map[string]bool {
	return map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
}

// PolicyInfo returns what the policy sees of the server's tool named tool
// (its name on the server), whose annotations the server gives as a (nil
// for none), as input.tool: the server's name and the four hints. Each
// hint is the one Annotations pins for the tool, else, when
// TrustAnnotations is set, the server's own, else MCP's default
// (DefaultHints).
func (s Upstream) PolicyInfo(tool string, a *mcp.ToolAnnotations) *authz.ToolInfo {
	ann := DefaultHints()
	if s.TrustAnnotations && a != nil {
		ann["readOnlyHint"] = a.ReadOnlyHint
		ann["idempotentHint"] = a.IdempotentHint
		if a.DestructiveHint != nil {
			ann["destructiveHint"] = *a.DestructiveHint
		}
		if a.OpenWorldHint != nil {
			ann["openWorldHint"] = *a.OpenWorldHint
		}
	}
	if p, ok := s.Annotations[tool]; ok {
		for name, v := range map[string]*bool{"readOnlyHint": p.ReadOnly, "destructiveHint": p.Destructive, "idempotentHint": p.Idempotent, "openWorldHint": p.OpenWorld} {
			if v != nil {
				ann[name] = *v
			}
		}
	}
	return &authz.ToolInfo{Server: s.Name, Annotations: ann}
}

// hintsKnown reports whether the policy sees the tool's hints as more than
// MCP's defaults: the server's are trusted, or some are pinned.
func (s Upstream) hintsKnown(tool string) bool {
	_, pinned := s.Annotations[tool]
	return s.TrustAnnotations || pinned
}

// Errors of the package, matched with [errors.Is].
var (
	// ErrTooLarge is matched by the error of a call whose answer from the
	// server is over the frame limit (FrameLimit): the call fails, the
	// connection goes on. The error is an [engine.ToolError] of kind
	// "too_large".
	ErrTooLarge = errors.New("mcptools: the server's answer is over the frame limit")
	// ErrUnavailable is matched by the error of a call made while its
	// server is down and waits to be reconnected.
	ErrUnavailable = errors.New("mcptools: the server is unavailable")
	// ErrClosed is matched by the error of a call made after Close.
	ErrClosed = errors.New("mcptools: closed")
	// ErrSchema is matched by the error of a tool left out because its
	// input or output schema is over the budget ([Options.MaxSchemaBytes],
	// [Options.MaxSchemaDepth]) or is not a JSON object (see SkipError).
	ErrSchema = errors.New("mcptools: schema refused")
	// ErrInsecureCredentials is matched by the error of a url server whose
	// headers or URL credentials would travel over plain http to a host
	// that is not a loopback address.
	ErrInsecureCredentials = errors.New("mcptools: credentials over plain http to a host that is not loopback")
	// ErrRedirect is matched by the error of a request to a url server
	// with credentials that redirected it to another host, or from https
	// to http: the redirect is not followed.
	ErrRedirect = errors.New("mcptools: redirect refused")
)

// SkipError says why a tool of a server was left out ([Upstream.Import],
// [Upstreams.Warnings]).
type SkipError struct {
	// Server is the server's name, and Tool the tool's name on it (made
	// safe to print).
	Server, Tool string
	// Err is why: it matches ErrSchema.
	Err error
}

// Error implements error.
func (e *SkipError) Error() string {
	return fmt.Sprintf("mcptools: MCP server %s: tool %s left out: %v", e.Server, e.Tool, e.Err)
}

// Unwrap returns Err.
func (e *SkipError) Unwrap() error { return e.Err }

// MaxTools bounds the tools one server may list; a server that lists more
// is an error.
const MaxTools = 10000

// maxDescription bounds the description of an imported tool: a longer one
// is cut, and says so.
const maxDescription = 16 << 10

// caller calls the upstream tool name with params.
type caller func(ctx context.Context, name string, params json.RawMessage) (any, error)

// Import lists the tools of the MCP client session cs and returns them as
// engine tools named server/<tool>, in the server's order, as
// Server{Name: server}.Import does: the server's annotations are not
// trusted. Where [Upstream.Import] would leave a tool out (a schema over the
// budget), Import fails, with a *SkipError naming it. infos, if not nil,
// receives each tool's Info by engine name.
func Import(ctx context.Context, server string, cs *mcp.ClientSession, infos map[string]Info) ([]engine.Tool, error) {
	tools, skipped, err := Upstream{Name: server}.Import(ctx, cs, infos)
	if err != nil {
		return nil, err
	}
	if len(skipped) > 0 {
		return nil, errors.Join(skipped...)
	}
	return tools, nil
}

// Import lists the tools of the MCP client session cs, connected to the
// server s, and returns them as engine tools named s.Name/<tool>, in the
// server's order, with the tools it left out, each a *SkipError.
//
// A tool name with characters a tool name segment cannot hold (anything
// but letters, digits, "_", "-" and ":"; "." and "/" included, so that each
// upstream tool is one name under s.Name/) gets "_" for each of them, and a
// name that is "__proto__", "constructor" or "prototype" gets a trailing
// "_"; the description then gives the upstream name. Two tools whose names
// map to the same name are an error, as is an empty name or more than
// MaxTools tools.
//
// Names, descriptions and the titles, descriptions and comments inside
// schemas are untrusted text: they are made safe to show a model
// ([describe.SafeText]: no line break but "\n", no control or format
// character, no run of three backticks), and a description over 16 KiB is
// cut. A tool whose input or output schema is over DefaultMaxSchemaBytes
// or nested deeper than DefaultMaxSchemaDepth is left out, before anything
// compiles the schema. The policy sees each tool as s.PolicyInfo says;
// when the hints are known (trusted or pinned) the description says them
// too ("read-only", "may be destructive", "idempotent").
//
// A handler calls the upstream tool with the call's context (so within the
// execution's time limit); its result is the upstream result's
// structuredContent if present, else its text parsed as JSON if it parses,
// else the text (Value). An upstream result with isError, an error answer,
// or a failed call (the server died, or did not answer in time) is an
// [engine.ToolError] of kind "failed": the script sees the upstream's text,
// or what happened, and the host keeps the cause. infos, if not nil,
// receives each tool's Info by engine name.
func (s Upstream) Import(ctx context.Context, cs *mcp.ClientSession, infos map[string]Info) (tools []engine.Tool, skipped []error, err error) {
	direct := func(ctx context.Context, name string, params json.RawMessage) (any, error) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: params})
		if err != nil {
			var we *jsonrpc.Error
			switch {
			case errors.As(err, &we):
				return nil, &engine.ToolError{Message: "MCP server " + s.Name + ": " + we.Message, Err: err}
			case ctx.Err() != nil:
				return nil, &engine.ToolError{Message: "MCP server " + s.Name + " did not answer in time", Err: context.Cause(ctx)}
			}
			return nil, &engine.ToolError{Message: "MCP server " + s.Name + ": the call failed without an answer", Err: err}
		}
		return Value(res)
	}
	return s.importTools(ctx, cs, direct, budget{}, infos)
}

// budget bounds an upstream's schemas; zero fields take the defaults.
type budget struct{ bytes, depth int }

// importTools is Import with the handler's caller and the schema budget
// given.
func (s Upstream) importTools(ctx context.Context, cs *mcp.ClientSession, call caller, b budget, infos map[string]Info) (tools []engine.Tool, skipped []error, err error) {
	var list []*mcp.Tool
	params := &mcp.ListToolsParams{}
	for {
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, nil, fmt.Errorf("mcptools: MCP server %s: listing its tools: %w", s.Name, err)
		}
		list = append(list, res.Tools...)
		if len(list) > MaxTools {
			return nil, nil, fmt.Errorf("mcptools: MCP server %s lists more than %d tools", s.Name, MaxTools)
		}
		if res.NextCursor == "" {
			break
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	seen := map[string]string{}
	for _, t := range list {
		if t == nil || t.Name == "" {
			return nil, nil, fmt.Errorf("mcptools: MCP server %s: a tool has no name", s.Name)
		}
		seg := mapName(t.Name)
		name := s.Name + "/" + seg
		if prev, ok := seen[seg]; ok {
			return nil, nil, fmt.Errorf("mcptools: MCP server %s: tools %s and %s would both be %s", s.Name, quoteName(prev), quoteName(t.Name), name)
		}
		seen[seg] = t.Name
		et := engine.Tool{Name: name, Description: s.description(t, seg), Policy: s.PolicyInfo(t.Name, t.Annotations), Labels: slices.Clone(s.Labels)}
		var serr error
		if et.InputSchema, serr = checkSchema(t.InputSchema, b); serr != nil {
			skipped = append(skipped, &SkipError{Server: s.Name, Tool: quoteName(t.Name), Err: fmt.Errorf("input schema: %w", serr)})
			continue
		}
		if et.OutputSchema, serr = checkSchema(t.OutputSchema, b); serr != nil {
			skipped = append(skipped, &SkipError{Server: s.Name, Tool: quoteName(t.Name), Err: fmt.Errorf("output schema: %w", serr)})
			continue
		}
		upstream := t.Name
		et.Handler = func(ctx context.Context, params json.RawMessage) (any, error) {
			return call(ctx, upstream, params)
		}
		tools = append(tools, et)
		if infos != nil {
			infos[name] = Info{Server: s.Name, Upstream: t.Name, Annotations: t.Annotations}
		}
	}
	return tools, skipped, nil
}

// description is what the model reads of an upstream tool: its
// description (or title), the upstream name when the engine name differs,
// and the hints when they are known, as safe text.
func (s Upstream) description(t *mcp.Tool, seg string) string {
	desc := t.Description
	if desc == "" && t.Annotations != nil {
		desc = t.Annotations.Title
	}
	if desc == "" {
		desc = t.Title
	}
	desc = strings.TrimSpace(describe.SafeText(desc))
	if len(desc) > maxDescription {
		cut := maxDescription
		for cut > 0 && !isRuneStart(desc[cut]) {
			cut--
		}
		desc = desc[:cut] + fmt.Sprintf(" [... cut: the description has %d bytes]", len(desc))
	}
	if seg != t.Name {
		desc = strings.TrimSpace(desc + fmt.Sprintf("\n(MCP tool %s of server %s.)", quoteName(t.Name), s.Name))
	}
	if s.hintsKnown(t.Name) {
		if hints := hintText(s.PolicyInfo(t.Name, t.Annotations).Annotations); hints != "" {
			desc = strings.TrimSpace(desc + "\n" + hints)
		}
	}
	return unfence(desc)
}

func isRuneStart(b byte) bool { return b&0xc0 != 0x80 }

// quoteName quotes an upstream name in ASCII, so that it shows every
// character it has and hides none.
func quoteName(s string) string {
	q := strconv.QuoteToASCII(s)
	if len(q) > 200 {
		q = q[:200] + `..."`
	}
	return q
}

// unfence breaks every run of three or more backticks, which would open or
// close a Markdown fenced code block.
func unfence(s string) string {
	for strings.Contains(s, "```") {
		s = strings.ReplaceAll(s, "```", "`` `")
	}
	return s
}

// mapName maps an upstream tool name to one name segment.
func mapName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == ':' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	switch out {
	case "__proto__", "constructor", "prototype":
		out += "_"
	}
	return out
}

// hintText says what the hints say, for the description.
func hintText(ann map[string]bool) string {
	var h []string
	if ann["readOnlyHint"] {
		h = append(h, "read-only")
	} else if ann["destructiveHint"] {
		h = append(h, "may be destructive")
	}
	if ann["idempotentHint"] {
		h = append(h, "idempotent")
	}
	if len(h) == 0 {
		return ""
	}
	return "(" + strings.Join(h, ", ") + ")"
}

// Value returns the value an MCP tool result stands for: its
// structuredContent if present, else its text content parsed as JSON if it
// parses, else the text (the text items joined by newlines); a result with
// no text is its content list. A result with isError is an
// [engine.ToolError] whose message, which the script sees, is its text.
func Value(res *mcp.CallToolResult) (any, error) {
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	text := strings.Join(texts, "\n")
	if res.IsError {
		if text == "" {
			text = "the tool reported an error"
		}
		return nil, &engine.ToolError{Message: text}
	}
	if res.StructuredContent != nil {
		return res.StructuredContent, nil
	}
	if len(texts) == 0 {
		if res.Content == nil {
			return []any{}, nil
		}
		return res.Content, nil
	}
	if json.Valid([]byte(text)) {
		return json.RawMessage(text), nil
	}
	return text, nil
}
