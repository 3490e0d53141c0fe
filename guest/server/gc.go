package server

import (
	"runtime/debug"
	"runtime/metrics"
)

// gcPacer paces the guest's garbage collector for a sandbox's short
// executions on a small heap.
//
// With Go's default (GOGC=100 and its 4 MiB heap minimum) a sandbox's live
// heap of about 1.2 MiB meant a collection every 2.8 MiB allocated, about
// once every 1,000 tool calls, and each one cost about 4.4 ms in the guest:
// 13% of a tool call's time (bench/guestprof). The pacer lets a small heap
// grow to heapFloor before a collection and keeps Go's default for a large
// one: the goal is max(2 × live, heapFloor), as the default would be with a
// larger minimum. It sets GOGC to get that goal, once the sandbox is set
// up and at the start of each execution, from the live heap the last
// collection measured.
//
// It also sets Go's soft memory limit below the sandbox's memory limit, so
// that a heap that nears the limit is collected harder instead of growing
// past it to twice its live size.
type gcPacer struct {
	limit   int64 // the sandbox's memory limit, bytes; 0 if unknown
	percent int   // the GOGC set, 0 before the first tune
	live    []metrics.Sample
}

const (
	// heapFloor is the heap a small live heap may grow to between
	// collections. Its cost is memory: a sandbox that allocates that much
	// holds up to heapFloor of heap pages afterwards, against 4 MiB.
	heapFloor = 12 << 20
	// defaultHeapMinimum is Go's heap minimum at GOGC=100, which scales
	// with GOGC.
	defaultHeapMinimum = 4 << 20
	// staticReserve is what the sandbox's memory holds besides the Go
	// runtime's own memory, which the soft limit counts: the guest's
	// static data (11 MB) and a margin.
	staticReserve = 16 << 20
)

func newGCPacer() *gcPacer {
	return &gcPacer{live: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
}

// setLimit records the sandbox's memory limit and sets the soft limit under
// it: an eighth of it, and the static data, below.
func (g *gcPacer) setLimit(limit int64) {
	g.limit = limit
	if soft := limit - limit/8 - staticReserve; limit > 0 && soft >= heapFloor {
		debug.SetMemoryLimit(soft)
	}
	g.tune()
}

// floor is the heap floor for this sandbox: heapFloor, or less under a
// small memory limit.
func (g *gcPacer) floor() uint64 {
	f := uint64(heapFloor)
	if g.limit > 0 {
		f = min(f, max(uint64(g.limit)/8, defaultHeapMinimum))
	}
	return f
}

// tune sets GOGC for the live heap the last collection left (none before
// the first: the goal is then the floor).
func (g *gcPacer) tune() {
	metrics.Read(g.live)
	p := percentFor(g.live[0].Value.Uint64(), g.floor())
	if p != g.percent {
		debug.SetGCPercent(p)
		g.percent = p
	}
}

// percentFor is the GOGC whose heap goal, max(live × (1 + GOGC/100),
// defaultHeapMinimum × GOGC/100), is max(2 × live, floor).
func percentFor(live, floor uint64) int {
	maxPercent := int(100 * floor / defaultHeapMinimum)
	switch {
	case live == 0:
		return max(maxPercent, 100)
	case 2*live >= floor:
		return 100
	}
	return min(maxPercent, int(100*(floor-live)/live))
}
