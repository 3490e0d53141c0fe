package counters_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
)

func TestMemoryAddIsACompareAndSet(t *testing.T) {
	ctx := context.Background()
	m := counters.NewMemory(nil)
	snap, err := m.Load(ctx, "k", 0)
	if err != nil || len(snap.Counts) != 0 {
		t.Fatalf("empty load: %+v %v", snap, err)
	}
	if ok, err := m.Add(ctx, "k", 0, snap.Version, []string{"method:a", "capability:x"}); !ok || err != nil {
		t.Fatalf("first add: %v %v", ok, err)
	}
	// A second add on the same (now stale) snapshot must not land.
	if ok, _ := m.Add(ctx, "k", 0, snap.Version, []string{"method:a"}); ok {
		t.Fatal("an add on a stale version landed")
	}
	snap, _ = m.Load(ctx, "k", 0)
	if snap.Counts["method:a"] != 1 || snap.Counts["capability:x"] != 1 {
		t.Fatalf("counts %v", snap.Counts)
	}
	if ok, _ := m.Add(ctx, "k", 0, snap.Version, []string{"method:a"}); !ok {
		t.Fatal("an add on the current version did not land")
	}
	if err := m.Sub(ctx, "k", 0, []string{"method:a", "method:a", "method:a", "capability:x"}); err != nil {
		t.Fatal(err)
	}
	snap, _ = m.Load(ctx, "k", 0)
	if snap.Counts["method:a"] != 0 || snap.Counts["capability:x"] != 0 {
		t.Fatalf("after sub, counts %v (a counter goes no lower than zero)", snap.Counts)
	}
	// Keys are independent, and Delete forgets one.
	other, _ := m.Load(ctx, "other", 0)
	if ok, _ := m.Add(ctx, "other", 0, other.Version, []string{"method:a"}); !ok {
		t.Fatal("add on another key")
	}
	if err := m.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if snap, _ = m.Load(ctx, "other", 0); snap.Counts["method:a"] != 1 {
		t.Fatalf("other key %v", snap.Counts)
	}
	if m.Keys() != 1 {
		t.Fatalf("%d keys after Delete, want 1", m.Keys())
	}
}

func TestMemoryVersionsNeverRepeatAfterDelete(t *testing.T) {
	ctx := context.Background()
	m := counters.NewMemory(nil)
	snap, _ := m.Load(ctx, "k", 0)
	m.Add(ctx, "k", 0, snap.Version, []string{"n"})
	stale, _ := m.Load(ctx, "k", 0)
	m.Delete(ctx, "k")
	fresh, _ := m.Load(ctx, "k", 0)
	m.Add(ctx, "k", 0, fresh.Version, []string{"n"})
	if ok, _ := m.Add(ctx, "k", 0, stale.Version, []string{"n"}); ok {
		t.Fatal("a snapshot from before Delete matched a later version")
	}
}

func TestMemoryWindowSlides(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := counters.NewMemory(func() time.Time { return now })
	const window = time.Hour
	add := func() {
		t.Helper()
		snap, err := m.Load(ctx, "p", window)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := m.Add(ctx, "p", window, snap.Version, []string{"method:pay"}); !ok || err != nil {
			t.Fatalf("add: %v %v", ok, err)
		}
	}
	count := func() int {
		snap, _ := m.Load(ctx, "p", window)
		return snap.Counts["method:pay"]
	}
	add()
	now = now.Add(40 * time.Minute)
	add()
	add()
	if n := count(); n != 3 {
		t.Fatalf("count %d, want 3", n)
	}
	now = now.Add(21 * time.Minute) // the first charge is 61 minutes old
	if n := count(); n != 2 {
		t.Fatalf("count %d after the first charge left the window, want 2", n)
	}
	// Sub takes back the newest charge.
	m.Sub(ctx, "p", window, []string{"method:pay"})
	if n := count(); n != 1 {
		t.Fatalf("count %d after Sub, want 1", n)
	}
	now = now.Add(time.Hour)
	if n := count(); n != 0 || m.Keys() != 0 {
		t.Fatalf("count %d, %d keys once every charge left the window", n, m.Keys())
	}
}

func TestMemoryLockHoldsAKeyAndHonoursContext(t *testing.T) {
	ctx := context.Background()
	m := counters.NewMemory(nil)
	unlock, err := m.Lock(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	// Another key is free.
	u2, err := m.Lock(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	u2()
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := m.Lock(short, "k"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("lock of a held key: %v, want the context's deadline", err)
	}
	unlock()
	u3, err := m.Lock(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	u3()
}

// Concurrent load-then-add loops that retry on a stale version add each
// charge exactly once, with or without the lock.
func TestMemoryConcurrentChargesAreExact(t *testing.T) {
	ctx := context.Background()
	m := counters.NewMemory(nil)
	const workers, each, limit = 8, 50, 123
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				for {
					var unlock func()
					if w%2 == 0 {
						unlock, _ = m.Lock(ctx, "k")
					}
					snap, _ := m.Load(ctx, "k", 0)
					if snap.Counts["n"] >= limit {
						if unlock != nil {
							unlock()
						}
						break
					}
					ok, _ := m.Add(ctx, "k", 0, snap.Version, []string{"n"})
					if unlock != nil {
						unlock()
					}
					if ok {
						mu.Lock()
						granted++
						mu.Unlock()
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	snap, _ := m.Load(ctx, "k", 0)
	if granted != limit || snap.Counts["n"] != limit {
		t.Fatalf("granted %d, counted %d, want %d", granted, snap.Counts["n"], limit)
	}
}

func TestParseScope(t *testing.T) {
	for in, want := range map[string]counters.Scope{"": counters.PerSession, "session": counters.PerSession, "execution": counters.PerExecution, "principal": counters.PerPrincipal} {
		if got, err := counters.ParseScope(in); err != nil || got != want {
			t.Errorf("ParseScope(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := counters.ParseScope("user"); err == nil {
		t.Error("ParseScope(user) did not fail")
	}
	if counters.Key(counters.PerSession, "a") == counters.Key(counters.PerPrincipal, "a") {
		t.Error("keys of two scopes collide")
	}
}
