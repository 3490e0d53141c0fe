package server

import (
	"math"
	"runtime/debug"
	"testing"
)

// goal is Go's heap goal for a live heap and a GOGC.
func goal(live uint64, percent int) uint64 {
	return max(live*uint64(100+percent)/100, defaultHeapMinimum*uint64(percent)/100)
}

func TestPercentForKeepsTheFloor(t *testing.T) {
	const floor = heapFloor
	if p := percentFor(0, floor); goal(0, p) != floor {
		t.Errorf("before a collection: GOGC %d, goal %d, want %d", p, goal(0, p), floor)
	}
	for live := uint64(64 << 10); live < 64<<20; live += live / 3 {
		p := percentFor(live, floor)
		want := max(2*live, floor)
		if got := goal(live, p); got < want-want/100 || got > want+want/100 {
			t.Errorf("live %d: GOGC %d gives a goal of %d, want %d", live, p, got, want)
		}
		if p < 100 {
			t.Errorf("live %d: GOGC %d is below Go's default", live, p)
		}
	}
	// A small memory limit lowers the floor.
	small := &gcPacer{limit: 32 << 20}
	if f := small.floor(); f != 4<<20 {
		t.Errorf("floor under a 32 MiB limit: %d", f)
	}
}

func TestPacerSetsTheCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	g := newGCPacer()
	g.setLimit(256 << 20)
	if got := debug.SetMemoryLimit(-1); got != 256<<20-32<<20-staticReserve {
		t.Errorf("soft memory limit %d", got)
	}
	if got := debug.SetGCPercent(g.percent); got != g.percent || got <= 100 {
		t.Errorf("GOGC %d, the pacer recorded %d (a test binary's live heap is small)", got, g.percent)
	}
	// A limit too small for a soft limit leaves it unset.
	debug.SetMemoryLimit(math.MaxInt64)
	newGCPacer().setLimit(24 << 20)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("soft memory limit %d under a 24 MiB limit", got)
	}
}
