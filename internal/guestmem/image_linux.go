package guestmem

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Image holds a data image in a sealed memory file, which each guest maps
// privately: the pages are shared by every sandbox until one writes to
// them (copy on write).
type Image struct {
	size uint64
	fd   int
}

// NewImage stores img, the initial content of every guest's memory from
// address 0. img may be released once NewImage returns.
func NewImage(img []byte) (*Image, error) {
	fd, err := unix.MemfdCreate("cordon-guest-data", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("guestmem: data image: %w", err)
	}
	s := &Image{size: uint64(len(img)), fd: fd}
	if err := s.fill(img); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Image) fill(img []byte) error {
	// The file covers whole pages: a private mapping of a page past the
	// end of its file faults.
	if err := unix.Ftruncate(s.fd, int64(roundPage(s.size))); err != nil {
		return fmt.Errorf("guestmem: data image: %w", err)
	}
	for off := 0; off < len(img); {
		n, err := unix.Pwrite(s.fd, img[off:], int64(off))
		if err != nil {
			return fmt.Errorf("guestmem: data image: %w", err)
		}
		off += n
	}
	// Sealed, the image cannot change under the sandboxes that map it.
	if _, err := unix.FcntlInt(uintptr(s.fd), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE|unix.F_SEAL_SEAL); err != nil {
		return fmt.Errorf("guestmem: data image: sealing: %w", err)
	}
	return nil
}

// mapInto maps the image, copy on write, over dst (whole pages at the
// start of a guest's reservation).
func (s *Image) mapInto(dst []byte) error {
	_, err := unix.MmapPtr(s.fd, 0, unsafe.Pointer(unsafe.SliceData(dst)), uintptr(len(dst)),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_FIXED)
	if err != nil {
		return fmt.Errorf("guestmem: mapping the data image: %w", err)
	}
	return nil
}

// Close releases the image. Guests that have it mapped keep their
// mappings.
func (s *Image) Close() {
	if s.fd >= 0 {
		_ = unix.Close(s.fd)
		s.fd = -1
	}
}
