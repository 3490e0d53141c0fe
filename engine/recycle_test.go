package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

const bigScript = `const a = []; for (let i = 0; i < 300000; i++) a.push({i, s: "x" + i}); return a.length`

// listFiles shows a sandbox's files below the root with their modes,
// times and contents.
func listFiles(t *testing.T, sb *engine.Sandbox) string {
	t.Helper()
	files, err := sb.Files(context.Background(), "/")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range files {
		if f.Path != "/" {
			fmt.Fprintf(&b, "%s %v %s %q\n", f.Path, f.Mode, f.ModTime.UTC().Format(time.RFC3339Nano), f.Data)
		}
	}
	return b.String()
}

// After an execution that grew the guest's memory, the sandbox, once idle,
// gives the memory back by taking a fresh guest, with its files as they
// were; the next execution sees no difference.
func TestRecycleGivesMemoryBack(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		recycle int64
		back    bool
	}{{"default", 0, true}, {"never", -1, false}} {
		t.Run(c.name, func(t *testing.T) {
			eng := enginetest.NewEngine(t, enginetest.Config().WithRecycleAfter(c.recycle).WithRecycleIdle(50*time.Millisecond))
			// A loaded machine must not turn the big script into a timeout.
			sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Limits: engine.Limits{Timeout: 2 * time.Minute}})
			if _, err := sb.Execute(ctx, engine.Shell, `mkdir -p /workspace/d/e && printf 'one\n' > /workspace/d/e/f && echo two > /workspace/g`); err != nil {
				t.Fatal(err)
			}
			before := eng.Stats().MemoryBytes
			files := listFiles(t, sb)
			res, err := sb.Execute(ctx, engine.JavaScript, bigScript)
			if err != nil || string(res.Value) != "300000" {
				t.Fatalf("big script: %v %s %s", err, res.Value, res.Stderr)
			}
			// The guest is replaced once the sandbox has been idle,
			// in the background. Wait a little for the memory to be
			// given back.
			after := eng.Stats().MemoryBytes
			for deadline := time.Now().Add(time.Minute); c.back && after >= before+engine.DefaultRecycleAfter && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
				after = eng.Stats().MemoryBytes
			}
			if back := after < before+engine.DefaultRecycleAfter; back != c.back {
				t.Fatalf("guest memory %d MiB before the script, %d MiB after; given back: %v, want %v", before>>20, after>>20, back, c.back)
			}
			if got := listFiles(t, sb); got != files {
				t.Errorf("files after the script:\n%swant:\n%s", got, files)
			}
			res, err = sb.Execute(ctx, engine.Shell, `cat /workspace/d/e/f /workspace/g`)
			if err != nil || res.Stdout != "one\ntwo\n" {
				t.Errorf("the next execution: %v %q %q", err, res.Stdout, res.Stderr)
			}
		})
	}
}

// Executions that come back to back never wait for a replacement: the
// memory is given back only once the sandbox has been idle for the delay,
// and an execution that starts first puts it off until it ends.
func TestRecycleWaitsForIdle(t *testing.T) {
	ctx := context.Background()
	const idle = 400 * time.Millisecond
	eng := enginetest.NewEngine(t, enginetest.Config().WithRecycleIdle(idle))
	sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Limits: engine.Limits{Timeout: 2 * time.Minute}})
	start := time.Now()
	for i := range 3 {
		res, err := sb.Execute(ctx, engine.JavaScript, bigScript)
		if err != nil || string(res.Value) != "300000" {
			t.Fatalf("run %d: %v %s", i, err, res.Stderr)
		}
	}
	if n := sb.Recycled(); n != 0 && time.Since(start) < idle {
		t.Fatalf("recycled %d times while executions came back to back", n)
	}
	deadline := time.Now().Add(time.Minute)
	for sb.Recycled() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("an idle sandbox did not give its guest's memory back")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := sb.Recycled(); n != 1 {
		t.Errorf("recycled %d times, want once", n)
	}
	if res, err := sb.Execute(ctx, engine.JavaScript, `return 1`); err != nil || string(res.Value) != "1" {
		t.Fatalf("after the recycle: %v %s", err, res.Stderr)
	}
}

// A script whose live data fits runs again and again in one sandbox: the
// guest collects the garbage a large execution leaves once it has ended,
// so the next run does not find the last one's data still on the heap
// and run the guest out of memory, whether or not the sandbox recycles
// its guest.
func TestGarbageOfTheLastScriptIsCollected(t *testing.T) {
	ctx := context.Background()
	eng := enginetest.NewEngine(t, enginetest.Config().WithRecycleAfter(-1))
	sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Limits: engine.Limits{Timeout: 2 * time.Minute}})
	for i := range 3 {
		res, err := sb.Execute(ctx, engine.JavaScript, bigScript)
		if err != nil || string(res.Value) != "300000" {
			t.Fatalf("run %d: %v %s", i, err, res.Stderr)
		}
	}
}

// A script that outgrows its memory fails at once with a memory error: the
// guest's Go runtime has no soft memory limit, under which it collected
// again and again near the limit until the script's time limit ended it,
// the guest then too busy collecting to stop when asked (RATIONALE.md,
// "The guest's garbage collector").
func TestOutgrowingMemoryFailsFast(t *testing.T) {
	ctx := context.Background()
	eng := enginetest.NewEngine(t, enginetest.Config().WithMemoryLimitMB(64))
	for _, src := range []string{
		`const a = []; for (;;) a.push("x".repeat(100) + a.length)`,
		`const keep = []; for (let i = 0; ; i++) { keep.push({i, s: "k" + i}); for (let j = 0; j < 8; j++) ({v: j}) }`,
	} {
		sb := enginetest.NewSandboxOf(t, eng, engine.SandboxConfig{Limits: engine.Limits{Timeout: time.Minute}})
		start := time.Now()
		_, err := sb.Execute(ctx, engine.JavaScript, src)
		if !errors.Is(err, engine.ErrMemory) {
			t.Errorf("%s: after %v: %v, want a memory error", src, time.Since(start), err)
		}
	}
}
