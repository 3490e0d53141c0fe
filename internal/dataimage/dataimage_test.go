package dataimage

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/cordonhq/cordon/internal/guestmem"
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
	stripped, img, err := Split(mod)
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
	// gives, through the engine's allocator (internal/guestmem).
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	memOf := func(wasm []byte, img *guestmem.Image) []byte {
		t.Helper()
		var gm *guestmem.Memory
		mod, err := rt.InstantiateWithConfig(experimental.WithMemoryAllocator(ctx, guestmem.Allocator(&gm, img)), wasm, wazero.NewModuleConfig().WithName(""))
		if err != nil {
			t.Fatal(err)
		}
		defer mod.Close(ctx)
		b, _ := mod.Memory().Read(0, mod.Memory().Size())
		return bytes.Clone(b)
	}
	store, err := guestmem.NewImage(img)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
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
		if _, _, err := Split(mod); !errors.Is(err, ErrNotSplittable) {
			t.Errorf("%s: err %v, want ErrNotSplittable", name, err)
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
		if _, _, err := Split(mod); err == nil || errors.Is(err, ErrNotSplittable) {
			t.Errorf("%s: err %v, want a format error", name, err)
		}
	}
}

// FuzzSplitData: any bytes give an error or a consistent split, never a
// panic.
func FuzzSplitData(f *testing.F) {
	f.Add(wasmModule([]byte{1, 0, 0x41, 16, 0x0b, 3, 'a', 'b', 'c'}))
	f.Add(wasmModule([]byte{1, 1, 1, 'a'}))
	f.Add(wasmModule(nil))
	f.Fuzz(func(t *testing.T, mod []byte) {
		stripped, img, err := Split(mod)
		if err != nil {
			return
		}
		if len(img) > MaxImage || !bytes.Contains(stripped, []byte{11, 1, 0}) {
			t.Fatalf("split: image %d bytes, module % x", len(img), stripped)
		}
	})
}

// Split cuts out the data section as it is written (here with its size in
// two bytes where one would do) and keeps every other byte of the module,
// the sections after it included.
func TestSplitKeepsTheRestOfTheModule(t *testing.T) {
	head := wasmModule(nil)
	data := []byte{11, 0x87, 0x00, 1, 0, 0x41, 4, 0x0b, 1, 'q'}
	tail := []byte{0, 4, 3, 'a', 'b', 'c'} // a custom section "abc"
	mod := append(append(bytes.Clone(head), data...), tail...)
	stripped, img, err := Split(mod)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append(bytes.Clone(head), 11, 1, 0), tail...)
	if !bytes.Equal(stripped, want) || !bytes.Equal(img, []byte{0, 0, 0, 0, 'q'}) {
		t.Fatalf("stripped % x\nwant     % x\nimage %q", stripped, want, img)
	}
}
