package counters

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Memory is the in-memory Store: the counters of one process. The zero
// value is not usable; call NewMemory.
type Memory struct {
	now func() time.Time

	mu     sync.Mutex
	seq    uint64 // versions are drawn from one sequence, so none repeats
	scopes map[string]*scope
	locks  map[string]*keyLock
}

// scope is one key's counters. Without a window only counts is kept; with
// one, stamps holds each charge's time, oldest first.
type scope struct {
	version uint64
	counts  map[string]int
	stamps  map[string][]time.Time
}

// NewMemory returns an empty in-memory store. now is its clock for
// windowed counters (nil: [time.Now]).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, scopes: map[string]*scope{}}
}

// prune drops the charges older than window from sc, and the scope itself
// from m once it holds none (its next version still comes from m.seq).
// m.mu is held.
func (m *Memory) prune(key string, sc *scope, window time.Duration) {
	if window <= 0 {
		return
	}
	cut := m.now().Add(-window)
	for name, ts := range sc.stamps {
		i := 0
		for i < len(ts) && !ts[i].After(cut) {
			i++
		}
		if i == len(ts) {
			delete(sc.stamps, name)
			continue
		}
		if i > 0 {
			sc.stamps[name] = append(ts[:0:0], ts[i:]...)
		}
	}
	if len(sc.stamps) == 0 && len(sc.counts) == 0 {
		delete(m.scopes, key)
	}
}

// Load returns the counters of key within window, and its version.
func (m *Memory) Load(_ context.Context, key string, window time.Duration) (Snapshot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	sc := m.scopes[key]
	if sc == nil {
		return Snapshot{Counts: map[string]int{}}, nil
	}
	m.prune(key, sc, window)
	snap := Snapshot{Counts: make(map[string]int, len(sc.counts)+len(sc.stamps)), Version: sc.version}
	for name, n := range sc.counts {
		snap.Counts[name] = n
	}
	for name, ts := range sc.stamps {
		snap.Counts[name] = len(ts)
	}
	return snap, nil
}

// Add adds one charge to each named counter of key if its version is still
// version.
func (m *Memory) Add(_ context.Context, key string, window time.Duration, version uint64, names []string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	sc := m.scopes[key]
	current := uint64(0)
	if sc != nil {
		current = sc.version
	}
	if current != version {
		return false, nil
	}
	if sc == nil {
		sc = &scope{}
		m.scopes[key] = sc
	}
	m.seq++
	sc.version = m.seq
	if window > 0 {
		if sc.stamps == nil {
			sc.stamps = map[string][]time.Time{}
		}
		now := m.now()
		for _, name := range names {
			sc.stamps[name] = append(sc.stamps[name], now)
		}
		return true, nil
	}
	if sc.counts == nil {
		sc.counts = map[string]int{}
	}
	for _, name := range names {
		sc.counts[name]++
	}
	return true, nil
}

// Sub takes back the newest charge of each named counter of key.
func (m *Memory) Sub(_ context.Context, key string, window time.Duration, names []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	sc := m.scopes[key]
	if sc == nil {
		return nil
	}
	m.seq++
	sc.version = m.seq
	for _, name := range names {
		if window > 0 {
			if ts := sc.stamps[name]; len(ts) > 0 {
				sc.stamps[name] = ts[:len(ts)-1]
			}
			continue
		}
		if sc.counts[name] > 0 {
			sc.counts[name]--
		}
	}
	m.prune(key, sc, window)
	return nil
}

// Delete forgets every counter of key.
func (m *Memory) Delete(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.scopes, key)
	return nil
}

// Keys returns how many scopes the store holds, for tests and metrics.
func (m *Memory) Keys() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.scopes)
}

// keyLock is one key's lock and how many callers hold or wait for it.
type keyLock struct {
	ch   chan struct{} // holds one token while the key is locked
	refs int
}

// Lock holds key for the caller until unlock is called, so that the
// decisions of one process on one scope are made one at a time: with the
// lock held, Add never finds the version changed by another decision, and
// no decision waits to be retried. It implements Locker.
func (m *Memory) Lock(ctx context.Context, key string) (unlock func(), err error) {
	m.mu.Lock()
	if m.locks == nil {
		m.locks = map[string]*keyLock{}
	}
	l := m.locks[key]
	if l == nil {
		l = &keyLock{ch: make(chan struct{}, 1)}
		m.locks[key] = l
	}
	l.refs++
	m.mu.Unlock()
	drop := func() {
		m.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(m.locks, key)
		}
		m.mu.Unlock()
	}
	select {
	case l.ch <- struct{}{}:
	case <-ctx.Done():
		drop()
		return nil, fmt.Errorf("counters: waiting for %q: %w", key, context.Cause(ctx))
	}
	return func() {
		<-l.ch
		drop()
	}, nil
}
