package server

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// heapObjects is the heap the collector has not freed: live objects and
// garbage not yet collected.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

var sink [][]byte

// collectLarge collects the garbage of a large execution and leaves a
// small heap alone (collecting after every execution would cost more than
// a small one takes).
func TestCollectLarge(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection but ours
	runtime.GC()
	base := heapObjects()
	for range 4 * largeHeap >> 16 {
		sink = append(sink, make([]byte, 64<<10))
	}
	sink = nil
	if got := heapObjects(); got < base+2*largeHeap {
		t.Fatalf("the garbage is not counted: heap %d after %d more", got, 4*largeHeap)
	}
	collectLarge()
	if got := heapObjects(); got > base+largeHeap/2 {
		t.Errorf("after collectLarge the heap is %d bytes, %d before the garbage: not collected", got, base)
	}
	// A small heap is left as it is.
	runtime.GC()
	sink = append(sink, make([]byte, 1<<20))
	sink = nil
	before := heapObjects()
	if before > largeHeap {
		t.Skipf("the test binary's own heap is %d bytes, over largeHeap", before)
	}
	collectLarge()
	if got := heapObjects(); got < before {
		t.Errorf("collectLarge collected a heap of %d bytes (now %d)", before, got)
	}
}
