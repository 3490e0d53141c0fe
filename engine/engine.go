// Package engine runs scripts in cordon sandboxes: WebAssembly instances of
// the cordon guest under wazero, whose only way out is a tool call that the
// host checks and runs.
//
// An Engine compiles the guest once (using an on-disk compilation cache) and
// is safe for concurrent use; create one per process. A Sandbox is one guest
// instance with its own VFS, which persists across its executions until
// Close; its tool-call counters live in a counter store (package counters),
// keyed by session, principal or execution. Execute runs a script to completion, running tool
// handlers on the host; Start returns an Execution that the caller drives
// step by step, answering tool calls itself (for human approval, say).
package engine

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/internal/guestcache"
	"github.com/cordonhq/cordon/internal/guestmem"
	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/cordonhq/cordon/internal/wasmtick"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
)

// Defaults for Config and Limits.
const (
	DefaultMemoryMB = 256
	// MinMemoryMB and MaxMemoryMB bound the guest memory limit
	// ([Config.WithMemoryLimitMB]): below the minimum the guest's runtime
	// and static data leave no room for a script (BENCHMARKS.md has the
	// guest's size), and wasm32 addresses 4 GiB.
	MinMemoryMB           = 24
	MaxMemoryMB           = 4096
	DefaultTimeout        = 5 * time.Second
	DefaultMaxOutputBytes = 1 << 20
	DefaultVFSBytes       = 64 << 20
	DefaultVFSFiles       = 10000
	DefaultMaxCallDepth   = 1000
	DefaultMaxToolCalls   = 1000
	DefaultMaxParamBytes  = 1 << 20
	DefaultMaxResultBytes = 8 << 20
	// DefaultMaxConcurrentCalls is [Limits.MaxConcurrentCalls]' default.
	DefaultMaxConcurrentCalls = 16
	// DefaultMaxRecordedBytes is [Limits.MaxRecordedBytes]' default.
	DefaultMaxRecordedBytes = 16 << 20
	// DefaultMaxCalls is how many times each registered tool may be called
	// per sandbox when no policy is configured.
	DefaultMaxCalls = 100
)

// Config configures an Engine. It is immutable: each With method returns a
// changed copy. The zero value is the default configuration, the same as
// NewConfig's.
type Config struct {
	cacheDir  string
	noCache   bool
	memoryMB  int
	memorySet bool // WithMemoryLimitMB was called: memoryMB is not a default
	now       func() time.Time
	random    io.Reader
	logger    *slog.Logger
	progress  io.Writer
	poolSize  int
	observer  func(ExecutionStats) // WithObserver
	decisions func(DecisionStats)  // WithDecisionObserver
	// recycle is WithRecycleAfter's growth: 0 is DefaultRecycleAfter, less
	// than 0 never.
	recycle int64
	// recycleIdle is how long a sandbox waits idle before it recycles
	// (defaultRecycleIdle when 0; tests shorten it).
	recycleIdle time.Duration
}

// NewConfig returns the default configuration: a compilation cache in the
// user cache directory, 256 MiB of guest memory (DefaultMemoryMB), the
// real clock and crypto/rand. It equals the zero Config.
func NewConfig() Config {
	return Config{}
}

// WithCacheDir sets the directory of the compilation cache (default:
// os.UserCacheDir()/cordon/wazero).
func (c Config) WithCacheDir(dir string) Config { c.cacheDir = dir; return c }

// WithoutCache disables the on-disk compilation cache: every New compiles.
func (c Config) WithoutCache() Config { c.noCache = true; return c }

// WithMemoryLimitMB sets the memory limit of each guest instance in MiB.
// A limit outside MinMemoryMB..MaxMemoryMB makes New fail. The VFS quota
// and the result size limit default to what fits in it (see Limits).
func (c Config) WithMemoryLimitMB(mb int) Config { c.memoryMB, c.memorySet = mb, true; return c }

// WithClock sets the wall clock scripts see (Date.now(), new Date()). Use a
// fixed clock for reproducible output. Timers and time limits still use real
// time.
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// WithRandSource sets the source of the guest's random bytes (Math.random
// seeds, crypto). Default: crypto/rand.
func (c Config) WithRandSource(r io.Reader) Config { c.random = r; return c }

// WithLogger sets the logger for engine events and audit records. The
// default is a logger that discards everything: the engine writes nothing
// anywhere unless the host asks for it. Audit records are logged with each
// call's params cut to an Excerpt of DefaultExcerptBytes.
func (c Config) WithLogger(l *slog.Logger) Config { c.logger = l; return c }

// WithCompileProgress makes New write one line to w before a compilation
// that is not served by the cache, with an estimate of how long it takes,
// and one line when it ends, with how long it took or that it failed (the
// CLI passes its stderr).
func (c Config) WithCompileProgress(w io.Writer) Config { c.progress = w; return c }

// WithPool makes the engine keep n guests booted ahead of time, refilled in
// the background, so that NewSandbox takes one from the pool instead of
// booting a guest, which takes far longer. Pooled guests are also warmed:
// they have compiled what a first console.log of an object or an uncaught
// error needs, which a first execution would otherwise do. Each idle
// pooled guest holds its memory, as an idle sandbox does. BENCHMARKS.md
// has the figures ("a sandbox from the pool", "an idle sandbox"). Default
// 0: every sandbox boots its own.
func (c Config) WithPool(n int) Config { c.poolSize = max(n, 0); return c }

// DefaultRecycleAfter is the growth past which a sandbox gives its guest's
// memory back, unless WithRecycleAfter says otherwise: 32 MiB.
const DefaultRecycleAfter = 32 << 20

// WithRecycleAfter sets how much a guest's memory may grow before its
// sandbox gives the memory back. A guest's linear memory never shrinks
// (WebAssembly memory only grows), so after an execution that left it more
// than n bytes above its size when the sandbox took the guest, the sandbox,
// once it has been idle for a couple of seconds, replaces the guest with a
// fresh one (from the pool, when there is one) and puts its files back,
// exact. Only the files and the call counters outlive an execution, so
// scripts see no difference; the memory goes back to the operating
// system. The fresh guest is made before the sandbox's turn is taken, so an
// execution that comes meanwhile waits only for the copy of the files; one
// that comes first cancels the replacement until it ends. n of 0 is
// [DefaultRecycleAfter] (the default); n less than 0 never replaces a
// guest.
func (c Config) WithRecycleAfter(n int64) Config { c.recycle = n; return c }

// recycleGrowth is the growth past which a sandbox recycles its guest, or 0
// for never.
func (c Config) recycleGrowth() int64 {
	switch {
	case c.recycle == 0:
		return DefaultRecycleAfter
	case c.recycle < 0:
		return 0
	}
	return c.recycle
}

// Counters returns the engine's in-memory counter store: where sandboxes
// keep their call counters when SandboxConfig.Counters.Store is nil. A
// host deletes a finished session's counters from it with Delete and
// [counters.Key].
func (e *Engine) Counters() counters.Store { return e.counters }

// DefaultCacheDir returns the default compilation cache directory.
func DefaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("engine: no user cache directory: %w", err)
	}
	return filepath.Join(dir, "cordon", "wazero"), nil
}

// Engine holds the compiled guest. It is safe for concurrent use: every
// method may be called from any goroutine, and its sandboxes run in
// parallel, each on the goroutines of its callers. The engine's lock
// guards only its set of sandboxes and whether it is closed; it is never
// held while a guest boots or runs, nor while a sandbox closes (see
// ARCHITECTURE.md, "Concurrency").
type Engine struct {
	cfg      Config
	runtime  wazero.Runtime
	image    *guestmem.Image // the guest's data segments, or nil (internal/dataimage)
	compiled wazero.CompiledModule
	cache    wazero.CompilationCache

	pool *pool // nil without WithPool

	counters *counters.Memory // the default counter store

	mu        sync.Mutex // a leaf: nothing is locked while it is held
	closed    bool
	sandboxes map[*Sandbox]struct{}
}

// New compiles the guest and returns an Engine. The first compilation into
// a cache directory takes seconds (BENCHMARKS.md, "First run"); later ones
// load from the cache, much faster.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	if !cfg.memorySet {
		cfg.memoryMB = DefaultMemoryMB
	}
	if cfg.memoryMB < MinMemoryMB || cfg.memoryMB > MaxMemoryMB {
		return nil, errorf(KindInvalid, "memory limit %d MiB is out of range (%d..%d MiB)", cfg.memoryMB, MinMemoryMB, MaxMemoryMB)
	}
	if cfg.now == nil {
		cfg.now = time.Now
	}
	if cfg.random == nil {
		cfg.random = rand.Reader
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	copyDir := ""
	if !cfg.noCache {
		copyDir = cfg.cacheDir
		if copyDir == "" {
			copyDir, _ = DefaultCacheDir()
		}
	}
	guest, err := guestcache.Load(guestWasmGz, copyDir)
	if err != nil {
		return nil, fmt.Errorf("engine: embedded guest: %w", err)
	}
	defer guest.Release()
	rc := wazero.NewRuntimeConfig().
		WithMemoryLimitPages(uint32(cfg.memoryMB) * 16). // 64 KiB pages
		// Compiled wasm cannot be preempted by the Go runtime. Without
		// regular returns to Go a spinning guest would block every
		// stop-the-world of the host GC, and with it the timer that is
		// meant to stop the guest: the whole process would hang (see
		// TestHostGCWhileGuestSpins and RATIONALE.md). The embedded guest
		// is instrumented to call the host every few thousand loop
		// iterations (internal/wasmtick, hostTick), which also gives a hard
		// stop for code that never checks the interpreter's flag. A module
		// without that instrumentation gets wazero's own checks, which
		// leave compiled code at every loop back-edge and cost several
		// times the run time (RATIONALE.md, "Timeouts").
		WithCloseOnContextDone(!wasmtick.IsInstrumented(guest.Module))
	e := &Engine{cfg: cfg, sandboxes: map[*Sandbox]struct{}{}, counters: counters.NewMemory(nil)}
	cached := false
	if !cfg.noCache {
		dir := cfg.cacheDir
		if dir == "" {
			dir, err = DefaultCacheDir()
		}
		if err == nil {
			e.cache, err = wazero.NewCompilationCacheWithDir(dir)
		}
		if err != nil {
			cfg.logger.Warn("cordon: compilation cache unavailable; compiling in memory", "err", err)
			e.cache = nil
		} else {
			rc = rc.WithCompilationCache(e.cache)
			// The guest's copy is written next to wazero's entries by the
			// first New, before it compiles: only a copy that was there
			// already says that this guest was compiled into dir.
			cached = guest.FromCopy && guestcache.HasCompiledCode(dir)
		}
	}
	ready := false // New is about to return the engine
	if cfg.progress != nil && !cached {
		fmt.Fprintln(cfg.progress, compileMessage(runtime.GOMAXPROCS(0)))
		began := time.Now()
		defer func() { fmt.Fprintln(cfg.progress, compiledMessage(time.Since(began), ready)) }()
	}
	e.runtime = wazero.NewRuntimeWithConfig(ctx, rc)
	if err := instantiateHostModules(ctx, e); err != nil {
		e.runtime.Close(ctx)
		return nil, err
	}
	start := time.Now()
	// The data segments become one image that every sandbox maps copy on
	// write (internal/dataimage, internal/guestmem). Where that fails the
	// module is used whole.
	wasm := guest.Module
	if guest.Image != nil {
		var serr error
		if e.image, serr = guestmem.NewImage(guest.Image); serr != nil {
			cfg.logger.Warn("cordon: no shared data image; each sandbox copies the guest's data", "err", serr)
			if wasm, err = guestWasm(); err != nil {
				e.runtime.Close(ctx)
				return nil, err
			}
		}
	}
	fail := func(err error) (*Engine, error) {
		e.runtime.Close(ctx)
		if e.image != nil {
			e.image.Close()
		}
		return nil, err
	}
	// Compiling is parallel: the first compile of the guest is the
	// slowest thing a new user sees (RATIONALE.md, "First compile").
	// wasm may be a mapped file: a fault while wazero decodes it is an
	// error, not a crash (guestcache.CatchFaults).
	var imports []wasmbin.FuncImport
	if ferr := guestcache.CatchFaults(func() {
		e.compiled, err = e.runtime.CompileModule(experimental.WithCompilationWorkers(ctx, runtime.GOMAXPROCS(0)), wasm)
		if err == nil {
			// The types alias wasm, which may be a mapping that
			// guest.Release unmaps: they are copied.
			imports, err = wasmbin.FuncImports(wasm)
			for i := range imports {
				imports[i].Type = bytes.Clone(imports[i].Type)
			}
		}
	}); ferr != nil {
		err = ferr
	}
	guest.Release()
	if err != nil {
		return fail(&Error{Kind: KindInternal, Message: "compiling the guest", Err: err})
	}
	if err := instantiateWASI(ctx, e, imports); err != nil {
		return fail(err)
	}
	cfg.logger.Debug("cordon: guest compiled", "took", time.Since(start), "cached", cached)
	if cfg.poolSize > 0 {
		e.startPool(cfg.poolSize)
	}
	ready = true
	return e, nil
}

// compileCPUSeconds is about how much CPU time a first compile of the
// guest takes (BENCHMARKS.md, "First run"), which wazero spreads over the
// cores; compileMessage's estimate comes from it.
const compileCPUSeconds = 15

// compileMessage is the line New writes before a compile that the cache
// does not serve, with a rough estimate for procs cores.
func compileMessage(procs int) string {
	est := max(2, (compileCPUSeconds+min(procs, 8)-1)/min(procs, 8)+1)
	return fmt.Sprintf("cordon: compiling the sandbox, about %d s the first time (later runs use the cache)...", est)
}

// compiledMessage is the line New writes when a compile that compileMessage
// announced has ended, after took: done, or failed (New returns the error).
func compiledMessage(took time.Duration, ok bool) string {
	if !ok {
		return fmt.Sprintf("cordon: compiling the sandbox failed after %.1f s", took.Seconds())
	}
	return fmt.Sprintf("cordon: compiled the sandbox in %.1f s", took.Seconds())
}

// Precompile fills the compilation cache so that later processes start fast.
// It is New followed by Close.
func Precompile(ctx context.Context, cfg Config) error {
	e, err := New(ctx, cfg)
	if err != nil {
		return err
	}
	return e.Close(ctx)
}

// Close closes every sandbox of the engine and releases the runtime.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	e.closePool()
	e.mu.Lock()
	sbs := make([]*Sandbox, 0, len(e.sandboxes))
	for sb := range e.sandboxes {
		sbs = append(sbs, sb)
	}
	e.mu.Unlock()
	var errs []error
	for _, sb := range sbs {
		errs = append(errs, sb.Close(ctx))
	}
	errs = append(errs, e.runtime.Close(ctx))
	if e.image != nil {
		e.image.Close() // mappings still in use keep their own reference
	}
	if e.cache != nil {
		errs = append(errs, e.cache.Close(ctx))
	}
	return errors.Join(errs...)
}
