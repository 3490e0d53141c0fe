package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/internal/slack"
)

// The guest runs as a coroutine of whichever goroutine drives it, and
// Execute answers one-call batches on a controller goroutine (engine
// RATIONALE, "Handing the guest over"). These tests close a sandbox from
// each place the guest can be: computing, waiting while a handler runs
// inline, suspended with nobody driving it, and from inside a handler. Each
// must end promptly with ErrClosed and leave no goroutine behind.
//
// Their sandboxes are the pool-less engine's (bareEngine), and their time
// bounds are scaled by slack.Scale, which times host-side work only:
// enginetest.Slack runs a script on the shared engine, whose pool would
// boot guests, and start goroutines, while these tests count them.

// settle waits for the goroutine count to come back to at most want.
func settle(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(slack.Scale(t, 3*time.Second))
	for runtime.NumGoroutine() > want {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), want, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCloseWhileExecuting(t *testing.T) {
	ctx := context.Background()
	bound := slack.Scale(t, 5*time.Second)
	for _, tc := range []struct {
		name string
		code string
		// close is called once the script is where the case wants it.
		tool func(entered chan<- struct{}, release <-chan struct{}) engine.Handler
	}{
		{name: "guest computing", code: `await t({}); for (;;) {}`},
		{name: "handler running", code: `await t({}); await t({}); return 1`},
		{name: "handler closes the sandbox", code: `await t({}); await t({}); return 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			entered := make(chan struct{}, 10)
			release := make(chan struct{})
			var sb *engine.Sandbox
			calls := 0
			handler := func(context.Context, json.RawMessage) (any, error) {
				calls++
				if calls == 1 {
					return 1, nil
				}
				switch tc.name {
				case "handler running":
					entered <- struct{}{}
					<-release // ignores its context, held until the test ends
				case "handler closes the sandbox":
					sb.Close(context.Background())
				}
				return 2, nil
			}
			var err error
			sb, err = bareEngine(t).NewSandbox(ctx, engine.SandboxConfig{
				Limits: engine.Limits{Timeout: time.Minute},
				Tools:  []engine.Tool{{Name: "t", Handler: handler}},
			})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := sb.Execute(ctx, engine.JavaScript, tc.code)
				done <- err
			}()
			switch tc.name {
			case "guest computing":
				time.Sleep(100 * time.Millisecond)
				sb.Close(ctx)
			case "handler running":
				<-entered
				sb.Close(ctx)
			}
			select {
			case err := <-done:
				if !errors.Is(err, engine.ErrClosed) {
					t.Errorf("Execute: %v, want ErrClosed", err)
				}
			case <-time.After(bound):
				t.Fatal("Execute did not return after Close")
			}
			close(release)
			settle(t, before)
		})
	}
}

func TestCloseSuspendedGuest(t *testing.T) {
	// With the step API, the guest waits suspended between Next calls and
	// no goroutine drives it: Close must still end it.
	ctx := context.Background()
	before := runtime.NumGoroutine()
	sb, err := bareEngine(t).NewSandbox(ctx, engine.SandboxConfig{Tools: []engine.Tool{{Name: "t"}}})
	if err != nil {
		t.Fatal(err)
	}
	x, err := sb.Start(ctx, engine.JavaScript, `return await t({})`)
	if err != nil {
		t.Fatal(err)
	}
	if calls, err := x.Next(ctx); err != nil || len(calls) != 1 {
		t.Fatalf("Next: %v %v", calls, err)
	}
	sb.Close(ctx)
	if _, err := x.Next(ctx); err != nil {
		// Nothing was answered: Next returns the pending call without
		// resuming the guest.
		t.Fatalf("Next with nothing answered after Close: %v", err)
	}
	x.Pending()[0].Resolve(1)
	if _, err := x.Next(ctx); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("Next after Close: %v, want ErrClosed", err)
	}
	settle(t, before)
}

func TestLateHandlerLeavesNoGoroutine(t *testing.T) {
	// A handler that overruns the time limit is abandoned; when it returns
	// at last, its answer is dropped and the goroutine that ran it ends.
	ctx := context.Background()
	before := runtime.NumGoroutine()
	release := make(chan struct{})
	sb, err := bareEngine(t).NewSandbox(ctx, engine.SandboxConfig{
		Limits: engine.Limits{Timeout: 100 * time.Millisecond},
		Tools: []engine.Tool{{Name: "slow", Handler: func(context.Context, json.RawMessage) (any, error) {
			<-release
			return 1, nil
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sb.Execute(ctx, engine.JavaScript, `return await slow({})`)
	if !errors.Is(err, engine.ErrTimeout) || res.Value != nil {
		t.Fatalf("Execute: %v %s", err, res.Value)
	}
	close(release)
	// The sandbox is usable at once, while the abandoned handler may still
	// be returning.
	if r := enginetest.Run(t, sb, `return 2`); string(r.Value) != "2" {
		t.Errorf("after the timeout: %s", r.Value)
	}
	sb.Close(ctx)
	settle(t, before)
}
