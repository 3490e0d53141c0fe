package engine

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// imageStore holds the data image in a sealed memory file, which each
// guest maps privately: the pages are shared by every sandbox until one
// writes to them (copy on write).
type imageStore struct {
	size uint64
	fd   int
}

func newImageStore(img dataImage) (*imageStore, error) {
	fd, err := unix.MemfdCreate("cordon-guest-data", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("engine: data image: %w", err)
	}
	s := &imageStore{size: uint64(len(img)), fd: fd}
	if err := s.fill(img); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *imageStore) fill(img dataImage) error {
	// The file covers whole pages: a private mapping of a page past the
	// end of its file faults.
	if err := unix.Ftruncate(s.fd, int64(roundPage(s.size))); err != nil {
		return fmt.Errorf("engine: data image: %w", err)
	}
	for off := 0; off < len(img); {
		n, err := unix.Pwrite(s.fd, img[off:], int64(off))
		if err != nil {
			return fmt.Errorf("engine: data image: %w", err)
		}
		off += n
	}
	// Sealed, the image cannot change under the sandboxes that map it.
	if _, err := unix.FcntlInt(uintptr(s.fd), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE|unix.F_SEAL_SEAL); err != nil {
		return fmt.Errorf("engine: data image: sealing: %w", err)
	}
	return nil
}

// mapInto maps the image, copy on write, over dst (whole pages at the
// start of a guest's reservation).
func (s *imageStore) mapInto(dst []byte) error {
	_, err := unix.MmapPtr(s.fd, 0, unsafe.Pointer(unsafe.SliceData(dst)), uintptr(len(dst)),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_FIXED)
	if err != nil {
		return fmt.Errorf("engine: mapping the data image: %w", err)
	}
	return nil
}

func (s *imageStore) close() {
	if s.fd >= 0 {
		_ = unix.Close(s.fd)
		s.fd = -1
	}
}

// mapPopulate makes mapFile map the whole file up front: one call instead
// of a page fault per page.
const mapPopulate = unix.MAP_POPULATE
