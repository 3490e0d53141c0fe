//go:build darwin || freebsd

package guestmem

import "golang.org/x/sys/unix"

// mapInto makes dst accessible and copies the image there.
func (s *Image) mapInto(dst []byte) error {
	if err := unix.Mprotect(dst, unix.PROT_READ|unix.PROT_WRITE); err != nil {
		return err
	}
	copy(dst, s.img)
	return nil
}
