//go:build darwin || freebsd

package engine

import "syscall"

// mapInto makes dst accessible and copies the image there.
func (s *imageStore) mapInto(dst []byte) error {
	if err := syscall.Mprotect(dst, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		return err
	}
	copy(dst, s.img)
	return nil
}
