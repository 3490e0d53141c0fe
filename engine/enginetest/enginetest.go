// Package enginetest is a kit for tests that run scripts in a sandbox, as
// net/http/httptest is for HTTP handlers: one shared [engine.Engine] per
// test binary, sandboxes closed when the test ends, canned tools, policies
// made from capabilities, a fake clock, and time bounds scaled to the
// machine the test runs on.
//
// A test of a tool under a policy:
//
//	func TestRefundsNeedApproval(t *testing.T) {
//		var refunds atomic.Int32
//		sb := enginetest.NewSandbox(t, engine.SandboxConfig{
//			Tools:  []engine.Tool{enginetest.Counting("orders/refund", &refunds)},
//			Policy: enginetest.Policy(t, dsl.Method("orders/refund").Where(dsl.Param("amount").Le(100))),
//		})
//		res := enginetest.Run(t, sb, `try { await orders.refund({amount: 500}) } catch (e) { return e.kind }`)
//		if string(res.Value) != `"denied"` || refunds.Load() != 0 { ... }
//	}
//
// Every function that takes a [TB] fails the test on error, so that a test
// reads as what it checks. The kit builds OPA (package policy), as any
// test of a Rego policy does.
package enginetest

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/cordonhq/cordon/engine"
)

// TB is what the kit needs of a test. Every testing.TB (a *testing.T, a
// *testing.B, a *testing.F) has it.
type TB interface {
	Helper()
	Cleanup(func())
	Logf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Now is the time the shared engine's clock always reads: what Date.now()
// and new Date() return in every script run on it, so that output with
// dates can be compared byte for byte.
var Now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// PoolSize is how many booted guests the shared engine keeps ready
// ([engine.Config.WithPool]), so that a test's NewSandbox rarely waits for
// a guest to boot.
const PoolSize = 2

// Config returns the configuration of the shared engine: a logger that
// discards everything, a clock fixed at Now, and a pool of PoolSize
// guests. A test that needs an engine of its own (another cache
// directory, a memory limit, a clock it moves, no pool) starts from it and
// passes it to NewEngine.
func Config() engine.Config {
	now := Now
	return engine.NewConfig().
		WithLogger(slog.New(slog.DiscardHandler)).
		WithClock(func() time.Time { return now }).
		WithPool(PoolSize)
}

var (
	sharedOnce sync.Once
	shared     *engine.Engine
	sharedErr  error
)

// Engine returns the test binary's shared engine, made from Config the
// first time it is asked for. Compiling the guest is the expensive part
// of an engine (seconds on a cold compilation cache, a fraction of one on
// a warm cache), and an engine is safe for concurrent use, so the tests of
// one binary share it. It lives as long as the test binary: do not close
// it.
func Engine(tb TB) *engine.Engine {
	tb.Helper()
	sharedOnce.Do(func() {
		shared, sharedErr = engine.New(context.Background(), Config())
	})
	if sharedErr != nil {
		tb.Fatalf("enginetest: the shared engine: %v", sharedErr)
	}
	return shared
}

// NewEngine returns an engine of its own made from cfg, closed when the
// test ends: for the tests that change what Config sets, or that close
// the engine themselves (closing it twice is harmless).
func NewEngine(tb TB, cfg engine.Config) *engine.Engine {
	tb.Helper()
	eng, err := engine.New(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("enginetest: engine.New: %v", err)
	}
	tb.Cleanup(func() { eng.Close(context.Background()) })
	return eng
}

// NewSandbox returns a sandbox of the shared engine, closed when the test
// ends.
func NewSandbox(tb TB, cfg engine.SandboxConfig) *engine.Sandbox {
	tb.Helper()
	return NewSandboxOf(tb, Engine(tb), cfg)
}

// NewSandboxOf returns a sandbox of eng, closed when the test ends.
func NewSandboxOf(tb TB, eng *engine.Engine, cfg engine.SandboxConfig) *engine.Sandbox {
	tb.Helper()
	sb, err := eng.NewSandbox(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("enginetest: NewSandbox: %v", err)
	}
	tb.Cleanup(func() { sb.Close(context.Background()) })
	return sb
}

// Run runs JavaScript in sb and returns its result. It fails the test when
// [engine.Sandbox.Execute] returns an error (a timeout, a crash, a closed
// sandbox); a script that throws is not an error: its Result says so
// (ExitCode 1, Exception).
func Run(tb TB, sb *engine.Sandbox, code string, opts ...engine.ExecuteOption) *engine.Result {
	tb.Helper()
	return execute(tb, sb, engine.JavaScript, code, opts)
}

// RunShell is Run for a shell script.
func RunShell(tb TB, sb *engine.Sandbox, script string, opts ...engine.ExecuteOption) *engine.Result {
	tb.Helper()
	return execute(tb, sb, engine.Shell, script, opts)
}

func execute(tb TB, sb *engine.Sandbox, lang engine.Language, code string, opts []engine.ExecuteOption) *engine.Result {
	tb.Helper()
	res, err := sb.Execute(context.Background(), lang, code, opts...)
	if err != nil {
		tb.Fatalf("enginetest: Execute(%s, %q): %v", lang, code, err)
	}
	return res
}
