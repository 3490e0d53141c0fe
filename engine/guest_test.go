package engine

import (
	"bytes"
	"testing"

	"github.com/cordonhq/cordon/internal/dataimage"
	"github.com/cordonhq/cordon/internal/guestcache"
	"github.com/cordonhq/cordon/internal/itabcache"
	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/cordonhq/cordon/internal/wasmtick"
)

// The embedded guest must carry the loop instrumentation, or the engine
// falls back to wazero's checks and the guest runs 5-18x slower.
func TestEmbeddedGuestIsInstrumented(t *testing.T) {
	wasm, err := guestWasm()
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

// The real guest must split, or every sandbox silently copies 11 MB; and
// what the cache directory serves is that split, written by the first
// load and mapped by the next.
func TestGuestDataSplits(t *testing.T) {
	wasm, err := guestWasm()
	if err != nil {
		t.Fatal(err)
	}
	stripped, img, err := dataimage.Split(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if len(img) < 1<<20 || len(stripped) >= len(wasm) {
		t.Fatalf("image %d bytes, module %d -> %d", len(img), len(wasm), len(stripped))
	}
	dir := t.TempDir()
	for i, fromCopy := range []bool{false, true} {
		g, err := guestcache.Load(guestWasmGz, dir)
		if err != nil {
			t.Fatal(err)
		}
		same := bytes.Equal(g.Module, stripped) && bytes.Equal(g.Image, img)
		g.Release()
		if !same || g.FromCopy != fromCopy {
			t.Errorf("load %d: the split guest %v, from the copy %v (want %v)", i+1, same, g.FromCopy, fromCopy)
		}
	}
}
