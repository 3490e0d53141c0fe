package coreutils

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/vfs"
)

// The expectations below were produced by GNU coreutils 9 on the same
// fixture (stdFiles) with LC_ALL=C.UTF-8, except where a comment says
// otherwise (owner names, times and directory order differ by design).

func TestFileCommands(t *testing.T) {
	runCases(t, []tcase{
		// ls
		{args: []string{"ls"}, out: "d\ne\nf\ng\nj.json\nn12\nnonl\nv\n"},
		{args: []string{"ls", "-a"}, out: ".\n..\nd\ne\nf\ng\nj.json\nn12\nnonl\nv\n"},
		{args: []string{"ls", "-A", "d"}, out: "empty\nsub\nx.txt\n"},
		{args: []string{"ls", "d", "f"}, out: "f\n\nd:\nempty\nsub\nx.txt\n"},
		{args: []string{"ls", "-R"}, out: ".:\nd\ne\nf\ng\nj.json\nn12\nnonl\nv\n\n./d:\nempty\nsub\nx.txt\n\n./d/sub:\ny.c\n\n./e:\n"},
		{args: []string{"ls", "-d", "d", "f"}, out: "d\nf\n"},
		{args: []string{"ls", "nope"}, out: "", err: "ls: cannot access 'nope': No such file or directory", status: 2},
		{args: []string{"ls", "-1", "-r"}, out: "v\nnonl\nn12\nj.json\ng\nf\ne\nd\n"},
		{args: []string{"ls", "-S"}, out: "d\ne\nj.json\nn12\nv\ng\nnonl\nf\n"},
		{args: []string{"ls", "-p"}, out: "d/\ne/\nf\ng\nj.json\nn12\nnonl\nv\n"},
		{args: []string{"ls", "-F", "d"}, out: "empty\nsub/\nx.txt\n"},
		{args: []string{"ls", "-R", "d"}, out: "d:\nempty\nsub\nx.txt\n\nd/sub:\ny.c\n"},
		{args: []string{"ls", "-ld", "d/sub"}, out: "drwxr-xr-x 2 user user 4096 Nov 21 12:00 d/sub\n"},
		{args: []string{"ls", "--bogus"}, out: "", err: "ls: unrecognized option '--bogus'", status: 2},
		{args: []string{"ls", "nope", "f"}, out: "f\n", err: "ls: cannot access 'nope': No such file or directory", status: 2},
		{args: []string{"ls", "-a", "e"}, out: ".\n..\n"},
		// mkdir
		{args: []string{"mkdir", "f"}, out: "", err: "mkdir: cannot create directory ‘f’: File exists", status: 1},
		{args: []string{"mkdir", "x/y"}, out: "", err: "mkdir: cannot create directory ‘x/y’: No such file or directory", status: 1},
		{args: []string{"mkdir", "-p", "f/x"}, out: "", err: "mkdir: cannot create directory ‘f’: Not a directory", status: 1},
		{args: []string{"mkdir", "-pv", "z/y/x"}, out: "mkdir: created directory 'z'\nmkdir: created directory 'z/y'\nmkdir: created directory 'z/y/x'\n"},
		{args: []string{"mkdir", "-v", "e/n"}, out: "mkdir: created directory 'e/n'\n"},
		{args: []string{"mkdir"}, out: "", err: "mkdir: missing operand", status: 1},
		{args: []string{"mkdir", "-p", "d/sub"}, out: ""},
		{args: []string{"mkdir", "d"}, out: "", err: "mkdir: cannot create directory ‘d’: File exists", status: 1},
		// rm
		{args: []string{"rm", "nope"}, out: "", err: "rm: cannot remove 'nope': No such file or directory", status: 1},
		{args: []string{"rm", "d"}, out: "", err: "rm: cannot remove 'd': Is a directory", status: 1},
		{args: []string{"rm", "-f", "nope"}, out: ""},
		{args: []string{"rm", "-r", "d/sub", "f"}, out: ""},
		{args: []string{"rm", "-rv", "d/sub"}, out: "removed 'd/sub/y.c'\nremoved directory 'd/sub'\n"},
		{args: []string{"rm", "-v", "f", "g"}, out: "removed 'f'\nremoved 'g'\n"},
		{args: []string{"rm"}, out: "", err: "rm: missing operand", status: 1},
		{args: []string{"rm", "-f"}, out: ""},
		{args: []string{"rm", "-d", "e"}, out: ""},
		{args: []string{"rm", "-d", "d"}, out: "", err: "rm: cannot remove 'd': Directory not empty", status: 1},
		{args: []string{"rm", "-r", "."}, out: "", err: "rm: refusing to remove '.' or '..' directory: skipping '.'", status: 1},
		{args: []string{"rm", "-r", "nope", "f"}, out: "", err: "rm: cannot remove 'nope': No such file or directory", status: 1},
		// rmdir
		{args: []string{"rmdir", "d"}, out: "", err: "rmdir: failed to remove 'd': Directory not empty", status: 1},
		{args: []string{"rmdir", "e"}, out: ""},
		{args: []string{"rmdir", "-v", "e"}, out: "rmdir: removing directory, 'e'\n"},
		{args: []string{"rmdir", "nope"}, out: "", err: "rmdir: failed to remove 'nope': No such file or directory", status: 1},
		{args: []string{"rmdir", "f"}, out: "", err: "rmdir: failed to remove 'f': Not a directory", status: 1},
		{args: []string{"rmdir"}, out: "", err: "rmdir: missing operand", status: 1},
		// cp
		{args: []string{"cp", "nope", "x"}, out: "", err: "cp: cannot stat 'nope': No such file or directory", status: 1},
		{args: []string{"cp", "d", "x"}, out: "", err: "cp: -r not specified; omitting directory 'd'", status: 1},
		{args: []string{"cp", "f", "d"}, out: ""},
		{args: []string{"cp", "-v", "f", "d"}, out: "'f' -> 'd/f'\n"},
		{args: []string{"cp", "f", "g", "nope"}, out: "", err: "cp: target 'nope': No such file or directory", status: 1},
		{args: []string{"cp", "f", "f"}, out: "", err: "cp: 'f' and 'f' are the same file", status: 1},
		{args: []string{"cp", "-rv", "d", "d2"}, out: "'d' -> 'd2'\n'd/empty' -> 'd2/empty'\n'd/sub' -> 'd2/sub'\n'd/sub/y.c' -> 'd2/sub/y.c'\n'd/x.txt' -> 'd2/x.txt'\n"}, // lexical order,
		{args: []string{"cp", "-r", "d", "d/sub"}, out: "", err: "cp: cannot copy a directory, 'd', into itself, 'd/sub/d'", status: 1},
		{args: []string{"cp", "-n", "f", "g"}, out: ""},
		{args: []string{"cp"}, out: "", err: "cp: missing file operand", status: 1},
		{args: []string{"cp", "f"}, out: "", err: "cp: missing destination file operand after 'f'", status: 1},
		{args: []string{"cp", "-v", "-t", "d", "f", "g"}, out: "'f' -> 'd/f'\n'g' -> 'd/g'\n"},
		{args: []string{"cp", "-r", "d", "f"}, out: "", err: "cp: cannot overwrite non-directory 'f' with directory 'd'", status: 1},
		{args: []string{"cp", "f", "nodir/"}, out: "", err: "cp: cannot create regular file 'nodir/': Not a directory", status: 1},
		// mv
		{args: []string{"mv", "nope", "x"}, out: "", err: "mv: cannot stat 'nope': No such file or directory", status: 1},
		{args: []string{"mv", "f", "f"}, out: "", err: "mv: 'f' and 'f' are the same file", status: 1},
		{args: []string{"mv", "-v", "f", "x"}, out: "renamed 'f' -> 'x'\n"},
		{args: []string{"mv", "d", "d/sub"}, out: "", err: "mv: cannot move 'd' to a subdirectory of itself, 'd/sub/d'", status: 1},
		{args: []string{"mv", "-v", "f", "g", "d"}, out: "renamed 'f' -> 'd/f'\nrenamed 'g' -> 'd/g'\n"},
		{args: []string{"mv", "-v", "d", "e"}, out: "renamed 'd' -> 'e/d'\n"},
		{args: []string{"mv", "-n", "f", "g"}, out: ""},
		{args: []string{"mv", "f"}, out: "", err: "mv: missing destination file operand after 'f'", status: 1},
		{args: []string{"mv", "f", "g", "nope"}, out: "", err: "mv: target 'nope': No such file or directory", status: 1},
		{args: []string{"mv", "d", "f"}, out: "", err: "mv: cannot overwrite non-directory 'f' with directory 'd'", status: 1},
		{args: []string{"mv", "f", "e"}, out: ""},
		{args: []string{"mv", "f", "nodir/"}, out: "", err: "mv: cannot move 'f' to 'nodir/': Not a directory", status: 1},
		// touch
		{args: []string{"touch", "-c", "zz"}, out: ""},
		{args: []string{"touch", "nope/x"}, out: "", err: "touch: cannot touch 'nope/x': No such file or directory", status: 1},
		{args: []string{"touch"}, out: "", err: "touch: missing file operand", status: 1},
		{args: []string{"touch", "-d", "garbage", "f"}, out: "", err: "touch: invalid date format ‘garbage’", status: 1},
	})
}

// lsFiles is a fixture with distinct sizes and times.
func lsFS(t *testing.T) *vfs.FS {
	fsys := setupFS(t, map[string]string{"a": "12345", "big": string(make([]byte, 2000000)), "dd/": "", ".hidden": "h"})
	for name, mt := range map[string]time.Time{
		"a":       testNow.Add(-time.Hour),
		"big":     testNow.Add(-2 * time.Hour),
		"dd":      time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC),
		".hidden": testNow,
	} {
		if err := fsys.Chtimes("/workspace/"+name, mt); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

func TestLsLong(t *testing.T) {
	cases := []struct {
		args []string
		out  string
	}{
		// GNU ls prints the real owner; ours is always "user user".
		{[]string{"ls", "-l"}, "total 1964\n-rw-r--r-- 1 user user       5 Nov 21 11:00 a\n-rw-r--r-- 1 user user 2000000 Nov 21 10:00 big\ndrwxr-xr-x 2 user user    4096 Jan  2  2020 dd\n"},
		{[]string{"ls", "-lh"}, "total 2.0M\n-rw-r--r-- 1 user user    5 Nov 21 11:00 a\n-rw-r--r-- 1 user user 2.0M Nov 21 10:00 big\ndrwxr-xr-x 2 user user 4.0K Jan  2  2020 dd\n"},
		{[]string{"ls", "-t"}, "a\nbig\ndd\n"},
		{[]string{"ls", "-tr"}, "dd\nbig\na\n"},
		{[]string{"ls", "-S"}, "big\ndd\na\n"},
		{[]string{"ls", "-Sr"}, "a\ndd\nbig\n"},
		{[]string{"ls", "-a"}, ".\n..\n.hidden\na\nbig\ndd\n"},
		{[]string{"ls", "-A"}, ".hidden\na\nbig\ndd\n"},
		{[]string{"ls", "-lgd", "dd"}, "drwxr-xr-x 2 user 4096 Jan  2  2020 dd\n"},
		{[]string{"ls", "-l", "a"}, "-rw-r--r-- 1 user user 5 Nov 21 11:00 a\n"},
		{[]string{"ls", "--color=never", "-1", "dd", "a"}, "a\n\ndd:\n"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := run(t, lsFS(t), nil, "", c.args...)
			if r.out != c.out || r.status != 0 {
				t.Errorf("%q: got %q (status %d, %q), want %q", c.args, r.out, r.status, r.err, c.out)
			}
		})
	}
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 1023: "1023", 1024: "1.0K", 1025: "1.1K", 10239: "10K", 10240: "10K", 10241: "11K", 2000000: "2.0M", 1048575: "1.0M", 1 << 30: "1.0G"} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if got := humanSize(n); got != want {
				t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
			}
		})
	}
}

func TestFileEffects(t *testing.T) {
	exists := func(fsys *vfs.FS, name string) bool {
		_, err := fsys.Stat("/workspace/" + name)
		return err == nil
	}
	cases := []struct {
		args  []string
		check func(fsys *vfs.FS) bool
	}{
		{[]string{"mkdir", "-p", "a/b/c"}, func(fsys *vfs.FS) bool { return exists(fsys, "a/b/c") }},
		{[]string{"rm", "-r", "d"}, func(fsys *vfs.FS) bool { return !exists(fsys, "d") }},
		{[]string{"rm", "f", "g"}, func(fsys *vfs.FS) bool { return !exists(fsys, "f") && !exists(fsys, "g") }},
		{[]string{"rmdir", "e"}, func(fsys *vfs.FS) bool { return !exists(fsys, "e") }},
		{[]string{"cp", "f", "f2"}, func(fsys *vfs.FS) bool { return readFile(fsys, "f2") == "a\nb\nc\n" }},
		{[]string{"cp", "f", "g"}, func(fsys *vfs.FS) bool { return readFile(fsys, "g") == "a\nb\nc\n" }},
		{[]string{"cp", "-n", "f", "g"}, func(fsys *vfs.FS) bool { return readFile(fsys, "g") == "hello world\n" }},
		{[]string{"cp", "-r", "d", "e"}, func(fsys *vfs.FS) bool { return readFile(fsys, "e/d/sub/y.c") == "yy\n" }},
		{[]string{"cp", "-R", "d", "new"}, func(fsys *vfs.FS) bool { return readFile(fsys, "new/sub/y.c") == "yy\n" }},
		{[]string{"cp", "-a", "d/", "new"}, func(fsys *vfs.FS) bool { return readFile(fsys, "new/x.txt") == "x\n" }},
		{[]string{"cp", "f", "g", "d"}, func(fsys *vfs.FS) bool {
			return readFile(fsys, "d/f") == "a\nb\nc\n" && readFile(fsys, "d/g") == "hello world\n"
		}},
		{[]string{"mv", "f", "h"}, func(fsys *vfs.FS) bool { return !exists(fsys, "f") && readFile(fsys, "h") == "a\nb\nc\n" }},
		{[]string{"mv", "f", "g"}, func(fsys *vfs.FS) bool { return readFile(fsys, "g") == "a\nb\nc\n" }},
		{[]string{"mv", "-n", "f", "g"}, func(fsys *vfs.FS) bool { return readFile(fsys, "g") == "hello world\n" && exists(fsys, "f") }},
		{[]string{"mv", "f", "d"}, func(fsys *vfs.FS) bool { return readFile(fsys, "d/f") == "a\nb\nc\n" }},
		{[]string{"mv", "d", "e"}, func(fsys *vfs.FS) bool { return readFile(fsys, "e/d/x.txt") == "x\n" }},
		{[]string{"mv", "d", "dd"}, func(fsys *vfs.FS) bool { return readFile(fsys, "dd/x.txt") == "x\n" && !exists(fsys, "d") }},
		{[]string{"touch", "new"}, func(fsys *vfs.FS) bool { return readFile(fsys, "new") == "" }},
		{[]string{"mkdir", "-m", "700", "m"}, func(fsys *vfs.FS) bool {
			fi, err := fsys.Stat("/workspace/m")
			return err == nil && fi.IsDir() && fi.Mode().Perm() == 0o700
		}},
		{[]string{"mkdir", "-p", "-m", "700", "m/n"}, func(fsys *vfs.FS) bool {
			fi, err := fsys.Stat("/workspace/m/n")
			pfi, _ := fsys.Stat("/workspace/m")
			return err == nil && fi.Mode().Perm() == 0o700 && pfi.Mode().Perm() == 0o755
		}},
		{[]string{"touch", "-c", "new"}, func(fsys *vfs.FS) bool { return !exists(fsys, "new") }},
		{[]string{"touch", "f"}, func(fsys *vfs.FS) bool { return readFile(fsys, "f") == "a\nb\nc\n" }},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := run(t, nil, stdFiles, "", c.args...)
			if r.status != 0 || r.err != "" || !c.check(r.fs) {
				t.Errorf("%q: status %d, stderr %q, check failed", c.args, r.status, r.err)
			}
		})
	}
}

func TestUpdateOnly(t *testing.T) {
	for _, cmd := range []string{"cp", "mv"} {
		fsys := setupFS(t, stdFiles)
		fsys.Chtimes("/workspace/f", testNow.Add(-time.Hour)) // f is older than g
		if r := run(t, fsys, nil, "", cmd, "-u", "f", "g"); r.status != 0 || readFile(fsys, "g") != "hello world\n" {
			t.Errorf("%s -u older: %d %q %q", cmd, r.status, r.err, readFile(fsys, "g"))
		}
		fsys.Chtimes("/workspace/f", testNow.Add(time.Hour))
		if r := run(t, fsys, nil, "", cmd, "-u", "f", "g"); r.status != 0 || readFile(fsys, "g") != "a\nb\nc\n" {
			t.Errorf("%s -u newer: %d %q %q", cmd, r.status, r.err, readFile(fsys, "g"))
		}
	}
	fsys := setupFS(t, stdFiles)
	fsys.Chtimes("/workspace/f", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	r := run(t, fsys, nil, "", "find", ".", "-type", "f", "-newermt", "2021-01-01", "-name", "[fg]")
	if r.out != "./g\n" {
		t.Errorf("find -newermt: %q %q", r.out, r.err)
	}
}

func TestTouchTimes(t *testing.T) {
	cases := []struct {
		args []string
		want time.Time
	}{
		{[]string{"touch", "-d", "2024-01-02 03:04:05", "f"}, time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)},
		{[]string{"touch", "-d", "@86400", "f"}, time.Unix(86400, 0)},
		{[]string{"touch", "-t", "202401020304.05", "f"}, time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)},
		{[]string{"touch", "-t", "01020304", "f"}, time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)},
		{[]string{"touch", "-t", "9901020304", "new"}, time.Date(1999, 1, 2, 3, 4, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			fsys := setupFS(t, stdFiles)
			fsys.Chtimes("/workspace/g", time.Unix(5, 0))
			r := run(t, fsys, nil, "", c.args...)
			fi, err := fsys.Stat("/workspace/" + c.args[len(c.args)-1])
			if r.status != 0 || err != nil || !fi.ModTime().Equal(c.want) {
				t.Errorf("%q: status %d %q, err %v", c.args, r.status, r.err, err)
			}
		})
	}
	fsys := setupFS(t, stdFiles)
	fsys.Chtimes("/workspace/g", time.Unix(5, 0))
	run(t, fsys, nil, "", "touch", "-r", "g", "f")
	if fi, _ := fsys.Stat("/workspace/f"); !fi.ModTime().Equal(time.Unix(5, 0)) {
		t.Errorf("touch -r: %v", fi.ModTime())
	}
	// cp -p and mv keep the time; cp does not.
	run(t, fsys, nil, "", "cp", "-p", "g", "g2")
	run(t, fsys, nil, "", "cp", "g", "g3")
	if fi, _ := fsys.Stat("/workspace/g2"); !fi.ModTime().Equal(time.Unix(5, 0)) {
		t.Errorf("cp -p: %v", fi.ModTime())
	}
	if fi, _ := fsys.Stat("/workspace/g3"); !fi.ModTime().Equal(testNow) {
		t.Errorf("cp: %v", fi.ModTime())
	}
}
