package server

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// gcState is the number of completed collections and the heap goal.
func gcState() (cycles, goal uint64) {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

var sink [][]byte

// collectLarge collects after a large execution, which leaves a large heap
// goal, so that the goal is what is live between executions again, and
// leaves the collector alone after a small one (collecting after every
// execution would cost more than a small one takes).
func TestCollectLarge(t *testing.T) {
	// A large execution: 4*largeGoal live at a collection, then garbage.
	for range 4 * largeGoal >> 16 {
		sink = append(sink, make([]byte, 64<<10))
	}
	runtime.GC()
	sink = nil
	before, goal := gcState()
	if goal <= largeGoal {
		t.Fatalf("the heap goal is %d with %d bytes live", goal, 4*largeGoal)
	}
	collectLarge()
	after, goal := gcState()
	if after == before || goal > largeGoal {
		t.Errorf("after collectLarge: %d collections (%d before), heap goal %d", after, before, goal)
	}
	// A small one: the goal stays small, and nothing is collected.
	runtime.GC()
	before, goal = gcState()
	if goal > largeGoal {
		t.Skipf("the test binary's own heap goal is %d bytes, over largeGoal", goal)
	}
	collectLarge()
	if after, _ := gcState(); after != before {
		t.Errorf("collectLarge collected after a small execution (goal %d)", goal)
	}
}
