//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd || windows)

package main

import "os"

// fileIsTerminal reports whether f is a character device: without a
// terminal check on this system, any character device is taken for a
// terminal, so that output to one is neutralized rather than not.
func fileIsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
