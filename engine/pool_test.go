package engine

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func newPooledEngine(t testing.TB, n int) *Engine {
	t.Helper()
	e, err := New(context.Background(), NewConfig().WithPool(n).WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// waitPool waits until the pool holds n guests.
func waitPool(t testing.TB, e *Engine, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(e.pool.ready) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the pool holds %d guests after 30 s, want %d", len(e.pool.ready), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestPoolServesAndRefills(t *testing.T) {
	e := newPooledEngine(t, 2)
	waitPool(t, e, 2)
	ctx := context.Background()
	var sbs []*Sandbox
	for i := 0; i < 5; i++ { // more than the pool holds: the rest boot
		sb, err := e.NewSandbox(ctx, SandboxConfig{})
		if err != nil {
			t.Fatal(err)
		}
		sbs = append(sbs, sb)
	}
	// Pooled guests hold no state of an earlier sandbox.
	if _, err := sbs[0].Execute(ctx, JavaScript, `fs.writeFileSync("mine", "0")`); err != nil {
		t.Fatal(err)
	}
	for i, sb := range sbs[1:] {
		res, err := sb.Execute(ctx, JavaScript, `return fs.existsSync("mine")`)
		if err != nil || res.Stdout != "false\n" {
			t.Errorf("sandbox %d: %q %v", i+1, res.Stdout, err)
		}
	}
	waitPool(t, e, 2) // refilled in the background
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if len(e.pool.ready) != 0 {
		t.Errorf("%d pooled guests left after Close", len(e.pool.ready))
	}
	if _, err := e.NewSandbox(ctx, SandboxConfig{}); KindOf(err) != KindClosed {
		t.Errorf("NewSandbox after Close: %v", err)
	}
}

// Pooled guests are warmed before they are handed out (warmGuest), and a
// warmed guest prints objects and errors as a fresh one does.
func TestPooledGuestsAreWarmed(t *testing.T) {
	e := newPooledEngine(t, 1)
	waitPool(t, e, 1)
	if n := e.pool.warmed.Load(); n < 1 {
		t.Fatalf("the pool warmed %d guests, want at least 1", n)
	}
	ctx := context.Background()
	sb, err := e.NewSandbox(ctx, SandboxConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close(ctx)
	res, err := sb.Execute(ctx, JavaScript, "console.log({a: 1}, [2]); throw new TypeError('x')")
	if err != nil || res.Stdout != "{ a: 1 } [ 2 ]\n" || !strings.HasPrefix(res.Stderr, "TypeError: x\n    at ") {
		t.Errorf("got %+v, %v", res, err)
	}
}

// BenchmarkFirstLogObject measures the first console.log of an object in a
// new sandbox: a guest the sandbox booted compiles the formatter then, a
// pooled guest was warmed ahead of time. Only Execute is timed.
func BenchmarkFirstLogObject(b *testing.B) {
	for _, pooled := range []bool{false, true} {
		name := "booted"
		if pooled {
			name = "pooled"
		}
		b.Run(name, func(b *testing.B) {
			e := newPooledEngine(b, map[bool]int{false: 0, true: 1}[pooled])
			ctx := context.Background()
			for b.Loop() {
				b.StopTimer()
				if pooled {
					waitPool(b, e, 1)
				}
				sb, err := e.NewSandbox(ctx, SandboxConfig{})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res, err := sb.Execute(ctx, JavaScript, "console.log({a: 1})")
				b.StopTimer()
				if err != nil || res.Stdout != "{ a: 1 }\n" {
					b.Fatal(err, res.Stdout)
				}
				sb.Close(ctx)
				b.StartTimer()
			}
		})
	}
}

// BenchmarkNewSandboxPooled measures taking a ready guest from the pool and
// setting it up, up to a sandbox that can run code. The pool is refilled
// outside the timer.
func BenchmarkNewSandboxPooled(b *testing.B) {
	e := newPooledEngine(b, 1)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		waitPool(b, e, 1)
		b.StartTimer()
		sb, err := e.NewSandbox(ctx, SandboxConfig{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		sb.Close(ctx)
		b.StartTimer()
	}
}

// BenchmarkRoundTrip measures one host→guest→host request (a file stat
// that fails), the floor under every sandbox operation.
func BenchmarkRoundTrip(b *testing.B) {
	e := newPooledEngine(b, 0)
	ctx := context.Background()
	sb, err := e.NewSandbox(ctx, SandboxConfig{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sb.ReadFile(ctx, "/nope")
	}
}
