//go:build linux || darwin || freebsd

package guestmem

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// NonMoving reports whether guest memory is a mapping that never moves
// (here: true). Then a pointer into it stays valid while it grows, until
// the memory is unmapped.
const NonMoving = true

// mmapRegion reserves the guest's whole memory limit as inaccessible
// address space and makes it readable and writable as the guest grows.
// Untouched pages cost nothing; the reservation is only address space. The
// data image is mapped (or copied, see image_*.go) at its start.
type mmapRegion struct {
	buf       []byte // the whole reservation
	committed uint64 // bytes made accessible, a multiple of the page size
	size      uint64 // the size the last grow returned
}

func reserve(max uint64, img *Image) (region, error) {
	if max == 0 || max > 1<<40 {
		return nil, fmt.Errorf("guestmem: memory reservation of %d bytes", max)
	}
	buf, err := unix.Mmap(-1, 0, int(max), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("guestmem: reserving %d bytes of guest memory: %w", max, err)
	}
	r := &mmapRegion{buf: buf}
	if img != nil && img.size > 0 {
		n := roundPage(img.size)
		if n > uint64(len(buf)) {
			r.unmap()
			return nil, fmt.Errorf("guestmem: data image of %d bytes exceeds the memory limit", img.size)
		}
		if err := img.mapInto(buf[:n]); err != nil {
			r.unmap()
			return nil, err
		}
		r.committed = n
	}
	return r, nil
}

func roundPage(n uint64) uint64 {
	page := uint64(os.Getpagesize())
	return (n + page - 1) / page * page
}

func (r *mmapRegion) grow(size uint64) []byte {
	if size > uint64(len(r.buf)) {
		return nil
	}
	if size > r.committed {
		end := min(roundPage(size), uint64(len(r.buf)))
		if err := unix.Mprotect(r.buf[r.committed:end], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return nil
		}
		r.committed = end
	}
	r.size = size
	return r.buf[:size:size]
}

func (r *mmapRegion) bytes() []byte { return r.buf[:r.size:r.size] }

func (r *mmapRegion) unmap() {
	_ = unix.Munmap(r.buf)
	r.buf = nil
}
