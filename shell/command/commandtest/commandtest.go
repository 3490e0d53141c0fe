// Package commandtest runs shell commands (command.Func) in tests: over a
// fresh in-memory file system holding fixture files, in /workspace, with a
// fixed clock, and through tables of cases that each run as a subtest, so
// that one case can be selected with go test -run. Host, Mirror and Tool
// run the host's real tool (GNU coreutils, diff, tar...) on the same files,
// to compare its output with the command's byte for byte. RunWithin and
// Endless test that a command stops once its context is canceled.
package commandtest

import (
	"bytes"
	"context"
	"io"
	"path"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// now is the fixed clock of the tests: Sat Nov 21 12:00:00 UTC 2026.
var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// Now returns the fixed time that the file system and the commands see:
// Sat Nov 21 12:00:00 UTC 2026.
func Now() time.Time { return now }

// Dir is the working directory of the commands; relative fixture names are
// below it.
const Dir = "/workspace"

// defaultEnviron is what Environ returns.
var defaultEnviron = []string{"HOME=/workspace", "PATH=/bin"}

// Environ returns the exported variables the commands see:
// HOME=/workspace and PATH=/bin.
func Environ() []string { return append([]string(nil), defaultEnviron...) }

// NewFS returns a file system with the clock Now holding files: relative
// names are below Dir, and a name ending in "/" is a directory. It fails
// the test when a file cannot be made.
func NewFS(t testing.TB, files map[string]string) *vfs.FS {
	t.Helper()
	fsys := vfs.New(vfs.Limits{}, vfs.WithClock(Now))
	if err := fsys.MkdirAll(Dir, 0); err != nil {
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
			if err := fsys.MkdirAll(p, 0); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := fsys.MkdirAll(path.Dir(p), 0); err != nil {
			t.Fatal(err)
		}
		if err := fsys.WriteFile(p, []byte(files[name]), 0); err != nil {
			t.Fatal(err)
		}
	}
	return fsys
}

// ExecFunc is the type of command.Env.Exec.
type ExecFunc = func(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int

// Runner runs commands of a registry.
type Runner struct {
	// Commands are the commands that Run and RunCases look up.
	Commands command.Registry
	// Files is the fixture of the cases that give none.
	Files map[string]string
	// Exec, when not nil, makes the Env.Exec of a command run on fsys
	// (for xargs, env and find -exec).
	Exec func(fsys *vfs.FS) ExecFunc
}

// Result is the outcome of one command run.
type Result struct {
	// Out and Err are what the command wrote to its standard output and
	// standard error.
	Out, Err string
	// Status is its exit status.
	Status int
	// FS is the file system it ran on.
	FS *vfs.FS
}

// Run runs args (args[0] is the command's name) with stdin as its input,
// on fsys, or on a new file system holding files when fsys is nil. It
// fails the test when there is no such command. The command's context
// ends after a minute.
func (r Runner) Run(t testing.TB, fsys *vfs.FS, files map[string]string, stdin string, args ...string) Result {
	t.Helper()
	if fsys == nil {
		fsys = NewFS(t, files)
	}
	f, ok := r.Commands[args[0]]
	if !ok {
		t.Fatalf("no command %q", args[0])
	}
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var exec ExecFunc
	if r.Exec != nil {
		exec = r.Exec(fsys)
	}
	st := runEnv(f, &command.Env{Ctx: ctx, Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		FS: fsys, Environ: Environ(), Exec: exec})
	return Result{Out: out.String(), Err: errb.String(), Status: st, FS: fsys}
}

// runEnv runs f with env, completed with the working directory Dir and the
// clock Now, and releases env afterwards.
func runEnv(f command.Func, env *command.Env) int {
	env.Dir, env.Now = Dir, Now
	defer env.Release()
	return f(env)
}

// Exec returns an Env.Exec that runs the commands of reg on fsys, with the
// stand-ins echo, true, false, exit255 (status 255, which xargs treats
// apart), "sleep SECONDS" (status 130 once its context is canceled) and
// spin (busy until its context is canceled, then status 130); a name that
// is neither gives status 127 with bash's message. When environ is nil the
// command sees Environ().
func Exec(reg command.Registry, fsys *vfs.FS) ExecFunc {
	var run ExecFunc
	run = func(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
		switch args[0] {
		case "echo":
			io.WriteString(stdout, strings.Join(args[1:], " ")+"\n")
			return 0
		case "true":
			return 0
		case "false":
			return 1
		case "exit255":
			return 255
		case "sleep":
			d, err := time.ParseDuration(args[1] + "s")
			if err != nil {
				return 1
			}
			select {
			case <-ctx.Done():
				return command.StatusCanceled
			case <-time.After(d):
				return 0
			}
		case "spin":
			for ctx.Err() == nil {
				command.Err(ctx)
			}
			return command.StatusCanceled
		}
		f, ok := reg[args[0]]
		if !ok {
			io.WriteString(stderr, "sh: "+args[0]+": command not found\n")
			return 127
		}
		if environ == nil {
			environ = Environ()
		}
		return runEnv(f, &command.Env{Ctx: ctx, Args: args, Stdin: stdin, Stdout: stdout, Stderr: stderr,
			FS: fsys, Environ: environ, Exec: run})
	}
	return run
}

// Run runs args (args[0] is a command of reg) with stdin as its input on
// fsys, through Exec: the command can run the other commands of reg and
// the stand-ins. It fails the test when there is no such command.
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
	return Result{Out: out.String(), Err: errb.String(), Status: st, FS: fsys}
}

// Case is one case of a table: a command line, its input and what it must
// do.
type Case struct {
	// Args is the command line, the command's name first.
	Args []string
	// Stdin is the command's input.
	Stdin string
	// Files is the file system's content (Runner.Files when nil).
	Files map[string]string
	// Out is the exact standard output.
	Out string
	// Err is a substring of the standard error; "" means that it must be
	// empty.
	Err string
	// Status is the exit status.
	Status int
	// Check, when not nil, verifies the file system afterwards.
	Check func(t *testing.T, fsys *vfs.FS)
}

// RunCases runs every case as a subtest named by its command line.
func (r Runner) RunCases(t *testing.T, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.Args, " "), func(t *testing.T) {
			files := c.Files
			if files == nil {
				files = r.Files
			}
			res := r.Run(t, nil, files, c.Stdin, c.Args...)
			if res.Out != c.Out {
				t.Errorf("stdout:\n%q\nwant:\n%q", res.Out, c.Out)
			}
			if res.Status != c.Status {
				t.Errorf("status %d, want %d (stderr %q)", res.Status, c.Status, res.Err)
			}
			if c.Err == "" && res.Err != "" {
				t.Errorf("unexpected stderr %q", res.Err)
			} else if !strings.Contains(res.Err, c.Err) {
				t.Errorf("stderr %q does not contain %q", res.Err, c.Err)
			}
			if c.Check != nil {
				c.Check(t, res.FS)
			}
		})
	}
}
