package command

import (
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/vfs"
)

// Create opens a file for writing, resolving it against the working
// directory, with the vfs flags given (vfs.O_WRONLY|vfs.O_CREATE and
// O_TRUNC or O_APPEND). As the shell does for redirections, it emulates
// the /dev names the VFS does not have: /dev/stdout and /dev/fd/1 are
// Stdout, /dev/stderr and /dev/fd/2 are Stderr, /dev/null discards, and
// /dev/fd/N is the shell's descriptor N (FD), such as the pipe a process
// substitution >(cmd) expands to. Closing one of those leaves it open.
func (e *Env) Create(name string, flag int) (io.WriteCloser, error) {
	switch name {
	case "/dev/stdout", "/dev/fd/1":
		return nopWriteCloser{e.Stdout}, nil
	case "/dev/stderr", "/dev/fd/2":
		return nopWriteCloser{e.Stderr}, nil
	case "/dev/null":
		return nopWriteCloser{io.Discard}, nil
	}
	if num, ok := strings.CutPrefix(name, "/dev/fd/"); ok {
		n, err := strconv.Atoi(num)
		var w io.Writer
		found := false
		if err == nil && n > 2 && num[0] != '+' {
			_, w, found = e.FD(n)
		}
		if !found {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		if w == nil {
			return nil, &fs.PathError{Op: "write", Path: name, Err: errBadFD}
		}
		return nopWriteCloser{w}, nil
	}
	return e.FS.OpenFile(e.Abs(name), flag|vfs.O_WRONLY, 0o644)
}

// nopWriteCloser is a writer whose Close does nothing.
type nopWriteCloser struct{ io.Writer }

// Close does nothing.
func (nopWriteCloser) Close() error { return nil }
