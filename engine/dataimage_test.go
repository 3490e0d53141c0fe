package engine

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
)

// wasmModule assembles a module with one memory of 2 pages, an exported
// function, and the given data section body (nil: none).
func wasmModule(data []byte, extra ...[]byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	section := func(id byte, body []byte) {
		m = append(m, id, byte(len(body)))
		m = append(m, body...)
	}
	section(1, []byte{1, 0x60, 0, 0})   // type: () -> ()
	section(3, []byte{1, 0})            // func 0 has type 0
	section(5, []byte{1, 0, 2})         // memory min 2 pages
	section(7, []byte{1, 1, 'f', 0, 0}) // export "f" = func 0
	for _, e := range extra {           // extra sections, as given
		m = append(m, e...)
	}
	section(10, []byte{1, 2, 0, 0x0b}) // code: empty body
	if data != nil {
		section(11, data)
	}
	return m
}

func TestSplitDataMatchesSegments(t *testing.T) {
	data := []byte{3,
		0, 0x41, 16, 0x0b, 3, 'a', 'b', 'c', // at 16
		0, 0x41, 0x80, 0x01, 0x0b, 2, 'x', 'y', // at 128 (two-byte LEB)
		0, 0x41, 17, 0x0b, 1, 'Z', // later segments overwrite earlier ones
	}
	mod := wasmModule(data)
	stripped, img, err := splitData(mod)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 130)
	copy(want[16:], "aZc")
	copy(want[128:], "xy")
	if !bytes.Equal(img, want) {
		t.Fatalf("image %q", img)
	}
	if !bytes.HasSuffix(stripped, []byte{11, 1, 0}) || len(stripped) != len(mod)-len(data)-2+3 {
		t.Fatalf("stripped module % x", stripped)
	}

	// The stripped module with the image gives the memory the original
	// gives, through the engine's allocator.
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	memOf := func(wasm []byte, img *imageStore) []byte {
		t.Helper()
		var gm *guestMemory
		mod, err := rt.InstantiateWithConfig(experimental.WithMemoryAllocator(ctx, memoryAllocator(&gm, img)), wasm, wazero.NewModuleConfig().WithName(""))
		if err != nil {
			t.Fatal(err)
		}
		defer mod.Close(ctx)
		b, _ := mod.Memory().Read(0, mod.Memory().Size())
		return bytes.Clone(b)
	}
	store, err := newImageStore(img)
	if err != nil {
		t.Fatal(err)
	}
	defer store.close()
	orig, split := memOf(mod, nil), memOf(stripped, store)
	if len(orig) != 2<<16 || !bytes.Equal(orig, split) {
		t.Fatalf("memories differ: %d vs %d bytes", len(orig), len(split))
	}
}

func TestSplitDataRefusesWhatItCannotMap(t *testing.T) {
	for name, mod := range map[string][]byte{
		"passive segment": wasmModule([]byte{1, 1, 1, 'a'}),
		"global offset":   wasmModule([]byte{1, 0, 0x23, 0, 0x0b, 1, 'a'}),
		"negative offset": wasmModule([]byte{1, 0, 0x41, 0x7f, 0x0b, 1, 'a'}),
		"data count":      wasmModule([]byte{1, 0, 0x41, 0, 0x0b, 1, 'a'}, []byte{12, 1, 1}),
		"no data section": wasmModule(nil),
	} {
		if _, _, err := splitData(mod); !errors.Is(err, errNotSplittable) {
			t.Errorf("%s: err %v, want errNotSplittable", name, err)
		}
	}
	for name, mod := range map[string][]byte{
		"not wasm":         []byte("\x7fELF...."),
		"segment too long": wasmModule([]byte{1, 0, 0x41, 0, 0x0b, 9, 'a'}),
		"trailing bytes":   wasmModule([]byte{0, 7}),
		"section too long": append([]byte("\x00asm\x01\x00\x00\x00"), 11, 0x7f, 0),
		"truncated size":   append([]byte("\x00asm\x01\x00\x00\x00"), 11, 0xff),
		"huge image":       wasmModule([]byte{1, 0, 0x41, 0xff, 0xff, 0xff, 0xff, 0x07, 0x0b, 1, 'a'}),
	} {
		if _, _, err := splitData(mod); err == nil || errors.Is(err, errNotSplittable) {
			t.Errorf("%s: err %v, want a format error", name, err)
		}
	}
}

// The real guest must split, or every sandbox silently copies 11 MB.
func TestGuestDataSplits(t *testing.T) {
	wasm, err := GuestWasm()
	if err != nil {
		t.Fatal(err)
	}
	stripped, img, err := splitData(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if len(img) < 1<<20 || len(stripped) >= len(wasm) {
		t.Fatalf("image %d bytes, module %d -> %d", len(img), len(wasm), len(stripped))
	}
}

func TestImageMappingsArePrivate(t *testing.T) {
	if !haveRegions {
		t.Skip("no mappings on this platform")
	}
	img := bytes.Repeat([]byte("cordon"), 3000)
	store, err := newImageStore(img)
	if err != nil {
		t.Fatal(err)
	}
	defer store.close()
	var m1, m2 *guestMemory
	a := memoryAllocator(&m1, store).Allocate(0, 1<<20).Reallocate(1 << 16)
	b := memoryAllocator(&m2, store).Allocate(0, 1<<20).Reallocate(1 << 16)
	if !bytes.Equal(a[:len(img)], img) || !bytes.Equal(b[:len(img)], img) || a[len(img)+10] != 0 {
		t.Fatal("a mapping does not start with the image")
	}
	a[0], a[len(img)-1] = 'X', 'Y'
	if b[0] != 'c' || b[len(img)-1] != 'n' {
		t.Fatal("a write in one sandbox's memory reached another's")
	}
	var m3 *guestMemory
	c := memoryAllocator(&m3, store).Allocate(0, 1<<20).Reallocate(1 << 16)
	if !bytes.Equal(c[:len(img)], img) {
		t.Fatal("a write reached the shared image")
	}
	if memoryAllocator(&m3, store).Allocate(0, 4096).Reallocate(4096) != nil {
		t.Fatal("an image larger than the memory limit was mapped")
	}
	m1.Free()
	m2.Free()
	m3.Free()
}

// FuzzSplitData: any bytes give an error or a consistent split, never a
// panic.
func FuzzSplitData(f *testing.F) {
	f.Add(wasmModule([]byte{1, 0, 0x41, 16, 0x0b, 3, 'a', 'b', 'c'}))
	f.Add(wasmModule([]byte{1, 1, 1, 'a'}))
	f.Add(wasmModule(nil))
	f.Fuzz(func(t *testing.T, mod []byte) {
		stripped, img, err := splitData(mod)
		if err != nil {
			return
		}
		if len(img) > maxImage || !bytes.Contains(stripped, []byte{11, 1, 0}) {
			t.Fatalf("split: image %d bytes, module % x", len(img), stripped)
		}
	})
}
