package mcptools

import "sync"

// inflight counts work in progress, as a sync.WaitGroup does, except that
// Add may be called while Wait waits: a connection that is lost while its
// server is being closed adds the stopping of its process then. Wait
// returns once the count is zero.
type inflight struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
}

// Add adds delta to the count.
func (f *inflight) Add(delta int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += delta
	if f.n < 0 {
		f.n = 0 // more Done than Add: a bug, but no reason to take the host down
	}
	if f.n == 0 && f.cond != nil {
		f.cond.Broadcast()
	}
}

// Done takes one from the count.
func (f *inflight) Done() { f.Add(-1) }

// Wait waits until the count is zero.
func (f *inflight) Wait() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cond == nil {
		f.cond = sync.NewCond(&f.mu)
	}
	for f.n > 0 {
		f.cond.Wait()
	}
}
