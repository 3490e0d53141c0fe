package guestmem

import (
	"bytes"
	"encoding/binary"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

func TestGuestMemoryGrowsInPlace(t *testing.T) {
	if !NonMoving {
		t.Skip("no non-moving allocator on this platform")
	}
	var mem *Memory
	lm := Allocator(&mem, nil).Allocate(0, 64<<20)
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

// Where memory may move, it is still bounded by the limit and keeps its
// content as it grows.
func TestGuestMemoryGrowsWithinItsLimit(t *testing.T) {
	var mem *Memory
	lm := Allocator(&mem, nil).Allocate(0, 1<<20)
	b := lm.Reallocate(4096)
	if len(b) != 4096 {
		t.Fatalf("len %d", len(b))
	}
	b[4095] = 9
	if b = lm.Reallocate(1 << 20); len(b) != 1<<20 || b[4095] != 9 {
		t.Fatal("grow lost data")
	}
	if lm.Reallocate(1<<20+1) != nil {
		t.Fatal("grew past the limit")
	}
	lm.Free()
}

// Size follows the grows, and is 0 once the memory is unmapped.
func TestSizeFollowsGrows(t *testing.T) {
	var mem *Memory
	lm := Allocator(&mem, nil).Allocate(0, 1<<20)
	if n := mem.Size(); n != 0 {
		t.Fatalf("Size before a grow: %d", n)
	}
	lm.Reallocate(4096)
	if n := mem.Size(); n != 4096 {
		t.Fatalf("Size: %d, want 4096", n)
	}
	lm.Reallocate(3 * 65536)
	if n := mem.Size(); n != 3*65536 {
		t.Fatalf("Size: %d, want %d", n, 3*65536)
	}
	lm.Free()
	if n := mem.Size(); n != 0 {
		t.Fatalf("Size after Free: %d", n)
	}
}

func TestGuestMemoryOutlivesRunningGuest(t *testing.T) {
	if !NonMoving {
		t.Skip("no non-moving allocator on this platform")
	}
	var mem *Memory
	lm := Allocator(&mem, nil).Allocate(0, 1<<20)
	b := lm.Reallocate(4096)
	mem.Pin()
	lm.Free() // wazero closing the module while the guest unwinds
	if mem.region == nil {
		t.Fatal("memory unmapped while guest code may still run on it")
	}
	b[0] = 7 // still mapped: must not fault
	mem.Unpin()
	if mem.region != nil {
		t.Fatal("memory not unmapped after the guest stopped")
	}
}

func TestImageMappingsArePrivate(t *testing.T) {
	if !NonMoving {
		t.Skip("no mappings on this platform")
	}
	img := bytes.Repeat([]byte("cordon"), 3000)
	store, err := NewImage(img)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var m1, m2 *Memory
	a := Allocator(&m1, store).Allocate(0, 1<<20).Reallocate(1 << 16)
	b := Allocator(&m2, store).Allocate(0, 1<<20).Reallocate(1 << 16)
	if !bytes.Equal(a[:len(img)], img) || !bytes.Equal(b[:len(img)], img) || a[len(img)+10] != 0 {
		t.Fatal("a mapping does not start with the image")
	}
	a[0], a[len(img)-1] = 'X', 'Y'
	if b[0] != 'c' || b[len(img)-1] != 'n' {
		t.Fatal("a write in one sandbox's memory reached another's")
	}
	var m3 *Memory
	c := Allocator(&m3, store).Allocate(0, 1<<20).Reallocate(1 << 16)
	if !bytes.Equal(c[:len(img)], img) {
		t.Fatal("a write reached the shared image")
	}
	if Allocator(&m3, store).Allocate(0, 4096).Reallocate(4096) != nil {
		t.Fatal("an image larger than the memory limit was mapped")
	}
	m1.Free()
	m2.Free()
	m3.Free()
}

// StoreUint32 from another goroutine while the guest's goroutine grows the
// memory, for each kind of memory (the portable slice, which a grow
// copies, and the mapping where there is one): no store is lost in a copy
// that a grow left behind, and none races with a grow (CI runs this under
// -race). Out of bounds, misaligned and unmapped stores store nothing.
func TestStoreUint32DuringGrows(t *testing.T) {
	const limit, off = 8 << 20, 4096
	kinds := map[string]func() *Memory{
		"slice": func() *Memory { return &Memory{region: &sliceRegion{max: limit}} },
	}
	if NonMoving {
		kinds["mapping"] = func() *Memory {
			var mem *Memory
			Allocator(&mem, nil).Allocate(0, limit)
			return mem
		}
	}
	for name, newMem := range kinds {
		t.Run(name, func(t *testing.T) {
			m := newMem()
			if m.StoreUint32(off, 1) {
				t.Fatal("a store into memory not yet grown succeeded")
			}
			m.Reallocate(64 << 10)
			var (
				wg      sync.WaitGroup
				stopped atomic.Bool
				last    uint32
			)
			wg.Add(2)
			go func() { // the guest's goroutine
				defer wg.Done()
				for size := uint64(64 << 10); !stopped.Load() && size <= limit-64<<10; size += 64 << 10 {
					if m.Reallocate(size) == nil {
						t.Errorf("grow to %d failed", size)
						return
					}
				}
			}()
			go func() { // the host's timer
				defer wg.Done()
				defer stopped.Store(true)
				for v := uint32(1); v < 20000; v++ {
					if !m.StoreUint32(off, v) {
						t.Errorf("store %d failed", v)
						return
					}
					last = v
				}
			}()
			wg.Wait()
			b := m.Reallocate(limit) // one more grow, after the last store
			if got := binary.LittleEndian.Uint32(b[off:]); got != last {
				t.Fatalf("the word holds %d after the last store of %d", got, last)
			}
			for _, bad := range []uint32{off + 1, off + 2, limit - 2, limit, 1<<32 - 4} {
				if m.StoreUint32(bad, 9) {
					t.Errorf("a store at %d succeeded", bad)
				}
			}
			if !m.StoreUint32(limit-4, 0x01020304) || !bytes.Equal(b[limit-4:], []byte{4, 3, 2, 1}) {
				t.Errorf("the last word holds % x, want little-endian 04 03 02 01", b[limit-4:])
			}
			m.Free()
			if m.StoreUint32(off, 1) {
				t.Error("a store into freed memory succeeded")
			}
		})
	}
}
