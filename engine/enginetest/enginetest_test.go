package enginetest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/internal/slack"
)

func TestOneSharedEngine(t *testing.T) {
	first, second := enginetest.Engine(t), enginetest.Engine(t)
	if first != second {
		t.Fatal("two shared engines")
	}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	if res := enginetest.Run(t, sb, `return Date.now()`); string(res.Value) != fmt.Sprint(enginetest.Now.UnixMilli()) {
		t.Errorf("Date.now() is %s, want the fixed clock's %d", res.Value, enginetest.Now.UnixMilli())
	}
}

// A sandbox is closed, and an engine of one's own too, when the test
// that made it ends.
func TestCleanupCloses(t *testing.T) {
	var sb *engine.Sandbox
	var eng *engine.Engine
	var ft enginetest.FakeT
	if !ft.Run(func(t enginetest.TB) {
		sb = enginetest.NewSandbox(t, engine.SandboxConfig{})
		eng = enginetest.NewEngine(t, enginetest.Config().WithPool(0))
	}) {
		t.Fatal(ft.Failure())
	}
	if _, err := sb.Execute(context.Background(), engine.JavaScript, `1`); engine.KindOf(err) != engine.KindClosed {
		t.Errorf("the sandbox runs after the test ended: %v", err)
	}
	if _, err := eng.NewSandbox(context.Background(), engine.SandboxConfig{}); err == nil {
		t.Error("the engine of the test makes sandboxes after the test ended")
	}
}

// Run and RunShell fail the test when Execute fails, and only then.
func TestRunFailsOnError(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 100 * time.Millisecond}})
	for _, c := range []struct {
		name  string
		run   func(t enginetest.TB)
		fatal string
	}{
		{"throws", func(t enginetest.TB) {
			if res := enginetest.Run(t, sb, `throw new Error("boom")`); res.ExitCode != 1 || !strings.Contains(res.Exception, "boom") {
				t.Fatalf("result %+v", res)
			}
		}, ""},
		{"exit status", func(t enginetest.TB) {
			if res := enginetest.RunShell(t, sb, `exit 3`); res.ExitCode != 3 {
				t.Fatalf("result %+v", res)
			}
		}, ""},
		{"timeout", func(t enginetest.TB) { enginetest.Run(t, sb, `while (true) {}`) }, "timeout"},
		{"shell timeout", func(t enginetest.TB) { enginetest.RunShell(t, sb, `while true; do :; done`) }, "timeout"},
	} {
		var ft enginetest.FakeT
		ok := ft.Run(c.run)
		if ok != (c.fatal == "") || !strings.Contains(ft.Failure(), c.fatal) {
			t.Errorf("%s: the test failed with %q, want %q", c.name, ft.Failure(), c.fatal)
		}
	}
}

func TestTools(t *testing.T) {
	var n atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{
		enginetest.Echo("a/echo"),
		enginetest.Mock("a/mock", []int{1, 2}),
		enginetest.Counting("a/count", &n),
		enginetest.Failing("a/fail", engine.ToolErrorf("out of %s", "stock")),
		enginetest.Failing("a/secret", errors.New("password=hunter2")),
		enginetest.Slow("a/slow", 50*time.Millisecond),
	}})
	res := enginetest.Run(t, sb, `
const out = [await a.echo({x: 1}), await a.mock({}), await a.count({y: 2}), await a.count({})]
for (const f of [a.fail, a.secret]) { try { await f({}) } catch (e) { out.push(e.kind + ": " + e.message) } }
const start = Date.now()
out.push(await a.slow({z: 3}))
return out`)
	want := `[{"method":"a/echo","params":{"x":1}},[1,2],{"y":2},{},"failed: tool a/fail failed: out of stock",` +
		`"failed: tool a/secret failed: internal error (the host's record of call #6 has the details)",{"method":"a/slow","params":{"z":3}}]`
	if string(res.Value) != want {
		t.Errorf("results\n%s\nwant\n%s", res.Value, want)
	}
	if n.Load() != 2 {
		t.Errorf("Counting counted %d calls, want 2", n.Load())
	}
	if d := res.ToolCalls[len(res.ToolCalls)-1].Duration; d < 50*time.Millisecond {
		t.Errorf("Slow answered after %v, before its 50ms", d)
	}
}

// Slow gives up when its call's context ends: the time limit is a timeout,
// not an hour.
func TestSlowEndsWithItsContext(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Slow("a/slow", time.Hour)},
		Limits: engine.Limits{Timeout: 100 * time.Millisecond},
	})
	start := time.Now()
	_, err := sb.Execute(context.Background(), engine.JavaScript, `await a.slow({})`)
	if engine.KindOf(err) != engine.KindTimeout {
		t.Errorf("err %v, want a timeout", err)
	}
	if took, bound := time.Since(start), enginetest.Scale(t, 2*time.Second); took > bound {
		t.Errorf("the execution ended after %v, past %v", took, bound)
	}
}

// The policy helpers decide alike, and a policy that does not load fails
// the test.
func TestPolicies(t *testing.T) {
	caps := []*dsl.Capability{dsl.Method("pay").Where(dsl.Param("amount").Le(10))}
	pols := enginetest.Evaluators(t, caps...)
	if len(pols) != 3 {
		t.Fatalf("%d evaluators", len(pols))
	}
	pols["Policy"] = enginetest.Policy(t, caps...)
	pols["PolicyOPA"] = enginetest.PolicyOPA(t, caps...)
	for name, pol := range pols {
		var n atomic.Int32
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Counting("pay", &n)}, Policy: pol})
		res := enginetest.Run(t, sb, `await pay({amount: 5}); try { await pay({amount: 50}) } catch (e) { return e.kind }`)
		if string(res.Value) != `"denied"` || n.Load() != 1 {
			t.Errorf("%s: %s after %d calls", name, res.Value, n.Load())
		}
	}
	var ft enginetest.FakeT
	if ft.Run(func(t enginetest.TB) { enginetest.Policy(t, dsl.Method("")) }) || !strings.Contains(ft.Failure(), "policy.New") {
		t.Errorf("an invalid capability: %q", ft.Failure())
	}
}

// FakeT runs its cleanups newest first when the body ends, also at a
// Fatalf, which ends the body; Logf is recorded.
func TestFakeT(t *testing.T) {
	var order []string
	var ft enginetest.FakeT
	ok := ft.Run(func(t enginetest.TB) {
		t.Cleanup(func() { order = append(order, "first") })
		t.Cleanup(func() { order = append(order, "second") })
		t.Logf("a %s", "log")
		t.Fatalf("stop %d", 1)
		order = append(order, "after Fatalf")
	})
	if ok || ft.Failure() != "stop 1" || strings.Join(order, " ") != "second first" || strings.Join(ft.Logs(), "|") != "a log" {
		t.Errorf("ok %v, failure %q, order %q, logs %q", ok, ft.Failure(), order, ft.Logs())
	}
	var other enginetest.FakeT
	defer func() {
		if recover() == nil {
			t.Error("another FakeT's Fatalf was swallowed")
		}
	}()
	ft.Run(func(enginetest.TB) { other.Fatalf("not mine") })
}

func TestClock(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := enginetest.NewClock(start)
	if !c.Now().Equal(start) {
		t.Errorf("Now %v", c.Now())
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() { c.Advance(time.Minute) })
	}
	wg.Wait()
	if got := c.Now(); !got.Equal(start.Add(10 * time.Minute)) {
		t.Errorf("after ten minutes: %v", got)
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Errorf("after Set: %v", c.Now())
	}
}

func TestBuffer(t *testing.T) {
	var b enginetest.Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("x"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if len(b.String()) != 800 {
		t.Errorf("%d bytes, want 800", len(b.String()))
	}
}

// Slack measures, within range, and the knob replaces the measurement.
func TestSlack(t *testing.T) {
	t.Setenv(slack.Env, "")
	if f := enginetest.Slack(t); f < 1 || f > slack.MaxFactor {
		t.Errorf("Slack %v", f)
	}
	t.Setenv(slack.Env, "4")
	if d := enginetest.Scale(t, time.Second); d != 4*time.Second {
		t.Errorf("Scale(1s) with $%s=4: %v", slack.Env, d)
	}
}
