// Package mcptools makes the tools of MCP servers tools of a cordon
// sandbox: each upstream tool becomes an engine.Tool named SERVER/<tool>,
// with its description, input schema and output schema, whose handler calls
// the upstream server. Every call a script makes to it goes through the
// sandbox's policy like any other tool call.
//
//	cs, _ := mcp.NewClient(impl, nil).Connect(ctx, transport, nil)
//	tools, _ := mcptools.Import(ctx, "github", cs)   // github/<tool>, ...
//
// Start connects to the servers of a config's mcp_servers and imports them
// all, once per process; its tools are shared by every sandbox.
package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Info is what an imported tool's engine.Tool does not say of it.
type Info struct {
	// Server is the name the tools were imported under.
	Server string
	// Upstream is the tool's name on the server (the engine tool's name
	// may differ: see Import).
	Upstream string
	// Annotations are the tool's MCP annotations, or nil.
	Annotations *mcp.ToolAnnotations
}

// Import lists the tools of the MCP client session cs and returns them as
// engine tools named server/<tool>, in the server's order. A tool name
// with characters a tool name segment cannot hold (anything but letters,
// digits, "_", "-" and ":"; "." and "/" included, so that each upstream
// tool is one name under server/) gets "_" for each of them, and a name
// that is "__proto__", "constructor" or "prototype" gets a trailing "_";
// the description then gives the upstream name. Two tools whose names map
// to the same name are an error, as is an empty name. infos, if not nil,
// receives each tool's Info by engine name.
//
// A handler calls the upstream tool with the call's context (so within the
// execution's time limit); its result is the upstream result's
// structuredContent if present, else its text parsed as JSON if it parses,
// else the text. An upstream result with isError, or a failed call (the
// server died, or did not answer in time), is an error: the script gets a
// ToolError of kind "failed" with the upstream's text.
func Import(ctx context.Context, server string, cs *mcp.ClientSession, infos map[string]Info) ([]engine.Tool, error) {
	var list []*mcp.Tool
	params := &mcp.ListToolsParams{}
	for {
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("MCP server %s: listing its tools: %w", server, err)
		}
		list = append(list, res.Tools...)
		if res.NextCursor == "" || len(list) > 100000 {
			break
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	var tools []engine.Tool
	seen := map[string]string{}
	for _, t := range list {
		if t == nil || t.Name == "" {
			return nil, fmt.Errorf("MCP server %s: a tool has no name", server)
		}
		seg := mapName(t.Name)
		name := server + "/" + seg
		if prev, ok := seen[seg]; ok {
			return nil, fmt.Errorf("MCP server %s: tools %q and %q would both be %s", server, prev, t.Name, name)
		}
		seen[seg] = t.Name
		desc := t.Description
		if desc == "" && t.Annotations != nil {
			desc = t.Annotations.Title
		}
		if desc == "" {
			desc = t.Title
		}
		if seg != t.Name {
			desc = strings.TrimSpace(desc + fmt.Sprintf("\n(MCP tool %q of server %s.)", t.Name, server))
		}
		if hints := hintText(t.Annotations); hints != "" {
			desc = strings.TrimSpace(desc + "\n" + hints)
		}
		et := engine.Tool{Name: name, Description: desc, Handler: handler(server, t.Name, cs), Policy: PolicyInfo(server, t.Annotations)}
		var err error
		if et.InputSchema, err = schemaJSON(t.InputSchema); err != nil {
			return nil, fmt.Errorf("MCP server %s: tool %s: input schema: %w", server, t.Name, err)
		}
		if et.OutputSchema, err = schemaJSON(t.OutputSchema); err != nil {
			return nil, fmt.Errorf("MCP server %s: tool %s: output schema: %w", server, t.Name, err)
		}
		tools = append(tools, et)
		if infos != nil {
			infos[name] = Info{Server: server, Upstream: t.Name, Annotations: t.Annotations}
		}
	}
	return tools, nil
}

// PolicyInfo is what the policy sees of a tool of server with annotations
// a (nil for none) as input.tool: the server's name and the four hints,
// with MCP's defaults (readOnlyHint false, destructiveHint true,
// idempotentHint false, openWorldHint true) where a does not say.
func PolicyInfo(server string, a *mcp.ToolAnnotations) *authz.ToolInfo {
	ann := map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
	if a != nil {
		ann["readOnlyHint"] = a.ReadOnlyHint
		ann["idempotentHint"] = a.IdempotentHint
		if a.DestructiveHint != nil {
			ann["destructiveHint"] = *a.DestructiveHint
		}
		if a.OpenWorldHint != nil {
			ann["openWorldHint"] = *a.OpenWorldHint
		}
	}
	return &authz.ToolInfo{Server: server, Annotations: ann}
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

// hintText says what the annotations say, for the description.
func hintText(a *mcp.ToolAnnotations) string {
	if a == nil {
		return ""
	}
	var h []string
	if a.ReadOnlyHint {
		h = append(h, "read-only")
	} else if a.DestructiveHint == nil || *a.DestructiveHint {
		h = append(h, "may be destructive")
	}
	if a.IdempotentHint {
		h = append(h, "idempotent")
	}
	if len(h) == 0 {
		return ""
	}
	return "(" + strings.Join(h, ", ") + ")"
}

func schemaJSON(s any) (json.RawMessage, error) {
	if s == nil {
		return nil, nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	if string(b) == "null" {
		return nil, nil
	}
	return b, nil
}

func handler(server, name string, cs *mcp.ClientSession) engine.Handler {
	return func(ctx context.Context, params json.RawMessage) (any, error) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: params})
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("MCP server %s did not answer in time (%v)", server, context.Cause(ctx))
			}
			return nil, fmt.Errorf("MCP server %s: %v", server, err)
		}
		return Value(res)
	}
}

// Value returns the value an MCP tool result stands for: its
// structuredContent if present, else its text content parsed as JSON if it
// parses, else the text (the text items joined by newlines); a result with
// no text is its content list. A result with isError is an error carrying
// its text.
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
		return nil, errors.New(text)
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

// Server is an upstream MCP server: a command that speaks MCP over stdio,
// or the URL of a streamable HTTP endpoint. config.MCPServer, the entry of
// a config file's mcp_servers list, is this type.
type Server struct {
	// Name is the namespace of the server's tools: its tool "search"
	// becomes NAME/search. Letters, digits, "_", "-" and ":".
	Name string `json:"name"`
	// Command is the argv of a stdio server; Env is added to cordon's
	// environment for it, and Cwd is its working directory (relative to the
	// config file's directory).
	Command []string          `json:"command,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	// URL is the endpoint of a streamable HTTP server (http or https);
	// Headers are sent with every request (Authorization, say).
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// Options configures Start.
type Options struct {
	// Dir is the directory relative cwd paths start from (the config
	// file's, config.Config.Dir, when the servers come from a config).
	Dir string
	// Stderr receives the stderr of stdio servers (default: discarded).
	Stderr io.Writer
	// StartTimeout bounds the start of each server, its initialization and
	// its tool list (default 30s).
	StartTimeout time.Duration
	// Client is the implementation info sent to the servers (default
	// cordon).
	Client *mcp.Implementation
}

// Upstreams are connected MCP servers and their imported tools.
type Upstreams struct {
	tools    []engine.Tool
	infos    map[string]Info
	sessions []*mcp.ClientSession
	once     sync.Once
}

// Start connects to each server, at once, and imports its tools (Import).
// An error names the server; the servers started are then stopped.
func Start(ctx context.Context, servers []Server, opts Options) (*Upstreams, error) {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 30 * time.Second
	}
	if opts.Client == nil {
		opts.Client = &mcp.Implementation{Name: "cordon", Version: "dev"}
	}
	u := &Upstreams{infos: map[string]Info{}}
	type started struct {
		cs    *mcp.ClientSession
		tools []engine.Tool
		infos map[string]Info
		err   error
	}
	out := make([]started, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
			defer cancel()
			cs, err := connect(sctx, s, opts)
			if err != nil {
				out[i].err = fmt.Errorf("mcp_servers[%d] (%s): cannot start: %w", i, s.Name, err)
				return
			}
			out[i].cs = cs
			out[i].infos = map[string]Info{}
			out[i].tools, err = Import(sctx, s.Name, cs, out[i].infos)
			if err != nil {
				out[i].err = fmt.Errorf("mcp_servers[%d] (%s): %w", i, s.Name, err)
			}
		}()
	}
	wg.Wait()
	var errs []error
	for _, o := range out {
		if o.cs != nil {
			u.sessions = append(u.sessions, o.cs)
		}
		if o.err != nil {
			errs = append(errs, o.err)
			continue
		}
		u.tools = append(u.tools, o.tools...)
		for k, v := range o.infos {
			u.infos[k] = v
		}
	}
	if err := errors.Join(errs...); err != nil {
		u.Close()
		return nil, err
	}
	return u, nil
}

func connect(ctx context.Context, s Server, opts Options) (*mcp.ClientSession, error) {
	var t mcp.Transport
	if s.URL != "" {
		hc := &http.Client{Transport: headerTransport{headers: s.Headers}}
		t = &mcp.StreamableClientTransport{Endpoint: s.URL, HTTPClient: hc}
	} else {
		cmd := exec.Command(s.Command[0], s.Command[1:]...)
		cmd.Env = os.Environ()
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		if s.Cwd != "" {
			cmd.Dir = s.Cwd
			if !filepath.IsAbs(s.Cwd) && opts.Dir != "" {
				cmd.Dir = filepath.Join(opts.Dir, s.Cwd)
			}
		}
		cmd.Stderr = opts.Stderr
		t = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	}
	return mcp.NewClient(opts.Client, nil).Connect(ctx, t, nil)
}

type headerTransport struct{ headers map[string]string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// Tools returns the imported tools of every server, in the servers' order.
func (u *Upstreams) Tools() []engine.Tool { return append([]engine.Tool(nil), u.tools...) }

// Info returns what is known of the imported tool name.
func (u *Upstreams) Info(name string) (Info, bool) {
	i, ok := u.infos[name]
	return i, ok
}

// Close ends the sessions with the servers; stdio servers are stopped.
func (u *Upstreams) Close() error {
	u.once.Do(func() {
		var wg sync.WaitGroup
		for _, cs := range u.sessions {
			wg.Add(1)
			go func() { defer wg.Done(); _ = cs.Close() }()
		}
		wg.Wait()
	})
	return nil
}
