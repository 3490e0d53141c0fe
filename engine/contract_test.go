package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// TestExecuteContractCallerPool: many callers share one sandbox whose time
// limit is tiny (1ns, 1µs, 1ms). Each gets a Result, never nil, and an
// error that is nil or of kind timeout: the clock starts when the caller's
// script does, so waiting for the sandbox is not a timeout, and a limit is
// never reported as a cancel. Before, a caller that waited past the limit
// got a nil Result and KindCanceled. ("Pool" in the name: CI runs it
// under -race.)
func TestExecuteContractCallerPool(t *testing.T) {
	ctx := context.Background()
	scripts := []struct {
		lang engine.Language
		code string
	}{
		{engine.JavaScript, "return 1"},
		{engine.JavaScript, "for (let i = 0; i < 3; i++) await t({i}); return 2"},
		{engine.JavaScript, "await Promise.all([t({}), t({}), t({})])"},
		{engine.Shell, "echo hi; tool t --i 1 >/dev/null"},
	}
	for _, limit := range []time.Duration{time.Nanosecond, time.Microsecond, time.Millisecond} {
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{
			Tools:  []engine.Tool{{Name: "t", Handler: func(context.Context, json.RawMessage) (any, error) { return 1, nil }}},
			Limits: engine.Limits{Timeout: limit},
			Policy: enginetest.Policy(t, dsl.Method("t")),
		})
		var wg sync.WaitGroup
		for i := range 12 {
			s := scripts[i%len(scripts)]
			wg.Go(func() {
				res, err := sb.Execute(ctx, s.lang, s.code)
				if res == nil {
					t.Errorf("limit %v, %s: nil Result (err %v)", limit, s.code, err)
					return
				}
				if err != nil && !errors.Is(err, engine.ErrTimeout) {
					t.Errorf("limit %v, %s: err %v, want nil or a timeout", limit, s.code, err)
				}
			})
		}
		wg.Wait()
		if err := sb.Err(); err != nil {
			t.Fatalf("limit %v: the sandbox broke: %v", limit, err)
		}
	}
}

// TestExecuteClockStartsWithScriptPool: callers that wait behind each
// other for longer than the time limit each still get the whole limit,
// and the wait is bounded by the caller's context alone, which ends it
// with KindCanceled and an empty Result.
func TestExecuteClockStartsWithScriptPool(t *testing.T) {
	ctx := context.Background()
	slow := engine.Tool{Name: "slow", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
		select {
		case <-time.After(80 * time.Millisecond):
			return "done", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{slow}, Limits: engine.Limits{Timeout: 400 * time.Millisecond}})
	var wg sync.WaitGroup
	for range 8 { // 8 × 80 ms in turn: the last starts about 560 ms after the first
		wg.Go(func() {
			res, err := sb.Execute(ctx, engine.JavaScript, `return await slow({})`)
			if err != nil || res == nil || res.Stdout != "done\n" {
				t.Errorf("err %v, result %+v", err, res)
			}
		})
	}
	// A caller whose own context ends while it waits.
	time.Sleep(10 * time.Millisecond)
	wctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	res, err := sb.Execute(wctx, engine.JavaScript, "return 1")
	if !errors.Is(err, engine.ErrCanceled) || res == nil || res.ExitCode != 1 || res.Stdout != "" {
		t.Errorf("a caller whose context ended while it waited: err %v, result %+v", err, res)
	}
	wg.Wait()
	// Every way Execute can fail before the script starts returns a Result.
	if res, err := sb.Execute(ctx, "python", "1"); res == nil || !errors.Is(err, engine.ErrInvalid) {
		t.Errorf("unknown language: %+v %v", res, err)
	}
	sb.Close(ctx)
	if res, err := sb.Execute(ctx, engine.JavaScript, "1"); res == nil || !errors.Is(err, engine.ErrClosed) {
		t.Errorf("closed sandbox: %+v %v", res, err)
	}
}

// TestCallFrom: a handler's context, and an approver's, say which call it
// is: method, id, session, labels, language and the charged capability,
// under Execute (JS and shell, a batch) and under the step API's Run.
func TestCallFrom(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var seen []engine.CallInfo
	record := func(ctx context.Context, _ json.RawMessage) (any, error) {
		info, ok := engine.CallFrom(ctx)
		if !ok {
			return nil, errors.New("no CallInfo")
		}
		mu.Lock()
		seen = append(seen, info)
		mu.Unlock()
		return info.Method, nil
	}
	var approverSaw engine.CallInfo
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		ID:     "sess-1",
		Labels: map[string]string{"tenant": "acme"},
		Tools:  []engine.Tool{{Name: "crm/read", Handler: record}, {Name: "crm/write", Handler: record}, {Name: "pay", Handler: record}},
		Policy: enginetest.Policy(t,
			dsl.Method("crm/read").Named("reads"),
			dsl.Method("crm/*"),
			dsl.Method("pay").Ask(),
		),
		Approve: func(ctx context.Context, c *engine.Call) (bool, string) {
			approverSaw, _ = engine.CallFrom(ctx)
			return true, ""
		},
	})
	res := enginetest.Run(t, sb, `await Promise.all([crm.read({}), crm.write({})])
await shell("tool pay")
return "ok"`)
	if res.Stdout != "ok\n" {
		t.Fatalf("%q %q", res.Stdout, res.Stderr)
	}
	if len(seen) != 3 {
		t.Fatalf("seen %+v", seen)
	}
	if seen[0].Method != "crm/read" {
		seen[0], seen[1] = seen[1], seen[0] // the batch ran concurrently
	}
	labels := map[string]string{"tenant": "acme"}
	want := []engine.CallInfo{
		{Method: "crm/read", ID: 1, Session: "sess-1", Labels: labels, Language: engine.JavaScript, Capability: "reads", CapabilityIndex: 0},
		{Method: "crm/write", ID: 2, Session: "sess-1", Labels: labels, Language: engine.JavaScript, Capability: `#1 crm/*`, CapabilityIndex: 1},
		{Method: "pay", ID: 3, Session: "sess-1", Labels: labels, Language: engine.Shell, Capability: `#2 pay`, CapabilityIndex: 2},
	}
	for i, w := range want {
		if !reflect.DeepEqual(seen[i], w) {
			t.Errorf("call %d: %+v, want %+v", i, seen[i], w)
		}
		if rec := res.ToolCalls[w.ID-1]; rec.Method != w.Method || rec.Capability != w.Capability {
			t.Errorf("call %d does not match its record %+v", i, rec)
		}
	}
	if !reflect.DeepEqual(approverSaw, want[2]) {
		t.Errorf("approver saw %+v", approverSaw)
	}
	// The labels are a copy: a handler cannot change the session's.
	seen[0].Labels["tenant"] = "evil"
	if info := (enginetest.Run(t, sb, `return await crm.read({})`)); info.Stdout != "crm/read\n" || seen[3].Labels["tenant"] != "acme" {
		t.Errorf("labels: %+v", seen[3])
	}

	// The step API: Run puts the CallInfo in the handler's context too;
	// without a policy, no capability is charged.
	plain := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "a", Handler: record}}})
	x, err := plain.Start(ctx, engine.JavaScript, `await a({}); return await a({})`)
	if err != nil {
		t.Fatal(err)
	}
	for {
		calls, err := x.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if calls == nil {
			break
		}
		for _, c := range calls {
			c.Run(ctx)
		}
	}
	last := seen[len(seen)-1]
	if last.Method != "a" || last.ID != 2 || last.Session != plain.ID() || last.Language != engine.JavaScript || last.Capability != "" || last.CapabilityIndex != -1 || last.Labels != nil {
		t.Errorf("step API: %+v", last)
	}
	if _, ok := engine.CallFrom(ctx); ok {
		t.Error("CallFrom on a plain context reported a call")
	}
}

// ExampleCallFrom serves several tools with one dispatcher handler, which
// reads from its context which tool the script called.
func ExampleCallFrom() {
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer eng.Close(ctx)

	// One handler for every tool of a service: it routes on the method,
	// and could bill the tenant from call.Labels.
	dispatch := func(ctx context.Context, params json.RawMessage) (any, error) {
		call, _ := engine.CallFrom(ctx)
		var p struct {
			A float64 `json:"a"`
			B float64 `json:"b"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		switch call.Method {
		case "calc/add":
			return p.A + p.B, nil
		case "calc/mul":
			return p.A * p.B, nil
		}
		// A ToolError is what the script sees; any other error is kept
		// for the host and shown as "internal error".
		return nil, engine.ToolErrorf("%s is not implemented", call.Method)
	}
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)
	var tools []engine.Tool
	for _, name := range []string{"calc/add", "calc/mul", "calc/pow"} {
		tools = append(tools, engine.Tool{Name: name, InputSchema: schema, Handler: dispatch})
	}
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: tools, Labels: map[string]string{"tenant": "acme"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sb.Close(ctx)

	res, err := sb.Execute(ctx, engine.JavaScript, `
console.log(await calc.add({a: 2, b: 3}), await calc.mul({a: 2, b: 3}))
try { await calc.pow({a: 2, b: 3}) } catch (e) { console.log(e.message) }
try { await calc.add({a: 2, b: "3"}) } catch (e) { console.log(e.kind, e.reasons[0]) }`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(res.Stdout)
	// Output:
	// 5 6
	// tool calc/pow failed: calc/pow is not implemented
	// invalid b: expected number, got string
}
