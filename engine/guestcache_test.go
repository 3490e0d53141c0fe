package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The uncompressed copy in the cache is used when it matches the embedded
// module and replaced when it does not.
func TestCachedGuestWasm(t *testing.T) {
	want, err := GuestWasm()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// A copy another version left is removed when this one writes its own.
	stale := filepath.Join(dir, "cordon-guest-00000000-12.wasm")
	os.WriteFile(stale, []byte("old version"), 0o600)
	got, err := cachedGuestWasm(dir)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("first read: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "cordon-guest-*.wasm"))
	if len(files) != 1 || files[0] == stale {
		t.Fatalf("copies: %v", files)
	}
	// A damaged copy (same length) is not used, and is rewritten.
	damaged := bytes.Clone(want)
	damaged[len(damaged)/2] ^= 0xff
	os.WriteFile(files[0], damaged, 0o600)
	if got, _ := cachedGuestWasm(dir); !bytes.Equal(got, want) {
		t.Fatal("a damaged copy was used")
	}
	if b, _ := os.ReadFile(files[0]); !bytes.Equal(b, want) {
		t.Error("the damaged copy was not replaced")
	}
	// An unwritable directory still works (by decompressing).
	if got, err := cachedGuestWasm(filepath.Join(files[0], "not-a-dir")); err != nil || !bytes.Equal(got, want) {
		t.Errorf("unwritable cache: %v", err)
	}
}
