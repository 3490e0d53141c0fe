package server

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestSetMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	setMemoryLimit(256 << 20)
	if got := debug.SetMemoryLimit(-1); got != 256<<20-32<<20-staticReserve {
		t.Errorf("soft memory limit %d under a 256 MiB limit", got)
	}
	// A limit too small for a soft limit, or none, leaves it unset.
	for _, limit := range []int64{24 << 20, 0, -1} {
		debug.SetMemoryLimit(math.MaxInt64)
		setMemoryLimit(limit)
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("soft memory limit %d under a limit of %d", got, limit)
		}
	}
}
