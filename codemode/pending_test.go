package codemode_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// A Runner of NewPending describes its tools before the engine exists, a
// call waits for the engine, and an engine that failed fails the calls.
func TestNewPending(t *testing.T) {
	ready := make(chan struct{})
	eng := enginetest.Engine(t)
	tool := codemode.NewPending(func(ctx context.Context) (*engine.Engine, error) {
		select {
		case <-ready:
			return eng, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}, engine.SandboxConfig{Tools: testTools()}, nil)
	defer tool.CloseAll(context.Background())
	if d := tool.Description(); !strings.Contains(d, "inventory") {
		t.Errorf("description without the engine:\n%s", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := tool.Run(ctx, codemodetest.JS(`return 1`)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a call before the engine, cut short: %v", err)
	}
	go func() { time.Sleep(20 * time.Millisecond); close(ready) }()
	if r := codemodetest.RunJS(t, tool, `return 6 * 7`); string(r.Value) != "42" {
		t.Errorf("a call that waited for the engine: %+v", r)
	}

	boom := errors.New("the guest did not load")
	failed := codemode.NewPending(func(context.Context) (*engine.Engine, error) { return nil, boom }, engine.SandboxConfig{}, nil)
	if _, err := failed.Run(context.Background(), codemodetest.JS(`return 1`)); !errors.Is(err, boom) {
		t.Errorf("a call on a failed engine: %v", err)
	}
}
