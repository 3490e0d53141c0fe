package commandtest

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/vfs"
)

// Host is a temporary directory of the host holding the same files as a
// test's file system, for running the real tool on them.
type Host struct {
	// Dir is the directory, the working directory of the tool.
	Dir string
}

// Tool returns the path of the host tool name, skipping the test when it
// is not installed.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed on this machine", name)
	}
	return p
}

// Mirror writes files (named as for NewFS, relative to Dir) to a new host
// temporary directory, and copies their modification times into fsys, so
// that both sides see the same files and times.
func Mirror(t testing.TB, fsys *vfs.FS, files map[string]string) Host {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name := range files {
		if strings.HasSuffix(name, "/") {
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if err := fsys.Chtimes(path.Join(Dir, name), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	return Host{Dir: dir}
}

// Run runs the host tool (a path from Tool) with args in the directory,
// with stdin as its input, LC_ALL=C.UTF-8, TZ=UTC and PATH=/usr/bin:/bin,
// and returns its result (FS is nil). Its argv[0] is the tool's base name,
// so that its messages name it as the command's do.
func (h Host) Run(t testing.TB, stdin string, tool string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Args[0] = filepath.Base(tool)
	cmd.Dir = h.Dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "TZ=UTC", "PATH=/usr/bin:/bin"}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	st := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("running %s: %v", tool, err)
		}
		st = ee.ExitCode()
	}
	return Result{Out: out.String(), Err: errb.String(), Status: st}
}
