package vfs

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"
	"testing"
)

// refusedNames are names of every class CheckName refuses with EINVAL,
// and why.
var refusedNames = map[string]string{
	`a\b`: `'\'`, `..\..\evil.bat`: `'\'`, `\`: `'\'`,
	"C:": "':'", "a:b": "':'", "file.txt:stream": "':'",
	"a<b": "'<'", "a>b": "'>'", `a"b`: `'"'`, "a|b": "'|'", "a?b": "'?'", "*": "'*'",
	"a\x00b": "control character 0x00", "\x01": "control character 0x01", "tab\there": "control character 0x09",
	"new\nline": "control character 0x0a", "\x1f": "control character 0x1f", "del\x7f": "control character 0x7f",
	"bad\xff": "UTF-8", "half\xc3": "UTF-8",
	"x.": "dot", "...": "dot", "x ": "space", " ": "space",
	"CON": "device", "con": "device", "Con.txt": "device", "nul.tar.gz": "device", "AUX": "device", "prn.": "dot",
	"PRN.log": "device", "COM0": "device", "com1": "device", "COM9.bin": "device", "LPT0": "device", "lpt9": "device",
	"COM¹": "device", "lpt²": "device", "LPT³.x": "device", "CONIN$": "device", "conout$.y": "device",
	"CON .txt": "device", "nul  .c": "device",
	"": "empty", ".": "syntax", "..": "syntax", "a/b": "separator",
}

// acceptedNames are unusual names that every system can store.
var acceptedNames = []string{
	"a", ".hidden", "a.b.c", " lead", "a b", "-x", "#x", "a,b;c=d[e]{f}'g`h~i!j@k$l%m^n&o(p)q+r",
	"é", "日本語", "✓", "con_x", "cone", "CONSOLE", "nul-", "aux_1", "COM10", "COM", "LPT", "lpt1x", "COMA",
	"CONIN", "CONOUT", "com1_", "x.CON", "CON_.txt", "name.CON",
	strings.Repeat("n", MaxNameLen), strings.Repeat("é", MaxNameLen/2),
}

func TestCheckName(t *testing.T) {
	for name, why := range refusedNames {
		err := CheckName(name)
		var ne *NameError
		if !errors.As(err, &ne) || ne.Err != syscall.EINVAL || !errors.Is(err, syscall.EINVAL) {
			t.Errorf("CheckName(%q) = %v, want a *NameError with EINVAL", name, err)
			continue
		}
		if ne.Name != name || !strings.Contains(ne.Reason, why) {
			t.Errorf("CheckName(%q): Name %q, Reason %q, want a reason mentioning %q", name, ne.Name, ne.Reason, why)
		}
		if Code(err) != "EINVAL" {
			t.Errorf("Code(CheckName(%q)) = %s", name, Code(err))
		}
	}
	for _, name := range acceptedNames {
		if err := CheckName(name); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", name, err)
		}
	}
	long := strings.Repeat("n", MaxNameLen+1)
	err := CheckName(long)
	if !errors.Is(err, syscall.ENAMETOOLONG) || Code(err) != "ENAMETOOLONG" {
		t.Errorf("CheckName of %d bytes = %v, want ENAMETOOLONG", len(long), err)
	}
	if got, want := CheckName(`..\..\evil.bat`).Error(), `invalid file name "..\\..\\evil.bat": contains '\' which is not portable`; got != want {
		t.Errorf("error text %q, want %q", got, want)
	}
	if got := err.Error(); !strings.HasPrefix(got, "file name too long: ") || !strings.HasSuffix(got, " is 256 bytes, more than 255") {
		t.Errorf("error text %q", got)
	}
}

// Every operation that creates an entry refuses an unportable name, for
// the normal and the privileged view alike, and changes nothing.
func TestUnportableNamesAreRefused(t *testing.T) {
	ops := map[string]func(f *FS, p string) error{
		"WriteFile":  func(f *FS, p string) error { return f.WriteFile(p, []byte("x"), 0) },
		"AppendFile": func(f *FS, p string) error { return f.AppendFile(p, []byte("x"), 0) },
		"OpenFile": func(f *FS, p string) error {
			h, err := f.OpenFile(p, O_CREATE|O_WRONLY, 0)
			if err == nil {
				h.Close()
			}
			return err
		},
		"Mkdir":           func(f *FS, p string) error { return f.Mkdir(p, 0) },
		"MkdirAll":        func(f *FS, p string) error { return f.MkdirAll(p, 0) },
		"MkdirAll parent": func(f *FS, p string) error { return f.MkdirAll(p+"/sub/x", 0) },
		"Rename file":     func(f *FS, p string) error { return f.Rename("/workspace/a.txt", p) },
		"Rename dir":      func(f *FS, p string) error { return f.Rename("/workspace/dir", p) },
	}
	names := map[string]syscall.Errno{strings.Repeat("n", MaxNameLen+1): syscall.ENAMETOOLONG}
	for name := range refusedNames {
		if name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\x00") {
			names[name] = syscall.EINVAL
		}
	}
	for opName, op := range ops {
		for _, privileged := range []bool{false, true} {
			f := newTestFS(t, Limits{})
			populate(t, f)
			view := f
			if privileged {
				view = f.Privileged()
			}
			before := readOnlyDigest(f) + digestBelow(f, "/workspace")
			for name, errno := range names {
				p := "/workspace/" + name
				err := op(view, p)
				if !errors.Is(err, errno) {
					t.Errorf("%s(%q) privileged=%v: %v, want %v", opName, name, privileged, err, errno)
					continue
				}
				var ne *NameError
				if !errors.As(err, &ne) {
					t.Errorf("%s(%q): %v (%T) does not wrap a *NameError", opName, name, err, err)
				}
				var pe *fs.PathError
				var le *LinkError
				switch {
				case errors.As(err, &pe):
					if pe.Path != path.Clean(p) && !strings.HasPrefix(opName, "MkdirAll") {
						t.Errorf("%s(%q): error path %q", opName, name, pe.Path)
					}
				case errors.As(err, &le):
				default:
					t.Errorf("%s(%q): %T is neither *fs.PathError nor *LinkError", opName, name, err)
				}
			}
			if after := readOnlyDigest(f) + digestBelow(f, "/workspace"); after != before {
				t.Errorf("%s privileged=%v: refused operations changed the tree:\n%s\n%s", opName, privileged, before, after)
			}
			checkUsage(t, f, -1, 0)
		}
	}
	// The host's view is held to the same rules outside /workspace too.
	p := New(Limits{}).Privileged()
	for _, name := range []string{"/data/C:/x", `/data/..\evil`, "/data/aux.json"} {
		// As the host's PutFiles does: the parents, then the file.
		err := p.MkdirAll(path.Dir(name), 0)
		if err == nil {
			err = p.WriteFile(name, nil, 0)
		}
		if !errors.Is(err, syscall.EINVAL) {
			t.Errorf("privileged put of %q = %v, want EINVAL", name, err)
		}
	}
	// Existing names are looked up, not checked: a lookup of an unportable
	// name simply finds nothing.
	f := newTestFS(t, Limits{})
	if _, err := f.Stat("/workspace/CON"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(CON) = %v", err)
	}
	for _, name := range acceptedNames {
		must(t, f.WriteFile("/workspace/"+name, nil, 0))
	}
}

// digestBelow lists the paths at and below dir.
func digestBelow(f *FS, dir string) string {
	var b strings.Builder
	var walk func(p string)
	walk = func(p string) {
		b.WriteString(p + "\n")
		entries, _ := f.ReadDir(p)
		for _, e := range entries {
			walk(p + "/" + e.Name())
		}
	}
	walk(dir)
	return b.String()
}

// deep makes /workspace/d holding directories named with up to MaxNameLen
// bytes and, at the bottom, a file whose path is exactly MaxPathLen-slack
// bytes long. It returns that path.
func deep(t *testing.T, f *FS, slack int) string {
	t.Helper()
	p := "/workspace/d"
	must(t, f.Mkdir(p, 0))
	for {
		rest := MaxPathLen - slack - len(p) - 1 // the leaf's name if it went here
		if rest <= MaxNameLen {
			break
		}
		p += "/" + strings.Repeat("x", min(MaxNameLen, rest-2))
		must(t, f.Mkdir(p, 0))
	}
	leaf := p + "/" + strings.Repeat("f", MaxPathLen-slack-len(p)-1)
	must(t, f.WriteFile(leaf, []byte("leaf"), 0))
	if len(leaf) != MaxPathLen-slack {
		t.Fatalf("leaf path of %d bytes", len(leaf))
	}
	return leaf
}

// exportable fails unless every entry below /workspace can be read by its
// full path, which is what the host's export does.
func exportable(t *testing.T, f *FS) {
	t.Helper()
	var walk func(p string)
	walk = func(p string) {
		entries, err := f.ReadDir(p)
		if err != nil {
			t.Fatalf("ReadDir of a path of %d bytes: %v", len(p), err)
		}
		for _, e := range entries {
			child := p + "/" + e.Name()
			if e.IsDir() {
				walk(child)
			} else if _, err := f.ReadFile(child); err != nil {
				t.Fatalf("ReadFile of a path of %d bytes: %v", len(child), err)
			}
		}
	}
	walk("/workspace")
}

// No operation can give an entry a path longer than MaxPathLen: not
// creating it, and not renaming or moving it or one of its ancestors.
func TestPathLength(t *testing.T) {
	t.Run("create", func(t *testing.T) {
		f := newTestFS(t, Limits{})
		leaf := deep(t, f, 0)
		dir := path.Dir(leaf)
		// A relative name of MaxPathLen bytes is accepted as input but
		// its absolute path is one byte longer.
		rel := strings.TrimPrefix(dir, "/") + "/" + strings.Repeat("g", MaxPathLen-len(dir))
		if len(rel) != MaxPathLen {
			t.Fatalf("relative name of %d bytes", len(rel))
		}
		for op, do := range map[string]func() error{
			"WriteFile": func() error { return f.WriteFile(rel, nil, 0) },
			"OpenFile": func() error {
				_, err := f.OpenFile(rel, O_CREATE|O_RDWR, 0)
				return err
			},
			"Mkdir":    func() error { return f.Mkdir(rel, 0) },
			"MkdirAll": func() error { return f.MkdirAll(rel, 0) },
		} {
			err := do()
			var ne *NameError
			if !errors.Is(err, syscall.ENAMETOOLONG) || !errors.As(err, &ne) || !strings.Contains(err.Error(), "path is 4097 bytes, more than 4096") {
				t.Errorf("%s of a path of %d bytes: %v", op, MaxPathLen+1, err)
			}
		}
		// MkdirAll checks the whole path before creating anything.
		_, before := f.Usage()
		mid := "workspace/m/" + strings.Repeat(strings.Repeat("m", MaxNameLen)+"/", 15) + strings.Repeat("m", 244)
		if err := f.MkdirAll(mid, 0); len(mid) != MaxPathLen || !errors.Is(err, syscall.ENAMETOOLONG) {
			t.Errorf("MkdirAll of %d bytes: %v", len(mid)+1, err)
		}
		if _, after := f.Usage(); after != before {
			t.Errorf("a refused MkdirAll created %d directories", after-before)
		}
		checkUsage(t, f, -1, 0)
		exportable(t, f)
	})
	t.Run("rename dir", func(t *testing.T) {
		f := newTestFS(t, Limits{})
		deep(t, f, 40)
		// Growing the top directory's name by 40 bytes fits exactly...
		top := "/workspace/d" + strings.Repeat("e", 40)
		must(t, f.Rename("/workspace/d", top))
		exportable(t, f)
		// ...one byte more does not, nor does moving the tree one level
		// down, even though the new names themselves are short.
		must(t, f.Mkdir("/workspace/m", 0))
		for _, target := range []string{"/workspace/d" + strings.Repeat("e", 41), "/workspace/m/" + strings.Repeat("e", 40)} {
			err := f.Rename(top, target)
			var le *LinkError
			if !errors.As(err, &le) || !errors.Is(err, syscall.ENAMETOOLONG) || !strings.Contains(err.Error(), "an entry below it would have a path of") {
				t.Errorf("Rename to %s: %v", target, err)
			}
		}
		// So does moving a subdirectory one level down.
		sub := top + "/" + strings.Repeat("x", MaxNameLen)
		must(t, f.Mkdir(top+"/s", 0))
		if err := f.Rename(sub, top+"/s/"+strings.Repeat("y", MaxNameLen)); !errors.Is(err, syscall.ENAMETOOLONG) {
			t.Errorf("moving a subdirectory down: %v", err)
		}
		must(t, f.Rename(sub, top+"/"+strings.Repeat("y", MaxNameLen)))
		checkUsage(t, f, -1, 0)
		exportable(t, f)
	})
	t.Run("rename file", func(t *testing.T) {
		f := newTestFS(t, Limits{})
		leaf := deep(t, f, 1)
		dir := path.Dir(leaf)
		// A relative name of MaxPathLen bytes that would make the path
		// one byte too long.
		longer := strings.TrimPrefix(leaf, "/") + "gg"
		if err := f.Rename(leaf, longer); len(longer) != MaxPathLen || !errors.Is(err, syscall.ENAMETOOLONG) {
			t.Errorf("Rename to %d bytes: %v", len(longer)+1, err)
		}
		if err := f.Rename(leaf, dir+"/"+strings.Repeat("g", MaxNameLen+1)); !errors.Is(err, syscall.ENAMETOOLONG) {
			t.Errorf("Rename to a long name: %v", err)
		}
		must(t, f.Rename(leaf, leaf+"g"))
		checkUsage(t, f, -1, 0)
		exportable(t, f)
	})
	t.Run("copy", func(t *testing.T) {
		// A copy is made of reads and creations (cp -r, fs.copyFile), so
		// copying a deep tree into a longer name stops at the first entry
		// that would be too long.
		f := newTestFS(t, Limits{})
		deep(t, f, 9)
		for _, dst := range []string{"/workspace/" + strings.Repeat("c", 11), "/workspace/" + strings.Repeat("c", MaxNameLen+1)} {
			if err := copyTree(f, "/workspace/d", dst); !errors.Is(err, syscall.ENAMETOOLONG) {
				t.Errorf("copy to a name of %d bytes: %v", len(dst)-len("/workspace/"), err)
			}
		}
		must(t, copyTree(f, "/workspace/d", "/workspace/"+strings.Repeat("c", 10)))
		checkUsage(t, f, -1, 0)
		exportable(t, f)
	})
}

// copyTree copies the file or directory src to dst through relative names,
// as a shell's cp -r does.
func copyTree(f *FS, src, dst string) error {
	fi, err := f.Stat(src)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		data, err := f.ReadFile(src)
		if err != nil {
			return err
		}
		return f.WriteFile(strings.TrimPrefix(dst, "/"), data, 0)
	}
	if err := f.Mkdir(strings.TrimPrefix(dst, "/"), 0); err != nil {
		return err
	}
	entries, err := f.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := copyTree(f, src+"/"+e.Name(), dst+"/"+e.Name()); err != nil {
			return err
		}
	}
	return nil
}
