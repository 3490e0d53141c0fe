package engine

import (
	"testing"
	"unsafe"

	"github.com/cordonhq/cordon/internal/itabcache"
	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/cordonhq/cordon/internal/wasmtick"
)

func TestGuestMemoryGrowsInPlace(t *testing.T) {
	if !haveRegions {
		t.Skip("no non-moving allocator on this platform")
	}
	var mem *guestMemory
	lm := memoryAllocator(&mem, nil).Allocate(0, 64<<20)
	if mem == nil {
		t.Fatal("the allocator did not record its memory")
	}
	b := lm.Reallocate(1 << 20)
	if len(b) != 1<<20 {
		t.Fatalf("len %d", len(b))
	}
	b[0], b[len(b)-1] = 1, 2
	base := unsafe.SliceData(b)
	b = lm.Reallocate(40<<20 + 3)
	if len(b) != 40<<20+3 || unsafe.SliceData(b) != base {
		t.Fatalf("grow moved or misjudged the memory: len %d", len(b))
	}
	if b[0] != 1 || b[1<<20-1] != 2 || b[40<<20+2] != 0 {
		t.Fatal("grow lost or dirtied data")
	}
	if lm.Reallocate(64<<20+1) != nil {
		t.Fatal("grew past the reservation")
	}
	lm.Free()
	if mem.region != nil {
		t.Fatal("an unpinned memory was not unmapped on Free")
	}
	if lm.Reallocate(1) != nil {
		t.Fatal("a freed memory grew")
	}
}

func TestGuestMemoryOutlivesRunningGuest(t *testing.T) {
	if !haveRegions {
		t.Skip("no non-moving allocator on this platform")
	}
	var mem *guestMemory
	lm := memoryAllocator(&mem, nil).Allocate(0, 1<<20)
	b := lm.Reallocate(4096)
	mem.pin()
	lm.Free() // wazero closing the module while the guest unwinds
	if mem.region == nil {
		t.Fatal("memory unmapped while guest code may still run on it")
	}
	b[0] = 7 // still mapped: must not fault
	mem.unpin()
	if mem.region != nil {
		t.Fatal("memory not unmapped after the guest stopped")
	}
}

// The embedded guest must carry the loop instrumentation, or the engine
// falls back to wazero's checks and the guest runs 5-18x slower.
func TestEmbeddedGuestIsInstrumented(t *testing.T) {
	wasm, err := GuestWasm()
	if err != nil {
		t.Fatal(err)
	}
	if !wasmtick.IsInstrumented(wasm) {
		t.Fatal("the embedded guest is not instrumented: run go generate ./engine")
	}
	// Its type assertions to interface types are cached (internal/itabcache):
	// without, a JavaScript loop runs about a quarter slower.
	if !itabcache.IsPatched(wasm) {
		t.Fatal("the embedded guest's type assertions are not cached: run go generate ./engine")
	}
	// Its function names are left out (0.7 MB).
	secs, err := wasmbin.Sections(wasm)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		if name, _, _ := wasmbin.CustomName(s); name == "name" {
			t.Fatal("the embedded guest has a name section")
		}
	}
}
