// Package codemode offers a cordon sandbox to a model as one "run code"
// tool: instead of calling ten tools through ten round trips, the model
// writes one script that calls them, and the tool runs it in the sandbox,
// where each call still goes through the policy.
//
// A Runner is framework-neutral. It has what every agent framework asks of a
// tool (Name, Description, InputSchema) and Call, which takes the model's
// arguments as JSON and returns text written for the model to read. The
// adapters under integrations/ wrap it in a few lines each:
//
//	run := codemode.New(eng, engine.SandboxConfig{Tools: tools, Policy: pol}, nil) // run_javascript {"code": ...}
//	sh := run.Shell()                                                            // run_shell {"script": ...}, same sessions
//	text, err := run.Call(codemode.WithSession(ctx, conversationID), `{"code": "return 1 + 1"}`)
//
// # Sessions
//
// A session is one conversation: its sandbox, and so its files and its
// tool-call counters, persist across the model's calls, and JavaScript and
// shell calls of one session share it. The session comes from the context
// (WithSession); a context without one uses DefaultSession, which suits a
// program that holds one conversation at a time. A server that holds many
// must give each its own id, or they share one sandbox. The sandbox is
// created on the session's first call and closed by Close, by CloseAll, or
// after [Options.IdleTimeout] of disuse. A Runner is safe for concurrent use, by
// one session or many; the calls of one session run one at a time.
//
// # Results
//
// Call's text has the script's stdout, then its stderr and error, if any,
// the value it returned, and the tool calls that were denied or failed,
// with their reasons; it is cut to [Options.Budget] bytes (DefaultBudget), and
// what is cut is saved in the session's sandbox, under /tmp/cordon, where
// the model's next script can read it. Run returns the same as a Result,
// which the MCP server sends as structured content. Call returns an error
// only when the script could not be run for a reason the model cannot fix
// (the engine is closed, the session was closed, ctx ended, the tools are
// invalid); everything else, bad arguments included, is text for the model
// with [Result.IsError] set.
//
// # Approval
//
// A call the policy asks about goes to the sandbox's Approver
// ([engine.SandboxConfig.Approve]) when there is one. Otherwise Run denies it, and Start pauses the script there and
// returns a Result whose Pause lists the asks; Resume answers them and the
// script goes on. The adapters map this onto their framework's own
// human-in-the-loop mechanism.
package codemode

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/engine"
)

// The tools' names, as the MCP server exposes them too.
const (
	// JavaScriptName is the name of the JavaScript tool, whose input is
	// {"code": string}.
	JavaScriptName = "run_javascript"
	// ShellName is the name of the shell tool, whose input is
	// {"script": string}.
	ShellName = "run_shell"
)

// DefaultSession is the session of a context that names none (WithSession).
const DefaultSession = "default"

// DefaultBudget is the default size of Call's text, in bytes: about 4000
// tokens.
const DefaultBudget = 16 << 10

// MinBudget is the smallest [Options.Budget]; a smaller one is
// raised to it.
const MinBudget = 1024

// DefaultSpillDir is where, in the session's sandbox, cut output is saved.
const DefaultSpillDir = "/tmp/cordon"

// spillSlots is how many cut results keep their files: the fifth cut
// result of a session overwrites the first one's.
const spillSlots = 4

// Options tune a Runner beyond the configuration of its sandboxes
// (New's engine.SandboxConfig). The zero value, like a nil *Options, gives
// every default.
type Options struct {
	// Budget is the most bytes Call's text (and a Result's stdout, stderr
	// and value together) may hold: DefaultBudget when 0, and at least
	// MinBudget.
	Budget int
	// SpillDir is the directory of the session's sandbox where the full
	// stdout, stderr or value of a cut result is saved: DefaultSpillDir
	// when "". It should be writable by scripts (under /tmp or
	// /workspace). The files count against the VFS quota; each session
	// keeps those of its last four cut results. NoSpill saves nothing.
	SpillDir string
	NoSpill  bool
	// IdleTimeout closes a session's sandbox after that long without a
	// call (and with no call running). A later call of that session starts
	// a new, empty sandbox; its call counters continue (see
	// [engine.SandboxConfig.Counters]). A paused run (Start) counts as
	// idle. Zero: sessions live until Close or CloseAll.
	IdleTimeout time.Duration
	// Setup, when set, runs on each new session's sandbox before its first
	// script, to put data files in place, say ([engine.Sandbox.WriteFile],
	// ImportTar).
	Setup func(ctx context.Context, sb *engine.Sandbox) error
}

// config is what a Runner's sessions share of New's arguments.
type config struct {
	sandbox  engine.SandboxConfig
	budget   int
	spillDir string
	idle     time.Duration
	setup    func(context.Context, *engine.Sandbox) error
}

// Runner is a run-code tool over a cordon engine: run_javascript or
// run_shell. The two tools of one New share their sessions.
type Runner struct {
	lang engine.Language
	s    *shared
}

// shared is what the two tools of one New have in common.
type shared struct {
	eng   func(context.Context) (*engine.Engine, error)
	tools []engine.Tool
	cfg   config

	descOnce [2]sync.Once
	desc     [2]string

	mu       sync.Mutex
	sessions map[string]*session
	pauses   map[string]*paused
}

// New returns the JavaScript tool (JavaScriptName, input {"code": string})
// that runs scripts in sandboxes of eng; Shell returns its shell twin. Each
// session's sandbox is made from sandbox, the engine's own configuration:
// its tools, policy, limits, labels, counters, approver and audit, with
// the session's id as its ID and the principal of the context
// (WithPrincipal) as its Principal. Without a policy (or with a nil
// pointer), each tool may be called [engine.DefaultMaxCalls] times per
// session. When the policy has a method Capabilities() []*dsl.Capability,
// as both of cordon's have, the tool's description tells the model what
// its capabilities allow of each tool. Counters outlive a session's
// sandbox: a sandbox that breaks or idles out is replaced by one that
// continues from the same counts; under [counters.PerPrincipal] every
// session of one principal shares them, so that a client cannot reset a
// limit by opening a new session. With an Approver, a call the policy
// asks about is decided by it, under Run, Call and Start alike; without
// one, Run and Call deny such calls and Start pauses on them.
//
// The tools are checked when a session's sandbox is created: invalid ones
// make every Call fail with an error of kind [engine.KindInvalid] (call
// Check to find out at once). opts may be nil.
func New(eng *engine.Engine, sandbox engine.SandboxConfig, opts *Options) *Runner {
	return NewPending(func(context.Context) (*engine.Engine, error) { return eng, nil }, sandbox, opts)
}

// NewPending is New for an engine that is still being made, say compiled
// in the background while a server answers its clients' handshakes: the
// tools' names, schemas and descriptions are ready at once, and the first
// call that needs a sandbox waits for eng, which returns the engine or
// the error that made it fail (or ctx's error). eng is called for every
// sandbox, and must return the same engine each time.
func NewPending(eng func(context.Context) (*engine.Engine, error), sandbox engine.SandboxConfig, opts *Options) *Runner {
	var o Options
	if opts != nil {
		o = *opts
	}
	cfg := config{sandbox: sandbox, budget: max(o.Budget, MinBudget), spillDir: o.SpillDir, idle: o.IdleTimeout, setup: o.Setup}
	if o.Budget == 0 {
		cfg.budget = DefaultBudget
	}
	switch {
	case o.NoSpill:
		cfg.spillDir = ""
	case cfg.spillDir == "":
		cfg.spillDir = DefaultSpillDir
	}
	tools := sandbox.Tools
	s := &shared{
		eng:      eng,
		tools:    append([]engine.Tool(nil), tools...),
		cfg:      cfg,
		sessions: map[string]*session{},
		pauses:   map[string]*paused{},
	}
	return &Runner{lang: engine.JavaScript, s: s}
}

// JavaScript returns the JavaScript tool of t's pair.
func (t *Runner) JavaScript() *Runner { return &Runner{lang: engine.JavaScript, s: t.s} }

// Shell returns the shell tool of t's pair (ShellName, input
// {"script": string}), which shares t's sessions.
func (t *Runner) Shell() *Runner { return &Runner{lang: engine.Shell, s: t.s} }

// Tools returns both tools of t's pair, JavaScript first.
func (t *Runner) Tools() []*Runner { return []*Runner{t.JavaScript(), t.Shell()} }

// Language returns the language of the scripts t runs.
func (t *Runner) Language() engine.Language { return t.lang }

// Name returns the tool's name: JavaScriptName or ShellName.
func (t *Runner) Name() string {
	if t.lang == engine.Shell {
		return ShellName
	}
	return JavaScriptName
}

// argName is the key of the script in the tool's input.
func (t *Runner) argName() string {
	if t.lang == engine.Shell {
		return "script"
	}
	return "code"
}

// InputSchema returns the JSON Schema of the tool's input:
// {"code": string} for JavaScript, {"script": string} for the shell.
func (t *Runner) InputSchema() json.RawMessage {
	if t.lang == engine.Shell {
		return json.RawMessage(shellInputSchema)
	}
	return json.RawMessage(jsInputSchema)
}

const jsInputSchema = `{"type":"object","properties":{"code":{"type":"string","description":"The JavaScript to run: the body of an async function, so await and return work at the top level."}},"required":["code"],"additionalProperties":false}`

const shellInputSchema = `{"type":"object","properties":{"script":{"type":"string","description":"The bash-like shell script to run."}},"required":["script"],"additionalProperties":false}`

// OutputSchema returns the JSON Schema of a Result, for frameworks and
// protocols that declare the structured output of a tool (MCP's
// outputSchema).
func (t *Runner) OutputSchema() json.RawMessage { return json.RawMessage(outputSchema) }

// outputSchema declares a type for every property and no type arrays, as
// strict clients (the MCP Inspector's strict mode) require: "value", whose
// type is whatever the script returned, is described but not declared (a
// property without a type keyword is what such clients refuse), and
// "error" is left out when there is none.
const outputSchema = `{"type":"object",` +
	`"description":"The script's result. Besides these properties it has \"value\": the JSON value a JavaScript script returned, or null.",` +
	`"properties":{` +
	`"stdout":{"type":"string"},"stderr":{"type":"string"},"exit_code":{"type":"integer"},` +
	`"error":{"type":"object","description":"Why the script failed or was stopped; absent when it did not.","properties":{"kind":{"type":"string"},"message":{"type":"string"}},"required":["kind","message"]},` +
	`"tool_calls":{"type":"array","items":{"type":"object","properties":{"method":{"type":"string"},"allowed":{"type":"boolean"},"reasons":{"type":"array","items":{"type":"string"}},"error":{"type":"string"}},"required":["method","allowed","reasons"]}},` +
	`"cut":{"type":"object","properties":{"bytes":{"type":"integer"},"files":{"type":"array","items":{"type":"string"}}}},` +
	`"notes":{"type":"array","items":{"type":"string"}},` +
	`"pause":{"type":"object"}},` +
	`"required":["stdout","stderr","exit_code","tool_calls"]}`

// Description returns the tool's description for the model: what the tool
// does and the API of the tools a script can call, from describe.Prompt.
// It is computed once.
func (t *Runner) Description() string {
	i := 0
	if t.lang == engine.Shell {
		i = 1
	}
	t.s.descOnce[i].Do(func() { t.s.desc[i] = description(t.lang, t.s.tools, t.s.cfg) })
	return t.s.desc[i]
}

// Check creates a sandbox with the tool's configuration and closes it: it
// returns the error every Call would return if the tools or the limits are
// invalid ([engine.KindInvalid]), or nil.
func (t *Runner) Check(ctx context.Context) error {
	principal := PrincipalFrom(ctx)
	if principal == "" {
		principal = "check" // a principal scope needs one; Check makes no calls
	}
	sb, err := t.s.newSandbox(ctx, "check", principal)
	if err != nil {
		return err
	}
	return sb.Close(ctx)
}

type sessionKey struct{}

type principalKey struct{}

// WithPrincipal returns ctx carrying the principal that Call, Run, Start
// and Sandbox act for: the authenticated identity of the client, or a
// name the host sets. The policy sees it as input.session.principal, and
// counters scoped [counters.PerPrincipal] are kept per principal. A session
// belongs to the principal of its first call: a call with another
// principal fails with an error of kind [engine.KindInvalid] rather than
// use that session's sandbox, files or counters.
func WithPrincipal(ctx context.Context, principal string) context.Context {
	return context.WithValue(ctx, principalKey{}, principal)
}

// PrincipalFrom returns the principal ctx carries, or "".
func PrincipalFrom(ctx context.Context) string {
	p, _ := ctx.Value(principalKey{}).(string)
	return p
}

// WithSession returns ctx carrying the session id that Call, Run, Start and
// Sandbox use: one sandbox per session id. An empty id is DefaultSession.
func WithSession(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, sessionKey{}, id)
}

// SessionFrom returns the session id ctx carries, or DefaultSession.
func SessionFrom(ctx context.Context) string {
	if id, _ := ctx.Value(sessionKey{}).(string); id != "" {
		return id
	}
	return DefaultSession
}

// session is one conversation's sandbox.
type session struct {
	id        string
	principal string // the principal of the session's first call

	// turn is held by the call that runs a script in the session (Run,
	// Start, Resume) until the script ends or pauses, so that a call
	// abandons a paused script only when no other call is about to
	// resume it or wait behind it.
	turn chan struct{}

	mu     sync.Mutex // held while the sandbox is created
	sb     *engine.Sandbox
	closed bool
	// reset says why the previous sandbox was replaced, for the next
	// result to tell the model.
	reset string
	spill int // cut results so far, for the spill files' slots

	// Guarded by shared.mu:
	active int // calls in flight
	used   time.Time
	timer  *time.Timer
	pause  *paused
}

// Close ends the session id: its sandbox is closed (a script it runs ends
// with an error of [engine.KindClosed]), and a paused run of it is
// abandoned. A later call with the same id starts a new session. Closing a
// session that does not exist does nothing.
func (t *Runner) Close(ctx context.Context, id string) error {
	if id == "" {
		id = DefaultSession
	}
	t.s.mu.Lock()
	ss := t.s.sessions[id]
	if ss != nil {
		t.s.dropLocked(ss)
	}
	t.s.mu.Unlock()
	if ss != nil {
		ss.close(ctx)
	}
	return t.s.forgetCounters(ctx, id)
}

// forgetCounters deletes the counters of session id when they are kept
// per session: the session is over, and a later one with the same id
// starts afresh. Counters kept per principal stay.
func (s *shared) forgetCounters(ctx context.Context, id string) error {
	if scope := s.cfg.sandbox.Counters.Scope; scope != "" && scope != counters.PerSession {
		return nil
	}
	store := s.cfg.sandbox.Counters.Store
	if store == nil {
		eng, err := s.eng(ctx)
		if err != nil {
			return fmt.Errorf("codemode: deleting the counters of session %q: %w", id, err)
		}
		store = eng.Counters()
	}
	if err := store.Delete(context.WithoutCancel(ctx), counters.Key(counters.PerSession, id)); err != nil {
		return fmt.Errorf("codemode: deleting the counters of session %q: %w", id, err)
	}
	return nil
}

// CloseAll ends every session, as Close does. The tool stays usable: a
// later call starts a new session.
func (t *Runner) CloseAll(ctx context.Context) error {
	t.s.mu.Lock()
	var all []*session
	for _, ss := range t.s.sessions {
		t.s.dropLocked(ss)
		all = append(all, ss)
	}
	t.s.mu.Unlock()
	var errs []error
	for _, ss := range all {
		ss.close(ctx)
		errs = append(errs, t.s.forgetCounters(ctx, ss.id))
	}
	return errors.Join(errs...)
}

// Sessions returns the ids of the sessions that are open.
func (t *Runner) Sessions() []string {
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	ids := make([]string, 0, len(t.s.sessions))
	for id := range t.s.sessions {
		ids = append(ids, id)
	}
	return ids
}

// Sandbox returns the sandbox of ctx's session, creating it if needed, so
// that the host can put files in or take them out (WriteFile, ExportTar).
// It stays the session's: do not close it (use Close).
func (t *Runner) Sandbox(ctx context.Context) (*engine.Sandbox, error) {
	ss, sb, err := t.s.acquire(ctx, SessionFrom(ctx))
	if err != nil {
		return nil, err
	}
	t.s.release(ss)
	return sb, nil
}

// dropLocked removes ss from the session table; s.mu is held.
func (s *shared) dropLocked(ss *session) {
	if s.sessions[ss.id] == ss {
		delete(s.sessions, ss.id)
	}
	if ss.timer != nil {
		ss.timer.Stop()
	}
	if p := ss.pause; p != nil {
		delete(s.pauses, p.id)
		ss.pause = nil
	}
}

// close closes the session's sandbox; later acquires of it start over.
func (ss *session) close(ctx context.Context) {
	ss.mu.Lock()
	ss.closed = true
	sb := ss.sb
	ss.sb = nil
	ss.mu.Unlock()
	if sb != nil {
		_ = sb.Close(ctx)
	}
}

// lockTurn takes the session's turn, waiting for as long as ctx allows.
func (ss *session) lockTurn(ctx context.Context) error {
	select {
	case ss.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return &engine.Error{Kind: engine.KindCanceled, Message: "waiting for the session's previous call", Err: context.Cause(ctx)}
	}
}

func (ss *session) unlockTurn() { <-ss.turn }

// errSessionClosed is returned when the host closed the session while a
// call of it ran.
var errSessionClosed = errors.New("codemode: the session was closed")

// acquire returns the session id and its sandbox, creating either as
// needed, and counts the caller as active in it until release.
func (s *shared) acquire(ctx context.Context, id string) (*session, *engine.Sandbox, error) {
	for {
		s.mu.Lock()
		ss := s.sessions[id]
		principal := PrincipalFrom(ctx)
		if ss == nil {
			ss = &session{id: id, principal: principal, turn: make(chan struct{}, 1)}
			s.sessions[id] = ss
		}
		if ss.principal != principal {
			s.mu.Unlock()
			return nil, nil, &engine.Error{Kind: engine.KindInvalid, Message: fmt.Sprintf("session %q belongs to another principal", id)}
		}
		ss.active++
		if ss.timer != nil {
			ss.timer.Stop()
		}
		s.mu.Unlock()

		ss.mu.Lock()
		if ss.closed {
			// Closed while we waited: the next round finds a new session.
			ss.mu.Unlock()
			s.release(ss)
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			continue
		}
		if ss.sb != nil && ss.sb.Err() != nil {
			ss.reset = fmt.Sprintf("the session's sandbox broke (%v) and was replaced by a new, empty one: files written before are gone", ss.sb.Err())
			_ = ss.sb.Close(ctx)
			ss.sb = nil
		}
		if ss.sb == nil {
			sb, err := s.newSandbox(ctx, id, ss.principal)
			if err != nil {
				ss.mu.Unlock()
				s.release(ss)
				return nil, nil, err
			}
			ss.sb = sb
		}
		sb := ss.sb
		ss.mu.Unlock()
		return ss, sb, nil
	}
}

// release ends a caller's use of ss, and arms the idle timer when it was
// the last.
func (s *shared) release(ss *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss.active--
	ss.used = time.Now()
	if ss.active > 0 || s.cfg.idle <= 0 || s.sessions[ss.id] != ss {
		return
	}
	if ss.timer == nil {
		ss.timer = time.AfterFunc(s.cfg.idle, func() { s.expire(ss) })
	} else {
		ss.timer.Reset(s.cfg.idle)
	}
}

// expire closes ss if it is still idle.
func (s *shared) expire(ss *session) {
	s.mu.Lock()
	if s.sessions[ss.id] != ss || ss.active > 0 || time.Since(ss.used) < s.cfg.idle {
		s.mu.Unlock()
		return
	}
	s.dropLocked(ss)
	s.mu.Unlock()
	ss.close(context.Background())
}

func (s *shared) newSandbox(ctx context.Context, id, principal string) (*engine.Sandbox, error) {
	cfg := s.cfg.sandbox
	cfg.Tools, cfg.ID, cfg.Principal = s.tools, id, principal
	eng, err := s.eng(ctx)
	if err != nil {
		return nil, err
	}
	sb, err := eng.NewSandbox(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if s.cfg.setup != nil {
		if err := s.cfg.setup(ctx, sb); err != nil {
			_ = sb.Close(ctx)
			return nil, fmt.Errorf("codemode: setting up the sandbox: %w", err)
		}
	}
	return sb, nil
}

func newPauseID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
