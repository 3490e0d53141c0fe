//go:build darwin || freebsd

package engine

import "golang.org/x/sys/unix"

// mapInto makes dst accessible and copies the image there.
func (s *imageStore) mapInto(dst []byte) error {
	if err := unix.Mprotect(dst, unix.PROT_READ|unix.PROT_WRITE); err != nil {
		return err
	}
	copy(dst, s.img)
	return nil
}

// mapPopulate is Linux's; here the pages of a mapped file fault in as they
// are read.
const mapPopulate = 0
