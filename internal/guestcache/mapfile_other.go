//go:build !(linux || darwin || freebsd)

package guestcache

import "os"

// mapFile reads the file at path (no mapping on this platform).
func mapFile(path string) (b []byte, release func(), err error) {
	b, err = os.ReadFile(path)
	return b, func() {}, err
}
