package enginetest

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/engine"
)

// Echo returns a tool that answers every call with the method and the
// params it received: {"method": name, "params": params}.
func Echo(name string) engine.Tool {
	return engine.Tool{Name: name, Description: "echo " + name, Handler: echo(name)}
}

func echo(name string) engine.Handler {
	return func(_ context.Context, p json.RawMessage) (any, error) {
		return map[string]any{"method": name, "params": p}, nil
	}
}

// Mock returns a tool that answers every call with result, whatever the
// params.
func Mock(name string, result any) engine.Tool {
	return engine.Tool{Name: name, Description: "mock " + name, Handler: func(context.Context, json.RawMessage) (any, error) {
		return result, nil
	}}
}

// Counting returns a tool that adds one to n for every call its handler
// runs and answers with the params: n says how many calls the policy let
// through.
func Counting(name string, n *atomic.Int32) engine.Tool {
	return engine.Tool{Name: name, Description: "counting " + name, Handler: func(_ context.Context, p json.RawMessage) (any, error) {
		n.Add(1)
		return p, nil
	}}
}

// Failing returns a tool whose every call fails with err. A
// *engine.ToolError's kind and message are what the script sees
// (engine.ToolErrorf makes one); any other error reaches the script as an
// internal error.
func Failing(name string, err error) engine.Tool {
	return engine.Tool{Name: name, Description: "failing " + name, Handler: func(context.Context, json.RawMessage) (any, error) {
		return nil, err
	}}
}

// Slow returns a tool that waits d, then answers as Echo does. It stops
// waiting when the call's context ends (the execution was canceled or
// timed out) and returns the context's error: Slow(name, time.Hour) is a
// call that only its context ends.
func Slow(name string, d time.Duration) engine.Tool {
	answer := echo(name)
	return engine.Tool{Name: name, Description: "slow " + name, Handler: func(ctx context.Context, p json.RawMessage) (any, error) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return answer(ctx, p)
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}}
}
