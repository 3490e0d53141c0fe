package enginetest_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// A sandbox of the shared engine with two canned tools. The engine's
// clock is fixed at enginetest.Now, so dates print the same in every run.
func ExampleNewSandbox() {
	new(enginetest.FakeT).Run(func(t enginetest.TB) { // t: the test's *testing.T
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{
			enginetest.Mock("weather/current", map[string]any{"temp": 21}),
			enginetest.Echo("notes/add"),
		}})
		res := enginetest.Run(t, sb, `
const w = await weather.current({city: "Oslo"})
const n = await notes.add({text: "warm"})
console.log(w.temp, n.method, n.params.text, new Date().toISOString())`)
		fmt.Print(res.Stdout)
	})
	// Output:
	// 21 notes/add warm 2026-11-21T12:00:00.000Z
}

// A policy made of capabilities; Counting tells how many calls it let
// through to the handler.
func ExamplePolicy() {
	new(enginetest.FakeT).Run(func(t enginetest.TB) { // t: the test's *testing.T
		var refunds atomic.Int32
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{
			Tools:  []engine.Tool{enginetest.Counting("orders/refund", &refunds)},
			Policy: enginetest.Policy(t, dsl.Method("orders/refund").Where(dsl.Param("amount").Le(100))),
		})
		res := enginetest.RunShell(t, sb, `tool orders/refund --json '{"amount": 40}' && tool orders/refund --json '{"amount": 900}'`)
		fmt.Print(res.Stdout)
		fmt.Println("exit", res.ExitCode, "refunds", refunds.Load())
	})
	// Output:
	// {"amount":40}
	// exit 1 refunds 1
}

// The same test under each evaluator that can decide a policy of
// capabilities.
func ExampleEvaluators() {
	new(enginetest.FakeT).Run(func(t enginetest.TB) { // t: the test's *testing.T
		evaluators := enginetest.Evaluators(t, dsl.Method("db/read").MaxCalls(1))
		for _, name := range slices.Sorted(maps.Keys(evaluators)) {
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{
				Tools:  []engine.Tool{enginetest.Echo("db/read")},
				Policy: evaluators[name],
			})
			res := enginetest.Run(t, sb, `
await db.read({})
try { await db.read({}) } catch (e) { return e.kind }`)
			fmt.Println(name, string(res.Value))
		}
	})
	// Output:
	// authz "denied"
	// policy "denied"
	// rego "denied"
}

// A failing tool: the script reads the kind and the message of a
// ToolError; any other error is only an internal error to it.
func ExampleFailing() {
	new(enginetest.FakeT).Run(func(t enginetest.TB) { // t: the test's *testing.T
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{
			enginetest.Failing("crm/find", &engine.ToolError{Kind: "invalid", Message: "no such customer"}),
		}})
		res := enginetest.Run(t, sb, `try { await crm.find({id: 7}) } catch (e) { return [e.kind, e.message] }`)
		fmt.Println(string(res.Value))
	})
	// Output:
	// ["invalid","tool crm/find failed: no such customer"]
}

// A call that only its context ends: the execution's time limit stops it.
func ExampleSlow() {
	new(enginetest.FakeT).Run(func(t enginetest.TB) { // t: the test's *testing.T
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{
			Tools:  []engine.Tool{enginetest.Slow("queue/wait", time.Hour)},
			Limits: engine.Limits{Timeout: 200 * time.Millisecond},
		})
		_, err := sb.Execute(context.Background(), engine.JavaScript, `await queue.wait({})`)
		fmt.Println(engine.KindOf(err))
	})
	// Output:
	// timeout
}

// A fake clock for what takes one: an engine of one's own
// (engine.Config.WithClock), a counter store's windows
// (counters.NewMemory), a VFS (vfs.WithClock).
func ExampleClock() {
	clock := enginetest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	fmt.Println(clock.Now().Format(time.Kitchen))
	fmt.Println(clock.Advance(90 * time.Minute).Format(time.Kitchen))
	// Output:
	// 12:00AM
	// 1:30AM
}

// A time bound scaled to this run: on a machine twice as busy as the
// reference, a second of slack becomes two.
func ExampleScale() {
	new(enginetest.FakeT).Run(func(t enginetest.TB) { // t: the test's *testing.T
		bound := enginetest.Scale(t, time.Second)
		fmt.Println(bound >= time.Second, bound <= 20*time.Second)
	})
	// Output:
	// true true
}

// A test of a test helper: the helper fails the FakeT, not the test.
func ExampleFakeT() {
	var ft enginetest.FakeT
	ok := ft.Run(func(t enginetest.TB) {
		enginetest.Policy(t, dsl.Method("")) // a capability with no method
		fmt.Println("not reached")
	})
	fmt.Println(ok, strings.HasPrefix(ft.Failure(), "enginetest: policy.New:"))
	// Output:
	// false true
}
