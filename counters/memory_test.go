package counters_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/counters/counterstest"
)

// The in-memory store keeps the contract of counters.Store, and forgets a
// deleted key.
func TestMemoryStoreContract(t *testing.T) {
	counterstest.Run(t, func(*testing.T) (counters.Store, counters.Store) {
		m := counters.NewMemory(nil)
		return m, m
	})
	ctx := context.Background()
	m := counters.NewMemory(nil)
	snap, _ := m.Load(ctx, "k", 0)
	m.Add(ctx, "k", 0, snap.Version, []string{"n"})
	if m.Delete(ctx, "k"); m.Keys() != 0 {
		t.Fatalf("%d keys after Delete, want 0", m.Keys())
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
