// Package cmdtest runs the sandbox shell's commands in tests: on an
// in-memory file system, and side by side with the real GNU tool of the
// host, on the same files, to compare their output byte for byte.
package cmdtest

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// Now is the fixed clock of the tests: Sat Nov 21 12:00:00 UTC 2026.
var Now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// Dir is the working directory of the commands run by Run.
const Dir = "/workspace"

// Result is the outcome of one command run.
type Result struct {
	Out, Err string
	Status   int
}

// NewFS creates an FS holding files: relative names are below Dir, and a
// name ending in "/" is a directory.
func NewFS(t testing.TB, files map[string]string) *vfs.FS {
	t.Helper()
	fsys := vfs.New(vfs.Limits{}, vfs.WithClock(func() time.Time { return Now }))
	if err := fsys.MkdirAll(Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := name
		if !path.IsAbs(p) {
			p = path.Join(Dir, p)
		}
		if strings.HasSuffix(name, "/") {
			if err := fsys.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := fsys.MkdirAll(path.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := fsys.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

// Exec is the Env.Exec of the tests: it runs the commands of reg, plus
// echo, true, false and sleep stand-ins.
func Exec(reg command.Registry, fsys *vfs.FS) func(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var run func(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int
	run = func(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
		switch args[0] {
		case "echo":
			io.WriteString(stdout, strings.Join(args[1:], " ")+"\n")
			return 0
		case "true":
			return 0
		case "false":
			return 1
		case "sleep":
			d, err := time.ParseDuration(args[1] + "s")
			if err != nil {
				return 1
			}
			select {
			case <-ctx.Done():
				return 130
			case <-time.After(d):
				return 0
			}
		case "spin":
			for ctx.Err() == nil {
				command.Err(ctx)
			}
			return 130
		}
		f, ok := reg[args[0]]
		if !ok {
			io.WriteString(stderr, "sh: "+args[0]+": command not found\n")
			return 127
		}
		if environ == nil {
			environ = []string{"HOME=/workspace", "PATH=/usr/bin:/bin"}
		}
		env := &command.Env{Ctx: ctx, Args: args, Stdin: stdin, Stdout: stdout, Stderr: stderr,
			Dir: Dir, FS: fsys, Now: func() time.Time { return Now }, Environ: environ, Exec: run}
		defer env.Release()
		return f(env)
	}
	return run
}

// Run runs args (args[0] is a command of reg) with stdin on fsys.
func Run(t testing.TB, reg command.Registry, fsys *vfs.FS, stdin string, args ...string) Result {
	t.Helper()
	return RunCtx(context.Background(), t, reg, fsys, strings.NewReader(stdin), args...)
}

// RunCtx is Run with a context and a reader for standard input.
func RunCtx(ctx context.Context, t testing.TB, reg command.Registry, fsys *vfs.FS, stdin io.Reader, args ...string) Result {
	t.Helper()
	if _, ok := reg[args[0]]; !ok {
		t.Fatalf("no command %q", args[0])
	}
	var out, errb bytes.Buffer
	st := Exec(reg, fsys)(ctx, args, nil, stdin, &out, &errb)
	return Result{Out: out.String(), Err: errb.String(), Status: st}
}

// Host is a temporary directory of the host holding the same files as an
// FS, for running the real tool on them.
type Host struct {
	Dir string
}

// Tool returns the path of a host tool, skipping the test when it is not
// installed.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed on this machine", name)
	}
	return p
}

// Mirror writes files (as for NewFS) to a new host temporary directory,
// and copies their modification times into fsys, so that both sides see
// the same files and times.
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

// Run runs the host tool with args in the directory, with LC_ALL=C.UTF-8 and
// TZ=UTC, and returns its result.
func (h Host) Run(t testing.TB, stdin string, tool string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Args[0] = filepath.Base(tool) // messages name the tool as ours do
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
