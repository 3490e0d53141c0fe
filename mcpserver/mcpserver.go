// Package mcpserver serves cordon's code mode over the Model Context
// Protocol: any MCP client sees two tools, run_javascript {"code"} and
// run_shell {"script"}, whose scripts run in a cordon sandbox where every
// tool call goes through the policy.
//
// Each MCP session gets its own sandbox (a codemode session): its files
// and counters persist across the session's calls and are never seen by
// another session. The sandbox is closed when the MCP session ends, or
// after the codemode tool's idle timeout (codemode.WithIdleTimeout).
//
//	run := codemode.New(eng, tools, codemode.WithPolicy(pol))
//	srv := mcpserver.New(run, mcpserver.Options{MaxSessions: 16})
//	defer srv.Close(context.Background())
//	err := srv.Run(ctx, &mcp.StdioTransport{})           // stdio
//	http.Handle("/mcp", srv.HTTPHandler(nil))            // or streamable HTTP
package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/engine"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configures New.
type Options struct {
	// Name and Version are the server's implementation info (default
	// "cordon" and "dev").
	Name, Version string
	// MaxSessions bounds the MCP sessions open at once; 0 is no bound. A
	// session over the bound is refused: over HTTP its initialize request
	// gets a 503 with a JSON-RPC error, otherwise its tool calls return an
	// error that says so.
	MaxSessions int
	// Instructions, if set, are sent to clients at initialization.
	Instructions string
	// Logger receives the SDK's log of server activity (default: none).
	Logger *slog.Logger
}

// Server is an MCP server over a pair of codemode tools.
type Server struct {
	run  *codemode.Tool
	opts Options
	mcp  *mcp.Server

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
	live     int
	closed   bool
}

// session is an MCP session as the server tracks it.
type session struct {
	id      string // the codemode session
	refused bool   // over MaxSessions
}

// New returns a server whose tools are run's pair (codemode.Tool.Tools):
// run_javascript and run_shell, with their generated descriptions.
func New(run *codemode.Tool, opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "cordon"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{run: run, opts: opts, sessions: map[*mcp.ServerSession]*session{}}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Version: opts.Version}, &mcp.ServerOptions{
		Instructions: opts.Instructions,
		Logger:       logger,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		// Protocol 2026-07-28 forbids server-initiated elicitation (SEP-2322:
		// a paused tools/call instead), on which Elicit relies: serve the
		// versions before it.
		SupportedProtocolVersions: legacyVersions(),
		InitializedHandler: func(_ context.Context, req *mcp.InitializedRequest) {
			s.track(req.Session)
		},
	})
	for _, t := range run.Tools() {
		s.mcp.AddTool(&mcp.Tool{
			Name:         t.Name(),
			Description:  t.Description(),
			InputSchema:  t.InputSchema(),
			OutputSchema: t.OutputSchema(),
			Annotations:  &mcp.ToolAnnotations{Title: title(t), OpenWorldHint: ptr(true)},
		}, s.handler(t))
	}
	return s
}

// legacyVersions are the protocol versions the SDK supports before
// 2026-07-28.
func legacyVersions() []string {
	var out []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v < "2026-07-28" {
			out = append(out, v)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func title(t *codemode.Tool) string {
	if t.Language() == engine.Shell {
		return "Run a shell script in the cordon sandbox"
	}
	return "Run JavaScript in the cordon sandbox"
}

// MCP returns the underlying SDK server, to connect it to a transport of
// one's own (Server.Connect) or to add features.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one MCP session over t (mcp.StdioTransport, say) until the
// client ends it or ctx ends; its sandbox is closed when it returns.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	err := s.mcp.Run(ctx, t)
	return err
}

// Connect connects a session over t and returns at once, as
// mcp.Server.Connect does.
func (s *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return s.mcp.Connect(ctx, t, nil)
}

// HTTPHandler returns the streamable HTTP handler of the server (mount it
// at /mcp). A new session over MaxSessions gets a 503. opts may be nil.
func (s *Server) HTTPHandler(opts *mcp.StreamableHTTPOptions) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, opts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" && s.full() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			body, _ := json.Marshal(map[string]any{
				"jsonrpc": "2.0", "id": nil,
				"error": map[string]any{"code": -32000, "message": s.fullMessage()},
			})
			w.Write(body)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// full reports whether MaxSessions sessions are open. It counts the
// sessions that completed their initialization (the SDK's own list also
// holds short-lived ones, such as a probe's), so two sessions that
// initialize at once may both pass here: the second is then refused at
// its first tool call.
func (s *Server) full() bool {
	if s.opts.MaxSessions <= 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live >= s.opts.MaxSessions
}

func (s *Server) fullMessage() string {
	return fmt.Sprintf("cordon: too many sessions: the server holds at most %d at once (--max-sessions); end another session or try again later", s.opts.MaxSessions)
}

// Sessions returns how many sessions are open and not refused.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live
}

// track returns ss's session, registering it on first sight.
func (s *Server) track(ss *mcp.ServerSession) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.sessions[ss]; st != nil {
		return st
	}
	st := &session{id: newID()}
	if s.closed || (s.opts.MaxSessions > 0 && s.live >= s.opts.MaxSessions) {
		st.refused = true
	} else {
		s.live++
	}
	s.sessions[ss] = st
	go func() {
		_ = ss.Wait()
		s.end(ss)
	}()
	return st
}

// end forgets ss and closes its sandbox.
func (s *Server) end(ss *mcp.ServerSession) {
	s.mu.Lock()
	st := s.sessions[ss]
	delete(s.sessions, ss)
	if st != nil && !st.refused {
		s.live--
	}
	s.mu.Unlock()
	if st != nil && !st.refused {
		_ = s.run.Close(context.Background(), st.id)
	}
}

// Close closes every session's sandbox (a script still running ends with
// an error of kind closed) and then every MCP session. The server refuses
// sessions afterwards.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	_ = s.run.CloseAll(ctx)
	for ss := range s.mcp.Sessions() {
		_ = ss.Close()
	}
	return nil
}

func (s *Server) handler(t *codemode.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		st := s.track(req.Session)
		if st.refused {
			msg := s.fullMessage()
			s.mu.Lock()
			if s.closed {
				msg = "cordon: the server is shutting down"
			}
			s.mu.Unlock()
			return errorResult("refused", msg), nil
		}
		args := "{}"
		if req.Params != nil && len(req.Params.Arguments) > 0 {
			args = string(req.Params.Arguments)
		}
		ctx = context.WithValue(ctx, sessionKey{}, req.Session) // for Elicit
		r, err := t.Run(codemode.WithSession(ctx, st.id), args)
		if r == nil {
			if err == nil {
				err = fmt.Errorf("the script did not run")
			}
			kind := string(engine.KindOf(err))
			if kind == "" {
				kind = "failed"
			}
			return errorResult(kind, "cordon: "+err.Error()), nil
		}
		res := &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: r.Text()}},
			StructuredContent: r,
			IsError:           r.IsError() || err != nil,
		}
		return res, nil
	}
}

// errorResult is a call that ran no script, in the shape of a
// codemode.Result.
func errorResult(kind, msg string) *mcp.CallToolResult {
	r := &codemode.Result{ExitCode: 1, Value: json.RawMessage("null"), Error: &codemode.Error{Kind: kind, Message: msg}, ToolCalls: []codemode.ToolCall{}}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: msg}},
		StructuredContent: r,
		IsError:           true,
	}
}

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "mcp-" + hex.EncodeToString(b[:])
}

// DefaultSessionIdle is the idle time after which the cordon mcp command
// closes a session's sandbox, and, over HTTP, the session itself.
const DefaultSessionIdle = 30 * time.Minute
