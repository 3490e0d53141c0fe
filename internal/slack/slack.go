// Package slack scales the time bounds of tests by how slow the machine is
// in the run that checks them.
//
// A test that asserts a wall-clock bound ("stopped within 2 s") is written
// for an ordinary machine and fails on a loaded one, under the race
// detector, or on a slow CI runner, although nothing is wrong. Such a test
// multiplies its bound by Factor, which times a fixed baseline operation
// now, in the same run, against the time it takes on the reference machine:
// on a machine twice as slow as the reference, or twice as busy, the bound
// doubles. Only upper bounds are scaled: a lower bound ("the timeout did not
// fire before 1 s") holds on any machine.
//
// The reference machine is two shared x86-64 cores without the race
// detector, the machine the bounds were written on. A faster machine gets
// factor 1: bounds never shrink.
//
// The environment variable CORDON_TEST_SLACK, a number of at least 1,
// replaces the measurement (CORDON_TEST_SLACK=10 on a machine known to be
// very busy).
//
// Package engine/enginetest has the same helper measured on a sandbox
// (enginetest.Slack), for bounds on scripts.
package slack

import (
	"crypto/sha256"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
)

// Env is the environment variable that replaces the measurement.
const Env = "CORDON_TEST_SLACK"

// MaxFactor bounds the factor that Measure returns: a bound scaled past
// this is no longer a bound worth checking.
const MaxFactor = 20

// Reference is how long one run of the baseline of Factor takes on the
// reference machine.
const Reference = 3500 * time.Microsecond

// TB is what Measure needs of a test; every testing.TB has it.
type TB interface {
	Helper()
	Logf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// runs is how many times Measure times the operation; it keeps the
// middle time, which one unlucky preemption does not move.
const runs = 3

// Measure runs op three times and returns how many times longer than ref
// the middle run took: at least 1 and at most MaxFactor. When $CORDON_TEST_SLACK
// is set, Measure returns it instead and does not run op. A factor above 1
// is logged on tb, so that a failure says how far its bound was scaled.
func Measure(tb TB, ref time.Duration, op func()) float64 {
	tb.Helper()
	if f, ok := Override(tb); ok {
		return f
	}
	var took [runs]time.Duration
	for i := range took {
		start := time.Now()
		op()
		took[i] = time.Since(start)
	}
	slices.Sort(took[:])
	f := float64(took[runs/2]) / float64(ref)
	f = min(max(f, 1), MaxFactor)
	if f > 1 {
		tb.Logf("slack: the baseline took %v, %.1f times its reference %v: time bounds are scaled by %.1f", took[runs/2].Round(time.Microsecond), f, ref, f)
	}
	return f
}

// Override returns the factor $CORDON_TEST_SLACK sets, and whether it is
// set, for a helper that can skip preparing its baseline. A value that is
// not a number of at least 1 fails the test: a knob that is set wrong must
// not pass silently.
func Override(tb TB) (float64, bool) {
	tb.Helper()
	s := os.Getenv(Env)
	if s == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 1) {
		tb.Fatalf("slack: $%s is %q; want a number of at least 1", Env, s)
	}
	return f, true
}

// Factor measures the baseline, CPU and allocation work of the kind the
// tests' own code does (hashing, small allocations, a map), which takes
// Reference on the reference machine, and returns the factor Measure
// computes.
func Factor(tb TB) float64 {
	tb.Helper()
	return Measure(tb, Reference, baseline)
}

// Scale returns d multiplied by Factor.
func Scale(tb TB, d time.Duration) time.Duration {
	tb.Helper()
	return Times(d, Factor(tb))
}

// Times returns d multiplied by factor.
func Times(d time.Duration, factor float64) time.Duration {
	return time.Duration(float64(d) * factor)
}

// sink keeps the baseline's results alive, so that the compiler cannot
// drop its work.
var sink atomic.Uint64

// baseline is the fixed work Factor times.
func baseline() {
	buf := make([]byte, 32<<10)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	var sum [sha256.Size]byte
	for range 16 {
		sum = sha256.Sum256(append(buf[:len(buf)-sha256.Size], sum[:]...))
	}
	m := make(map[string]int)
	for i := range 8000 {
		m[strconv.Itoa(i)] = i
	}
	strs := make([]string, 0, len(m))
	for k := range m {
		strs = append(strs, fmt.Sprint(k, "-", m[k]))
	}
	slices.Sort(strs)
	sink.Add(uint64(sum[0]) + uint64(len(strs[len(strs)/2])))
}
