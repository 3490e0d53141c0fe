// Command buildguest builds the cordon guest (./guest) for GOOS=wasip1 and
// writes it gzip-compressed for package engine to embed. `go generate
// ./engine` runs it.
//
// The build is reproducible: a pinned Go toolchain (GOTOOLCHAIN is set to
// the version below, so the go command fetches it from the module proxy when
// the local one differs), -trimpath, no VCS stamping, an empty build ID, and
// a gzip stream with no name and no timestamp.
//
// After `go build` it rewrites the module: internal/itabcache gives type
// assertions to interface types an inline cache, internal/wasmthunk gives
// each function that only jumps to another that function's body and makes
// method wrappers thunks, internal/wasminline inlines the 32-bit atomic
// load, internal/wasmtick makes loops call the host every TickInterval
// iterations, and the function names (which itabcache needs) are removed.
// It prints how much each rewrite did and fails when a count is outside the
// range pinned for it (pins, checkCounts): a rewrite that matches the code
// of one toolchain can silently stop matching the code of another.
//
// With -check it builds into memory and exits non-zero when the committed
// file holds a different module, which is how CI catches a stale guest.
//
// With -names it keeps the module's function names (the wasm name section)
// so that a profiler can name guest code; bench/guestprof uses it.
// Such a guest is for profiling only and is never committed.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/internal/itabcache"
	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/cordonhq/cordon/internal/wasminline"
	"github.com/cordonhq/cordon/internal/wasmthunk"
	"github.com/cordonhq/cordon/internal/wasmtick"
)

// Toolchain is the Go version the committed guest is built with.
const Toolchain = "go1.27.3"

// TickInterval is how many loop iterations instrumented guest code runs
// between calls to the host (package wasmtick): at a few nanoseconds each,
// tens of microseconds.
const TickInterval = 4096

func main() {
	out := flag.String("o", "guest.wasm.gz", "output file")
	check := flag.Bool("check", false, "do not write; fail if the output file is stale")
	pkg := flag.String("pkg", "github.com/cordonhq/cordon/guest", "guest package")
	names := flag.Bool("names", false, "keep function names, for profiling (not with -check)")
	flag.Parse()
	if *check && *names {
		fmt.Fprintln(os.Stderr, "buildguest: -names builds a profiling guest, which is never committed: it cannot be checked")
		os.Exit(2)
	}
	if err := run(*out, *pkg, *check, *names); err != nil {
		fmt.Fprintln(os.Stderr, "buildguest:", err)
		os.Exit(1)
	}
}

func run(out, pkg string, check, names bool) error {
	dir, err := os.MkdirTemp("", "cordon-guest-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	wasm := filepath.Join(dir, "guest.wasm")
	// The function names are kept for itabcache, which finds the function
	// it patches by name, and removed after it unless names is set.
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-w -buildid=", "-o", wasm, pkg)
	cmd.Env = append(os.Environ(),
		"GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0",
		"GOTOOLCHAIN="+Toolchain, "GOFLAGS=-mod=readonly", "GOWASM=",
	)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	raw, err := os.ReadFile(wasm)
	if err != nil {
		return err
	}
	// Assertions to interface types get the inline cache that Go's
	// compiler gives them on other ports (package itabcache).
	if raw, err = itabcache.Patch(raw, Toolchain); err != nil {
		return err
	}
	// Functions that only jump to another (sync/atomic's, memhash's) get
	// its body: one wasm call instead of two (package wasmthunk).
	thunks, wrappers := 0, 0
	if raw, thunks, err = wasmthunk.Fold(raw); err != nil {
		return err
	}
	// Method wrappers (*T).m forward to T.m without a frame of their own
	// (wasmthunk.Wrappers).
	if raw, wrappers, err = wasmthunk.Wrappers(raw); err != nil {
		return err
	}
	// Calls of the 32-bit atomic load become the load (wasminline).
	loads := 0
	if raw, loads, err = wasminline.Atomics(raw); err != nil {
		return err
	}
	// Loops call the host every TickInterval iterations instead of
	// wazero leaving compiled code at every back-edge (package wasmtick).
	var ticks wasmtick.Stats
	if raw, ticks, err = wasmtick.Instrument(raw, abi.HostModule, abi.ImportTick, TickInterval); err != nil {
		return err
	}
	counts := []count{
		{countThunks, thunks},
		{countWrappers, wrappers},
		{countLoads, loads},
		{countLoops, ticks.Loops},
		{countDispatches, ticks.Dispatches},
		{countChecks, ticks.Checks},
		{countForward, ticks.ForwardJumps},
		{countEntries, ticks.DirectEntries},
	}
	for _, c := range counts {
		fmt.Fprintf(os.Stderr, "buildguest: %s: %d\n", c.name, c.got)
	}
	if err := checkCounts(counts); err != nil {
		return err
	}
	if !names {
		if raw, err = wasmbin.StripCustom(raw, "name"); err != nil {
			return err
		}
	}
	if check {
		committed, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		zr, err := gzip.NewReader(bytes.NewReader(committed))
		if err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
		old, err := io.ReadAll(zr)
		if err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
		if !bytes.Equal(old, raw) {
			return fmt.Errorf("%s is stale: committed module sha256 %x, source builds %x; run `go generate ./engine` and commit", out, sha256.Sum256(old), sha256.Sum256(raw))
		}
		fmt.Printf("%s is up to date (sha256 %x, %d bytes)\n", out, sha256.Sum256(raw), len(raw))
		return nil
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(raw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d bytes (module %d bytes, sha256 %x)\n", out, buf.Len(), len(raw), sha256.Sum256(raw))
	return nil
}

// The counts the rewrites report, by name.
const (
	countThunks     = "wasmthunk.Fold: jump thunks folded"
	countWrappers   = "wasmthunk.Wrappers: method wrappers made thunks"
	countLoads      = "wasminline.Atomics: atomic loads inlined"
	countLoops      = "wasmtick.Instrument: loops"
	countDispatches = "wasmtick.Instrument: dispatch loops"
	countChecks     = "wasmtick.Instrument: tick checks inserted"
	countForward    = "wasmtick.Instrument: forward jumps made direct"
	countEntries    = "wasmtick.Instrument: dispatch entries made direct"
)

// count is what one rewrite reported.
type count struct {
	name string
	got  int
}

// pins holds the count that each rewrite reports for the guest built from
// this source by Toolchain, measured. A build whose count is further than
// tolerance from its pin fails.
var pins = map[string]int{
	countThunks:     40,
	countWrappers:   120,
	countLoads:      232,
	countLoops:      11284,
	countDispatches: 11277,
	countChecks:     27681,
	countForward:    143605,
	countEntries:    11277,
}

// tolerance is how far, as a fraction of its pin, a count may move: the
// guest's own code grows and shrinks, and each count with it.
const tolerance = 0.25

// pinnedRange returns the counts accepted for pin: pin ± tolerance, and at
// least 1, so that a rewrite that finds nothing never passes.
func pinnedRange(pin int) (lo, hi int) {
	d := int(float64(pin) * tolerance)
	return max(pin-d, 1), pin + d
}

// checkCounts fails when a rewrite's count is outside its pinned range, or
// a count is not pinned. The rewrites match the exact code that the pinned
// toolchain emits and leave any other shape alone, which gives a guest that
// is still correct but has lost them: after a toolchain change, 120 wrapper
// rewrites could drop to 3. A count that moves that far means the shapes
// changed, which must be looked at, not shipped (RATIONALE.md, "The guest
// build"); a count that moves because the guest's code did gets a new pin.
func checkCounts(counts []count) error {
	var bad []string
	for _, c := range counts {
		pin, ok := pins[c.name]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: %d, which has no pin", c.name, c.got))
			continue
		}
		if lo, hi := pinnedRange(pin); c.got < lo || c.got > hi {
			bad = append(bad, fmt.Sprintf("%s: %d, expected %d..%d (pinned %d ±%d%%)", c.name, c.got, lo, hi, pin, int(tolerance*100)))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("rewrite counts outside their pinned ranges (has the toolchain's code changed shape? if the guest's own code grew or shrank, update the pins in internal/buildguest):\n\t%s", strings.Join(bad, "\n\t"))
	}
	return nil
}
