package vfs

import (
	"io"
	"io/fs"
	"math"
	"path"
	"syscall"
)

// File is an open file or directory of an FS. Reading and writing move a
// shared offset; ReadAt does not. Using a File after Close fails with an
// error wrapping [fs.ErrClosed]; reading a handle opened write-only, or
// writing or truncating one opened read-only, fails with EBADF. Directories
// support Stat, ReadDir, Seek(0, [io.SeekStart]) (which restarts ReadDir) and
// Close; reading them fails with EISDIR.
type File interface {
	fs.File
	io.Writer
	io.Seeker
	io.ReaderAt
	// ReadDir reads the directory's entries sorted by name, following the
	// contract of [fs.ReadDirFile]. The listing is a snapshot taken by the
	// first call.
	ReadDir(n int) ([]fs.DirEntry, error)
	// Truncate changes the file's size, zero-filling any growth, which
	// counts against the quota. The offset is not changed.
	Truncate(size int64) error
	// Name returns the name the file was opened with: the cleaned
	// absolute path for OpenFile, the name as given for Open.
	Name() string
}

// handle implements File. Its fields, like the node's, are guarded by s.mu.
type handle struct {
	s                   *state
	n                   *node
	name                string
	read, write, append bool
	off                 int64
	closed              bool
	listed              bool          // dirents holds the ReadDir snapshot
	dirents             []fs.DirEntry // entries not yet returned by ReadDir
}

var (
	_ File           = (*handle)(nil)
	_ fs.ReadDirFile = (*handle)(nil)
	_ fs.FS          = (*FS)(nil)
)

func (h *handle) Name() string { return h.name }

// check returns the error for op if h is closed or lacks the needed access.
func (h *handle) check(op string, allowed bool) error {
	if h.closed {
		return pathErr(op, h.name, fs.ErrClosed)
	}
	if !allowed {
		return pathErr(op, h.name, syscall.EBADF)
	}
	return nil
}

func (h *handle) Stat() (fs.FileInfo, error) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if err := h.check("stat", true); err != nil {
		return nil, err
	}
	return h.n.info(path.Base(h.name)), nil
}

func (h *handle) Read(p []byte) (int, error) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	n, err := h.readAt("read", p, h.off)
	h.off += int64(n)
	return n, err
}

func (h *handle) ReadAt(p []byte, off int64) (int, error) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if off < 0 {
		return 0, pathErr("readat", h.name, syscall.EINVAL)
	}
	n, err := h.readAt("readat", p, off)
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}

func (h *handle) readAt(op string, p []byte, off int64) (int, error) {
	if err := h.check(op, h.read); err != nil {
		return 0, err
	}
	if h.n.dir {
		return 0, pathErr(op, h.name, syscall.EISDIR)
	}
	if len(p) == 0 {
		return 0, nil
	}
	if off >= int64(len(h.n.data)) {
		return 0, io.EOF
	}
	return copy(p, h.n.data[off:]), nil
}

// Write writes all of p at the offset, or at the end with O_APPEND, or
// nothing if that would exceed a quota or MaxFileSize.
func (h *handle) Write(p []byte) (int, error) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if err := h.check("write", h.write); err != nil {
		return 0, err
	}
	if h.n.unlinked {
		return 0, pathErr("write", h.name, syscall.ENOENT)
	}
	if len(p) == 0 {
		return 0, nil
	}
	off := h.off
	if h.append {
		off = int64(len(h.n.data))
	}
	if err := h.s.writeAt(h.n, p, off); err != nil {
		return 0, pathErr("write", h.name, err)
	}
	h.off = off + int64(len(p))
	return len(p), nil
}

// Seek sets the offset. Seeking past the end is allowed and allocates
// nothing; a later Write counts the hole against the quota.
func (h *handle) Seek(offset int64, whence int) (int64, error) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if err := h.check("seek", true); err != nil {
		return 0, err
	}
	if h.n.dir {
		if offset != 0 || whence != io.SeekStart {
			return 0, pathErr("seek", h.name, syscall.EINVAL)
		}
		h.listed, h.dirents = false, nil
		return 0, nil
	}
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = h.off
	case io.SeekEnd:
		base = int64(len(h.n.data))
	default:
		return 0, pathErr("seek", h.name, syscall.EINVAL)
	}
	if offset > math.MaxInt64-base || base+offset < 0 {
		return 0, pathErr("seek", h.name, syscall.EINVAL)
	}
	h.off = base + offset
	return h.off, nil
}

func (h *handle) ReadDir(n int) ([]fs.DirEntry, error) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if err := h.check("readdir", h.read); err != nil {
		return nil, err
	}
	if !h.n.dir {
		return nil, pathErr("readdir", h.name, syscall.ENOTDIR)
	}
	if !h.listed {
		h.listed, h.dirents = true, h.n.entries()
	}
	if n <= 0 {
		list := h.dirents
		h.dirents = nil
		if list == nil {
			list = []fs.DirEntry{}
		}
		return list, nil
	}
	if len(h.dirents) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(h.dirents))
	list := h.dirents[:n:n]
	h.dirents = h.dirents[n:]
	return list, nil
}

func (h *handle) Truncate(size int64) error {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if err := h.check("truncate", h.write); err != nil {
		return err
	}
	var err error
	switch {
	case size < 0:
		err = syscall.EINVAL
	case h.n.unlinked:
		err = syscall.ENOENT
	default:
		err = h.s.checkSize(h.n, size)
	}
	if err != nil {
		return pathErr("truncate", h.name, err)
	}
	h.s.setSize(h.n, size)
	return nil
}

func (h *handle) Close() error {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if err := h.check("close", true); err != nil {
		return err
	}
	h.closed, h.dirents = true, nil
	return nil
}
