package vfs

import (
	"io/fs"
	"path"
	"strings"
	"syscall"
)

// Permission bits. Through the normal view the script is the owner of
// every node, so the owner's bits of a node's mode decide what it may do,
// as on a real system for a user's own files:
//
//   - reading a file, or listing a directory, needs r;
//   - writing to a file needs w;
//   - creating, removing or renaming an entry needs w on its directory;
//   - reaching anything through a directory needs x on it;
//   - Chmod is refused (EPERM) outside the writable areas, where the
//     nodes belong to the host.
//
// The writable areas still decide first: w on a node outside them does not
// make it writable. The privileged view is the host's and, like root,
// ignores the bits.

// Access bits for [FS.Access], as for access(2).
const (
	// ReadOK asks for read permission.
	ReadOK = 4
	// WriteOK asks for write permission.
	WriteOK = 2
	// ExecOK asks for execute (search) permission.
	ExecOK = 1
)

// may reports whether f may access n with the access bits want.
func (f *FS) may(n *node, want fs.FileMode) bool {
	return f.privileged || (n.perm>>6)&want == want
}

// lookup is state.lookup with search permission: the normal view must
// have x on every directory it passes through.
func (f *FS) lookup(p string) (*node, error) {
	if f.privileged {
		return f.s.lookup(p)
	}
	n := f.s.root
	for rest := p[1:]; rest != ""; {
		var elem string
		elem, rest, _ = strings.Cut(rest, "/")
		if !n.dir {
			return nil, syscall.ENOTDIR
		}
		if !f.may(n, ExecOK) {
			return nil, syscall.EACCES
		}
		next, ok := n.children[elem]
		if !ok {
			return nil, syscall.ENOENT
		}
		n = next
	}
	return n, nil
}

// lookupParent is state.lookupParent with search permission.
func (f *FS) lookupParent(p string) (*node, string, error) {
	dir, base := path.Split(p)
	parent, err := f.lookup(dir)
	if err != nil {
		return nil, "", err
	}
	if !parent.dir {
		return nil, "", syscall.ENOTDIR
	}
	return parent, base, nil
}

// mayUnlink reports whether f may remove the node n from the directory
// parent and with it, when n is a directory, everything below it (which
// needs rwx on every directory that is not empty, as rm -r does).
func (f *FS) mayUnlink(parent *node, n *node) bool {
	if f.privileged {
		return true
	}
	if !f.may(parent, WriteOK|ExecOK) {
		return false
	}
	stack := []*node{n}
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !d.dir || len(d.children) == 0 {
			continue
		}
		if !f.may(d, ReadOK|WriteOK|ExecOK) {
			return false
		}
		for _, c := range d.children {
			if c.dir {
				stack = append(stack, c)
			}
		}
	}
	return true
}

// Chmod sets the permission bits of the named file or directory to those
// of mode, with the setuid, setgid and sticky bits (which are kept and
// reported, not enforced); the type bits are ignored. Through the normal view it fails
// with EPERM outside /workspace and /tmp.
func (f *FS) Chmod(name string, mode fs.FileMode) error {
	p, err := resolve("chmod", name)
	if err != nil {
		return err
	}
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	n, err := f.lookup(p)
	if err == nil && !f.mayWrite(p) {
		err = syscall.EPERM
	}
	if err != nil {
		return pathErr("chmod", p, err)
	}
	n.perm = mode & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	return nil
}

// Access reports whether f may access the named file or directory with the
// access bits mode (ReadOK, WriteOK, ExecOK; 0 only checks that it
// exists), as access(2) does: nil, or a *fs.PathError wrapping ENOENT,
// ENOTDIR or EACCES. WriteOK also needs the node to be in a writable area.
// Through the privileged view, as for root, only ExecOK on a file needs a
// bit: one of the three x bits.
func (f *FS) Access(name string, mode int) error {
	p, err := resolve("access", name)
	if err != nil {
		return err
	}
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	n, err := f.lookup(p)
	if err != nil {
		return pathErr("access", p, err)
	}
	want := fs.FileMode(mode & 7)
	ok := f.may(n, want)
	if f.privileged && want&ExecOK != 0 && !n.dir {
		ok = n.perm&0o111 != 0
	}
	if want&WriteOK != 0 && !f.mayWrite(p) {
		ok = false
	}
	if !ok {
		return pathErr("access", p, syscall.EACCES)
	}
	return nil
}
