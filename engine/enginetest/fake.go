package enginetest

import (
	"fmt"
	"sync"
)

// FakeT is a TB outside of a test run by the testing package: for runnable
// examples, which have no *testing.T, and for the tests of test helpers,
// which must see a helper fail without failing themselves. Run runs a
// body as the testing package runs a test: Fatalf ends the body, and the
// cleanups run when it ends, the last registered first. The zero FakeT is
// ready to use; it is safe for concurrent use, except that Fatalf must be
// called on the goroutine that runs the body, as with a *testing.T.
type FakeT struct {
	mu       sync.Mutex
	failure  string
	logs     []string
	cleanups []func()
}

// fatal is the panic value that ends a body at Fatalf.
type fatal struct{ t *FakeT }

// Run runs body with t as its TB and reports whether it ended without a
// Fatalf. Every cleanup registered meanwhile has run when Run returns.
func (t *FakeT) Run(body func(t TB)) (ok bool) {
	defer t.cleanup()
	defer func() {
		if r := recover(); r != nil {
			if f, mine := r.(fatal); !mine || f.t != t {
				panic(r)
			}
		}
	}()
	body(t)
	return t.Failure() == ""
}

func (t *FakeT) cleanup() {
	for {
		t.mu.Lock()
		n := len(t.cleanups)
		if n == 0 {
			t.mu.Unlock()
			return
		}
		f := t.cleanups[n-1]
		t.cleanups = t.cleanups[:n-1]
		t.mu.Unlock()
		f()
	}
}

// Failure returns the message of the Fatalf that ended the body, or "".
func (t *FakeT) Failure() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failure
}

// Logs returns what Logf logged, one message per line.
func (t *FakeT) Logs() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.logs...)
}

// Helper does nothing: a FakeT prints no file and line.
func (t *FakeT) Helper() {}

// Cleanup registers f to run when the body that Run runs ends.
func (t *FakeT) Cleanup(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cleanups = append(t.cleanups, f)
}

// Logf records a message (Logs).
func (t *FakeT) Logf(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.logs = append(t.logs, fmt.Sprintf(format, args...))
}

// Fatalf records the failure (Failure) and ends the body that Run runs.
func (t *FakeT) Fatalf(format string, args ...any) {
	t.mu.Lock()
	t.failure = fmt.Sprintf(format, args...)
	t.mu.Unlock()
	panic(fatal{t})
}
