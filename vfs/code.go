package vfs

import (
	"errors"
	"syscall"
)

// codes maps the errors the VFS returns to their POSIX names.
var codes = []struct {
	errno syscall.Errno
	code  string
}{
	{syscall.ENOENT, "ENOENT"}, {syscall.EEXIST, "EEXIST"}, {syscall.ENOTDIR, "ENOTDIR"},
	{syscall.EISDIR, "EISDIR"}, {syscall.EACCES, "EACCES"}, {syscall.ENOTEMPTY, "ENOTEMPTY"},
	{syscall.ENOSPC, "ENOSPC"}, {syscall.EINVAL, "EINVAL"}, {syscall.ENAMETOOLONG, "ENAMETOOLONG"},
	{syscall.EFBIG, "EFBIG"}, {syscall.EBADF, "EBADF"}, {syscall.EPERM, "EPERM"},
}

// Code returns the POSIX name of a VFS error ("ENOENT", "ENOSPC", ...), or
// "EIO" for an error that carries none.
func Code(err error) string {
	for _, c := range codes {
		if errors.Is(err, c.errno) {
			return c.code
		}
	}
	return "EIO"
}
