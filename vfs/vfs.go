// Package vfs implements the in-memory file system that sandboxed scripts
// see. It uses only portable parts of the standard library, so it builds for
// linux and for GOOS=wasip1 GOARCH=wasm alike.
//
// # Layout
//
// A new FS holds the root directory "/" and two empty, writable directories,
// /workspace and /tmp. Through the normal view returned by New, scripts may
// create, write, remove and rename only below those two directories (and
// change the modification time of the two themselves); everything else (for example reference data that the host seeds under
// /data through the view returned by [FS.Privileged]) is read-only. The root,
// /workspace and /tmp themselves can never be removed or renamed, not even
// through the privileged view.
//
// There are no symbolic links, hard links or special files: every entry is a
// regular file or a directory, so a name always denotes exactly the node
// found by walking its cleaned path from the root.
//
// # Names
//
// [FS.Open] implements io/fs.FS and accepts only unrooted names that satisfy
// [fs.ValidPath], such as "workspace/a.txt" or ".". Every other method takes a
// slash-separated path that is either absolute ("/workspace/a.txt") or
// relative, in which case it is interpreted relative to "/". Such paths are
// cleaned with [path.Clean] before use, so ".." can never climb above the
// root. A path containing NUL fails with EINVAL, an empty one with ENOENT,
// and one longer than MaxPathLen bytes with ENAMETOOLONG.
//
// Every entry can be exported and extracted under its own name with stock
// tools on Linux, macOS and Windows, because the FS refuses, for scripts
// and the privileged view alike, to create an entry whose name CheckName
// rejects: a name longer than MaxNameLen bytes (ENAMETOOLONG), or one that
// some system cannot store or would read as something else, such as a
// backslash (a separator on Windows), a colon (a drive or a stream), "*",
// a control character, invalid UTF-8, a trailing dot or space, or a
// Windows device name like "nul.txt" (EINVAL, with a *NameError saying
// why). Nor may any entry's absolute path exceed MaxPathLen bytes: creating
// an entry, and renaming or moving a file or a directory, fails with
// ENAMETOOLONG when the entry, or for a directory its deepest descendant,
// would get a longer path. So every entry can always be opened by its
// absolute path. Existing names are only looked up, never checked: a
// lookup of a refused name simply finds nothing.
//
// Because ReadFile, Stat and ReadDir have the signatures of [fs.ReadFileFS],
// [fs.StatFS] and [fs.ReadDirFS], helpers such as [fs.ReadFile] and [fs.WalkDir] use
// them and thereby inherit their lenient path rules; to get strict io/fs
// name checking, hide them by wrapping the FS, as in struct{ [fs.FS] }{fsys}.
//
// # Permissions
//
// Writability is decided first by where a node lives, as described above.
// Permission bits passed to the creating calls are recorded and reported by
// Stat (files default to 0644 and directories to 0755 when the bits are
// zero), and Chmod changes them. The normal view honours the owner's bits
// (r to read a file or list a directory, w to write a file or change a
// directory's entries, x to pass through a directory); the privileged view
// ignores them, as root does. Access checks them as access(2) does.
//
// # Quotas
//
// Limits bounds the total size of all file contents and the number of files
// and directories created; the built-in /, /workspace and /tmp do not count.
// An operation that would exceed a quota fails as a whole, before anything
// is allocated or changed, with an error wrapping a *QuotaError, which
// matches [syscall.ENOSPC] under errors.Is. A write past the end of a file
// counts the hole it creates. Independently of quotas, no single file may
// grow beyond MaxFileSize bytes (EFBIG). The memory held for file contents
// stays below twice the bytes in use plus 64 bytes per file.
//
// # Errors
//
// Failures are reported as *[fs.PathError] values, or *LinkError for Rename,
// whose Op and Path name the operation and the cleaned absolute path (Open
// reports the name as given). Their Err is a [syscall.Errno] (ENOENT, EEXIST,
// ENOTDIR, EISDIR, EACCES, ENOTEMPTY, EINVAL, ENAMETOOLONG, EBADF, EFBIG,
// EPERM from Chmod),
// a *QuotaError, a *NameError, or [fs.ErrClosed] for a handle used after
// Close, so that errors.Is(err, [fs.ErrNotExist]) and similar tests work.
// The text of an Errno differs between platforms (wasip1 capitalizes it).
//
// # Open files
//
// An open File refers to its node, not its name: it keeps working after the
// node is renamed, and sees changes made through other handles or through
// WriteFile. Removing a file, or replacing it with Rename, frees its
// contents at once so that detached data cannot pile up beyond the quotas;
// open handles on it then read as an empty file, and writing or truncating
// through them fails with ENOENT. Writability is checked when a file is
// opened. The package does not limit the number of open handles; a runtime
// exposing them to scripts should bound its descriptor table.
//
// # Concurrency
//
// An FS and its Files are safe for concurrent use by multiple goroutines;
// all state, including every view and handle of one FS, is guarded by a
// single mutex.
package vfs

import (
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Default limits used when a Limits field is zero, and hard bounds that hold
// regardless of the quotas.
const (
	// DefaultMaxBytes is the default bound on the total size of file contents (64 MiB).
	DefaultMaxBytes int64 = 64 << 20
	// DefaultMaxFiles is the default bound on the number of files and directories.
	DefaultMaxFiles = 10000
	// MaxPathLen is the longest path, in bytes, that any method accepts,
	// and the longest absolute path of any entry (PATH_MAX on Linux).
	MaxPathLen = 4096
	// MaxFileSize is the largest size of a single file, whatever the quotas (1 GiB).
	MaxFileSize int64 = 1 << 30
)

// Limits bounds what an FS may hold. A zero field means the default
// (DefaultMaxBytes, DefaultMaxFiles); a negative field means unlimited.
type Limits struct {
	// MaxBytes bounds the total size of all file contents, holes included.
	MaxBytes int64
	// MaxFiles bounds the number of files and directories, not counting
	// the built-in /, /workspace and /tmp.
	MaxFiles int
}

// effective replaces zero fields by defaults and normalizes negative ones to -1.
func (l Limits) effective() Limits {
	switch {
	case l.MaxBytes == 0:
		l.MaxBytes = DefaultMaxBytes
	case l.MaxBytes < 0:
		l.MaxBytes = -1
	}
	switch {
	case l.MaxFiles == 0:
		l.MaxFiles = DefaultMaxFiles
	case l.MaxFiles < 0:
		l.MaxFiles = -1
	}
	return l
}

// Option configures an FS created by New.
type Option func(*options)

type options struct {
	now func() time.Time
}

// WithClock makes the FS take modification times from now instead of
// [time.Now]. A nil now is ignored. The clock is called while the FS is
// locked, so it must not call back into the FS.
func WithClock(now func() time.Time) Option {
	return func(o *options) {
		if now != nil {
			o.now = now
		}
	}
}

// FS is an in-memory file system. The value returned by New is the normal
// view, which may modify only /workspace and /tmp; Privileged returns a view
// of the same tree without that restriction. Note that any holder of an *FS
// can obtain the privileged view: the restriction protects against what
// scripts do through the runtime's bindings, it is not a capability boundary
// inside Go. The zero FS is not usable; create one with New.
type FS struct {
	s          *state
	privileged bool
}

// state is the tree and its accounting, shared by all views and handles.
type state struct {
	mu     sync.Mutex
	root   *node
	limits Limits
	now    func() time.Time
	bytes  int64 // total len(data) of linked files
	files  int   // linked nodes, excluding the built-ins
	hits   int64 // operations refused by a quota
}

// node is a file or directory. All fields are guarded by state.mu.
type node struct {
	dir      bool
	perm     fs.FileMode
	mtime    time.Time
	data     []byte           // file contents; cap(data) <= 2*len(data)+slack
	children map[string]*node // directory entries
	unlinked bool             // removed from the tree; data and children freed
}

// New returns the normal view of a new FS holding /, /workspace and /tmp.
func New(limits Limits, opts ...Option) *FS {
	o := options{now: time.Now}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	s := &state{limits: limits.effective(), now: o.now}
	s.root = s.newNode(true, 0)
	s.root.children["workspace"] = s.newNode(true, 0)
	s.root.children["tmp"] = s.newNode(true, 0)
	return &FS{s: s}
}

// Privileged returns a view of the same FS for the trusted host, for example
// to seed /data/ref.csv. It may create, write, remove and rename anywhere
// except the root, /workspace and /tmp themselves, and it still obeys the
// quotas. Calling Privileged on a privileged view returns an equal view.
func (f *FS) Privileged() *FS {
	return &FS{s: f.s, privileged: true}
}

// Usage returns the total size of all file contents and the number of files
// and directories, not counting the built-in /, /workspace and /tmp.
func (f *FS) Usage() (bytes int64, files int) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	return f.s.bytes, f.s.files
}

// QuotaHits returns how many operations a quota has refused since the FS
// was created, so that a caller can tell a failure caused by a full file
// system from another.
func (f *FS) QuotaHits() int64 {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	return f.s.hits
}

// Limits returns the effective limits: zero fields of the Limits given to
// New are replaced by their defaults and negative ones (unlimited) by -1.
func (f *FS) Limits() Limits {
	return f.s.limits
}

// QuotaError reports that an operation would have exceeded a quota. It
// matches [syscall.ENOSPC] under errors.Is.
type QuotaError struct {
	// Quota is "MaxBytes" or "MaxFiles", naming the Limits field exceeded.
	Quota string
	// Limit is the value of that limit.
	Limit int64
}

// Error describes the quota and its limit, for example
// "vfs: quota exceeded: total file bytes would exceed 1048576".
func (e *QuotaError) Error() string {
	what := "total file bytes"
	if e.Quota == "MaxFiles" {
		what = "number of files and directories"
	}
	return "vfs: quota exceeded: " + what + " would exceed " + strconv.FormatInt(e.Limit, 10)
}

// Unwrap returns [syscall.ENOSPC].
func (e *QuotaError) Unwrap() error { return syscall.ENOSPC }

// LinkError records an error during Rename and the two paths involved.
type LinkError struct {
	// Op is the operation, "rename".
	Op string
	// Old and New are the cleaned source and destination paths.
	Old, New string
	// Err is the underlying [syscall.Errno].
	Err error
}

// Error formats the error like "rename /workspace/a /workspace/b: ...".
func (e *LinkError) Error() string {
	return e.Op + " " + e.Old + " " + e.New + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *LinkError) Unwrap() error { return e.Err }

func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// checkName rejects names that no method accepts.
func checkName(name string) error {
	switch {
	case len(name) > MaxPathLen:
		return syscall.ENAMETOOLONG
	case name == "":
		return syscall.ENOENT
	case strings.IndexByte(name, 0) >= 0:
		return syscall.EINVAL
	}
	return nil
}

// shorten bounds a rejected name before it is copied into an error.
func shorten(name string) string {
	if len(name) > 256 {
		return name[:256] + "..."
	}
	return name
}

// clean validates a path-API name and returns its cleaned absolute form.
func clean(name string) (string, error) {
	if err := checkName(name); err != nil {
		return "", err
	}
	if name[0] != '/' {
		name = "/" + name
	}
	return path.Clean(name), nil
}

// resolve is clean with the error wrapped in an *[fs.PathError].
func resolve(op, name string) (string, error) {
	p, err := clean(name)
	if err != nil {
		return "", pathErr(op, shorten(name), err)
	}
	return p, nil
}

// builtin reports whether p is one of the directories that always exist.
func builtin(p string) bool {
	return p == "/" || p == "/workspace" || p == "/tmp"
}

// mayLink reports whether f may create, remove or rename the entry at p.
func (f *FS) mayLink(p string) bool {
	if builtin(p) {
		return false
	}
	return f.privileged || strings.HasPrefix(p, "/workspace/") || strings.HasPrefix(p, "/tmp/")
}

// mayWrite reports whether f may change the contents or times of p.
func (f *FS) mayWrite(p string) bool {
	return f.privileged || p == "/workspace" || p == "/tmp" || f.mayLink(p)
}

func (s *state) clock() time.Time { return s.now().Round(0) }

func (s *state) newNode(dir bool, perm fs.FileMode) *node {
	n := &node{dir: dir, perm: perm.Perm(), mtime: s.clock()}
	if dir {
		n.children = make(map[string]*node)
		if n.perm == 0 {
			n.perm = 0o755
		}
	} else if n.perm == 0 {
		n.perm = 0o644
	}
	return n
}

// lookup returns the node at the cleaned absolute path p.
func (s *state) lookup(p string) (*node, error) {
	n := s.root
	for rest := p[1:]; rest != ""; {
		var elem string
		elem, rest, _ = strings.Cut(rest, "/")
		if !n.dir {
			return nil, syscall.ENOTDIR
		}
		next, ok := n.children[elem]
		if !ok {
			return nil, syscall.ENOENT
		}
		n = next
	}
	return n, nil
}

// lookupParent returns the directory that holds, or would hold, the entry at
// p (which must not be "/") and the entry's name.
func (s *state) lookupParent(p string) (*node, string, error) {
	dir, base := path.Split(p)
	parent, err := s.lookup(dir)
	if err != nil {
		return nil, "", err
	}
	if !parent.dir {
		return nil, "", syscall.ENOTDIR
	}
	return parent, base, nil
}

// checkQuota reports whether adding the given bytes and nodes stays within
// the limits.
func (s *state) checkQuota(addBytes int64, addFiles int) error {
	if max := s.limits.MaxBytes; addBytes > 0 && max >= 0 && addBytes > max-s.bytes {
		s.hits++
		return &QuotaError{Quota: "MaxBytes", Limit: max}
	}
	if max := s.limits.MaxFiles; addFiles > 0 && max >= 0 && addFiles > max-s.files {
		s.hits++
		return &QuotaError{Quota: "MaxFiles", Limit: int64(max)}
	}
	return nil
}

// prepareCreate checks that f may create a new entry at p and returns the
// parent directory and name to pass to link.
func (f *FS) prepareCreate(p string) (*node, string, error) {
	// Permission first: a write outside the writable areas is EACCES even
	// when its parent does not exist (/etc/x), so a script learns nothing
	// about the read-only tree from the error.
	if !f.mayLink(p) {
		return nil, "", syscall.EACCES
	}
	if err := checkNew(p, 1, 0); err != nil {
		return nil, "", err
	}
	parent, base, err := f.lookupParent(p)
	if err != nil {
		return nil, "", err
	}
	if !f.may(parent, WriteOK) {
		return nil, "", syscall.EACCES
	}
	if err := f.s.checkQuota(0, 1); err != nil {
		return nil, "", err
	}
	return parent, base, nil
}

// link adds n to parent under name and counts it.
func (s *state) link(parent *node, name string, n *node) {
	parent.children[name] = n
	parent.mtime = n.mtime
	s.files++
}

// unlink removes the entry name from parent and frees its subtree.
func (s *state) unlink(parent *node, name string) {
	n := parent.children[name]
	delete(parent.children, name)
	parent.mtime = s.clock()
	s.release(n)
}

// release uncounts and frees a detached subtree without recursion.
func (s *state) release(n *node) {
	stack := []*node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range n.children {
			stack = append(stack, c)
		}
		s.bytes -= int64(len(n.data))
		s.files--
		n.data, n.children, n.unlinked = nil, nil, true
	}
}

// checkSize reports whether file n may be resized to size bytes.
func (s *state) checkSize(n *node, size int64) error {
	if grow := size - int64(len(n.data)); grow > 0 {
		if err := s.checkQuota(grow, 0); err != nil {
			return err
		}
	}
	if size > MaxFileSize {
		return syscall.EFBIG
	}
	return nil
}

// setSize resizes file n to size bytes, zero-filling any growth; the caller
// has checked it with checkSize. It keeps cap(n.data) <= 2*size+64, and
// reserves no more capacity than the byte quota could ever fill, so that
// memory stays proportional to the bytes counted.
func (s *state) setSize(n *node, size int64) {
	old, c := int64(len(n.data)), int64(cap(n.data))
	switch {
	case size > c:
		c = min(max(2*c, size), MaxFileSize)
		if max := s.limits.MaxBytes; max >= 0 {
			c = min(c, size+max-(s.bytes+size-old))
		}
		data := make([]byte, size, c)
		copy(data, n.data)
		n.data = data
	case size > old:
		n.data = n.data[:size]
		clear(n.data[old:])
	case c > 2*size+64:
		data := make([]byte, size)
		copy(data, n.data)
		n.data = data
	default:
		n.data = n.data[:size]
	}
	s.bytes += size - old
	n.mtime = s.clock()
}

// writeAt writes p into file n at off. It checks the quotas, including the
// hole before off, before allocating or changing anything.
func (s *state) writeAt(n *node, p []byte, off int64) error {
	if off > MaxFileSize || int64(len(p)) > MaxFileSize-off {
		// Cannot end within MaxFileSize; report the quota first if it
		// is also exceeded.
		if err := s.checkQuota(MaxFileSize+1-int64(len(n.data)), 0); err != nil {
			return err
		}
		return syscall.EFBIG
	}
	end := off + int64(len(p))
	if end > int64(len(n.data)) {
		if err := s.checkSize(n, end); err != nil {
			return err
		}
		s.setSize(n, end)
	}
	copy(n.data[off:], p)
	n.mtime = s.clock()
	return nil
}

// info returns a snapshot of n's metadata under the given name.
func (n *node) info(name string) *fileInfo {
	fi := &fileInfo{name: name, size: int64(len(n.data)), mode: n.perm, mtime: n.mtime}
	if n.dir {
		fi.mode |= fs.ModeDir
	}
	return fi
}

// fileInfo is a metadata snapshot; it serves as both [fs.FileInfo] and [fs.DirEntry].
type fileInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

func (fi *fileInfo) Name() string               { return fi.name }
func (fi *fileInfo) Size() int64                { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode          { return fi.mode }
func (fi *fileInfo) ModTime() time.Time         { return fi.mtime }
func (fi *fileInfo) IsDir() bool                { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any                   { return nil }
func (fi *fileInfo) Type() fs.FileMode          { return fi.mode.Type() }
func (fi *fileInfo) Info() (fs.FileInfo, error) { return fi, nil }
func (fi *fileInfo) String() string             { return fs.FormatFileInfo(fi) }
