package vfs

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Flags for OpenFile. They have the meaning and, on linux, the values of the
// os package's flags of the same names. Exactly one of O_RDONLY, O_WRONLY
// and O_RDWR must be given; the others may be or-ed in.
const (
	// O_RDONLY opens the file read-only.
	O_RDONLY int = 0x0
	// O_WRONLY opens the file write-only.
	O_WRONLY int = 0x1
	// O_RDWR opens the file read-write.
	O_RDWR int = 0x2
	// O_CREATE creates the file if it does not exist.
	O_CREATE int = 0x40
	// O_EXCL, used with O_CREATE, requires that the file does not exist.
	O_EXCL int = 0x80
	// O_TRUNC truncates the file when it is opened; it needs write access.
	O_TRUNC int = 0x200
	// O_APPEND makes every write go to the end of the file.
	O_APPEND int = 0x400
)

const (
	accessMode = O_RDONLY | O_WRONLY | O_RDWR
	knownFlags = accessMode | O_CREATE | O_EXCL | O_TRUNC | O_APPEND
)

// Open opens the named file or directory for reading, following io/fs.FS
// rules: name must be unrooted and satisfy [fs.ValidPath] ("." is the root).
// Errors report the name as given.
func (f *FS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, pathErr("open", shorten(name), syscall.EINVAL)
	}
	if err := checkName(name); err != nil {
		return nil, pathErr("open", shorten(name), err)
	}
	return f.open(name, path.Clean("/"+name), O_RDONLY, 0)
}

// OpenFile opens the named file or directory with the given flags (O_RDONLY
// and the rest). If O_CREATE creates a new file, it gets the permission bits
// of perm, or 0644 if they are zero. Directories may only be opened
// read-only. Unknown flag bits, an invalid access mode and O_TRUNC without
// write access fail with EINVAL. The returned File's Name is the cleaned
// absolute path.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	p, err := resolve("open", name)
	if err != nil {
		return nil, err
	}
	return f.open(p, p, flag, perm)
}

// open opens the cleaned absolute path p; name is used for errors and as the
// handle's name.
func (f *FS) open(name, p string, flag int, perm fs.FileMode) (File, error) {
	acc := flag & accessMode
	if flag&^knownFlags != 0 || acc == accessMode || (flag&O_TRUNC != 0 && acc == O_RDONLY) {
		return nil, pathErr("open", name, syscall.EINVAL)
	}
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := f.lookup(p)
	switch {
	case err == syscall.ENOENT && flag&O_CREATE != 0:
		parent, base, err := f.prepareCreate(p)
		if err != nil {
			return nil, pathErr("open", name, err)
		}
		n = s.newNode(false, perm)
		s.link(parent, base, n)
	case err != nil:
		return nil, pathErr("open", name, err)
	case flag&(O_CREATE|O_EXCL) == O_CREATE|O_EXCL:
		return nil, pathErr("open", name, syscall.EEXIST)
	case n.dir && (acc != O_RDONLY || flag&O_CREATE != 0):
		return nil, pathErr("open", name, syscall.EISDIR)
	case acc != O_RDONLY && (!f.mayWrite(p) || !f.may(n, WriteOK)),
		acc != O_WRONLY && !f.may(n, ReadOK):
		return nil, pathErr("open", name, syscall.EACCES)
	case flag&O_TRUNC != 0:
		s.setSize(n, 0)
	}
	return &handle{
		s:      s,
		n:      n,
		name:   name,
		read:   acc != O_WRONLY,
		write:  acc != O_RDONLY,
		append: flag&O_APPEND != 0,
	}, nil
}

// ReadFile returns a copy of the named file's contents.
func (f *FS) ReadFile(name string) ([]byte, error) {
	p, err := resolve("open", name)
	if err != nil {
		return nil, err
	}
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	n, err := f.lookup(p)
	if err != nil {
		return nil, pathErr("open", p, err)
	}
	if n.dir {
		return nil, pathErr("read", p, syscall.EISDIR)
	}
	if !f.may(n, ReadOK) {
		return nil, pathErr("open", p, syscall.EACCES)
	}
	data := make([]byte, len(n.data))
	copy(data, n.data)
	return data, nil
}

// View returns the named file's contents without a copy. The slice must
// not be modified, and it holds the contents only until the next change to
// the file system; it is for a reader that is done with it before anything
// else runs, such as the guest encoding a response to the host.
func (f *FS) View(name string) ([]byte, error) {
	p, err := resolve("open", name)
	if err != nil {
		return nil, err
	}
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	n, err := f.lookup(p)
	if err != nil {
		return nil, pathErr("open", p, err)
	}
	if n.dir {
		return nil, pathErr("read", p, syscall.EISDIR)
	}
	if !f.may(n, ReadOK) {
		return nil, pathErr("open", p, syscall.EACCES)
	}
	return n.data[:len(n.data):len(n.data)], nil
}

// WriteFile replaces the named file's contents with data, creating the file
// with the permission bits of perm (0644 if zero) if it does not exist. It
// either succeeds completely or changes nothing.
func (f *FS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return f.writeFile(name, data, perm, false)
}

// AppendFile appends data to the named file, creating it like WriteFile if
// it does not exist. It either succeeds completely or changes nothing.
func (f *FS) AppendFile(name string, data []byte, perm fs.FileMode) error {
	return f.writeFile(name, data, perm, true)
}

func (f *FS) writeFile(name string, data []byte, perm fs.FileMode, appending bool) error {
	p, err := resolve("open", name)
	if err != nil {
		return err
	}
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var parent *node
	var base string
	n, err := f.lookup(p)
	switch {
	case err == syscall.ENOENT:
		if parent, base, err = f.prepareCreate(p); err != nil {
			return pathErr("open", p, err)
		}
		n = &node{} // placeholder for the size checks; created below
	case err != nil:
		return pathErr("open", p, err)
	case n.dir:
		return pathErr("open", p, syscall.EISDIR)
	case !f.mayWrite(p) || !f.may(n, WriteOK):
		return pathErr("open", p, syscall.EACCES)
	}
	off := int64(0)
	if appending {
		off = int64(len(n.data))
	}
	size := off + int64(len(data))
	if err := s.checkSize(n, size); err != nil {
		return pathErr("write", p, err)
	}
	if parent != nil {
		n = s.newNode(false, perm)
		s.link(parent, base, n)
	}
	if appending {
		s.setSize(n, size)
		copy(n.data[off:], data)
		return nil
	}
	s.bytes += size - int64(len(n.data))
	n.data = make([]byte, size)
	copy(n.data, data)
	n.mtime = s.clock()
	return nil
}

// Mkdir creates the named directory with the permission bits of perm (0755
// if zero). Its parent must exist.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	p, err := resolve("mkdir", name)
	if err != nil {
		return err
	}
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := f.lookup(p); err != syscall.ENOENT {
		if err == nil {
			err = syscall.EEXIST
		}
		return pathErr("mkdir", p, err)
	}
	parent, base, err := f.prepareCreate(p)
	if err != nil {
		return pathErr("mkdir", p, err)
	}
	s.link(parent, base, s.newNode(true, perm))
	return nil
}

// MkdirAll creates the named directory and any missing parents with the
// permission bits of perm (0755 if zero). It succeeds if the directory
// already exists, and it checks permission and quota for all the missing
// directories before creating any.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	p, err := resolve("mkdir", name)
	if err != nil {
		return err
	}
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	// Walk down to the deepest existing node; p[i:] is the missing rest.
	n, i := s.root, 1
	for i < len(p) {
		if !n.dir {
			return pathErr("mkdir", p[:i-1], syscall.ENOTDIR)
		}
		if !f.may(n, ExecOK) {
			return pathErr("mkdir", p, syscall.EACCES)
		}
		end := strings.IndexByte(p[i:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += i
		}
		next, ok := n.children[p[i:end]]
		if !ok {
			break
		}
		n, i = next, end+1
	}
	if !n.dir {
		return pathErr("mkdir", p, syscall.ENOTDIR)
	}
	if i >= len(p) {
		return nil
	}
	if first, _, _ := strings.Cut(p[i:], "/"); !f.mayLink(p[:i]+first) || !f.may(n, WriteOK) {
		return pathErr("mkdir", p, syscall.EACCES)
	}
	missing := strings.Count(p[i:], "/") + 1
	if err := checkNew(p, missing, 0); err != nil {
		return pathErr("mkdir", p, err)
	}
	if err := s.checkQuota(0, missing); err != nil {
		return pathErr("mkdir", p, err)
	}
	for _, elem := range strings.Split(p[i:], "/") {
		next := s.newNode(true, perm)
		s.link(n, elem, next)
		n = next
	}
	return nil
}

// Remove removes the named file or empty directory.
func (f *FS) Remove(name string) error {
	p, err := resolve("remove", name)
	if err != nil {
		return err
	}
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := f.lookup(p)
	switch {
	case err != nil:
		return pathErr("remove", p, err)
	case !f.mayLink(p):
		return pathErr("remove", p, syscall.EACCES)
	case n.dir && len(n.children) > 0:
		return pathErr("remove", p, syscall.ENOTEMPTY)
	}
	parent, base, _ := s.lookupParent(p)
	if !f.may(parent, WriteOK) {
		return pathErr("remove", p, syscall.EACCES)
	}
	s.unlink(parent, base)
	return nil
}

// RemoveAll removes the named file or directory and everything it contains.
// It returns nil if the name does not exist.
func (f *FS) RemoveAll(name string) error {
	p, err := resolve("remove", name)
	if err != nil {
		return err
	}
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := f.lookup(p)
	switch {
	case err == syscall.ENOENT:
		return nil
	case err != nil:
		return pathErr("remove", p, err)
	case !f.mayLink(p):
		return pathErr("remove", p, syscall.EACCES)
	}
	parent, base, _ := s.lookupParent(p)
	if !f.mayUnlink(parent, n) {
		return pathErr("remove", p, syscall.EACCES)
	}
	s.unlink(parent, base)
	return nil
}

// Rename moves the file or directory oldname to newname, whose parent must
// exist. An existing newname is replaced if it is a file and oldname is a
// file, or if it is an empty directory and oldname is a directory. Moving a
// directory into its own subtree fails with EINVAL. The new name must be
// one CheckName accepts, and neither it nor, for a directory, any entry
// below it may get a path longer than MaxPathLen (ENAMETOOLONG). Renaming
// a name to itself succeeds and does nothing. Errors are *LinkError values.
func (f *FS) Rename(oldname, newname string) error {
	oldp, err := clean(oldname)
	var newp string
	if err == nil {
		newp, err = clean(newname)
	}
	if err != nil {
		return &LinkError{Op: "rename", Old: shorten(oldname), New: shorten(newname), Err: err}
	}
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := f.rename(oldp, newp); err != nil {
		return &LinkError{Op: "rename", Old: oldp, New: newp, Err: err}
	}
	return nil
}

func (f *FS) rename(oldp, newp string) error {
	s := f.s
	n, err := f.lookup(oldp)
	if err != nil {
		return err
	}
	if !f.mayLink(oldp) || !f.mayLink(newp) {
		return syscall.EACCES
	}
	newParent, newBase, err := f.lookupParent(newp)
	if err != nil {
		return err
	}
	if oldParent, _, _ := s.lookupParent(oldp); !f.may(oldParent, WriteOK) || !f.may(newParent, WriteOK) {
		return syscall.EACCES
	}
	if oldp == newp {
		return nil
	}
	if n.dir && strings.HasPrefix(newp, oldp+"/") {
		return syscall.EINVAL
	}
	// The new name must be valid, and neither it nor any entry below it
	// may get a path longer than MaxPathLen.
	if err := checkNew(newp, 1, n.below()); err != nil {
		return err
	}
	if t := newParent.children[newBase]; t != nil {
		switch {
		case n.dir && !t.dir:
			return syscall.ENOTDIR
		case !n.dir && t.dir:
			return syscall.EISDIR
		case t.dir && len(t.children) > 0:
			return syscall.ENOTEMPTY
		}
		s.unlink(newParent, newBase)
	}
	oldParent, oldBase, _ := s.lookupParent(oldp)
	delete(oldParent.children, oldBase)
	oldParent.mtime = s.clock()
	newParent.children[newBase] = n
	newParent.mtime = oldParent.mtime
	return nil
}

// Stat returns metadata for the named file or directory. The name of the
// root is "/".
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	p, err := resolve("stat", name)
	if err != nil {
		return nil, err
	}
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	n, err := f.lookup(p)
	if err != nil {
		return nil, pathErr("stat", p, err)
	}
	return n.info(path.Base(p)), nil
}

// ReadDir returns the entries of the named directory sorted by name. The
// entries' Info is a snapshot taken by ReadDir.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := resolve("readdir", name)
	if err != nil {
		return nil, err
	}
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	n, err := f.lookup(p)
	if err == nil && !n.dir {
		err = syscall.ENOTDIR
	}
	if err == nil && !f.may(n, ReadOK) {
		err = syscall.EACCES
	}
	if err != nil {
		return nil, pathErr("readdir", p, err)
	}
	return n.entries(), nil
}

// entries returns snapshots of directory n's entries sorted by name.
func (n *node) entries() []fs.DirEntry {
	names := make([]string, 0, len(n.children))
	for name := range n.children {
		names = append(names, name)
	}
	slices.Sort(names)
	list := make([]fs.DirEntry, len(names))
	for i, name := range names {
		list[i] = n.children[name].info(name)
	}
	return list
}

// Chtimes sets the modification time of the named file or directory. The
// normal view may change it at or below /workspace and /tmp only.
func (f *FS) Chtimes(name string, mtime time.Time) error {
	p, err := resolve("chtimes", name)
	if err != nil {
		return err
	}
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	n, err := f.lookup(p)
	if err == nil && !f.mayWrite(p) {
		err = syscall.EACCES
	}
	if err != nil {
		return pathErr("chtimes", p, err)
	}
	n.mtime = mtime
	return nil
}
