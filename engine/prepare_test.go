package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/internal/slack"
)

// waitPrepared waits until the sandbox's guest has made n interpreters
// ahead, or fails.
func waitPrepared(t *testing.T, sb *engine.Sandbox, n int64) {
	t.Helper()
	deadline := time.Now().Add(slack.Scale(t, 5*time.Second))
	for sb.Prepared() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the guest made %d interpreters ahead, want %d", sb.Prepared(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestNextInterpreterIsMadeAhead(t *testing.T) {
	sb := enginetest.NewSandboxOf(t, bareEngine(t), engine.SandboxConfig{})
	ctx := context.Background()
	enginetest.Run(t, sb, `return 1`)
	waitPrepared(t, sb, 1)
	if res := enginetest.Run(t, sb, `await 0; return 2`); string(res.Value) != "2" {
		t.Fatalf("value %s", res.Value)
	}
	waitPrepared(t, sb, 2)
	// A shell execution does not ask for one.
	if _, err := sb.Execute(ctx, engine.Shell, `true`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if n := sb.Prepared(); n != 2 {
		t.Fatalf("after a shell execution: %d interpreters made ahead, want 2", n)
	}
}

// TestPreparedInterpreterIsFresh: the interpreter made ahead is made after
// the last execution ended, so what a script changed in its own runtime
// (builtins' prototypes, globals) is not in the next one.
func TestPreparedInterpreterIsFresh(t *testing.T) {
	sb := enginetest.NewSandboxOf(t, bareEngine(t), engine.SandboxConfig{})
	enginetest.Run(t, sb, `
		Promise.prototype.then = function() { return "evil" };
		Object.prototype.polluted = 1;
		globalThis.leak = 1;
		const AsyncFunction = (async function() {}).constructor;
		AsyncFunction.prototype.leak = 1;
		return 1`)
	waitPrepared(t, sb, 1)
	res := enginetest.Run(t, sb, `
		const AsyncFunction = (async function() {}).constructor;
		return [typeof leak, String(Promise.prototype.then).includes("[native code]"), ({}).polluted === undefined, AsyncFunction.prototype.leak === undefined, await Promise.resolve(3)]`)
	if got := string(res.Value); got != `["undefined",true,true,true,3]` {
		t.Fatalf("the next execution saw the last one's changes: %s", got)
	}
}

// TestPrepareBesideExecutions: executions that come while the guest makes
// the next interpreter wait for it, and those that come first go ahead;
// every one runs in its own interpreter either way.
func TestPrepareBesideExecutions(t *testing.T) {
	sb := enginetest.NewSandboxOf(t, bareEngine(t), engine.SandboxConfig{})
	ctx := context.Background()
	for i := range 40 {
		if i%3 == 0 {
			time.Sleep(time.Duration(i%5) * 100 * time.Microsecond)
		}
		res, err := sb.Execute(ctx, engine.JavaScript, `if (globalThis.seen) throw new Error("shared"); globalThis.seen = 1; await 0; return 1`)
		if err != nil || res.ExitCode != 0 || string(res.Value) != "1" {
			t.Fatalf("execution %d: %v exit %d %s", i, err, res.ExitCode, res.Stderr)
		}
	}
}
