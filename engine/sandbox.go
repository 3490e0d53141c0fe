package engine

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/internal/guestmem"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/cordonhq/cordon/vfs"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
)

// Limits bound what one sandbox may use. A zero field means its default.
type Limits struct {
	// Timeout bounds one execution: the time the script runs plus, in
	// Execute, the time its tool handlers take. It counts from when the
	// script starts: the time a caller waits for a busy sandbox is not
	// part of it (that wait is bounded by the caller's context alone).
	// Reaching it ends the execution with KindTimeout. Default 5s.
	Timeout time.Duration
	// MaxOutputBytes bounds stdout and stderr, each. A script that writes
	// past it is stopped with an error of KindOutput; what it wrote up to
	// the limit is kept, with a marker line. Default 1 MiB.
	MaxOutputBytes int
	// VFSBytes and VFSFiles are the VFS quotas. Defaults 64 MiB (or a
	// third of the guest memory limit, when that is less) and 10000.
	// VFSBytes may be at most a third of the guest memory limit, and
	// VFSFiles at most 1<<20, so that Files and ExportTar can always take
	// a full VFS out; NewSandbox refuses larger values set explicitly.
	// A write past them fails inside the script (ENOSPC); a script that
	// then fails is reported with KindQuota.
	VFSBytes int64
	VFSFiles int
	// MaxCallDepth bounds the JS call stack and the shell's nesting of
	// functions, command substitutions, eval and source. Default 1000.
	MaxCallDepth int
	// MaxToolCalls bounds the tool calls of one execution, allowed or not.
	// The call past it stops the script with KindToolCalls. Default 1000.
	MaxToolCalls int
	// MaxParamBytes bounds the JSON params of one tool call, and
	// MaxResultBytes the JSON result of one. A call past either fails in
	// the script with a ToolError of kind "too_large" (the tool's handler
	// does not run for oversized params). Defaults 1 MiB and 8 MiB, or
	// an eighth of the guest memory limit for MaxResultBytes when that is
	// less, so that a guest with little memory is not sent results it
	// cannot hold.
	MaxParamBytes  int
	MaxResultBytes int
	// MaxConcurrentCalls bounds how many tool calls of one execution run
	// their handlers (and approvers) at once under Execute: the calls of
	// a batch (a Promise.all) past it wait their turn, in the order the
	// script made them. Default 16.
	MaxConcurrentCalls int
	// MaxRecordedBytes bounds the params and results, in total, that an
	// execution's [Result.ToolCalls] keeps. A record past it keeps its
	// sizes but not the bytes ([ToolCall.Elided]), so that a script cannot
	// make the host hold MaxToolCalls times MaxParamBytes. Default 16 MiB.
	MaxRecordedBytes int
}

// MaxVFSBytes returns the largest VFS quota ([Limits.VFSBytes]) that a guest
// memory limit of memoryMB MiB allows: a third of it.
func MaxVFSBytes(memoryMB int) int64 { return int64(memoryMB) << 20 / 3 }

// check refuses limits under which a script could make a later Files or
// ExportTar fail: the guest copies what it exports into its memory once, so
// the VFS may hold at most a third of the guest's memory, and the export of
// every entry must fit in one message.
func (l Limits) check(memoryMB int) error {
	if max := MaxVFSBytes(memoryMB); l.VFSBytes > max {
		return errorf(KindInvalid, "Limits.VFSBytes %d is more than a third of the guest memory limit of %d MiB (Config.WithMemoryLimitMB): Files and ExportTar could not copy a full VFS out; raise the memory limit or lower VFSBytes to at most %d (or leave it 0, which is the most that fits)", l.VFSBytes, memoryMB, max)
	}
	if l.VFSFiles > abi.MaxItems {
		return errorf(KindInvalid, "Limits.VFSFiles %d is more than %d, the most entries one export can carry", l.VFSFiles, abi.MaxItems)
	}
	return nil
}

// withDefaults fills the zero fields of l with their defaults, those that
// depend on the guest memory limit derived from memoryMB, so that no
// default contradicts a limit the caller set.
func (l Limits) withDefaults(memoryMB int) Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.MaxOutputBytes <= 0 {
		l.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if l.VFSBytes <= 0 {
		l.VFSBytes = min(DefaultVFSBytes, MaxVFSBytes(memoryMB))
	}
	if l.VFSFiles <= 0 {
		l.VFSFiles = DefaultVFSFiles
	}
	if l.MaxCallDepth <= 0 {
		l.MaxCallDepth = DefaultMaxCallDepth
	}
	if l.MaxToolCalls <= 0 {
		l.MaxToolCalls = DefaultMaxToolCalls
	}
	if l.MaxParamBytes <= 0 {
		l.MaxParamBytes = DefaultMaxParamBytes
	}
	if l.MaxResultBytes <= 0 {
		l.MaxResultBytes = min(DefaultMaxResultBytes, memoryMB<<20/8)
	}
	if l.MaxConcurrentCalls <= 0 {
		l.MaxConcurrentCalls = DefaultMaxConcurrentCalls
	}
	if l.MaxRecordedBytes <= 0 {
		l.MaxRecordedBytes = DefaultMaxRecordedBytes
	}
	return l
}

// SandboxConfig configures a sandbox. The zero value is a sandbox with no
// tools and default limits.
type SandboxConfig struct {
	// Tools are the functions scripts may call. Registering a tool grants it
	// (up to DefaultMaxCalls calls per sandbox) unless a policy says otherwise.
	Tools []Tool
	// Limits bound the sandbox's executions.
	Limits Limits
	// ID identifies the session in audit records (default: generated).
	ID string
	// Labels describe the session to the policy (input.session.labels).
	Labels map[string]string
	// Principal names who the sandbox acts for: the authenticated identity
	// of the MCP client, or a name the embedding host sets (a user, a
	// tenant). The policy sees it as input.session.principal, and counters
	// scoped [counters.PerPrincipal] are shared by every sandbox of one
	// principal. NewSandbox refuses an empty Principal under that scope.
	Principal string
	// Counters says where the sandbox's call counters live and which calls
	// share them. The zero value keeps them per session (per ID) in the
	// engine's in-memory store, so that a sandbox that replaces another
	// under the same ID continues from its counts.
	Counters Counters
	// Policy decides every tool call (see Policy for the contract): an
	// *authz.CapabilityPolicy, a *policy.Policy, or an implementation of
	// the embedder's. Nil, or a nil pointer, means each registered tool
	// may be called DefaultMaxCalls times per sandbox.
	Policy Policy
	// Approve answers calls the policy asks about under Execute. Nil denies
	// them. It is called on the goroutines that run the handlers, for the
	// calls of a batch concurrently.
	Approve Approver
	// Audit, if set, receives a record of every decision (they also go to
	// the engine's slog logger). It is called from several goroutines at
	// once (the records of approvals, refusals and failures come from the
	// goroutines that answer calls), and a decision's record comes while
	// the policy's locks are held: it must be safe for concurrent use and
	// must not call back into the sandbox or its executions (see Policy,
	// "Concurrency").
	Audit func(AuditRecord)
	// Stdout and Stderr, if set, receive the script's output while it
	// runs, for every execution (WithStdout and WithStderr replace them
	// for one). [Result.Stdout] and [Result.Stderr] still hold the output, and
	// the writers get exactly the bytes they hold, in the order the script
	// wrote them: stdout and stderr interleave as written, the output
	// limit's marker line included. Writes are made one at a time, never
	// concurrently (even when Stdout and Stderr are the same writer), from
	// a goroutine of the execution's own, and the script waits for each:
	// a slow writer slows the script, and the time counts against
	// [Limits.Timeout]. Once the limit is reached (or the execution is
	// canceled, or the sandbox closed), a write in progress no longer
	// holds the script, which stops as for any timeout; that writer's
	// goroutine stays in Write until it returns, and a later write is made
	// only if the writer has returned by then. A writer that returns an
	// error (or panics) gets nothing more in that execution; the script
	// does not see it.
	Stdout, Stderr io.Writer
	// Snapshot, if set, starts the sandbox from a snapshot taken with
	// [Sandbox.Snapshot]: its files, its session counters (added to this
	// sandbox's own, see docs/snapshots.md), and its principal and labels
	// when Principal and Labels are unset. A snapshot that cannot be read
	// fails NewSandbox with an error that matches [ErrSnapshot].
	Snapshot []byte
}

// Counters configures where a sandbox's call counters (input.calls,
// input.capability_calls, max_calls) live and which calls share them.
type Counters struct {
	// Store keeps the counts. Nil is the engine's in-memory store, shared
	// by the engine's sandboxes ([Engine.Counters]).
	Store counters.Store
	// Scope says which calls share one set of counters: each execution,
	// each session (the sandbox's ID, the default), or each principal
	// ([SandboxConfig.Principal]).
	Scope counters.Scope
	// Window, when positive, makes the counts a sliding window: only the
	// calls of the last Window count against a limit ("at most 20 calls
	// per principal per hour"). Zero counts every call of the scope.
	Window time.Duration
}

// Language is the language of a script, "js" or "sh". It is the type of
// [describe.Language] too: one type names a language across cordon's
// packages.
type Language = describe.Language

// The languages a sandbox runs.
const (
	// JavaScript ("js") runs the code as the body of an async function
	// (goja).
	JavaScript Language = describe.JavaScript
	// Shell ("sh") runs the code as a bash-like shell script over the
	// sandbox's file system, with `tool` calling host tools.
	Shell Language = describe.Shell
)

// Sandbox is one guest instance: its VFS persists across executions until
// Close. Its tool-call counters live in a counter store
// ([SandboxConfig.Counters]), so that a sandbox that replaces it under the
// same session id continues from its counts. It runs one execution at a time; concurrent
// calls wait their turn. A sandbox whose guest crashed (out of memory, say)
// is broken: every later call fails with an error of KindClosed that names
// the cause, and the sandbox must be closed and replaced.
//
// Every method may be called from any goroutine. Execute, Start and the
// file methods (WriteFile, PutFiles, ReadFile, Files, ExportTar,
// ImportTar, Snapshot) take the sandbox's turn, one at a time, and wait for it as
// long as their context allows; an execution begun with Start holds the
// turn until it ends, so a Start must be driven to its end or canceled
// ([Execution.Cancel]) before anything else can run. Close, Err and ID
// never wait for the turn, and Close ends a running execution, which then
// fails with KindClosed. The policy decides the calls of one sandbox one
// at a time, in the order the script made them (see Policy).
type Sandbox struct {
	// Set by NewSandbox, then read-only.
	e      *Engine
	id     string
	limits Limits
	tools  map[string]*tool
	infos  []abi.ToolInfo
	// conn is the guest. It changes only while the sandbox's turn is held
	// (recycle), under mu, so that Close, which does not take the turn,
	// reads it under mu.
	conn *conn
	// mem is the guest's memory once the sandbox has a guest (Stats), and
	// memBase its size when the sandbox took the guest.
	mem     atomic.Pointer[guestmem.Memory]
	memBase atomic.Int64
	// prepared counts the interpreters the guest made ahead (prepareLater).
	prepared atomic.Int64
	// runs counts the executions started, so that a recycle armed after
	// one knows whether the sandbox has been idle since; recycleTimer is
	// the armed recycle, recycled counts the guests replaced.
	runs         atomic.Uint64
	recycleTimer atomic.Pointer[time.Timer]
	recycled     atomic.Int64

	// turn holds one token while an execution or a file operation runs:
	// the outermost of the engine's locks (ARCHITECTURE.md, "Concurrency").
	turn chan struct{}

	policy    Policy // nil: the default policy
	labels    map[string]string
	principal string
	// The call counters: store, scope and window as configured; key names
	// the session's or the principal's counters in the store ("" under
	// [counters.PerExecution], where each execution has its own key).
	store     counters.Store
	scope     counters.Scope
	window    time.Duration
	key       string
	ownKey    bool             // key is this sandbox's alone: Close deletes it
	capNames  []string         // the policy's capability names, by index
	capIndex  map[string][]int // the indices of each capability name
	approver  Approver
	onAudit   func(AuditRecord)
	restored  *Restored // [SandboxConfig.Snapshot]; set by NewSandbox
	stdout    io.Writer // [SandboxConfig.Stdout]
	stderr    io.Writer
	closeOnce sync.Once

	mu     sync.Mutex // a leaf: guards broken, and conn's changes
	broken error
}

var sandboxSeq atomic.Uint64

// NewSandbox starts a guest instance.
func (e *Engine) NewSandbox(ctx context.Context, cfg SandboxConfig) (*Sandbox, error) {
	sb, snap, err := e.configure(cfg)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, errorf(KindClosed, "engine is closed")
	}
	e.sandboxes[sb] = struct{}{}
	e.mu.Unlock()

	if err := sb.start(ctx); err != nil {
		_ = sb.Close(context.Background())
		return nil, err
	}
	if snap != nil {
		if err := sb.restore(ctx, snap); err != nil {
			_ = sb.Close(context.Background())
			return nil, err
		}
	}
	return sb, nil
}

// CheckSandboxConfig returns the error that NewSandbox would return for
// cfg before it starts a guest (tools, limits, counters or a snapshot that
// are not valid), for an engine whose memory limit is memoryMB MiB (0:
// DefaultMemoryMB). It needs no engine, so that a host can refuse a bad
// configuration while its engine is still compiling the guest.
func CheckSandboxConfig(cfg SandboxConfig, memoryMB int) error {
	if memoryMB == 0 {
		memoryMB = DefaultMemoryMB
	}
	e := &Engine{cfg: Config{memoryMB: memoryMB}, counters: counters.NewMemory(nil)}
	_, _, err := e.configure(cfg)
	return err
}

// configure makes the sandbox of cfg, without a guest, and decodes its
// snapshot: everything of NewSandbox that can fail on a configuration.
func (e *Engine) configure(cfg SandboxConfig) (*Sandbox, *snapshotState, error) {
	sb := &Sandbox{
		e:         e,
		id:        cfg.ID,
		limits:    cfg.Limits.withDefaults(e.cfg.memoryMB),
		tools:     map[string]*tool{},
		turn:      make(chan struct{}, 1),
		policy:    cfg.Policy,
		labels:    cfg.Labels,
		principal: cfg.Principal,
		store:     cfg.Counters.Store,
		window:    cfg.Counters.Window,
		approver:  cfg.Approve,
		onAudit:   cfg.Audit,
		stdout:    cfg.Stdout,
		stderr:    cfg.Stderr,
	}
	if nilPolicy(sb.policy) {
		sb.policy = nil
	}
	generated := sb.id == ""
	if generated {
		sb.id = fmt.Sprintf("sb-%d", sandboxSeq.Add(1))
	}
	snap, err := sb.useSnapshot(cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := sb.setCounters(cfg.Counters, generated); err != nil {
		return nil, nil, err
	}
	if err := sb.limits.check(e.cfg.memoryMB); err != nil {
		return nil, nil, err
	}
	names := make([]string, 0, len(cfg.Tools))
	fetch := ""
	for i := range cfg.Tools {
		t := cfg.Tools[i]
		t.Labels = append([]string(nil), t.Labels...)
		if err := t.validate(); err != nil {
			return nil, nil, err
		}
		if t.Fetch {
			if fetch != "" {
				return nil, nil, errorf(KindInvalid, "tools %q and %q are both marked Fetch: at most one tool of a sandbox makes network requests", fetch, t.Name)
			}
			fetch = t.Name
		}
		names = append(names, t.Name)
		rt := &tool{Tool: t, info: t.Policy}
		if len(t.Labels) > 0 {
			info := authz.ToolInfo{}
			if t.Policy != nil {
				info = *t.Policy
			}
			info.Labels = append([]string(nil), t.Labels...)
			rt.info = &info
		}
		if len(t.InputSchema) > 0 {
			s, err := compileSchema(t.InputSchema)
			if err != nil {
				return nil, nil, errorf(KindInvalid, "tool %q: input schema: %v", t.Name, err)
			}
			rt.schema = s
		}
		sb.tools[t.Name] = rt
		sb.infos = append(sb.infos, abi.ToolInfo{Name: t.Name, Description: t.Description, Schema: t.InputSchema, OutputSchema: t.OutputSchema, Fetch: t.Fetch})
	}
	if err := abi.CheckToolNames(names); err != nil {
		// A name registered twice, or two with the same JS path or alias.
		return nil, nil, &Error{Kind: KindInvalid, Message: "registering tools", Err: err}
	}
	sort.Slice(sb.infos, func(i, j int) bool { return sb.infos[i].Name < sb.infos[j].Name })
	return sb, snap, nil
}

func (sb *Sandbox) start(ctx context.Context) error {
	c := sb.e.pooledGuest()
	if c == nil {
		var err error
		if c, err = sb.e.bootGuest(ctx); err != nil {
			return err
		}
	}
	sb.mu.Lock()
	sb.conn = c
	sb.mu.Unlock()
	sb.mem.Store(c.mem)
	sb.memBase.Store(int64(c.mem.Size()))
	return sb.setup()
}

// setup sends the sandbox's tools and quotas to its guest.
func (sb *Sandbox) setup() error {
	setup := &abi.Request{Op: abi.OpSetup, Setup: &abi.Setup{
		Tools:        sb.infos,
		VFSMaxBytes:  sb.limits.VFSBytes,
		VFSMaxFiles:  int64(sb.limits.VFSFiles),
		MaxCallDepth: uint32(sb.limits.MaxCallDepth),
	}}
	_, err := sb.request(setup)
	return err
}

// bootGuest instantiates a guest and waits until its Go runtime is up and it
// asks for its first request.
func (e *Engine) bootGuest(ctx context.Context) (*conn, error) {
	c := newConn()
	var mem *guestmem.Memory
	mod, err := e.runtime.InstantiateModule(experimental.WithMemoryAllocator(ctx, guestmem.Allocator(&mem, e.image)), e.compiled,
		wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, &Error{Kind: KindInternal, Message: "instantiating the guest", Err: err}
	}
	c.mod = mod
	if mem == nil {
		// The guest's memory is always ours: a stop could not set its
		// interrupt flag without it.
		_ = mod.Close(ctx)
		return nil, errorf(KindInternal, "the guest's memory was not allocated by the engine")
	}
	c.mem = mem
	// The mapping must outlive the guest's code (see guestmem.Memory).
	mem.Pin()
	startFn := mod.ExportedFunction("_start")
	if startFn == nil {
		_ = mod.Close(ctx)
		return nil, errorf(KindInternal, "the guest has no _start")
	}
	// The guest's context lives as long as the sandbox; cancelling it (kill)
	// closes the instance wherever it is running.
	life, kill := context.WithCancel(context.WithValue(context.Background(), connKey{}, c))
	c.kill = kill
	c.next, c.stop = iter.Pull(func(yield func(event) bool) {
		defer kill()
		c.yield = yield
		_, err := startFn.Call(life)
		c.exitErr = err
		c.endTurn() // the host must not write to the interrupt flag any more
		close(c.done)
		_ = mod.Close(context.Background())
		mem.Unpin()
	})
	// The guest's first call is next(nothing): it is ready. Booting is not
	// interruptible, but a canceled ctx kills the guest, which then ends at
	// its next loop back-edge.
	stopBoot := context.AfterFunc(ctx, kill)
	_, ok := c.resume(nil)
	stopBoot()
	switch {
	case ok && ctx.Err() == nil:
		return c, nil
	case ctx.Err() != nil:
		c.close()
		return nil, &Error{Kind: KindCanceled, Message: "starting the guest", Err: ctx.Err()}
	}
	return nil, &Error{Kind: KindCrash, Message: "the guest died while starting: " + c.diag.String(), Err: c.exitErr}
}

// ID returns the session id of the sandbox.
func (sb *Sandbox) ID() string { return sb.id }

// Close ends the guest and frees its memory. It is safe to call more than
// once and while an execution runs (which then ends with KindClosed).
func (sb *Sandbox) Close(ctx context.Context) error {
	sb.closeOnce.Do(func() {
		sb.setBroken(errorf(KindClosed, "sandbox is closed"))
		if t := sb.recycleTimer.Load(); t != nil {
			t.Stop()
		}
		sb.mu.Lock()
		c := sb.conn
		sb.mu.Unlock()
		if c != nil {
			c.close()
		}
		if sb.ownKey {
			// No other sandbox can name these counters: forget them.
			_ = sb.store.Delete(context.WithoutCancel(ctx), sb.key)
		}
		sb.e.mu.Lock()
		delete(sb.e.sandboxes, sb)
		sb.e.mu.Unlock()
	})
	return nil
}

func (sb *Sandbox) setBroken(err error) {
	sb.mu.Lock()
	if sb.broken == nil {
		sb.broken = err
	}
	sb.mu.Unlock()
}

// Err returns why the sandbox can no longer be used, or nil.
func (sb *Sandbox) Err() error {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	return sb.broken
}

// acquire takes the sandbox's turn.
func (sb *Sandbox) acquire(ctx context.Context) error {
	if err := sb.Err(); err != nil {
		return err
	}
	select {
	case sb.turn <- struct{}{}:
	case <-ctx.Done():
		return &Error{Kind: KindCanceled, Message: "waiting for the sandbox", Err: context.Cause(ctx)}
	}
	if err := sb.Err(); err != nil {
		sb.release()
		return err
	}
	return nil
}

// tryAcquire takes the sandbox's turn if nothing holds it, for the work a
// sandbox does on its own while idle (prepareLater, recycleIfIdle): it never
// waits, and whatever holds the turn goes first.
func (sb *Sandbox) tryAcquire() bool {
	select {
	case sb.turn <- struct{}{}:
	default:
		return false
	}
	if sb.Err() != nil {
		sb.release()
		return false
	}
	return true
}

func (sb *Sandbox) release() { <-sb.turn }

// ranOutOfMemory reports whether a guest that stopped ran out of memory,
// from its Go runtime's last words (diag) and its exit: "out of memory"
// when an allocation found no room in the heap, "cannot allocate memory"
// when growing the heap found the memory at its limit.
func ranOutOfMemory(diag string, exitErr error) bool {
	return strings.Contains(diag, "out of memory") || strings.Contains(diag, "cannot allocate memory") ||
		(exitErr != nil && strings.Contains(exitErr.Error(), "memory"))
}

// crashed turns the guest's exit into an error and breaks the sandbox.
func (sb *Sandbox) crashed() error {
	c := sb.conn
	c.mu.Lock()
	diag := c.diag.String()
	c.mu.Unlock()
	err := &Error{Kind: KindCrash, Message: "the guest stopped", Err: c.exitErr}
	if ranOutOfMemory(diag, c.exitErr) {
		err = &Error{Kind: KindMemory, Message: fmt.Sprintf("the guest ran out of memory (limit %d MiB)", sb.e.cfg.memoryMB)}
	} else if diag != "" {
		err.Message += ": " + firstLines(diag, 3)
	}
	sb.mu.Lock()
	closed := sb.broken != nil && KindOf(sb.broken) == KindClosed
	sb.mu.Unlock()
	if closed {
		return errorf(KindClosed, "sandbox is closed")
	}
	sb.setBroken(&Error{Kind: KindClosed, Message: "sandbox is broken: " + err.Error()})
	return err
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

// resume hands msg to the guest and runs it until its next event, or
// returns the error that ended it.
func (sb *Sandbox) resume(msg []byte) (event, error) {
	c := sb.conn
	ev, ok := c.resume(msg)
	if c.closing.Load() {
		// Closing stops the script; whatever it answered on its way out
		// is not the execution's end.
		return event{}, errorf(KindClosed, "sandbox is closed")
	}
	if !ok {
		return event{}, sb.crashed()
	}
	return ev, nil
}

// stopGrace is how long a stopped guest has to come back.
const stopGrace = 400 * time.Millisecond

// request sends a non-exec request and returns the guest's response. It is
// short (files, setup), and the guest cannot be interrupted in the middle
// of it, so it runs to its end.
func (sb *Sandbox) request(req *abi.Request) (*abi.Response, error) {
	ev, err := sb.resume(abi.EncodeRequest(nil, req))
	if err != nil {
		return nil, err
	}
	if ev.kind != evResponse {
		return nil, sb.protocolError("expected a response, got a yield")
	}
	resp, err := abi.DecodeResponse(ev.data)
	if err != nil {
		return nil, sb.protocolError(err.Error())
	}
	if resp.Status != abi.StatusOK {
		return resp, &Error{Kind: KindFile, Code: string(resp.ErrCode), Message: resp.ErrMsg}
	}
	return resp, nil
}

// protocolError breaks the sandbox: the guest broke the ABI, which a script
// cannot make it do unless it escaped the interpreter.
func (sb *Sandbox) protocolError(msg string) error {
	err := errorf(KindCrash, "guest protocol violation: %s", msg)
	sb.setBroken(&Error{Kind: KindClosed, Message: "sandbox is broken: " + err.Error()})
	go sb.Close(context.Background())
	return err
}

// File is one entry of the sandbox VFS as the host sees it.
type File struct {
	Path string // absolute, e.g. /workspace/data.csv
	// Mode is the entry's type (fs.ModeDir for a directory) and its
	// permission, setuid, setgid and sticky bits. PutFiles gives the entry
	// exactly these bits, a directory's too (the host writes into a
	// directory whatever its bits; a script obeys them).
	Mode    fs.FileMode
	ModTime time.Time
	Data    []byte // nil for a directory
}

// WriteFile puts a file into the VFS, creating its parent directories. The
// host may write anywhere, including read-only areas (e.g. /data), but the
// quotas hold.
func (sb *Sandbox) WriteFile(ctx context.Context, name string, data []byte) error {
	return sb.PutFiles(ctx, []File{{Path: name, Mode: 0o644, Data: data}})
}

// PutFiles puts files and directories into the VFS, in order.
func (sb *Sandbox) PutFiles(ctx context.Context, files []File) error {
	if err := sb.acquire(ctx); err != nil {
		return err
	}
	defer sb.release()
	return sb.putFiles(files)
}

// putFiles is PutFiles for a caller that holds the sandbox's turn.
func (sb *Sandbox) putFiles(files []File) error {
	req := &abi.Request{Op: abi.OpPutFiles}
	for _, f := range files {
		af := abi.File{Path: f.Path, Mode: uint32(f.Mode), Data: f.Data}
		if !f.ModTime.IsZero() {
			af.ModTime = f.ModTime.UnixNano()
		}
		req.Files = append(req.Files, af)
	}
	_, err := sb.request(req)
	return err
}

// ReadFile returns the contents of a file in the VFS.
func (sb *Sandbox) ReadFile(ctx context.Context, name string) ([]byte, error) {
	files, err := sb.Files(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(files) != 1 || files[0].Mode.IsDir() {
		return nil, &Error{Kind: KindFile, Code: "EISDIR", Message: fmt.Sprintf("read %s: is a directory", name)}
	}
	return files[0].Data, nil
}

// Files returns the file at name, or the directory name and everything below
// it, directories before their contents. Paths are absolute and clean. The
// VFS bounds every path to [vfs.MaxPathLen] bytes and accepts only portable
// names ([vfs.CheckName]), for scripts and the host alike, so no name or
// path a script creates can make Files fail.
func (sb *Sandbox) Files(ctx context.Context, name string) ([]File, error) {
	if err := sb.acquire(ctx); err != nil {
		return nil, err
	}
	defer sb.release()
	return sb.files(name)
}

// files is Files for a caller that holds the sandbox's turn.
func (sb *Sandbox) files(name string) ([]File, error) {
	resp, err := sb.request(&abi.Request{Op: abi.OpGetFiles, Path: name})
	if err != nil {
		return nil, err
	}
	out := make([]File, len(resp.Files))
	for i, f := range resp.Files {
		out[i] = File{Path: f.Path, Mode: fs.FileMode(f.Mode), ModTime: time.Unix(0, f.ModTime), Data: f.Data}
	}
	return out, nil
}

// ExportTar writes the directory dir of the VFS (e.g. "/workspace") to w as
// a tar archive whose names are relative to dir; a file dir is written
// under its base name. The VFS accepts only names that extract under the
// same name with stock tools on Linux, macOS and Windows ([vfs.CheckName]),
// and ExportTar checks every name again before it writes anything: an
// entry outside dir, or with a name the VFS would refuse, fails the export
// with an error of KindInvalid that names the entry, and w is left
// untouched.
func (sb *Sandbox) ExportTar(ctx context.Context, w io.Writer, dir string) error {
	files, err := sb.Files(ctx, dir)
	if err != nil {
		return err
	}
	return writeTar(w, path.Clean("/"+dir), files)
}

// tarMode is the mode of a tar header for a file's permission bits and its
// setuid, setgid and sticky bits (which the VFS keeps).
func tarMode(m fs.FileMode) int64 {
	v := int64(m.Perm())
	if m&fs.ModeSetuid != 0 {
		v |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		v |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		v |= 0o1000
	}
	return v
}

// modeOfTar is the inverse of tarMode: the permission and special bits of a
// tar header's mode, other bits ignored.
func modeOfTar(v int64) fs.FileMode {
	m := fs.FileMode(v) & fs.ModePerm
	if v&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if v&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if v&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// writeTar writes files, the entries at or below the clean absolute path
// root, to w as a tar archive with names relative to root. It checks every
// name (tarName) before it writes the first header.
func writeTar(w io.Writer, root string, files []File) error {
	names := make([]string, len(files))
	for i, f := range files {
		name, err := tarName(root, f)
		if err != nil {
			return &Error{Kind: KindInvalid, Message: fmt.Sprintf("export tar: entry %q", f.Path), Err: err}
		}
		names[i] = name
	}
	tw := tar.NewWriter(w)
	for i, f := range files {
		if names[i] == "" {
			continue
		}
		hdr := &tar.Header{Name: names[i], ModTime: f.ModTime, Mode: tarMode(f.Mode), Format: tar.FormatPAX}
		if f.Mode.IsDir() {
			hdr.Typeflag, hdr.Name = tar.TypeDir, names[i]+"/"
		} else {
			hdr.Typeflag, hdr.Size = tar.TypeReg, int64(len(f.Data))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("engine: export tar: %w", err)
		}
		if _, err := tw.Write(f.Data); err != nil {
			return fmt.Errorf("engine: export tar: %w", err)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("engine: export tar: %w", err)
	}
	return nil
}

// tarName returns the archive name of f relative to root, or "" for the
// directory root itself, which the archive leaves out. The guest is not
// trusted to have kept the VFS's rules: f's path must be clean and at or
// below root, the name at most [vfs.MaxPathLen] bytes, and each of its
// elements one that [vfs.CheckName] accepts.
func tarName(root string, f File) (string, error) {
	p := f.Path
	if !path.IsAbs(p) || path.Clean(p) != p {
		return "", errors.New("the path is not clean and absolute")
	}
	var rel string
	switch prefix := strings.TrimSuffix(root, "/") + "/"; {
	case p == root && f.Mode.IsDir():
		return "", nil
	case p == root:
		rel = path.Base(p)
	case strings.HasPrefix(p, prefix):
		rel = p[len(prefix):]
	default:
		return "", fmt.Errorf("the entry is outside %s", root)
	}
	if len(rel) > vfs.MaxPathLen {
		return "", fmt.Errorf("the name is longer than %d bytes", vfs.MaxPathLen)
	}
	for _, elem := range strings.Split(rel, "/") {
		if err := vfs.CheckName(elem); err != nil {
			return "", err
		}
	}
	return rel, nil
}

// ImportTar reads a tar archive and puts its regular files and directories
// under dir. Links, devices and names that would leave dir are refused, and
// the archive may not hold more than the VFS quota.
func (sb *Sandbox) ImportTar(ctx context.Context, r io.Reader, dir string) error {
	root := path.Clean("/" + dir)
	tr := tar.NewReader(r)
	var files []File
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return &Error{Kind: KindInvalid, Message: "import tar", Err: err}
		}
		name := hdr.Name
		if strings.Contains(name, "\x00") || path.IsAbs(name) || hasDotDot(name) {
			return errorf(KindInvalid, "import tar: entry %q would leave %s", name, root)
		}
		p := path.Join(root, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			files = append(files, File{Path: p, Mode: fs.ModeDir | 0o755, ModTime: hdr.ModTime})
		case tar.TypeReg:
			if hdr.Size < 0 || total+hdr.Size > sb.limits.VFSBytes {
				return &Error{Kind: KindFile, Code: "ENOSPC", Message: fmt.Sprintf("import tar: archive holds more than the VFS quota of %d bytes", sb.limits.VFSBytes)}
			}
			total += hdr.Size
			var buf bytes.Buffer
			if _, err := io.CopyN(&buf, tr, hdr.Size); err != nil {
				return &Error{Kind: KindInvalid, Message: "import tar: " + name, Err: err}
			}
			files = append(files, File{Path: p, Mode: 0o644, ModTime: hdr.ModTime, Data: buf.Bytes()})
		default:
			return errorf(KindInvalid, "import tar: entry %q has type %q; only files and directories are allowed", name, hdr.Typeflag)
		}
	}
	return sb.PutFiles(ctx, files)
}

func hasDotDot(name string) bool {
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}
