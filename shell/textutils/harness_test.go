package textutils

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// tcase is one command invocation and the output GNU gives for it.
type tcase struct {
	files map[string]string // relative to /workspace
	stdin string
	args  []string
	out   string
	code  int
	// unordered compares the sorted lines (GNU's directory order differs).
	unordered bool
}

func sortedLines(s string) string {
	l := strings.Split(s, "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}

// runCmd runs args in a fresh FS holding files, with dir /workspace.
func runCmd(ctx context.Context, files map[string]string, stdin string, args ...string) (string, string, int, *vfs.FS) {
	fsys := vfs.New(vfs.Limits{})
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := "/workspace/" + n
		if i := strings.LastIndexByte(p, '/'); i > 0 {
			fsys.MkdirAll(p[:i], 0)
		}
		fsys.WriteFile(p, []byte(files[n]), 0)
	}
	var out, errb bytes.Buffer
	env := &command.Env{
		Ctx: ctx, Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Dir: "/workspace", FS: fsys,
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
	f := Commands()[args[0]]
	code := f(env)
	return out.String(), errb.String(), code, fsys
}

func runTable(t *testing.T, cases []tcase) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errs, code, _ := runCmd(context.Background(), c.files, c.stdin, c.args...)
			if (out != c.out && !(c.unordered && sortedLines(out) == sortedLines(c.out))) || code != c.code {
				t.Errorf("%q (stdin %q):\n got  %q, status %d (stderr %q)\n want %q, status %d", c.args, c.stdin, out, code, errs, c.out, c.code)
			}
		})
	}
}
