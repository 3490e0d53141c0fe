package engine

import (
	"sync"

	"github.com/tetratelabs/wazero/experimental"
)

// guestMemory backs one guest's linear memory. Where the platform allows
// (memory_mmap.go) it is an address-space reservation of the memory limit,
// committed as the guest grows, so that growing never copies (wazero's
// default allocator copies the whole memory into a bigger Go slice, which
// was 13% of a sandbox's CPU time and doubled its peak footprint while the
// old copy waited for the host's GC) and closing a sandbox returns its
// memory to the OS at once.
//
// Unmapping memory that guest code or the host still touches would crash
// the process, so the mapping outlives both users: wazero's Free (at module
// close, which can come while a killed guest is still unwinding) only marks
// it, and the memory is unmapped when the guest's goroutine has also
// returned (unpin).
type guestMemory struct {
	mu     sync.Mutex
	region region // platform mapping; nil once unmapped
	freed  bool   // wazero is done with it
	pinned bool   // guest code may be running on it
}

// Reallocate implements experimental.LinearMemory: it makes size bytes
// usable and returns them, at the same address every time.
func (m *guestMemory) Reallocate(size uint64) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.region == nil {
		return nil
	}
	return m.region.grow(size)
}

// Free implements experimental.LinearMemory.
func (m *guestMemory) Free() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.freed = true
	m.releaseLocked()
}

func (m *guestMemory) pin() {
	m.mu.Lock()
	m.pinned = true
	m.mu.Unlock()
}

// unpin is called when the guest's code has stopped for good.
func (m *guestMemory) unpin() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pinned = false
	m.releaseLocked()
}

func (m *guestMemory) releaseLocked() {
	if m.freed && !m.pinned && m.region != nil {
		m.region.unmap()
		m.region = nil
	}
}

// region is a platform's growable, non-moving memory mapping.
type region interface {
	grow(size uint64) []byte // nil when size cannot be committed
	unmap()
}

// memoryAllocator returns the allocator for one guest instance: its memory
// starts with img (nil: zeros) and is recorded in *mem.
func memoryAllocator(mem **guestMemory, img *imageStore) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		if img != nil && img.size > max {
			return failedMemory{}
		}
		r, err := reserve(max, img)
		if err != nil {
			return failedMemory{}
		}
		m := &guestMemory{region: r}
		*mem = m
		return m
	})
}

// failedMemory is the memory of a guest whose reservation failed: wazero
// then fails the instantiation cleanly ("memory allocation failed").
type failedMemory struct{}

func (failedMemory) Reallocate(uint64) []byte { return nil }
func (failedMemory) Free()                    {}
