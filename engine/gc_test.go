package engine_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// A goroutine running compiled wasm cannot be preempted by the Go runtime.
// If a spinning guest never returned to Go, the host's next garbage
// collection would wait for it forever (stop-the-world), and so would the
// timer that is supposed to stop the guest: the whole host would hang. This
// test spins a guest and collects garbage in the host meanwhile.
func TestHostGCWhileGuestSpins(t *testing.T) {
	// The guest spins 2 s past the bound on the GC, so that a GC that
	// waited for the guest's time limit would cross the bound.
	bound := enginetest.Scale(t, time.Second)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: bound + 2*time.Second}})
	done := make(chan error, 1)
	go func() {
		_, err := sb.Execute(context.Background(), engine.JavaScript, `while (true) {}`)
		done <- err
	}()
	time.Sleep(200 * time.Millisecond) // let the guest start spinning
	gcDone := make(chan time.Duration, 1)
	go func() {
		start := time.Now()
		runtime.GC()
		gcDone <- time.Since(start)
	}()
	select {
	case took := <-gcDone:
		if took > bound {
			t.Errorf("a host GC took %v while a guest spun", took)
		}
	case <-time.After(bound + 10*time.Second):
		t.Fatal("a host GC did not finish while a guest spun: the host is deadlocked")
	}
	if err := <-done; !errors.Is(err, engine.ErrTimeout) {
		t.Errorf("err %v, want timeout", err)
	}
}
