package commandtest

import (
	"context"
	"fmt"
	"io"
	"testing"

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
