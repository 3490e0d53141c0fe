package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The split copy in the cache is used when it matches the embedded module,
// and replaced when it does not.
func TestGuestCopy(t *testing.T) {
	whole, err := GuestWasm()
	if err != nil {
		t.Fatal(err)
	}
	wantMod, wantImg, err := splitData(whole)
	if err != nil {
		t.Fatal(err)
	}
	load := func(dir string) (mod, img []byte) {
		t.Helper()
		g, err := loadGuest(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer g.release()
		return bytes.Clone(g.module), bytes.Clone(g.image)
	}
	check := func(what string, mod, img []byte) {
		t.Helper()
		if !bytes.Equal(mod, wantMod) || !bytes.Equal(img, wantImg) {
			t.Fatalf("%s: not the embedded guest, split", what)
		}
	}
	dir := t.TempDir()
	// A copy another version left is removed when this one writes its own.
	stale := filepath.Join(dir, "cordon-guest-00000000-12.wasm")
	os.WriteFile(stale, []byte("old version"), 0o600)
	mod, img := load(dir)
	check("first load", mod, img)
	files, _ := filepath.Glob(filepath.Join(dir, "cordon-guest-*"))
	if len(files) != 1 || files[0] == stale {
		t.Fatalf("copies: %v", files)
	}
	good, _ := os.ReadFile(files[0])
	crc, size := binary.LittleEndian.Uint32(good[8:]), binary.LittleEndian.Uint32(good[12:])

	// The copy is what later loads use: one with other (consistent)
	// content comes back as it is.
	other := bytes.Clone(wantMod)
	other[len(other)-1] ^= 0xff
	writeGuestCopy(dir, files[0], crc, size, other, wantImg)
	if mod, _ := load(dir); !bytes.Equal(mod, other) {
		t.Fatal("the copy was not used")
	}

	// Copies that do not check out are not used, and are rewritten.
	for name, damage := range map[string]func([]byte) []byte{
		"damaged":       func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b },
		"truncated":     func(b []byte) []byte { return b[:len(b)-1] },
		"other version": func(b []byte) []byte { b[8] ^= 0xff; return b },
		"other format":  func(b []byte) []byte { b[7] = 9; return b },
		"empty":         func(b []byte) []byte { return nil },
		"lengths":       func(b []byte) []byte { binary.LittleEndian.PutUint32(b[16:], 1); return b },
	} {
		os.WriteFile(files[0], damage(bytes.Clone(good)), 0o600)
		mod, img := load(dir)
		check(name, mod, img)
		if b, _ := os.ReadFile(files[0]); !bytes.Equal(b, good) {
			t.Errorf("%s: the copy was not replaced", name)
		}
	}

	// An unusable directory still works (by decompressing).
	mod, img = load(filepath.Join(files[0], "not-a-dir"))
	check("unwritable cache", mod, img)
	mod, img = load("")
	check("no cache", mod, img)
}

// A mapped copy that shrinks under its reader is an error, not a crash.
func TestGuestCopyFault(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "freebsd" {
		t.Skip("mapFile reads the file on this platform")
	}
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	b, release, err := mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	var sum byte
	err = faultsAsErrors(func() {
		for i := 0; i < len(b); i += 4096 {
			sum += b[i]
		}
	})
	if !errors.Is(err, errCopyFault) {
		t.Fatalf("err = %v", err)
	}
	// Other panics are not swallowed.
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v", r)
		}
	}()
	faultsAsErrors(func() { panic("boom") })
}
