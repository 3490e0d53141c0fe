package commandtest

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// Endless is an endless input of "y\n" lines, for the tests of commands
// that must stop once their context is canceled.
type Endless struct{}

// Read fills p with "y\n" lines.
func (Endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "y\n"[i%2]
	}
	return len(p), nil
}

// capped keeps the first MiB written to it, safe for concurrent use, so
// that endless output does not exhaust memory.
type capped struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *capped) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() < 1<<20 {
		b.buf.Write(p)
	}
	return len(p), nil
}

func (b *capped) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// RunWithin is RunCtx for a command that may run forever: it keeps only
// the first MiB of each output, and fails the test at once when the
// command has not returned within limit.
func RunWithin(ctx context.Context, t testing.TB, limit time.Duration, reg command.Registry, fsys *vfs.FS, stdin io.Reader, args ...string) Result {
	t.Helper()
	if _, ok := reg[args[0]]; !ok {
		t.Fatalf("no command %q", args[0])
	}
	var out, errb capped
	done := make(chan int, 1)
	go func() { done <- Exec(reg, fsys)(ctx, args, nil, stdin, &out, &errb) }()
	select {
	case st := <-done:
		return Result{Out: out.String(), Err: errb.String(), Status: st, FS: fsys}
	case <-time.After(limit):
		t.Fatalf("%q did not stop within %v", args, limit)
		return Result{}
	}
}
