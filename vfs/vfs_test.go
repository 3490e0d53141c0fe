package vfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

var epoch = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// newTestFS returns an FS whose clock advances one second per reading.
func newTestFS(t testing.TB, limits Limits) *FS {
	t.Helper()
	var mu sync.Mutex
	now := epoch
	return New(limits, WithClock(func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}))
}

// recount walks the tree and returns the real totals, checking the
// per-node invariants on the way: among them, that every name is one
// CheckName accepts and every path at most MaxPathLen bytes long.
func recount(t testing.TB, f *FS) (int64, int) {
	t.Helper()
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var bytes int64
	files := -3 // the built-ins
	type entry struct {
		n *node
		p string
	}
	stack := []entry{{s.root, ""}}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		n := e.n
		stack = stack[:len(stack)-1]
		files++
		if len(e.p) > MaxPathLen {
			t.Fatalf("an entry has a path of %d bytes", len(e.p))
		}
		bytes += int64(len(n.data))
		if n.unlinked {
			t.Fatalf("unlinked node still in the tree")
		}
		if n.dir != (n.children != nil) || (n.dir && n.data != nil) {
			t.Fatalf("inconsistent node: dir=%v children=%v data=%d", n.dir, n.children != nil, len(n.data))
		}
		if c, l := cap(n.data), len(n.data); c > 2*l+64 {
			t.Fatalf("file holds cap %d for len %d", c, l)
		}
		for name, c := range n.children {
			if err := CheckName(name); err != nil {
				t.Fatalf("the tree holds an entry the FS must refuse: %v", err)
			}
			stack = append(stack, entry{c, e.p + "/" + name})
		}
	}
	return bytes, files
}

// checkUsage fails unless Usage equals both the real totals and want.
func checkUsage(t testing.TB, f *FS, wantBytes int64, wantFiles int) {
	t.Helper()
	b, n := f.Usage()
	rb, rn := recount(t, f)
	if b != rb || n != rn {
		t.Fatalf("Usage() = %d bytes, %d files; tree holds %d bytes, %d files", b, n, rb, rn)
	}
	if wantBytes >= 0 && (b != wantBytes || n != wantFiles) {
		t.Fatalf("Usage() = %d bytes, %d files; want %d, %d", b, n, wantBytes, wantFiles)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func populate(t testing.TB, f *FS) {
	t.Helper()
	p := f.Privileged()
	must(t, p.MkdirAll("/data/sub", 0))
	must(t, p.WriteFile("/data/ref.csv", []byte("a,b\n1,2\n"), 0o444))
	must(t, f.MkdirAll("/workspace/dir/sub", 0o755))
	must(t, f.Mkdir("/workspace/empty", 0o755))
	must(t, f.WriteFile("/workspace/a.txt", []byte("hello"), 0o644))
	must(t, f.WriteFile("/workspace/emptyfile", nil, 0o600))
	must(t, f.WriteFile("/workspace/dir/sub/b.txt", bytes.Repeat([]byte("xyz"), 1000), 0))
	must(t, f.WriteFile("/tmp/t", []byte("tmp"), 0))
}

func TestFSTest(t *testing.T) {
	f := newTestFS(t, Limits{})
	populate(t, f)
	want := []string{
		"data", "data/sub", "data/ref.csv",
		"workspace/dir/sub/b.txt", "workspace/a.txt", "workspace/emptyfile", "workspace/empty", "tmp/t",
	}
	// Hide the lenient ReadFile/Stat/ReadDir so that fstest checks Open alone.
	if err := fstest.TestFS(struct{ fs.FS }{f}, want...); err != nil {
		t.Fatal(err)
	}
	sub, err := fs.Sub(struct{ fs.FS }{f}, "workspace")
	must(t, err)
	if err := fstest.TestFS(sub, "dir/sub/b.txt", "a.txt", "empty"); err != nil {
		t.Fatal(err)
	}
	// fstest must be able to fail: a file missing from the FS is reported.
	if err := fstest.TestFS(struct{ fs.FS }{f}, "workspace/missing"); err == nil {
		t.Fatal("fstest.TestFS passed with a missing file")
	}
}

func TestIOFSHelpersUsePathAPI(t *testing.T) {
	f := newTestFS(t, Limits{})
	populate(t, f)
	// *FS satisfies fs.ReadFileFS, so fs.ReadFile uses the lenient path API.
	data, err := fs.ReadFile(f, "/workspace/a.txt")
	if err != nil || string(data) != "hello" {
		t.Fatalf("fs.ReadFile = %q, %v", data, err)
	}
	// Open itself stays strict.
	for _, name := range []string{"/workspace/a.txt", "workspace/../workspace/a.txt", "workspace//a.txt", "", "workspace/a\x00"} {
		if _, err := f.Open(name); !errors.Is(err, syscall.EINVAL) && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q) = %v, want EINVAL", name, err)
		}
	}
}

type errCase struct {
	name  string
	run   func(f *FS) error
	op    string
	path  string
	errno syscall.Errno
}

func writeHandle(name string, flag int, data string) func(f *FS) error {
	return func(f *FS) error {
		h, err := f.OpenFile(name, flag, 0)
		if err != nil {
			return err
		}
		defer h.Close()
		_, err = h.Write([]byte(data))
		return err
	}
}

func TestErrors(t *testing.T) {
	long := "/workspace/" + strings.Repeat("x", MaxPathLen)
	cases := []errCase{
		{"open missing", func(f *FS) error { _, err := f.OpenFile("/workspace/nope", O_RDONLY, 0); return err }, "open", "/workspace/nope", syscall.ENOENT},
		{"open missing parent", func(f *FS) error { _, err := f.OpenFile("/workspace/no/x", O_CREATE|O_WRONLY, 0); return err }, "open", "/workspace/no/x", syscall.ENOENT},
		{"open through file", func(f *FS) error { _, err := f.OpenFile("/workspace/a.txt/x", O_RDONLY, 0); return err }, "open", "/workspace/a.txt/x", syscall.ENOTDIR},
		{"open excl", func(f *FS) error { _, err := f.OpenFile("/workspace/a.txt", O_CREATE|O_EXCL|O_WRONLY, 0); return err }, "open", "/workspace/a.txt", syscall.EEXIST},
		{"open dir for write", func(f *FS) error { _, err := f.OpenFile("/workspace/dir", O_RDWR, 0); return err }, "open", "/workspace/dir", syscall.EISDIR},
		{"open dir create", func(f *FS) error { _, err := f.OpenFile("workspace/dir", O_CREATE, 0); return err }, "open", "/workspace/dir", syscall.EISDIR},
		{"open bad flags", func(f *FS) error { _, err := f.OpenFile("/workspace/a.txt", 0x100000, 0); return err }, "open", "/workspace/a.txt", syscall.EINVAL},
		{"open bad access", func(f *FS) error { _, err := f.OpenFile("/workspace/a.txt", O_WRONLY|O_RDWR, 0); return err }, "open", "/workspace/a.txt", syscall.EINVAL},
		{"open trunc readonly", func(f *FS) error { _, err := f.OpenFile("/workspace/a.txt", O_TRUNC, 0); return err }, "open", "/workspace/a.txt", syscall.EINVAL},
		{"open ro file for write", func(f *FS) error { _, err := f.OpenFile("/data/ref.csv", O_RDWR, 0); return err }, "open", "/data/ref.csv", syscall.EACCES},
		{"create in ro dir", func(f *FS) error { _, err := f.OpenFile("/data/new", O_CREATE|O_WRONLY, 0); return err }, "open", "/data/new", syscall.EACCES},
		{"create at root", func(f *FS) error { _, err := f.OpenFile("/new", O_CREATE|O_WRONLY, 0); return err }, "open", "/new", syscall.EACCES},
		{"open NUL", func(f *FS) error { _, err := f.OpenFile("/workspace/a\x00b", O_RDONLY, 0); return err }, "open", "/workspace/a\x00b", syscall.EINVAL},
		{"open empty", func(f *FS) error { _, err := f.OpenFile("", O_RDONLY, 0); return err }, "open", "", syscall.ENOENT},
		{"open too long", func(f *FS) error { _, err := f.OpenFile(long, O_RDONLY, 0); return err }, "open", long[:256] + "...", syscall.ENAMETOOLONG},
		{"fs open invalid", func(f *FS) error { _, err := f.Open("/workspace/a.txt"); return err }, "open", "/workspace/a.txt", syscall.EINVAL},
		{"fs open missing", func(f *FS) error { _, err := f.Open("workspace/nope"); return err }, "open", "workspace/nope", syscall.ENOENT},
		{"readfile missing", func(f *FS) error { _, err := f.ReadFile("tmp/nope"); return err }, "open", "/tmp/nope", syscall.ENOENT},
		{"readfile dir", func(f *FS) error { _, err := f.ReadFile("/workspace/dir"); return err }, "read", "/workspace/dir", syscall.EISDIR},
		{"writefile dir", func(f *FS) error { return f.WriteFile("/workspace/dir", nil, 0) }, "open", "/workspace/dir", syscall.EISDIR},
		{"writefile ro", func(f *FS) error { return f.WriteFile("/data/ref.csv", nil, 0) }, "open", "/data/ref.csv", syscall.EACCES},
		{"writefile ro new", func(f *FS) error { return f.WriteFile("/data/new", nil, 0) }, "open", "/data/new", syscall.EACCES},
		{"writefile escape", func(f *FS) error { return f.WriteFile("/workspace/../../../etc/passwd", nil, 0) }, "open", "/etc/passwd", syscall.EACCES},
		{"appendfile ro", func(f *FS) error { return f.AppendFile("/data/ref.csv", []byte("x"), 0) }, "open", "/data/ref.csv", syscall.EACCES},
		{"appendfile through file", func(f *FS) error { return f.AppendFile("/workspace/a.txt/b", []byte("x"), 0) }, "open", "/workspace/a.txt/b", syscall.ENOTDIR},
		{"mkdir exists", func(f *FS) error { return f.Mkdir("/workspace/dir", 0) }, "mkdir", "/workspace/dir", syscall.EEXIST},
		{"mkdir builtin", func(f *FS) error { return f.Mkdir("/tmp", 0) }, "mkdir", "/tmp", syscall.EEXIST},
		{"mkdir missing parent", func(f *FS) error { return f.Mkdir("/workspace/no/x", 0) }, "mkdir", "/workspace/no/x", syscall.ENOENT},
		{"mkdir ro", func(f *FS) error { return f.Mkdir("/data/x", 0) }, "mkdir", "/data/x", syscall.EACCES},
		{"mkdir root level", func(f *FS) error { return f.Mkdir("/etc", 0) }, "mkdir", "/etc", syscall.EACCES},
		{"mkdirall ro", func(f *FS) error { return f.MkdirAll("/data/x/y", 0) }, "mkdir", "/data/x/y", syscall.EACCES},
		{"mkdirall file", func(f *FS) error { return f.MkdirAll("/workspace/a.txt", 0) }, "mkdir", "/workspace/a.txt", syscall.ENOTDIR},
		{"mkdirall through file", func(f *FS) error { return f.MkdirAll("/workspace/a.txt/x/y", 0) }, "mkdir", "/workspace/a.txt", syscall.ENOTDIR},
		{"remove missing", func(f *FS) error { return f.Remove("/workspace/nope") }, "remove", "/workspace/nope", syscall.ENOENT},
		{"remove nonempty", func(f *FS) error { return f.Remove("/workspace/dir") }, "remove", "/workspace/dir", syscall.ENOTEMPTY},
		{"remove ro", func(f *FS) error { return f.Remove("/data/ref.csv") }, "remove", "/data/ref.csv", syscall.EACCES},
		{"remove workspace", func(f *FS) error { return f.Remove("/workspace") }, "remove", "/workspace", syscall.EACCES},
		{"remove root", func(f *FS) error { return f.Remove("/") }, "remove", "/", syscall.EACCES},
		{"removeall tmp", func(f *FS) error { return f.RemoveAll("/tmp") }, "remove", "/tmp", syscall.EACCES},
		{"removeall root", func(f *FS) error { return f.RemoveAll("../..") }, "remove", "/", syscall.EACCES},
		{"removeall ro", func(f *FS) error { return f.RemoveAll("/data") }, "remove", "/data", syscall.EACCES},
		{"removeall through file", func(f *FS) error { return f.RemoveAll("/workspace/a.txt/x") }, "remove", "/workspace/a.txt/x", syscall.ENOTDIR},
		{"stat missing", func(f *FS) error { _, err := f.Stat("/nope"); return err }, "stat", "/nope", syscall.ENOENT},
		{"readdir file", func(f *FS) error { _, err := f.ReadDir("/workspace/a.txt"); return err }, "readdir", "/workspace/a.txt", syscall.ENOTDIR},
		{"readdir missing", func(f *FS) error { _, err := f.ReadDir("/workspace/nope"); return err }, "readdir", "/workspace/nope", syscall.ENOENT},
		{"chtimes ro", func(f *FS) error { return f.Chtimes("/data/ref.csv", epoch) }, "chtimes", "/data/ref.csv", syscall.EACCES},
		{"chtimes root", func(f *FS) error { return f.Chtimes("/", epoch) }, "chtimes", "/", syscall.EACCES},
		{"chtimes missing", func(f *FS) error { return f.Chtimes("/tmp/nope", epoch) }, "chtimes", "/tmp/nope", syscall.ENOENT},
		{"handle write readonly", writeHandle("/workspace/a.txt", O_RDONLY, "x"), "write", "/workspace/a.txt", syscall.EBADF},
		{"handle read writeonly", func(f *FS) error {
			h, err := f.OpenFile("/workspace/a.txt", O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, err = h.Read(make([]byte, 1))
			return err
		}, "read", "/workspace/a.txt", syscall.EBADF},
		{"handle read dir", func(f *FS) error {
			h, err := f.OpenFile("/workspace/dir", O_RDONLY, 0)
			if err != nil {
				return err
			}
			_, err = h.Read(make([]byte, 1))
			return err
		}, "read", "/workspace/dir", syscall.EISDIR},
		{"handle readdir file", func(f *FS) error {
			h, err := f.OpenFile("/workspace/a.txt", O_RDONLY, 0)
			if err != nil {
				return err
			}
			_, err = h.ReadDir(-1)
			return err
		}, "readdir", "/workspace/a.txt", syscall.ENOTDIR},
		{"handle negative seek", func(f *FS) error {
			h, err := f.OpenFile("/workspace/a.txt", O_RDONLY, 0)
			if err != nil {
				return err
			}
			_, err = h.Seek(-1, io.SeekStart)
			return err
		}, "seek", "/workspace/a.txt", syscall.EINVAL},
		{"handle seek overflow", func(f *FS) error {
			h, err := f.OpenFile("/workspace/a.txt", O_RDONLY, 0)
			if err != nil {
				return err
			}
			_, err = h.Seek(1<<63-1, io.SeekEnd)
			return err
		}, "seek", "/workspace/a.txt", syscall.EINVAL},
		{"handle bad whence", func(f *FS) error {
			h, err := f.OpenFile("/workspace/a.txt", O_RDONLY, 0)
			if err != nil {
				return err
			}
			_, err = h.Seek(0, 7)
			return err
		}, "seek", "/workspace/a.txt", syscall.EINVAL},
		{"handle negative readat", func(f *FS) error {
			h, err := f.OpenFile("/workspace/a.txt", O_RDONLY, 0)
			if err != nil {
				return err
			}
			_, err = h.ReadAt(make([]byte, 1), -1)
			return err
		}, "readat", "/workspace/a.txt", syscall.EINVAL},
		{"handle negative truncate", func(f *FS) error {
			h, err := f.OpenFile("/workspace/a.txt", O_RDWR, 0)
			if err != nil {
				return err
			}
			return h.Truncate(-1)
		}, "truncate", "/workspace/a.txt", syscall.EINVAL},
		{"handle truncate readonly", func(f *FS) error {
			h, err := f.OpenFile("/workspace/a.txt", O_RDONLY, 0)
			if err != nil {
				return err
			}
			return h.Truncate(0)
		}, "truncate", "/workspace/a.txt", syscall.EBADF},
		{"handle truncate huge", func(f *FS) error {
			h, err := New(Limits{MaxBytes: -1}).OpenFile("/workspace/a", O_RDWR|O_CREATE, 0)
			if err != nil {
				return err
			}
			return h.Truncate(MaxFileSize + 1)
		}, "truncate", "/workspace/a", syscall.EFBIG},
		{"handle write huge offset unlimited", func(f *FS) error {
			h, err := New(Limits{MaxBytes: -1}).OpenFile("/workspace/a", O_RDWR|O_CREATE, 0)
			if err != nil {
				return err
			}
			if _, err := h.Seek(1<<62, io.SeekStart); err != nil {
				return err
			}
			_, err = h.Write([]byte("x"))
			return err
		}, "write", "/workspace/a", syscall.EFBIG},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newTestFS(t, Limits{})
			populate(t, f)
			before, _ := f.Usage()
			err := tc.run(f)
			checkPathErr(t, err, tc.op, tc.path, tc.errno)
			if after, _ := f.Usage(); after != before {
				t.Errorf("failed operation changed usage from %d to %d", before, after)
			}
			checkUsage(t, f, -1, 0)
		})
	}
}

func checkPathErr(t *testing.T, err error, op, path string, errno syscall.Errno) {
	t.Helper()
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not an *fs.PathError", err, err)
	}
	if pe.Op != op || pe.Path != path {
		t.Errorf("error Op, Path = %q, %q; want %q, %q", pe.Op, pe.Path, op, path)
	}
	if e, ok := pe.Err.(syscall.Errno); !ok || e != errno {
		t.Errorf("error Err = %#v (%v), want %v", pe.Err, pe.Err, errno)
	}
	if want := op + " " + path + ": " + errno.Error(); err.Error() != want {
		t.Errorf("error text = %q, want %q", err.Error(), want)
	}
	sentinels := map[syscall.Errno]error{syscall.ENOENT: fs.ErrNotExist, syscall.EEXIST: fs.ErrExist, syscall.EACCES: fs.ErrPermission}
	if s, ok := sentinels[errno]; ok && !errors.Is(err, s) {
		t.Errorf("errors.Is(%v, %v) = false", err, s)
	}
}

func TestReadOnlyAreasPermission(t *testing.T) {
	f := newTestFS(t, Limits{})
	populate(t, f)
	ops := map[string]func() error{
		"write":        func() error { return f.WriteFile("/data/ref.csv", []byte("x"), 0) },
		"create":       func() error { return f.WriteFile("/data/sub/x", []byte("x"), 0) },
		"mkdir":        func() error { return f.Mkdir("/x", 0) },
		"remove":       func() error { return f.Remove("/data/sub") },
		"removeall":    func() error { return f.RemoveAll("/data") },
		"rename from":  func() error { return f.Rename("/data/ref.csv", "/workspace/ref.csv") },
		"rename to":    func() error { return f.Rename("/workspace/a.txt", "/data/a.txt") },
		"rename ws":    func() error { return f.Rename("/workspace", "/tmp/ws") },
		"rename tmp":   func() error { return f.Rename("/tmp", "/workspace/tmp") },
		"rename root":  func() error { return f.Rename("/", "/workspace/root") },
		"rename onto":  func() error { return f.Rename("/workspace/empty", "/tmp") },
		"chtimes":      func() error { return f.Chtimes("/data", epoch) },
		"open rdwr":    func() error { _, err := f.OpenFile("/data/ref.csv", O_RDWR, 0); return err },
		"open append":  func() error { _, err := f.OpenFile("data/ref.csv", O_WRONLY|O_APPEND, 0); return err },
		"remove ws":    func() error { return f.Remove("/workspace") },
		"removeall ws": func() error { return f.RemoveAll("/workspace/..") },
	}
	for name, op := range ops {
		if err := op(); !errors.Is(err, fs.ErrPermission) || !errors.Is(err, syscall.EACCES) {
			t.Errorf("%s: err = %v, want EACCES", name, err)
		}
	}
	data, err := f.ReadFile("/data/ref.csv")
	if err != nil || string(data) != "a,b\n1,2\n" {
		t.Fatalf("read-only file = %q, %v", data, err)
	}
	h, err := f.OpenFile("/data/ref.csv", O_RDONLY, 0)
	must(t, err)
	must(t, h.Close())
	// /workspace and /tmp themselves accept chtimes.
	must(t, f.Chtimes("/workspace", epoch))
	must(t, f.Chtimes("/tmp", epoch))
}

func TestPrivileged(t *testing.T) {
	f := newTestFS(t, Limits{MaxBytes: 100, MaxFiles: 3})
	p := f.Privileged()
	if p.Privileged() == nil || f.Limits() != p.Limits() {
		t.Fatal("privileged view differs")
	}
	must(t, p.MkdirAll("/data", 0))
	must(t, p.WriteFile("/data/ref.csv", []byte("ref"), 0o444))
	must(t, p.WriteFile("/workspace/seed", []byte("seed"), 0))
	checkUsage(t, f, 7, 3)
	// The same tree is seen by the normal view.
	if data, err := f.ReadFile("data/ref.csv"); err != nil || string(data) != "ref" {
		t.Fatalf("normal view reads %q, %v", data, err)
	}
	// Quotas apply to the privileged view.
	err := p.WriteFile("/data/more", nil, 0)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "would exceed 3") {
		t.Fatalf("privileged file quota: %v", err)
	}
	err = p.AppendFile("/data/ref.csv", make([]byte, 94), 0)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "would exceed 100") {
		t.Fatalf("privileged byte quota: %v", err)
	}
	must(t, p.AppendFile("/data/ref.csv", make([]byte, 93), 0))
	checkUsage(t, f, 100, 3)
	// The privileged view may change read-only areas but not the built-ins.
	must(t, p.Chtimes("/", epoch))
	must(t, p.Rename("/data/ref.csv", "/data.csv"))
	must(t, p.Remove("/data.csv"))
	for _, name := range []string{"/", "/workspace", "/tmp"} {
		if err := p.RemoveAll(name); !errors.Is(err, syscall.EACCES) {
			t.Errorf("privileged RemoveAll(%q) = %v", name, err)
		}
		if err := p.Rename(name, "/x"); !errors.Is(err, syscall.EACCES) {
			t.Errorf("privileged Rename(%q) = %v", name, err)
		}
	}
	must(t, p.RemoveAll("/data"))
	checkUsage(t, f, 4, 1)
}

func TestQuotaBytes(t *testing.T) {
	const max = 1 << 20
	f := newTestFS(t, Limits{MaxBytes: max})
	must(t, f.WriteFile("/workspace/half", make([]byte, max/2), 0))
	err := f.WriteFile("/workspace/big", make([]byte, max/2+1), 0)
	const want = "write /workspace/big: vfs: quota exceeded: total file bytes would exceed 1048576"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	var qe *QuotaError
	if !errors.Is(err, syscall.ENOSPC) || !errors.As(err, &qe) || qe.Quota != "MaxBytes" || qe.Limit != max {
		t.Fatalf("err = %#v, want ENOSPC with QuotaError", err)
	}
	// The failed create left nothing behind.
	if _, err := f.Stat("/workspace/big"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("failed WriteFile left a file: %v", err)
	}
	checkUsage(t, f, max/2, 1)
	// Overwriting counts only the difference.
	must(t, f.WriteFile("/workspace/half", make([]byte, max), 0))
	checkUsage(t, f, max, 1)
	if err := f.AppendFile("/workspace/half", []byte("x"), 0); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("append past quota: %v", err)
	}
	h, err := f.OpenFile("/workspace/half", O_RDWR, 0)
	must(t, err)
	if _, err := h.Seek(0, io.SeekEnd); err != nil {
		t.Fatal(err)
	}
	if n, err := h.Write([]byte("x")); n != 0 || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Write past quota = %d, %v", n, err)
	}
	if err := h.Truncate(max + 1); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Truncate past quota: %v", err)
	}
	checkUsage(t, f, max, 1)
	// Overwriting within the file needs no new bytes.
	if _, err := writeAt(h, []byte("abc"), 10); err != nil {
		t.Fatal(err)
	}
	must(t, h.Truncate(10))
	checkUsage(t, f, 10, 1)
	must(t, h.Close())
}

// writeAt writes p at off through Seek and Write.
func writeAt(h File, p []byte, off int64) (int, error) {
	if _, err := h.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	return h.Write(p)
}

func TestQuotaFiles(t *testing.T) {
	f := newTestFS(t, Limits{MaxFiles: 3})
	must(t, f.Mkdir("/workspace/a", 0))
	must(t, f.WriteFile("/tmp/b", nil, 0))
	// MkdirAll needing two directories with room for one creates none.
	err := f.MkdirAll("/workspace/a/b/c", 0)
	const want = "mkdir /workspace/a/b/c: vfs: quota exceeded: number of files and directories would exceed 3"
	if err == nil || err.Error() != want || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	checkUsage(t, f, 0, 2)
	must(t, f.MkdirAll("/workspace/a/b", 0))
	checkUsage(t, f, 0, 3)
	for _, op := range []func() error{
		func() error { return f.Mkdir("/workspace/c", 0) },
		func() error { return f.WriteFile("/workspace/c", []byte("x"), 0) },
		func() error { return f.AppendFile("/workspace/c", []byte("x"), 0) },
		func() error { _, err := f.OpenFile("/workspace/c", O_CREATE|O_WRONLY, 0); return err },
	} {
		if err := op(); !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("create past file quota: %v", err)
		}
	}
	checkUsage(t, f, 0, 3)
	// Existing files may still be written, and removal frees a slot.
	must(t, f.WriteFile("/tmp/b", []byte("data"), 0))
	must(t, f.RemoveAll("/workspace/a"))
	checkUsage(t, f, 4, 1)
	must(t, f.MkdirAll("/workspace/x/y", 0))
	checkUsage(t, f, 4, 3)
	if got := New(Limits{}).Limits(); got != (Limits{DefaultMaxBytes, DefaultMaxFiles}) {
		t.Errorf("default limits = %+v", got)
	}
	if got := New(Limits{MaxBytes: -5, MaxFiles: -1}).Limits(); got != (Limits{-1, -1}) {
		t.Errorf("unlimited limits = %+v", got)
	}
}

func TestSeekHole(t *testing.T) {
	f := newTestFS(t, Limits{MaxBytes: 1 << 20})
	h, err := f.OpenFile("/workspace/hole", O_CREATE|O_RDWR, 0)
	must(t, err)
	for _, off := range []int64{1 << 62, 1<<63 - 1, 1<<20 - 2, MaxFileSize + 5} {
		if _, err := h.Seek(off, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		n, err := h.Write([]byte("abc"))
		runtime.ReadMemStats(&ms1)
		if n != 0 || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "total file bytes would exceed 1048576") {
			t.Fatalf("Write at %d = %d, %v; want ENOSPC", off, n, err)
		}
		if d := ms1.TotalAlloc - ms0.TotalAlloc; d > 1<<20 {
			t.Fatalf("failed Write at %d allocated %d bytes", off, d)
		}
		checkUsage(t, f, 0, 1)
	}
	// A hole that fits is counted and reads as zeros.
	if _, err := h.Seek(1000, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Write([]byte("z")); err != nil {
		t.Fatal(err)
	}
	checkUsage(t, f, 1001, 1)
	data, err := f.ReadFile("/workspace/hole")
	must(t, err)
	if len(data) != 1001 || data[1000] != 'z' || bytes.Count(data, []byte{0}) != 1000 {
		t.Fatalf("hole file has len %d", len(data))
	}
	// Truncate grows through the same check.
	if err := h.Truncate(1 << 40); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Truncate(1<<40) = %v", err)
	}
	must(t, h.Close())
}

func TestAccounting(t *testing.T) {
	f := newTestFS(t, Limits{})
	steps := []struct {
		name  string
		run   func() error
		bytes int64
		files int
	}{
		{"write", func() error { return f.WriteFile("/workspace/a", make([]byte, 100), 0) }, 100, 1},
		{"overwrite smaller", func() error { return f.WriteFile("/workspace/a", make([]byte, 40), 0) }, 40, 1},
		{"overwrite larger", func() error { return f.WriteFile("/workspace/a", make([]byte, 300), 0) }, 300, 1},
		{"append", func() error { return f.AppendFile("/workspace/a", make([]byte, 10), 0) }, 310, 1},
		{"append new", func() error { return f.AppendFile("/tmp/b", make([]byte, 5), 0) }, 315, 2},
		{"truncate down", func() error { return truncate(f, "/workspace/a", 10) }, 15, 2},
		{"truncate up", func() error { return truncate(f, "/workspace/a", 1000) }, 1005, 2},
		{"open trunc", func() error { _, err := f.OpenFile("/workspace/a", O_WRONLY|O_TRUNC, 0); return err }, 5, 2},
		{"mkdirall", func() error { return f.MkdirAll("/workspace/d/e/f", 0) }, 5, 5},
		{"nested file", func() error { return f.WriteFile("/workspace/d/e/f/g", make([]byte, 50), 0) }, 55, 6},
		{"rename over file", func() error { return f.Rename("/workspace/d/e/f/g", "/tmp/b") }, 50, 5},
		{"remove", func() error { return f.Remove("/tmp/b") }, 0, 4},
		{"refill", func() error { return f.WriteFile("/workspace/d/e/x", make([]byte, 70), 0) }, 70, 5},
		{"rename dir", func() error { return f.Rename("/workspace/d/e", "/workspace/d/e/../../dd") }, 70, 5},
		{"mkdir empty", func() error { return f.Mkdir("/tmp/empty", 0) }, 70, 6},
		{"rename dir over empty", func() error { return f.Rename("/workspace/dd", "/tmp/empty") }, 70, 5},
		{"removeall", func() error { return f.RemoveAll("/tmp/empty") }, 0, 2},
		{"removeall missing", func() error { return f.RemoveAll("/tmp/empty") }, 0, 2},
		{"remove last", func() error { return f.RemoveAll("/workspace") }, 0, 2},
		{"cleanup", func() error {
			if err := f.Remove("/workspace/a"); err != nil {
				return err
			}
			return f.Remove("/workspace/d")
		}, 0, 0},
	}
	for _, st := range steps {
		err := st.run()
		if st.name == "remove last" {
			if !errors.Is(err, syscall.EACCES) {
				t.Fatalf("%s: %v", st.name, err)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		t.Logf("%s", st.name)
		checkUsage(t, f, st.bytes, st.files)
	}
}

func truncate(f *FS, name string, size int64) error {
	h, err := f.OpenFile(name, O_RDWR, 0)
	if err != nil {
		return err
	}
	defer h.Close()
	return h.Truncate(size)
}

func TestTruncateZeroFills(t *testing.T) {
	f := newTestFS(t, Limits{})
	must(t, f.WriteFile("/workspace/z", []byte("abcdefgh"), 0))
	must(t, truncate(f, "/workspace/z", 2))
	must(t, truncate(f, "/workspace/z", 6))
	data, err := f.ReadFile("/workspace/z")
	if err != nil || string(data) != "ab\x00\x00\x00\x00" {
		t.Fatalf("data = %q, %v", data, err)
	}
	// Growing by write within the old capacity zero-fills too.
	must(t, truncate(f, "/workspace/z", 1))
	h, err := f.OpenFile("/workspace/z", O_RDWR, 0)
	must(t, err)
	if _, err := h.Seek(4, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Write([]byte("!")); err != nil {
		t.Fatal(err)
	}
	data, _ = f.ReadFile("/workspace/z")
	if string(data) != "a\x00\x00\x00!" {
		t.Fatalf("data = %q", data)
	}
	// A big file shrunk to nothing gives its memory back.
	must(t, f.WriteFile("/workspace/big", make([]byte, 1<<16), 0))
	must(t, truncate(f, "/workspace/big", 1))
	checkUsage(t, f, 6, 2)
}

func TestCapacityWithinQuota(t *testing.T) {
	f := newTestFS(t, Limits{MaxBytes: 1000})
	must(t, f.WriteFile("/workspace/a", make([]byte, 600), 0))
	must(t, f.AppendFile("/workspace/a", make([]byte, 300), 0))
	n, err := f.s.lookup("/workspace/a")
	must(t, err)
	if c := cap(n.data); c > 1000 {
		t.Fatalf("file of 900 bytes reserves %d under a 1000-byte quota", c)
	}
	checkUsage(t, f, 900, 1)
}

func TestRename(t *testing.T) {
	cases := []struct {
		name     string
		old, new string
		errno    syscall.Errno // 0 for success
		check    string        // a path that must then hold "hello"
	}{
		{"file", "/workspace/a.txt", "/workspace/b.txt", 0, "/workspace/b.txt"},
		{"file relative", "workspace/a.txt", "tmp/a", 0, "/tmp/a"},
		{"file over file", "/workspace/a.txt", "/tmp/t", 0, "/tmp/t"},
		{"file into dir", "/workspace/a.txt", "/workspace/dir/sub/a", 0, "/workspace/dir/sub/a"},
		{"dir", "/workspace/dir", "/tmp/dir", 0, "/tmp/dir/sub/c"},
		{"dir over empty dir", "/workspace/dir", "/workspace/empty", 0, "/workspace/empty/sub/c"},
		{"same", "/workspace/a.txt", "/workspace/./a.txt", 0, "/workspace/a.txt"},
		{"same dir", "/workspace/dir", "/workspace/dir/", 0, "/workspace/dir/sub/c"},
		{"dir into itself", "/workspace/dir", "/workspace/dir/sub/x", syscall.EINVAL, ""},
		{"dir into child", "/workspace/dir", "/workspace/dir/x", syscall.EINVAL, ""},
		{"dir over nonempty", "/workspace/empty", "/workspace/dir", syscall.ENOTEMPTY, ""},
		{"dir over parent", "/workspace/dir/sub", "/workspace/dir", syscall.ENOTEMPTY, ""},
		{"file over dir", "/workspace/a.txt", "/workspace/empty", syscall.EISDIR, ""},
		{"dir over file", "/workspace/empty", "/workspace/a.txt", syscall.ENOTDIR, ""},
		{"missing", "/workspace/nope", "/workspace/x", syscall.ENOENT, ""},
		{"missing parent", "/workspace/a.txt", "/workspace/no/x", syscall.ENOENT, ""},
		{"parent is file", "/workspace/a.txt", "/tmp/t/x", syscall.ENOTDIR, ""},
		{"to read-only", "/workspace/a.txt", "/data/a", syscall.EACCES, ""},
		{"from read-only", "/data/ref.csv", "/workspace/ref", syscall.EACCES, ""},
		{"to root", "/workspace/a.txt", "/", syscall.EACCES, ""},
		{"NUL", "/workspace/a.txt", "/workspace/\x00", syscall.EINVAL, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newTestFS(t, Limits{})
			populate(t, f)
			must(t, f.WriteFile("/workspace/dir/sub/c", []byte("hello"), 0))
			_, files := f.Usage()
			err := f.Rename(tc.old, tc.new)
			if tc.errno != 0 {
				var le *LinkError
				if !errors.As(err, &le) || le.Op != "rename" || !errors.Is(err, tc.errno) {
					t.Fatalf("Rename = %v, want LinkError with %v", err, tc.errno)
				}
				if !strings.HasPrefix(err.Error(), "rename ") || !strings.HasSuffix(err.Error(), ": "+tc.errno.Error()) {
					t.Errorf("error text %q", err.Error())
				}
				checkUsage(t, f, -1, 0)
				if _, n := f.Usage(); n != files {
					t.Errorf("failed rename changed file count %d -> %d", files, n)
				}
				return
			}
			must(t, err)
			if data, err := f.ReadFile(tc.check); err != nil || string(data) != "hello" {
				t.Fatalf("after rename %s = %q, %v", tc.check, data, err)
			}
			if clean1(tc.old) != clean1(tc.new) {
				if _, err := f.Stat(tc.old); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("old name still exists: %v", err)
				}
			}
			checkUsage(t, f, -1, 0)
		})
	}
}

func clean1(name string) string { p, _ := clean(name); return p }

func TestOpenHandles(t *testing.T) {
	f := newTestFS(t, Limits{})
	must(t, f.WriteFile("/workspace/a", []byte("hello"), 0))
	h, err := f.OpenFile("/workspace/a", O_RDWR, 0)
	must(t, err)
	// The handle follows the node across a rename.
	must(t, f.Rename("/workspace/a", "/tmp/b"))
	if _, err := h.Seek(0, io.SeekEnd); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Write([]byte(" world")); err != nil {
		t.Fatal(err)
	}
	if data, _ := f.ReadFile("/tmp/b"); string(data) != "hello world" {
		t.Fatalf("renamed file = %q", data)
	}
	if h.Name() != "/workspace/a" {
		t.Errorf("Name() = %q", h.Name())
	}
	buf := make([]byte, 5)
	if n, err := h.ReadAt(buf, 6); n != 5 || err != nil || string(buf) != "world" {
		t.Fatalf("ReadAt = %d, %v, %q", n, err, buf)
	}
	if n, err := h.ReadAt(buf, 8); n != 3 || err != io.EOF {
		t.Fatalf("short ReadAt = %d, %v", n, err)
	}
	// Removing frees the contents; the handle reads as empty and cannot write.
	must(t, f.Remove("/tmp/b"))
	checkUsage(t, f, 0, 0)
	if _, err := h.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if n, err := h.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("Read after remove = %d, %v", n, err)
	}
	if _, err := h.Write([]byte("x")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Write after remove = %v", err)
	}
	if err := h.Truncate(10); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Truncate after remove = %v", err)
	}
	if fi, err := h.Stat(); err != nil || fi.Size() != 0 || fi.Name() != "a" {
		t.Fatalf("Stat after remove = %v, %v", fi, err)
	}
	checkUsage(t, f, 0, 0)
	must(t, h.Close())
	for name, op := range map[string]func() error{
		"close": h.Close,
		"read":  func() error { _, err := h.Read(buf); return err },
		"write": func() error { _, err := h.Write(buf); return err },
		"seek":  func() error { _, err := h.Seek(0, 0); return err },
		"stat":  func() error { _, err := h.Stat(); return err },
	} {
		if err := op(); !errors.Is(err, fs.ErrClosed) {
			t.Errorf("%s after Close = %v", name, err)
		}
	}

	// O_APPEND always writes at the end; O_CREATE|O_EXCL creates once.
	a, err := f.OpenFile("/workspace/log", O_CREATE|O_EXCL|O_WRONLY|O_APPEND, 0o600)
	must(t, err)
	w, err := f.OpenFile("/workspace/log", O_WRONLY, 0)
	must(t, err)
	io.WriteString(a, "one ")
	io.WriteString(w, "XX")
	io.WriteString(a, "two")
	if data, _ := f.ReadFile("/workspace/log"); string(data) != "XXe two" {
		t.Fatalf("append file = %q", data)
	}
	if fi, _ := f.Stat("/workspace/log"); fi.Mode() != 0o600 {
		t.Errorf("mode = %v", fi.Mode())
	}
	// A handle on a file replaced by WriteFile sees the new contents.
	r, err := f.OpenFile("/workspace/log", O_RDONLY, 0)
	must(t, err)
	must(t, f.WriteFile("/workspace/log", []byte("new"), 0))
	if data, err := io.ReadAll(r); err != nil || string(data) != "new" {
		t.Fatalf("ReadAll = %q, %v", data, err)
	}
	if n, err := r.Read(nil); n != 0 || err != nil {
		t.Fatalf("empty Read = %d, %v", n, err)
	}
}

func TestDirHandle(t *testing.T) {
	f := newTestFS(t, Limits{})
	for _, name := range []string{"c", "a", "b-x", "d e"} {
		must(t, f.WriteFile("/workspace/"+name, nil, 0))
	}
	h, err := f.OpenFile("/workspace", O_RDONLY, 0)
	must(t, err)
	var names []string
	for {
		list, err := h.ReadDir(3)
		if err == io.EOF {
			break
		}
		must(t, err)
		for _, e := range list {
			names = append(names, e.Name())
		}
	}
	if got := strings.Join(names, ","); got != "a,b-x,c,d e" {
		t.Fatalf("ReadDir = %s", got)
	}
	if list, err := h.ReadDir(-1); len(list) != 0 || err != nil {
		t.Fatalf("ReadDir at end = %v, %v", list, err)
	}
	if _, err := h.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if list, err := h.ReadDir(0); len(list) != 4 || err != nil {
		t.Fatalf("ReadDir after Seek = %v, %v", list, err)
	}
	if _, err := h.Seek(1, io.SeekStart); !errors.Is(err, syscall.EINVAL) {
		t.Fatalf("Seek(1) on dir = %v", err)
	}
	must(t, h.Close())
	root, err := f.Stat("/")
	if err != nil || root.Name() != "/" || !root.IsDir() || root.Mode() != fs.ModeDir|0o755 {
		t.Fatalf("Stat(/) = %v, %v", root, err)
	}
	entries, err := f.ReadDir("..")
	if err != nil || len(entries) != 2 || entries[0].Name() != "tmp" || entries[1].Name() != "workspace" {
		t.Fatalf("ReadDir(/) = %v, %v", entries, err)
	}
}

func TestNamesAndModes(t *testing.T) {
	f := newTestFS(t, Limits{})
	// ".." cannot escape, relative names start at the root.
	must(t, f.WriteFile("../../../workspace/../workspace/x", []byte("1"), 0))
	if data, err := f.ReadFile("/workspace/x"); err != nil || string(data) != "1" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	// Unusual but portable names are allowed.
	odd := "/workspace/ a b,c;d=e[f]g{h}i'j`k~l!m@n#o$p%q^r&s(t)u+v -w_x.y é ✓ 日本"
	must(t, f.WriteFile(odd, []byte("2"), 0))
	if data, err := f.ReadFile(odd); err != nil || string(data) != "2" {
		t.Fatalf("odd name: %q, %v", data, err)
	}
	must(t, f.Mkdir("/tmp/d", 0))
	must(t, f.Mkdir("/tmp/d700", 0o700|fs.ModeDir))
	fi, err := f.Stat("/tmp/d")
	must(t, err)
	if fi.Mode() != fs.ModeDir|0o755 || !fi.IsDir() || fi.Name() != "d" {
		t.Errorf("dir info %v", fi)
	}
	if fi, _ := f.Stat("/tmp/d700"); fi.Mode() != fs.ModeDir|0o700 {
		t.Errorf("dir mode %v", fi.Mode())
	}
	fi, err = f.Stat("workspace/x")
	must(t, err)
	if fi.Mode() != 0o644 || fi.IsDir() || fi.Size() != 1 || fi.Sys() != nil {
		t.Errorf("file info %v", fi)
	}
}

func TestModTimes(t *testing.T) {
	f := newTestFS(t, Limits{})
	must(t, f.WriteFile("/workspace/a", []byte("1"), 0))
	fi1, _ := f.Stat("/workspace/a")
	ws1, _ := f.Stat("/workspace")
	if !fi1.ModTime().After(epoch) || !ws1.ModTime().After(epoch) {
		t.Fatalf("create times %v %v", fi1.ModTime(), ws1.ModTime())
	}
	must(t, f.AppendFile("/workspace/a", []byte("2"), 0))
	fi2, _ := f.Stat("/workspace/a")
	if !fi2.ModTime().After(fi1.ModTime()) {
		t.Fatalf("write did not advance mtime")
	}
	when := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	must(t, f.Chtimes("/workspace/a", when))
	fi3, _ := f.Stat("/workspace/a")
	if !fi3.ModTime().Equal(when) {
		t.Fatalf("Chtimes: %v", fi3.ModTime())
	}
	// Rename keeps the node's time.
	must(t, f.Rename("/workspace/a", "/tmp/a"))
	if fi4, _ := f.Stat("/tmp/a"); !fi4.ModTime().Equal(when) {
		t.Fatalf("rename changed mtime: %v", fi4.ModTime())
	}
}

func TestConcurrent(t *testing.T) {
	f := newTestFS(t, Limits{MaxBytes: 1 << 16, MaxFiles: 50})
	must(t, f.MkdirAll("/workspace/shared", 0))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := fmt.Sprintf("/workspace/g%d", g)
			for i := range 200 {
				name := fmt.Sprintf("/workspace/shared/f%d", i%7)
				switch (g + i) % 8 {
				case 0:
					f.WriteFile(name, bytes.Repeat([]byte{byte(g)}, i*13%5000), 0)
				case 1:
					f.AppendFile(name, []byte("abc"), 0)
				case 2:
					f.ReadFile(name)
				case 3:
					f.Remove(name)
				case 4:
					f.Rename(name, fmt.Sprintf("/tmp/r%d", i%5))
				case 5:
					if h, err := f.OpenFile(name, O_RDWR|O_CREATE, 0); err == nil {
						h.Seek(int64(i*31), io.SeekStart)
						h.Write([]byte("zz"))
						h.Truncate(int64(i % 50))
						io.ReadAll(h)
						h.Close()
					}
				case 6:
					f.MkdirAll(own+"/x/y", 0)
					f.ReadDir("/workspace/shared")
				case 7:
					f.RemoveAll(own)
					f.Usage()
				}
			}
		}()
	}
	wg.Wait()
	checkUsage(t, f, -1, 0)
	if b, n := f.Usage(); b > 1<<16 || n > 50 {
		t.Fatalf("usage %d, %d exceeds limits", b, n)
	}
}

func BenchmarkWriteFile(b *testing.B) {
	f := New(Limits{})
	data := make([]byte, 64<<10)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := f.WriteFile("/workspace/bench", data, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadFile(b *testing.B) {
	f := New(Limits{})
	data := make([]byte, 64<<10)
	if err := f.WriteFile("/workspace/bench", data, 0); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.ReadFile("/workspace/bench"); err != nil {
			b.Fatal(err)
		}
	}
}
