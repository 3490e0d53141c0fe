// Package guestmem provides the linear memory of guest instances: where the
// platform allows, an address-space reservation of the memory limit that
// grows in place and starts with a copy-on-write mapping of a data image
// shared by every instance (internal/dataimage makes the image).
//
// Growing never copies (wazero's default allocator copies the whole memory
// into a bigger Go slice, and the old copy waits for the host's GC),
// closing a sandbox returns its memory to the OS at once, and a sandbox
// holds only the pages of the image that it writes. RATIONALE.md has the
// figures ("Guest memory: a non-moving mapping, and one shared data
// image").
package guestmem

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
)

// Memory backs one guest's linear memory. Where the platform allows
// (NonMoving) it is an address-space reservation of the memory limit,
// committed as the guest grows.
//
// Unmapping memory that guest code or the host still touches would crash
// the process, so the mapping outlives both users: wazero's Free (at module
// close, which can come while a killed guest is still unwinding) only marks
// it, and the memory is unmapped when the guest's goroutine has also
// returned (Unpin).
type Memory struct {
	mu     sync.Mutex
	region region // platform mapping; nil once unmapped
	freed  bool   // wazero is done with it
	pinned bool   // guest code may be running on it
}

// Reallocate implements experimental.LinearMemory: it makes size bytes
// usable and returns them, at the same address every time where the
// memory is NonMoving.
func (m *Memory) Reallocate(size uint64) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.region == nil {
		return nil
	}
	return m.region.grow(size)
}

// StoreUint32 stores v in the four bytes at offset off of the memory, in
// WebAssembly's byte order (little-endian), atomically, and holding the
// lock that growing the memory takes. It is how a goroutine other than the
// guest's writes into guest memory (the host's stop request sets the
// interpreter's interrupt flag this way): the store never meets a grow
// half done, and where growing copies the memory (NonMoving is false) it
// lands in the memory the guest goes on with, never in the copy a grow
// left behind. It stores nothing and reports false when off is not a
// multiple of 4, the word is outside the memory, or the memory has been
// unmapped.
func (m *Memory) StoreUint32(off, v uint32) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.region == nil || off%4 != 0 {
		return false
	}
	b := m.region.bytes()
	if uint64(off)+4 > uint64(len(b)) {
		return false
	}
	p := unsafe.Pointer(&b[off])
	if uintptr(p)%4 != 0 {
		return false // the memory's start is at least page-aligned; never here
	}
	var le [4]byte
	binary.LittleEndian.PutUint32(le[:], v)
	atomic.StoreUint32((*uint32)(p), binary.NativeEndian.Uint32(le[:]))
	return true
}

// Size returns the size of the memory in bytes: what the guest has grown
// it to (committed, though the pages of the shared image that it has not
// written are not its own); 0 once it is unmapped. It may be called from
// any goroutine, while the guest runs.
func (m *Memory) Size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.region == nil {
		return 0
	}
	return len(m.region.bytes())
}

// Free implements experimental.LinearMemory. A pinned memory stays mapped
// until Unpin.
func (m *Memory) Free() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.freed = true
	m.releaseLocked()
}

// Pin keeps the memory mapped past Free: guest code may run on it. It is
// called before the guest's code starts.
func (m *Memory) Pin() {
	m.mu.Lock()
	m.pinned = true
	m.mu.Unlock()
}

// Unpin is called when the guest's code has stopped for good; a freed
// memory is unmapped then.
func (m *Memory) Unpin() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pinned = false
	m.releaseLocked()
}

func (m *Memory) releaseLocked() {
	if m.freed && !m.pinned && m.region != nil {
		m.region.unmap()
		m.region = nil
	}
}

// region is a platform's growable memory.
type region interface {
	grow(size uint64) []byte // nil when size cannot be committed
	bytes() []byte           // the memory as the last grow returned it
	unmap()
}

// Allocator returns the allocator for one guest instance: its memory
// starts with img (nil: zeros) and is recorded in *mem.
func Allocator(mem **Memory, img *Image) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		if img != nil && img.size > max {
			return failedMemory{}
		}
		r, err := reserve(max, img)
		if err != nil {
			return failedMemory{}
		}
		m := &Memory{region: r}
		*mem = m
		return m
	})
}

// failedMemory is the memory of a guest whose reservation failed: wazero
// then fails the instantiation cleanly ("memory allocation failed").
type failedMemory struct{}

func (failedMemory) Reallocate(uint64) []byte { return nil }
func (failedMemory) Free()                    {}
