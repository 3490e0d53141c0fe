package engine_test

// The concurrency contract of Execution and Call (ARCHITECTURE.md,
// "Concurrency"): the methods documented as callable from any goroutine
// are called from many at once here. CI runs these under -race, where an
// unsynchronized access fails the test even when the outcome looks right.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy/authz"
)

// askAll asks about every call.
type askAll struct{}

func (askAll) Decide(context.Context, *authz.Input) (authz.Decision, error) {
	return authz.Decision{Ask: true, Reasons: []string{"a person decides"}, Capability: -1}, nil
}
func (askAll) Revision() string          { return "ask-all" }
func (askAll) CapabilityName(int) string { return "" }

// driveAll runs x to its end from this goroutine, answering every call
// with Resolve, and returns Next's last error.
func driveAll(ctx context.Context, x *engine.Execution) error {
	for {
		calls, err := x.Next(ctx)
		if err != nil || calls == nil {
			return err
		}
		for _, c := range calls {
			_ = c.Resolve(map[string]int{"n": 1})
		}
	}
}

// Cancel from another goroutine stops a Next that is running the script:
// Next returns KindCanceled at once (not at the time limit), Cancel
// returns, and the sandbox runs the next script.
func TestCancelStopsARunningNext(t *testing.T) {
	ctx := context.Background()
	// The time limit stays 40 s past the bound, so that a Next that ran
	// to the limit would cross it.
	bound := enginetest.Scale(t, 20*time.Second)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: bound + 40*time.Second}})
	for _, lang := range []engine.Language{engine.JavaScript, engine.Shell} {
		code := `while (true) {}`
		if lang == engine.Shell {
			code = `while true; do :; done`
		}
		x, err := sb.Start(ctx, lang, code)
		if err != nil {
			t.Fatal(err)
		}
		nextErr := make(chan error, 1)
		began := time.Now()
		go func() {
			calls, err := x.Next(ctx)
			if calls != nil {
				err = fmt.Errorf("Next returned calls %v", calls)
			}
			nextErr <- err
		}()
		time.Sleep(50 * time.Millisecond)
		cancelErr := make(chan error, 1)
		go func() { cancelErr <- x.Cancel(ctx) }()
		select {
		case err := <-nextErr:
			if !errors.Is(err, engine.ErrCanceled) {
				t.Errorf("%s: Next: %v, want ErrCanceled", lang, err)
			}
		case <-time.After(bound):
			t.Fatalf("%s: Next still runs %v after Cancel", lang, time.Since(began))
		}
		if err := <-cancelErr; err != nil && !errors.Is(err, engine.ErrCanceled) {
			t.Errorf("%s: Cancel: %v", lang, err)
		}
		if x.Result() == nil || !errors.Is(x.Err(), engine.ErrCanceled) {
			t.Errorf("%s: after Cancel: Result %v, Err %v", lang, x.Result(), x.Err())
		}
		if r := enginetest.Run(t, sb, "return 1"); r.Stdout != "1\n" {
			t.Fatalf("%s: after Cancel: %q", lang, r.Stdout)
		}
	}
}

// Cancel at any moment of a driven execution (before its first Next, while
// the script runs, while a call waits, while the policy decides, after the
// end), from another goroutine, while a third reads Result, Err and
// Pending: every method returns, the execution ends once, and the sandbox
// is free for the next script.
func TestCancelConcurrentWithNext(t *testing.T) {
	ctx := context.Background()
	// Counters per execution: the default policy allows 100 calls of a
	// tool per counter scope, and the rounds make more.
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "lookup"}}, Counters: engine.Counters{Scope: counters.PerExecution}})
	patience := enginetest.Scale(t, 30*time.Second)
	const script = `
let n = 0
for (let i = 0; i < 40; i++) {
  const [a, b] = await Promise.all([lookup({i}), lookup({i: i + 1})])
  n += a.n + b.n
  for (let j = 0; j < 2000; j++) n += j % 2
}
return n`
	delays := []time.Duration{0, 10 * time.Microsecond, 200 * time.Microsecond, time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond, time.Second}
	for round, delay := range delays {
		x, err := sb.Start(ctx, engine.JavaScript, script)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var nextErr, cancelErr error
		stop := make(chan struct{})
		wg.Add(3)
		go func() {
			defer wg.Done()
			nextErr = driveAll(ctx, x)
		}()
		go func() {
			defer wg.Done()
			time.Sleep(delay)
			cancelErr = x.Cancel(ctx)
		}()
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if r := x.Result(); r != nil && x.Err() == nil && r.ExitCode != 0 {
					t.Errorf("round %d: a finished execution without error exited %d", round, r.ExitCode)
				}
				for _, c := range x.Pending() {
					_ = c.Method
				}
				time.Sleep(50 * time.Microsecond)
			}
		}()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		deadline := time.After(patience)
		for x.Result() == nil {
			select {
			case <-deadline:
				t.Fatalf("round %d (Cancel after %v): the execution did not end", round, delay)
			case <-time.After(time.Millisecond):
			}
		}
		close(stop)
		select {
		case <-done:
		case <-deadline:
			t.Fatalf("round %d (Cancel after %v): Next or Cancel did not return", round, delay)
		}
		if nextErr != nil && !errors.Is(nextErr, engine.ErrCanceled) {
			t.Errorf("round %d: Next: %v", round, nextErr)
		}
		if cancelErr != nil && !errors.Is(cancelErr, engine.ErrCanceled) {
			t.Errorf("round %d: Cancel: %v", round, cancelErr)
		}
		res, xerr := x.Result(), x.Err()
		t.Logf("Cancel after %v: %d calls made, Err %v", delay, len(res.ToolCalls), xerr)
		switch {
		case xerr == nil && (res.ExitCode != 0 || string(res.Value) == ""):
			t.Errorf("round %d: finished without error but %+v", round, res)
		case xerr != nil && !errors.Is(xerr, engine.ErrCanceled):
			t.Errorf("round %d: Err %v", round, xerr)
		}
		if delay == time.Second && xerr != nil {
			t.Errorf("round %d: a Cancel after the end changed the outcome: %v", round, xerr)
		}
		if r := enginetest.Run(t, sb, "return 1"); r.Stdout != "1\n" {
			t.Fatalf("round %d: after Cancel: %q", round, r.Stdout)
		}
	}
}

// Next called from several goroutines at once is serialized: the script
// runs on one of them at a time, each call of the batch is handed out,
// and the execution ends once.
func TestNextFromManyGoroutines(t *testing.T) {
	ctx := context.Background()
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "lookup"}}})
	x, err := sb.Start(ctx, engine.JavaScript, `
let n = 0
for (let i = 0; i < 20; i++) {
  const r = await Promise.all([lookup({i}), lookup({i}), lookup({i})])
  n += r.length
}
return n`)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- driveAll(ctx, x)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Next: %v", err)
		}
	}
	if res := x.Result(); res == nil || string(res.Value) != "60" || len(res.ToolCalls) != 60 {
		t.Fatalf("result %+v, err %v", res, x.Err())
	}
}

// The calls of a batch answered from as many goroutines, each call
// answered by two of them at once (Resolve, Reject, Deny and Run mixed),
// while another lists Pending: exactly one answer of each call counts, an
// ask is settled once (one audit record "approved" or "refused"), and the
// script sees the answer that counted.
func TestCallAnswersConcurrently(t *testing.T) {
	ctx := context.Background()
	var (
		mu      sync.Mutex
		settled = map[string]int{}
		ran     atomic.Int32
	)
	const n = 24
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools: []engine.Tool{{Name: "op", Handler: func(_ context.Context, p json.RawMessage) (any, error) {
			ran.Add(1)
			return map[string]string{"by": "run"}, nil
		}}},
		Policy: askAll{},
		Audit: func(r engine.AuditRecord) {
			if r.Decision == "approved" || r.Decision == "refused" {
				mu.Lock()
				settled[string(r.Params)]++
				mu.Unlock()
			}
		},
	})
	x, err := sb.Start(ctx, engine.JavaScript, fmt.Sprintf(`
const out = await Promise.allSettled(Array.from({length: %d}, (_, i) => op({i})))
return out.map(o => o.status === "fulfilled" ? o.value.by : o.reason.message.replace(/^tool op /, ""))`, n))
	if err != nil {
		t.Fatal(err)
	}
	calls, err := x.Next(ctx)
	if err != nil || len(calls) != n {
		t.Fatalf("Next: %d calls, %v", len(calls), err)
	}
	answer := func(c *engine.Call, how int) {
		switch how % 4 {
		case 0:
			_ = c.Resolve(map[string]string{"by": "resolve"})
		case 1:
			c.Reject(&engine.ToolError{Message: "rejected"})
		case 2:
			c.Deny("denied")
		case 3:
			c.Run(ctx)
		}
	}
	var wg sync.WaitGroup
	for i, c := range calls {
		for k := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answer(c, i+k)
			}()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 50 {
			_ = x.Pending()
			_ = x.Result()
			_ = x.Err()
		}
	}()
	wg.Wait()
	if p := x.Pending(); len(p) != 0 {
		t.Fatalf("%d calls still pending after every call was answered", len(p))
	}
	if calls, err := x.Next(ctx); calls != nil || err != nil {
		t.Fatalf("final Next: %v %v", calls, err)
	}
	res := x.Result()
	var seen []string
	if err := json.Unmarshal(res.Value, &seen); err != nil || len(seen) != n {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	for i, s := range seen {
		rec := res.ToolCalls[i]
		okAnswers := map[string]bool{"resolve": true, "run": true, "failed: rejected": true, "denied: denied": true}
		if !okAnswers[s] {
			t.Errorf("call %d: the script saw %q", i, s)
		}
		if (s == "resolve" || s == "run") != (rec.Error == "" && rec.Result != nil) {
			t.Errorf("call %d: the script saw %q, the record says %+v", i, s, rec)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i := range n {
		if got := settled[fmt.Sprintf(`{"i":%d}`, i)]; got != 1 {
			t.Errorf("call %d: its ask was settled %d times, want once", i, got)
		}
	}
	if int(ran.Load()) > n {
		t.Errorf("the handler ran %d times for %d calls", ran.Load(), n)
	}
}

// A call the policy asked about is not run once its execution has ended:
// the end refused the ask and released its charge, so a late Run (an
// approval UI that answers after a Cancel) must not run the handler, and a
// late Resolve reports that the call was answered.
func TestLateApprovalAfterCancelDoesNotRun(t *testing.T) {
	ctx := context.Background()
	var ran atomic.Int32
	var records []string
	var mu sync.Mutex
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools: []engine.Tool{{Name: "pay", Handler: func(context.Context, json.RawMessage) (any, error) {
			ran.Add(1)
			return "paid", nil
		}}},
		Policy: askAll{},
		Audit: func(r engine.AuditRecord) {
			mu.Lock()
			records = append(records, r.Decision)
			mu.Unlock()
		},
	})
	x, err := sb.Start(ctx, engine.JavaScript, `await pay({amount: 1}); await pay({amount: 2})`)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := x.Next(ctx)
	if err != nil || len(calls) != 1 || !calls[0].Ask {
		t.Fatalf("Next: %v %v", calls, err)
	}
	if err := x.Cancel(ctx); !errors.Is(err, engine.ErrCanceled) {
		t.Fatalf("Cancel: %v", err)
	}
	calls[0].Run(ctx)
	if err := calls[0].Resolve("late"); err == nil {
		t.Error("a Resolve after the end succeeded")
	}
	if n := ran.Load(); n != 0 {
		t.Errorf("the handler of an ask ran %d times after its execution was canceled", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(records, ","); got != "ask,refused" {
		t.Errorf("audit decisions %s, want ask,refused", got)
	}
}

// Cancel from one goroutine while another waits in Execute for the
// sandbox and a third drives the execution: the waiting Execute runs as
// soon as the canceled execution has let the sandbox go.
func TestCancelConcurrentWithExecute(t *testing.T) {
	ctx := context.Background()
	// The time limit stays 40 s past the bound, so that an Execute that
	// waited for the limit would cross it.
	bound := enginetest.Scale(t, 20*time.Second)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "lookup"}}, Limits: engine.Limits{Timeout: bound + 40*time.Second}})
	for round := range 3 {
		x, err := sb.Start(ctx, engine.JavaScript, `for (;;) { await lookup({}); let n = 0; while (n < 1e5) n++ }`)
		if err != nil {
			t.Fatal(err)
		}
		driven := make(chan error, 1)
		go func() { driven <- driveAll(ctx, x) }()
		executed := make(chan string, 1)
		go func() {
			res, err := sb.Execute(ctx, engine.JavaScript, "return 7")
			if err != nil {
				executed <- err.Error()
				return
			}
			executed <- res.Stdout
		}()
		time.Sleep(time.Duration(round) * 10 * time.Millisecond)
		if err := x.Cancel(ctx); err != nil && !errors.Is(err, engine.ErrCanceled) {
			t.Fatalf("round %d: Cancel: %v", round, err)
		}
		select {
		case out := <-executed:
			if out != "7\n" {
				t.Errorf("round %d: the waiting Execute: %q", round, out)
			}
		case <-time.After(bound):
			t.Fatalf("round %d: the waiting Execute did not run after Cancel", round)
		}
		if err := <-driven; err != nil && !errors.Is(err, engine.ErrCanceled) {
			t.Errorf("round %d: Next: %v", round, err)
		}
	}
}
