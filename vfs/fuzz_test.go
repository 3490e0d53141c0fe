package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fuzzNames are the names the fuzzer picks from: nested, relative, escaping,
// read-only, built-in and invalid ones.
var fuzzNames = []string{
	"/workspace/a", "/workspace/b", "/workspace/a/b", "/workspace/a/b/c",
	"/tmp/t", "/tmp/a/../b", "workspace/c", "/workspace/a/../../../tmp/d",
	"/data/r", "/data", "/", "/workspace", "/tmp", "..", "", "/workspace/\x00",
	"/workspace/a\\b", "/workspace/C:/x", "/workspace/CON", "/tmp/x.",
}

var fuzzOffsets = []int64{0, 1, 100, 4095, 4096, 1 << 20, 1 << 62, 1<<63 - 1, -1, MaxFileSize}

// fuzzLimits are small so that the quotas are hit often.
var fuzzLimits = Limits{MaxBytes: 4096, MaxFiles: 8}

func FuzzOps(f *testing.F) {
	f.Add([]byte{0, 0, 0, 8, 7, 0, 0, 2, 8, 0, 0, 9, 9, 6, 0, 0, 9, 4})
	f.Add([]byte{3, 3, 0, 0, 6, 0, 4, 0, 5, 4, 0, 0, 0, 2, 1, 200})
	f.Add([]byte{13, 8, 0, 100, 7, 8, 2, 0, 8, 0, 0, 255})
	f.Fuzz(func(t *testing.T, ops []byte) {
		runOps(t, ops)
	})
}

func runOps(t *testing.T, ops []byte) {
	clock := time.Unix(0, 0)
	fsys := New(fuzzLimits, WithClock(func() time.Time { clock = clock.Add(time.Second); return clock }))
	priv := fsys.Privileged()
	var files []File
	next := func() byte {
		if len(ops) == 0 {
			return 0
		}
		b := ops[0]
		ops = ops[1:]
		return b
	}
	name := func() string { return fuzzNames[int(next())%len(fuzzNames)] }
	handle := func() File {
		if len(files) == 0 {
			return nil
		}
		return files[int(next())%len(files)]
	}
	for step := 0; len(ops) > 0 && step < 500; step++ {
		op := next() % 18
		normal := true // whether the op goes through the normal view
		roBefore := readOnlyDigest(fsys)
		var err error
		switch op {
		case 0:
			err = fsys.WriteFile(name(), make([]byte, int(next())*17), 0)
		case 1:
			err = fsys.AppendFile(name(), make([]byte, int(next())*5), 0)
		case 2:
			err = fsys.Mkdir(name(), 0)
		case 3:
			err = fsys.MkdirAll(name(), 0)
		case 4:
			err = fsys.Remove(name())
		case 5:
			err = fsys.RemoveAll(name())
		case 6:
			err = fsys.Rename(name(), name())
		case 7:
			var h File
			h, err = fsys.OpenFile(name(), fuzzFlag(next()), 0)
			if err == nil && len(files) < 8 {
				files = append(files, h)
			}
		case 8:
			if h := handle(); h != nil {
				_, err = h.Write(make([]byte, int(next())*7))
			}
		case 9:
			if h := handle(); h != nil {
				_, err = h.Seek(fuzzOffsets[int(next())%len(fuzzOffsets)], int(next()%4))
			}
		case 10:
			if h := handle(); h != nil {
				_, err = h.Read(make([]byte, next()))
			}
		case 11:
			if h := handle(); h != nil {
				err = h.Truncate(fuzzOffsets[int(next())%len(fuzzOffsets)])
			}
		case 12:
			if h := handle(); h != nil {
				err = h.Close()
			}
		case 13:
			normal = false
			err = priv.WriteFile(name(), make([]byte, int(next())*9), 0)
		case 14:
			normal = false
			err = priv.MkdirAll(name(), 0)
		case 15:
			_, err = fsys.ReadFile(name())
			if err == nil {
				_, err = fsys.ReadDir(name())
			}
		case 16:
			err = fsys.Chtimes(name(), time.Unix(int64(next()), 0))
		case 17:
			if h := handle(); h != nil {
				_, err = h.ReadDir(int(int8(next())))
				if err == nil {
					_, err = h.ReadAt(make([]byte, next()), fuzzOffsets[int(next())%len(fuzzOffsets)])
				}
			}
		}
		checkFuzzErr(t, op, err)
		checkUsage(t, fsys, -1, 0)
		if b, n := fsys.Usage(); b > fuzzLimits.MaxBytes || n > fuzzLimits.MaxFiles {
			t.Fatalf("op %d: usage %d bytes, %d files exceeds %+v", op, b, n, fuzzLimits)
		}
		if after := readOnlyDigest(fsys); normal && after != roBefore {
			t.Fatalf("op %d through the normal view changed the read-only area:\n%s\n%s", op, roBefore, after)
		}
	}
}

// fuzzFlag maps a byte to OpenFile flags, mostly valid ones.
func fuzzFlag(b byte) int {
	flag := int(b % 4)
	for i, bit := range []int{O_CREATE, O_EXCL, O_TRUNC, O_APPEND} {
		if b&(4<<i) != 0 {
			flag |= bit
		}
	}
	if b&0xc0 == 0xc0 {
		flag |= 0x8000 // unknown
	}
	return flag
}

// checkFuzzErr fails unless err is nil, io.EOF, or a well-formed error.
func checkFuzzErr(t *testing.T, op byte, err error) {
	t.Helper()
	if err == nil || err == io.EOF {
		return
	}
	var inner error
	var pe *fs.PathError
	var le *LinkError
	switch {
	case errors.As(err, &pe) && pe.Op != "":
		inner = pe.Err
	case errors.As(err, &le) && le.Op == "rename":
		inner = le.Err
	default:
		t.Fatalf("op %d: unexpected error type %T: %v", op, err, err)
	}
	var qe *QuotaError
	var ne *NameError
	_, isErrno := inner.(syscall.Errno)
	if !isErrno && !errors.As(inner, &qe) && !errors.As(inner, &ne) && inner != fs.ErrClosed {
		t.Fatalf("op %d: unexpected inner error %T: %v", op, inner, inner)
	}
}

// readOnlyDigest describes everything outside /workspace and /tmp.
func readOnlyDigest(f *FS) string {
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	var walk func(p string, n *node)
	walk = func(p string, n *node) {
		if p == "/workspace" || p == "/tmp" {
			fmt.Fprintf(&b, "%s dir\n", p)
			return
		}
		fmt.Fprintf(&b, "%s %v %v %q\n", p, n.dir, n.mtime.Unix(), n.data)
		names := make([]string, 0, len(n.children))
		for name := range n.children {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			walk(strings.TrimSuffix(p, "/")+"/"+name, n.children[name])
		}
	}
	walk("/", s.root)
	return b.String()
}
