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
		{Args: []string{"ls"}, Out: "d\ne\nf\ng\nj.json\nn12\nnonl\nv\n"},
		{Args: []string{"ls", "-a"}, Out: ".\n..\nd\ne\nf\ng\nj.json\nn12\nnonl\nv\n"},
		{Args: []string{"ls", "-A", "d"}, Out: "empty\nsub\nx.txt\n"},
		{Args: []string{"ls", "d", "f"}, Out: "f\n\nd:\nempty\nsub\nx.txt\n"},
		{Args: []string{"ls", "-R"}, Out: ".:\nd\ne\nf\ng\nj.json\nn12\nnonl\nv\n\n./d:\nempty\nsub\nx.txt\n\n./d/sub:\ny.c\n\n./e:\n"},
		{Args: []string{"ls", "-d", "d", "f"}, Out: "d\nf\n"},
		{Args: []string{"ls", "nope"}, Out: "", Err: "ls: cannot access 'nope': No such file or directory", Status: 2},
		{Args: []string{"ls", "-1", "-r"}, Out: "v\nnonl\nn12\nj.json\ng\nf\ne\nd\n"},
		{Args: []string{"ls", "-S"}, Out: "d\ne\nj.json\nn12\nv\ng\nnonl\nf\n"},
		{Args: []string{"ls", "-p"}, Out: "d/\ne/\nf\ng\nj.json\nn12\nnonl\nv\n"},
		{Args: []string{"ls", "-F", "d"}, Out: "empty\nsub/\nx.txt\n"},
		{Args: []string{"ls", "-R", "d"}, Out: "d:\nempty\nsub\nx.txt\n\nd/sub:\ny.c\n"},
		{Args: []string{"ls", "-ld", "d/sub"}, Out: "drwxr-xr-x 2 user user 4096 Nov 21 12:00 d/sub\n"},
		{Args: []string{"ls", "--bogus"}, Out: "", Err: "ls: unrecognized option '--bogus'", Status: 2},
		{Args: []string{"ls", "nope", "f"}, Out: "f\n", Err: "ls: cannot access 'nope': No such file or directory", Status: 2},
		{Args: []string{"ls", "-a", "e"}, Out: ".\n..\n"},
		// mkdir
		{Args: []string{"mkdir", "f"}, Out: "", Err: "mkdir: cannot create directory ‘f’: File exists", Status: 1},
		{Args: []string{"mkdir", "x/y"}, Out: "", Err: "mkdir: cannot create directory ‘x/y’: No such file or directory", Status: 1},
		{Args: []string{"mkdir", "-p", "f/x"}, Out: "", Err: "mkdir: cannot create directory ‘f’: Not a directory", Status: 1},
		{Args: []string{"mkdir", "-pv", "z/y/x"}, Out: "mkdir: created directory 'z'\nmkdir: created directory 'z/y'\nmkdir: created directory 'z/y/x'\n"},
		{Args: []string{"mkdir", "-v", "e/n"}, Out: "mkdir: created directory 'e/n'\n"},
		{Args: []string{"mkdir"}, Out: "", Err: "mkdir: missing operand", Status: 1},
		{Args: []string{"mkdir", "-p", "d/sub"}, Out: ""},
		{Args: []string{"mkdir", "d"}, Out: "", Err: "mkdir: cannot create directory ‘d’: File exists", Status: 1},
		// rm
		{Args: []string{"rm", "nope"}, Out: "", Err: "rm: cannot remove 'nope': No such file or directory", Status: 1},
		{Args: []string{"rm", "d"}, Out: "", Err: "rm: cannot remove 'd': Is a directory", Status: 1},
		{Args: []string{"rm", "-f", "nope"}, Out: ""},
		{Args: []string{"rm", "-r", "d/sub", "f"}, Out: ""},
		{Args: []string{"rm", "-rv", "d/sub"}, Out: "removed 'd/sub/y.c'\nremoved directory 'd/sub'\n"},
		{Args: []string{"rm", "-v", "f", "g"}, Out: "removed 'f'\nremoved 'g'\n"},
		{Args: []string{"rm"}, Out: "", Err: "rm: missing operand", Status: 1},
		{Args: []string{"rm", "-f"}, Out: ""},
		{Args: []string{"rm", "-d", "e"}, Out: ""},
		{Args: []string{"rm", "-d", "d"}, Out: "", Err: "rm: cannot remove 'd': Directory not empty", Status: 1},
		{Args: []string{"rm", "-r", "."}, Out: "", Err: "rm: refusing to remove '.' or '..' directory: skipping '.'", Status: 1},
		{Args: []string{"rm", "-r", "nope", "f"}, Out: "", Err: "rm: cannot remove 'nope': No such file or directory", Status: 1},
		// rmdir
		{Args: []string{"rmdir", "d"}, Out: "", Err: "rmdir: failed to remove 'd': Directory not empty", Status: 1},
		{Args: []string{"rmdir", "e"}, Out: ""},
		{Args: []string{"rmdir", "-v", "e"}, Out: "rmdir: removing directory, 'e'\n"},
		{Args: []string{"rmdir", "nope"}, Out: "", Err: "rmdir: failed to remove 'nope': No such file or directory", Status: 1},
		{Args: []string{"rmdir", "f"}, Out: "", Err: "rmdir: failed to remove 'f': Not a directory", Status: 1},
		{Args: []string{"rmdir"}, Out: "", Err: "rmdir: missing operand", Status: 1},
		// cp
		{Args: []string{"cp", "nope", "x"}, Out: "", Err: "cp: cannot stat 'nope': No such file or directory", Status: 1},
		{Args: []string{"cp", "d", "x"}, Out: "", Err: "cp: -r not specified; omitting directory 'd'", Status: 1},
		{Args: []string{"cp", "f", "d"}, Out: ""},
		{Args: []string{"cp", "-v", "f", "d"}, Out: "'f' -> 'd/f'\n"},
		{Args: []string{"cp", "f", "g", "nope"}, Out: "", Err: "cp: target 'nope': No such file or directory", Status: 1},
		{Args: []string{"cp", "f", "f"}, Out: "", Err: "cp: 'f' and 'f' are the same file", Status: 1},
		{Args: []string{"cp", "-rv", "d", "d2"}, Out: "'d' -> 'd2'\n'd/empty' -> 'd2/empty'\n'd/sub' -> 'd2/sub'\n'd/sub/y.c' -> 'd2/sub/y.c'\n'd/x.txt' -> 'd2/x.txt'\n"}, // lexical order,
		{Args: []string{"cp", "-r", "d", "d/sub"}, Out: "", Err: "cp: cannot copy a directory, 'd', into itself, 'd/sub/d'", Status: 1},
		{Args: []string{"cp", "-n", "f", "g"}, Out: ""},
		{Args: []string{"cp"}, Out: "", Err: "cp: missing file operand", Status: 1},
		{Args: []string{"cp", "f"}, Out: "", Err: "cp: missing destination file operand after 'f'", Status: 1},
		{Args: []string{"cp", "-v", "-t", "d", "f", "g"}, Out: "'f' -> 'd/f'\n'g' -> 'd/g'\n"},
		{Args: []string{"cp", "-r", "d", "f"}, Out: "", Err: "cp: cannot overwrite non-directory 'f' with directory 'd'", Status: 1},
		{Args: []string{"cp", "f", "nodir/"}, Out: "", Err: "cp: cannot create regular file 'nodir/': Not a directory", Status: 1},
		// mv
		{Args: []string{"mv", "nope", "x"}, Out: "", Err: "mv: cannot stat 'nope': No such file or directory", Status: 1},
		{Args: []string{"mv", "f", "f"}, Out: "", Err: "mv: 'f' and 'f' are the same file", Status: 1},
		{Args: []string{"mv", "-v", "f", "x"}, Out: "renamed 'f' -> 'x'\n"},
		{Args: []string{"mv", "d", "d/sub"}, Out: "", Err: "mv: cannot move 'd' to a subdirectory of itself, 'd/sub/d'", Status: 1},
		{Args: []string{"mv", "-v", "f", "g", "d"}, Out: "renamed 'f' -> 'd/f'\nrenamed 'g' -> 'd/g'\n"},
		{Args: []string{"mv", "-v", "d", "e"}, Out: "renamed 'd' -> 'e/d'\n"},
		{Args: []string{"mv", "-n", "f", "g"}, Out: ""},
		{Args: []string{"mv", "f"}, Out: "", Err: "mv: missing destination file operand after 'f'", Status: 1},
		{Args: []string{"mv", "f", "g", "nope"}, Out: "", Err: "mv: target 'nope': No such file or directory", Status: 1},
		{Args: []string{"mv", "d", "f"}, Out: "", Err: "mv: cannot overwrite non-directory 'f' with directory 'd'", Status: 1},
		{Args: []string{"mv", "f", "e"}, Out: ""},
		{Args: []string{"mv", "f", "nodir/"}, Out: "", Err: "mv: cannot move 'f' to 'nodir/': Not a directory", Status: 1},
		// touch
		{Args: []string{"touch", "-c", "zz"}, Out: ""},
		{Args: []string{"touch", "nope/x"}, Out: "", Err: "touch: cannot touch 'nope/x': No such file or directory", Status: 1},
		{Args: []string{"touch"}, Out: "", Err: "touch: missing file operand", Status: 1},
		{Args: []string{"touch", "-d", "garbage", "f"}, Out: "", Err: "touch: invalid date format ‘garbage’", Status: 1},
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
			if r.Out != c.out || r.Status != 0 {
				t.Errorf("%q: got %q (status %d, %q), want %q", c.args, r.Out, r.Status, r.Err, c.out)
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
			if r.Status != 0 || r.Err != "" || !c.check(r.FS) {
				t.Errorf("%q: status %d, stderr %q, check failed", c.args, r.Status, r.Err)
			}
		})
	}
}

func TestUpdateOnly(t *testing.T) {
	for _, cmd := range []string{"cp", "mv"} {
		fsys := setupFS(t, stdFiles)
		fsys.Chtimes("/workspace/f", testNow.Add(-time.Hour)) // f is older than g
		if r := run(t, fsys, nil, "", cmd, "-u", "f", "g"); r.Status != 0 || readFile(fsys, "g") != "hello world\n" {
			t.Errorf("%s -u older: %d %q %q", cmd, r.Status, r.Err, readFile(fsys, "g"))
		}
		fsys.Chtimes("/workspace/f", testNow.Add(time.Hour))
		if r := run(t, fsys, nil, "", cmd, "-u", "f", "g"); r.Status != 0 || readFile(fsys, "g") != "a\nb\nc\n" {
			t.Errorf("%s -u newer: %d %q %q", cmd, r.Status, r.Err, readFile(fsys, "g"))
		}
	}
	fsys := setupFS(t, stdFiles)
	fsys.Chtimes("/workspace/f", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	r := run(t, fsys, nil, "", "find", ".", "-type", "f", "-newermt", "2021-01-01", "-name", "[fg]")
	if r.Out != "./g\n" {
		t.Errorf("find -newermt: %q %q", r.Out, r.Err)
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
			if r.Status != 0 || err != nil || !fi.ModTime().Equal(c.want) {
				t.Errorf("%q: status %d %q, err %v", c.args, r.Status, r.Err, err)
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
