// Package counterstest checks that an implementation of [counters.Store]
// keeps the store's contract: Add is a compare-and-set on the scope's
// version, Sub never goes below zero and changes the version, keys are
// independent, versions never repeat after Delete, and charges made by
// many goroutines through two handles on the same store land exactly
// once. counters.Memory and the Redis store run it; a store of your own
// should too.
package counterstest

import (
	"context"
	"sync"
	"testing"

	"github.com/cordonhq/cordon/counters"
)

// Open returns two handles on one empty store: the same value twice for
// an in-memory store, two clients of one server for a networked one. Keys
// it is given are free for the test.
type Open func(t *testing.T) (a, b counters.Store)

// Run runs the contract's tests as subtests of t.
func Run(t *testing.T, open Open) {
	t.Run("CompareAndSet", func(t *testing.T) { compareAndSet(t, open) })
	t.Run("VersionsNeverRepeatAfterDelete", func(t *testing.T) { versionsNeverRepeat(t, open) })
	t.Run("ConcurrentChargesAreExact", func(t *testing.T) { concurrentCharges(t, open) })
}

func compareAndSet(t *testing.T, open Open) {
	ctx := context.Background()
	m, _ := open(t)
	snap, err := m.Load(ctx, "k", 0)
	if err != nil || len(snap.Counts) != 0 {
		t.Fatalf("empty load: %+v %v", snap, err)
	}
	if ok, err := m.Add(ctx, "k", 0, snap.Version, []string{"method:a", "capability:x"}); !ok || err != nil {
		t.Fatalf("first add: %v %v", ok, err)
	}
	// A second add on the same (now stale) snapshot must not land.
	if ok, err := m.Add(ctx, "k", 0, snap.Version, []string{"method:a"}); ok || err != nil {
		t.Fatalf("an add on a stale version: %v %v", ok, err)
	}
	snap, _ = m.Load(ctx, "k", 0)
	if snap.Counts["method:a"] != 1 || snap.Counts["capability:x"] != 1 {
		t.Fatalf("counts %v", snap.Counts)
	}
	if ok, _ := m.Add(ctx, "k", 0, snap.Version, []string{"method:a"}); !ok {
		t.Fatal("an add on the current version did not land")
	}
	before, _ := m.Load(ctx, "k", 0)
	if err := m.Sub(ctx, "k", 0, []string{"method:a", "method:a", "method:a", "capability:x"}); err != nil {
		t.Fatal(err)
	}
	after, _ := m.Load(ctx, "k", 0)
	if after.Counts["method:a"] != 0 || after.Counts["capability:x"] != 0 {
		t.Fatalf("after sub, counts %v (a counter goes no lower than zero)", after.Counts)
	}
	if ok, _ := m.Add(ctx, "k", 0, before.Version, []string{"method:a"}); ok {
		t.Fatal("Sub did not change the version: an add on the snapshot before it landed")
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
	if snap, _ = m.Load(ctx, "k", 0); len(snap.Counts) != 0 && snap.Counts["method:a"] != 0 {
		t.Fatalf("k after Delete: %v", snap.Counts)
	}
}

func versionsNeverRepeat(t *testing.T, open Open) {
	ctx := context.Background()
	m, _ := open(t)
	snap, _ := m.Load(ctx, "k", 0)
	m.Add(ctx, "k", 0, snap.Version, []string{"n"})
	stale, _ := m.Load(ctx, "k", 0)
	if err := m.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	fresh, _ := m.Load(ctx, "k", 0)
	if ok, _ := m.Add(ctx, "k", 0, fresh.Version, []string{"n"}); !ok {
		t.Fatal("add on the fresh scope")
	}
	if ok, _ := m.Add(ctx, "k", 0, stale.Version, []string{"n"}); ok {
		t.Fatal("a snapshot from before Delete matched a later version")
	}
}

// concurrentCharges has workers load, check a limit and add, retrying on
// a stale version, through both handles (and, half of them, under the
// store's lock when it has one): exactly the limit is granted and counted.
func concurrentCharges(t *testing.T, open Open) {
	ctx := context.Background()
	a, b := open(t)
	const workers, each, limit = 8, 40, 123
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for w := range workers {
		s := a
		if w%2 == 1 {
			s = b
		}
		locker, _ := s.(counters.Locker)
		if w%4 >= 2 {
			locker = nil
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				for {
					unlock := func() {}
					if locker != nil {
						var err error
						if unlock, err = locker.Lock(ctx, "k"); err != nil {
							t.Error(err)
							return
						}
					}
					snap, err := s.Load(ctx, "k", 0)
					if err != nil {
						unlock()
						t.Error(err)
						return
					}
					if snap.Counts["n"] >= limit {
						unlock()
						break
					}
					ok, err := s.Add(ctx, "k", 0, snap.Version, []string{"n"})
					unlock()
					if err != nil {
						t.Error(err)
						return
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
	snap, _ := a.Load(ctx, "k", 0)
	if granted != limit || snap.Counts["n"] != limit {
		t.Fatalf("granted %d, counted %d, want %d", granted, snap.Counts["n"], limit)
	}
}
