package commandtest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

func TestNewFS(t *testing.T) {
	fsys := NewFS(t, map[string]string{"a/b.txt": "x", "/tmp/c": "y", "d/": ""})
	for name, want := range map[string]string{"/workspace/a/b.txt": "x", "/tmp/c": "y"} {
		t.Run(name, func(t *testing.T) {
			if b, err := fsys.ReadFile(name); err != nil || string(b) != want {
				t.Errorf("%s: %q, %v", name, b, err)
			}
		})
	}
	if fi, err := fsys.Stat("/workspace/d"); err != nil || !fi.IsDir() {
		t.Errorf("d/: %v", err)
	}
	if fi, err := fsys.Stat("/workspace/a/b.txt"); err != nil || !fi.ModTime().Equal(Now()) {
		t.Errorf("mtime %v, want %v", fi.ModTime(), Now())
	}
}

func TestRunner(t *testing.T) {
	r := Runner{
		Commands: command.Registry{
			"show": func(env *command.Env) int {
				in, _ := io.ReadAll(env.Stdin)
				b, err := env.FS.ReadFile(env.Abs(env.Args[1]))
				fmt.Fprintf(env.Stdout, "%s %s %s %s", env.Dir, in, b, env.Now().Format("2006"))
				if err != nil {
					return env.Errorf(1, "%v", err)
				}
				return env.Exec(env.Ctx, env.Args[2:], nil, nil, env.Stdout, env.Stderr)
			},
		},
		Files: map[string]string{"f": "F"},
		Exec: func(fsys *vfs.FS) ExecFunc {
			return func(_ context.Context, args, _ []string, _ io.Reader, stdout, _ io.Writer) int {
				fmt.Fprint(stdout, " exec:", args)
				return len(args)
			}
		},
	}
	r.RunCases(t, []Case{
		{Args: []string{"show", "f", "x", "y"}, Stdin: "in", Out: "/workspace in F 2026 exec:[x y]", Status: 2},
		{Args: []string{"show", "g"}, Files: map[string]string{"g": "G"}, Out: "/workspace  G 2026 exec:[]"},
		{Args: []string{"show", "nope"}, Out: "/workspace   2026", Err: "show: ", Status: 1},
	})
}

func TestExecStandIns(t *testing.T) {
	reg := command.Registry{
		"run": func(env *command.Env) int {
			return env.Exec(env.Ctx, env.Args[1:], nil, env.Stdin, env.Stdout, env.Stderr)
		},
		"path": func(env *command.Env) int {
			p, _ := env.Getenv("PATH")
			fmt.Fprintln(env.Stdout, p)
			return 0
		},
	}
	fsys := NewFS(t, nil)
	cases := []struct {
		args   []string
		out    string
		err    string
		status int
	}{
		{[]string{"run", "echo", "a", "b"}, "a b\n", "", 0},
		{[]string{"run", "true"}, "", "", 0},
		{[]string{"run", "false"}, "", "", 1},
		{[]string{"run", "exit255"}, "", "", 255},
		{[]string{"run", "path"}, "/bin\n", "", 0},
		{[]string{"run", "nope"}, "", "sh: nope: command not found\n", 127},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.args), func(t *testing.T) {
			r := Run(t, reg, fsys, "", c.args...)
			if r.Out != c.out || r.Err != c.err || r.Status != c.status {
				t.Errorf("got %q, %q, %d; want %q, %q, %d", r.Out, r.Err, r.Status, c.out, c.err, c.status)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{{"run", "sleep", "60"}, {"run", "spin"}} {
		t.Run(fmt.Sprint(args), func(t *testing.T) {
			if r := RunCtx(ctx, t, reg, fsys, nil, args...); r.Status != command.StatusCanceled {
				t.Errorf("status %d once canceled, want %d", r.Status, command.StatusCanceled)
			}
		})
	}
}

func TestHost(t *testing.T) {
	cat := Tool(t, "cat")
	files := map[string]string{"a.txt": "hello\n", "d/": ""}
	fsys := NewFS(t, files)
	h := Mirror(t, fsys, files)
	r := h.Run(t, "in", cat, "a.txt", "-")
	if r.Out != "hello\nin" || r.Status != 0 {
		t.Errorf("cat a.txt -: %q, status %d", r.Out, r.Status)
	}
	if r := h.Run(t, "", cat, "missing"); r.Status != 1 || r.Err != "cat: missing: No such file or directory\n" {
		t.Errorf("cat missing: %q, status %d", r.Err, r.Status)
	}
	hfi, err := os.Stat(filepath.Join(h.Dir, "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := fsys.Stat("/workspace/a.txt"); err != nil || !fi.ModTime().Equal(hfi.ModTime()) {
		t.Errorf("mtime %v, want the host's %v (%v)", fi.ModTime(), hfi.ModTime(), err)
	}
}

func TestRunWithin(t *testing.T) {
	p := make([]byte, 5)
	if n, err := (Endless{}).Read(p); n != 5 || err != nil || string(p) != "y\ny\ny" {
		t.Errorf("Endless.Read = %d, %v, %q", n, err, p)
	}
	// copy copies its endless input until its context is canceled.
	reg := command.Registry{"copy": func(env *command.Env) int {
		buf := make([]byte, 4096)
		for !env.Canceled() {
			n, _ := env.Stdin.Read(buf)
			env.Stdout.Write(buf[:n])
		}
		return command.StatusCanceled
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r := RunWithin(ctx, t, time.Minute, reg, NewFS(t, nil), Endless{}, "copy")
	if r.Status != command.StatusCanceled || len(r.Out) < 4096 || len(r.Out) > 1<<20+4096 || !strings.HasPrefix(r.Out, "y\ny\n") {
		t.Errorf("status %d, %d bytes of output; want %d and at most a MiB (and a write)", r.Status, len(r.Out), command.StatusCanceled)
	}
}
