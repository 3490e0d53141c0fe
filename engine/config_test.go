package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/engine"
)

// The zero Config is the default configuration: New accepts it, its
// sandboxes run scripts, and the guest memory limit is DefaultMemoryMB.
func TestZeroConfig(t *testing.T) {
	ctx := context.Background()
	e, err := engine.New(ctx, engine.Config{})
	if err != nil {
		t.Fatalf("New(Config{}): %v", err)
	}
	defer e.Close(ctx)
	sb, err := e.NewSandbox(ctx, engine.SandboxConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close(ctx)
	if res, err := sb.Execute(ctx, engine.JavaScript, "return 6 * 7"); err != nil || string(res.Value) != "42" {
		t.Fatalf("Execute: %v %+v", err, res)
	}
	// The memory limit shows in the check of Limits.VFSBytes (at most a
	// third of it).
	_, err = e.NewSandbox(ctx, engine.SandboxConfig{Limits: engine.Limits{VFSBytes: engine.DefaultMemoryMB<<20/3 + 1}})
	if want := fmt.Sprintf("of %d MiB", engine.DefaultMemoryMB); !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), want) {
		t.Errorf("a VFS over a third of the default memory: %v, want ErrInvalid naming %s", err, want)
	}
}

// A memory limit set on purpose is checked, the zero Config's included: 0
// is not "the default" once WithMemoryLimitMB says it.
func TestMemoryLimitOutOfRange(t *testing.T) {
	for _, cfg := range []engine.Config{
		engine.NewConfig().WithMemoryLimitMB(0),
		engine.Config{}.WithMemoryLimitMB(-1),
		engine.Config{}.WithMemoryLimitMB(4097),
	} {
		e, err := engine.New(context.Background(), cfg.WithoutCache())
		if err == nil {
			e.Close(context.Background())
		}
		if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("New: %v, want ErrInvalid (out of range)", err)
		}
	}
}
