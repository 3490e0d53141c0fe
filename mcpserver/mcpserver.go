// Package mcpserver serves cordon's code mode over the Model Context
// Protocol: any MCP client sees two tools, run_javascript {"code"} and
// run_shell {"script"}, whose scripts run in a cordon sandbox where every
// tool call goes through the policy.
//
// Each MCP session gets its own sandbox (a codemode session): its files
// and counters persist across the session's calls and are never seen by
// another session. The sandbox is closed when the MCP session ends, or
// after the codemode tool's idle timeout ([codemode.Options.IdleTimeout]).
//
// Over HTTP every request carries a bearer token ([Options.Verifier]:
// StaticToken, JWTVerifier or one's own), whose subject is the principal:
// the session is bound to it, and code mode sees it. Sessions are bounded
// in number, per principal and in memory (Options).
//
//	run := codemode.New(eng, engine.SandboxConfig{Tools: tools, Policy: pol}, nil)
//	verify, err := mcpserver.StaticToken(token, "ci")
//	srv := mcpserver.New(run, mcpserver.Options{Verifier: verify, MaxSessions: 16})
//	defer srv.Close(context.Background())
//	err = srv.Run(ctx, &mcp.StdioTransport{})             // stdio
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
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configures New.
type Options struct {
	// Name and Version are the server's implementation info (default
	// "cordon" and "dev").
	Name, Version string
	// MaxSessions bounds the MCP sessions open at once; 0 (or less) is no
	// bound. A session over a bound is refused: over HTTP its initialize
	// request gets a 503 with a JSON-RPC error that names the bound,
	// otherwise its initialize request fails with that error.
	MaxSessions int
	// MaxSessionsPerPrincipal bounds the sessions one principal holds at
	// once (see PrincipalFrom); 0 (or less) is no bound. It keeps one
	// client from taking every session of a shared server.
	MaxSessionsPerPrincipal int
	// SessionMemoryMB is what one session may hold in memory, in MiB: its
	// sandbox is one guest with the engine's memory limit, so that limit
	// ([engine.Config.WithMemoryLimitMB]) is the right value. With
	// MemoryBudgetMB it bounds the sessions open at once.
	SessionMemoryMB int
	// MemoryBudgetMB bounds the sum of SessionMemoryMB over the open
	// sessions, in MiB; 0 (or less) is no bound, and so is a
	// SessionMemoryMB of 0 (or less).
	MemoryBudgetMB int
	// Instructions, if set, are sent to clients at initialization.
	Instructions string
	// Logger receives the SDK's log of server activity (default: none).
	Logger *slog.Logger

	// Verifier checks the bearer token of every request HTTPHandler
	// serves (StaticToken, JWTVerifier, or one's own); the UserID of the
	// [auth.TokenInfo] it returns is the request's principal, and must be
	// set. A request without a valid token gets a 401 with a
	// WWW-Authenticate: Bearer header, as the MCP specification's
	// authorization section asks. Without a Verifier, HTTPHandler serves
	// only requests that the embedder authenticated before it (with
	// [auth.RequireBearerToken], whose TokenInfo must have a UserID), or, with
	// AllowUnauthenticated, every request.
	Verifier auth.TokenVerifier
	// ResourceMetadataURL, if set, is the URL of the server's OAuth 2.0
	// protected resource metadata (RFC 9728), which a 401's
	// WWW-Authenticate header names so that a client can find the
	// authorization server.
	ResourceMetadataURL string
	// AllowUnauthenticated lets HTTPHandler serve requests that carry no
	// authenticated identity when there is no Verifier; their principal is
	// Principal. Anyone who reaches the handler can then run scripts with
	// every tool the sandbox has.
	AllowUnauthenticated bool
	// Principal is the principal of sessions that carry no authenticated
	// identity: sessions over stdio or in memory, and unauthenticated ones
	// over HTTP (default: none, "").
	Principal string
}

// Server is an MCP server over a pair of codemode tools.
type Server struct {
	run  *codemode.Runner
	opts Options
	mcp  *mcp.Server

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
	live     int            // sessions admitted and not yet ended
	byOwner  map[string]int // live sessions by principal
	closed   bool
}

// session is an MCP session the server admitted.
type session struct {
	id        string // the codemode session
	principal string // who opened it; its requests must come from them
}

// New returns a server whose tools are run's pair ([codemode.Runner.Tools]):
// run_javascript and run_shell, with their generated descriptions.
func New(run *codemode.Runner, opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "cordon"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{run: run, opts: opts, sessions: map[*mcp.ServerSession]*session{}, byOwner: map[string]int{}}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Version: opts.Version}, &mcp.ServerOptions{
		Instructions: opts.Instructions,
		Logger:       logger,
		// Logging: the client that sets a level gets the denials and a
		// summary of each run as log notifications (logRun).
		//lint:ignore SA1019 the versions served (legacyVersions) predate logging's deprecation
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Logging: &mcp.LoggingCapabilities{}},
		// Protocol 2026-07-28 forbids server-initiated elicitation (SEP-2322:
		// a paused tools/call instead), on which Elicit relies: serve the
		// versions before it.
		SupportedProtocolVersions: legacyVersions(),
	})
	// A session is admitted, or refused, by its initialize request, so that
	// the bounds hold exactly however many sessions start at once.
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && method == "initialize" {
				if _, msg := s.track(ss, s.principalOf(req.GetExtra())); msg != "" {
					return nil, &jsonrpc.Error{Code: codeRefused, Message: msg}
				}
			}
			return next(ctx, method, req)
		}
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

// codeRefused is the JSON-RPC error code of a refused session: the
// implementation-defined server error.
const codeRefused = -32000

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

func title(t *codemode.Runner) string {
	if t.Language() == engine.Shell {
		return "Run a shell script in the cordon sandbox"
	}
	return "Run JavaScript in the cordon sandbox"
}

// MCP returns the underlying SDK server, to connect it to a transport of
// one's own ([Server.Connect]) or to add features.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one MCP session over t ([mcp.StdioTransport], say) until the
// client ends it or ctx ends; its sandbox is closed when it returns. The
// session's principal is [Options.Principal].
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	err := s.mcp.Run(ctx, t)
	return err
}

// Connect connects a session over t and returns at once, as
// [mcp.Server.Connect] does. The session's principal is [Options.Principal].
func (s *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return s.mcp.Connect(ctx, t, nil)
}

// HTTPHandler returns the streamable HTTP handler of the server (mount it
// at /mcp). Every request is authenticated first ([Options.Verifier]); a
// request on a session must come from the principal that opened it (else
// 403); a new session over a bound gets a 503 whose JSON-RPC error names
// the bound. opts may be nil; its SessionTimeout closes sessions idle that
// long, which is what frees the slots of clients that vanish. Each SSE
// stream starts with a retry field (DefaultSSERetry) and, as the SDK does
// when there is an event store, a priming event with an id: without
// opts.EventStore, an in-memory one of DefaultEventStoreBytes is used.
func (s *Server) HTTPHandler(opts *mcp.StreamableHTTPOptions) http.Handler {
	o := mcp.StreamableHTTPOptions{}
	if opts != nil {
		o = *opts
	}
	if o.EventStore == nil {
		// With an event store the SDK primes each SSE stream with an event
		// id, so that a client can resume a broken stream.
		es := mcp.NewMemoryEventStore(nil)
		es.SetMaxBytes(DefaultEventStoreBytes)
		o.EventStore = es
	}
	h := sseRetry(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &o))
	bounded := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			if msg := s.refusal(s.principalOfRequest(r)); msg != "" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				body, _ := json.Marshal(map[string]any{
					"jsonrpc": "2.0", "id": nil,
					"error": map[string]any{"code": codeRefused, "message": msg},
				})
				w.Write(body)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
	return s.authenticate(bounded)
}

// refusal says why a new session of principal would be refused now, or
// returns "" when it would be admitted.
func (s *Server) refusal(principal string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refusalLocked(principal)
}

func (s *Server) refusalLocked(principal string) string {
	o := s.opts
	switch {
	case s.closed:
		return "cordon: the server is shutting down"
	case o.MaxSessions > 0 && s.live >= o.MaxSessions:
		return fmt.Sprintf("cordon: too many sessions: the server holds at most %d at once (max-sessions %d); end another session or try again later", o.MaxSessions, o.MaxSessions)
	case o.MaxSessionsPerPrincipal > 0 && s.byOwner[principal] >= o.MaxSessionsPerPrincipal:
		return fmt.Sprintf("cordon: too many sessions for principal %q: each principal holds at most %d at once (max-sessions-per-principal %d); end another of its sessions or try again later", principal, o.MaxSessionsPerPrincipal, o.MaxSessionsPerPrincipal)
	case o.MemoryBudgetMB > 0 && o.SessionMemoryMB > 0 && (s.live+1)*o.SessionMemoryMB > o.MemoryBudgetMB:
		return fmt.Sprintf("cordon: session memory budget reached: %d sessions of %d MiB each hold %d MiB of the %d MiB budget (session-memory %d); end another session or try again later", s.live, o.SessionMemoryMB, s.live*o.SessionMemoryMB, o.MemoryBudgetMB, o.MemoryBudgetMB)
	}
	return ""
}

// Sessions returns how many sessions are open and admitted.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live
}

// principalOf returns the principal of a request with extra, which the
// HTTP handler's authentication put there, or [Options.Principal].
func (s *Server) principalOf(extra *mcp.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil {
		return extra.TokenInfo.UserID
	}
	return s.opts.Principal
}

// principalOfRequest is principalOf for an HTTP request that passed
// authenticate.
func (s *Server) principalOfRequest(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return ti.UserID
	}
	return s.opts.Principal
}

// track returns ss's session, admitting it on first sight as principal's,
// or the message that refuses it.
func (s *Server) track(ss *mcp.ServerSession, principal string) (*session, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.sessions[ss]; st != nil {
		return st, ""
	}
	if msg := s.refusalLocked(principal); msg != "" {
		return nil, msg
	}
	st := &session{id: newID(), principal: principal}
	s.live++
	s.byOwner[principal]++
	s.sessions[ss] = st
	go func() {
		_ = ss.Wait()
		s.end(ss)
	}()
	return st, ""
}

// end forgets ss and closes its sandbox.
func (s *Server) end(ss *mcp.ServerSession) {
	s.mu.Lock()
	st := s.sessions[ss]
	if st != nil {
		delete(s.sessions, ss)
		s.live--
		if s.byOwner[st.principal]--; s.byOwner[st.principal] <= 0 {
			delete(s.byOwner, st.principal)
		}
	}
	s.mu.Unlock()
	if st != nil {
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

func (s *Server) handler(t *codemode.Runner) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		principal := s.principalOf(req.Extra)
		st, msg := s.track(req.Session, principal)
		if msg != "" {
			return errorResult("refused", msg), nil
		}
		if st.principal != principal {
			// The HTTP handler refuses such a request before it gets here;
			// this holds for any other transport too.
			return errorResult("refused", "cordon: this session belongs to another principal"), nil
		}
		args := "{}"
		if req.Params != nil && len(req.Params.Arguments) > 0 {
			args = string(req.Params.Arguments)
		}
		ctx = context.WithValue(ctx, sessionKey{}, req.Session) // for Elicit
		// Code mode scopes the counters to the principal and shows it to
		// the policy (input.session.principal); PrincipalFrom reads it.
		ctx = codemode.WithPrincipal(ctx, st.principal)
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
		logRun(ctx, req.Session, t.Name(), r)
		return res, nil
	}
}

// errorResult is a call that ran no script, in the shape of a
// [codemode.Result].
func errorResult(kind, msg string) *mcp.CallToolResult {
	r := &codemode.Result{ExitCode: 1, Value: json.RawMessage("null"), Error: &codemode.Error{Kind: engine.Kind(kind), Message: msg}, ToolCalls: []codemode.ToolCall{}}
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

// Defaults of the cordon mcp command; RATIONALE.md ("cordon mcp --http:
// authenticated and bounded") says why.
const (
	// DefaultSessionIdle is the idle time after which the command closes a
	// session's sandbox, and, over HTTP, the session itself.
	DefaultSessionIdle = 30 * time.Minute
	// DefaultMaxSessions is the command's bound on sessions open at once.
	DefaultMaxSessions = 16
	// DefaultMaxSessionsPerPrincipal is the command's bound on the
	// sessions of one principal when principals come from JWTs; with a
	// static token or no authentication every client is one principal, and
	// the bound is DefaultMaxSessions.
	DefaultMaxSessionsPerPrincipal = 4
	// DefaultEventStoreBytes bounds the events HTTPHandler keeps, across
	// sessions, for clients that resume a broken SSE stream, when its
	// options give no event store of their own.
	DefaultEventStoreBytes = 4 << 20
	// DefaultMemoryBudgetMB is the command's budget for the guest memory
	// of all sessions, in MiB: 16 guests at [engine.DefaultMemoryMB].
	DefaultMemoryBudgetMB = 4096
)
