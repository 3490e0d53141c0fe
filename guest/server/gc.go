package server

import "runtime/debug"

// staticReserve is what a sandbox's memory holds besides the Go runtime's
// own memory, which Go's soft memory limit counts: the guest's static data
// (11 MB) and a margin.
const staticReserve = 16 << 20

// minSoftLimit is the smallest soft limit set: under it, a limit would make
// the collector run all the time for an ordinary script.
const minSoftLimit = 12 << 20

// setMemoryLimit sets Go's soft memory limit an eighth, and the static
// data, below the sandbox's memory limit (bytes; 0 if unknown), so that a
// heap nearing the limit is collected harder instead of growing, at
// GOGC=100, to twice its live size and past the limit: a script can keep
// about twice as much live data before the sandbox runs out of memory.
//
// The guest keeps GOGC=100 and Go's 4 MiB heap minimum otherwise. A larger
// minimum made tool calls 8% faster (fewer collections), but a sandbox that
// had run a garbage-heavy script then held 47.5 MiB instead of 14.3: the
// guest marks only through allocation assists (wasm has one thread, and
// the script's goroutine never parks), so objects allocated during a long
// mark phase inflate the next goal, by GOGC's factor.
func setMemoryLimit(limit int64) {
	if soft := limit - limit/8 - staticReserve; limit > 0 && soft >= minSoftLimit {
		debug.SetMemoryLimit(soft)
	}
}
