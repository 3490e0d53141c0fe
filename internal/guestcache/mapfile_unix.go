//go:build linux || darwin || freebsd

package guestcache

import (
	"errors"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// mapFile maps the file at path read-only. release unmaps it; calling it
// again does nothing.
func mapFile(path string) (b []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() <= 0 || st.Size() > 1<<30 { // the copy is 28 MB; int is 32 bits on some platforms
		return nil, nil, errors.New("guestcache: unexpected file size")
	}
	b, err = unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_PRIVATE|mapPopulate)
	if err != nil {
		return nil, nil, err
	}
	var once sync.Once
	return b, func() { once.Do(func() { _ = unix.Munmap(b) }) }, nil
}
