package guestcache

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cordonhq/cordon/internal/dataimage"
	"github.com/cordonhq/cordon/internal/wasmbin"
)

// testGuest returns a small module with a memory and two data segments,
// and its gzip, as the engine embeds its guest.
func testGuest(t *testing.T) (wasm, gz []byte) {
	t.Helper()
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = wasmbin.AppendSection(m, 5, []byte{1, 0, 1}) // memory min 1 page
	m = wasmbin.AppendSection(m, 11, []byte{2,
		0, 0x41, 8, 0x0b, 5, 'h', 'e', 'l', 'l', 'o',
		0, 0x41, 0x80, 0x20, 0x0b, 3, 'x', 'y', 'z', // at 4096
	})
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(m); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return m, buf.Bytes()
}

// The split copy in the cache is used when it matches the embedded module,
// and replaced when it does not.
func TestGuestCopy(t *testing.T) {
	whole, gz := testGuest(t)
	wantMod, wantImg, err := dataimage.Split(whole)
	if err != nil {
		t.Fatal(err)
	}
	load := func(dir string) (mod, img []byte) {
		t.Helper()
		g, err := Load(gz, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer g.Release()
		return bytes.Clone(g.Module), bytes.Clone(g.Image)
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

// A module that cannot be split comes back whole, and no copy is written;
// an embedded blob that is not gzip is an error.
func TestLoadUnsplittable(t *testing.T) {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = wasmbin.AppendSection(m, 5, []byte{1, 0, 1}) // no data section
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(m)
	zw.Close()
	dir := t.TempDir()
	g, err := Load(buf.Bytes(), dir)
	if err != nil {
		t.Fatal(err)
	}
	g.Release()
	if !bytes.Equal(g.Module, m) || g.Image != nil || g.FromCopy {
		t.Fatalf("module % x, image %v, from copy %v", g.Module, g.Image, g.FromCopy)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
	for _, bad := range [][]byte{nil, []byte("1234567"), []byte("not gzip, but long enough")} {
		if _, err := Load(bad, dir); err == nil {
			t.Errorf("Load(%q) accepted", bad)
		}
	}
}

// What tells a cold cache from a warm one: a guest copy that an earlier
// Load left, next to wazero's entries. A copy alone (wazero's entries
// deleted) or entries alone (another guest's) are a cold cache.
func TestCacheWarmth(t *testing.T) {
	_, gz := testGuest(t)
	dir := t.TempDir()
	g, err := Load(gz, dir)
	if err != nil {
		t.Fatal(err)
	}
	g.Release()
	if g.FromCopy || HasCompiledCode(dir) {
		t.Fatalf("an empty directory: FromCopy %v, compiled code %v", g.FromCopy, HasCompiledCode(dir))
	}
	g, err = Load(gz, dir)
	if err != nil {
		t.Fatal(err)
	}
	g.Release()
	if !g.FromCopy {
		t.Error("the second load did not use the copy")
	}
	if HasCompiledCode(dir) {
		t.Error("a guest copy alone counts as compiled code")
	}
	os.WriteFile(filepath.Join(dir, ".cordon-guest-123"), nil, 0o600) // one being written
	if HasCompiledCode(dir) {
		t.Error("a guest copy being written counts as compiled code")
	}
	os.Mkdir(filepath.Join(dir, "wazero-v1-amd64-linux"), 0o700)
	if !HasCompiledCode(dir) {
		t.Error("wazero's directory does not count")
	}
	if HasCompiledCode(filepath.Join(dir, "missing")) {
		t.Error("a missing directory holds compiled code")
	}
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
	err = CatchFaults(func() {
		for i := 0; i < len(b); i += 4096 {
			sum += b[i]
		}
	})
	if !errors.Is(err, ErrCopyFault) {
		t.Fatalf("err = %v", err)
	}
	// Other panics are not swallowed.
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v", r)
		}
	}()
	CatchFaults(func() { panic("boom") })
}
