package jq

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

// testNow is the fixed clock of the tests: Sat Nov 21 12:00:00 UTC 2026.
var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// result is the outcome of one command run.
type result struct {
	out, err string
	status   int
	fs       *vfs.FS
}

// setupFS creates an FS holding files (relative names are below
// /workspace; a name ending in "/" is a directory).
func setupFS(t testing.TB, files map[string]string) *vfs.FS {
	fsys := vfs.New(vfs.Limits{}, vfs.WithClock(func() time.Time { return testNow }))
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := name
		if !path.IsAbs(p) {
			p = path.Join("/workspace", p)
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

// run runs args with stdin on fsys (a new FS with files when fsys is nil).
func run(t testing.TB, fsys *vfs.FS, files map[string]string, stdin string, args ...string) result {
	t.Helper()
	if fsys == nil {
		fsys = setupFS(t, files)
	}
	f, ok := Commands()[args[0]]
	if !ok {
		t.Fatalf("no command %q", args[0])
	}
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	env := &command.Env{
		Ctx: ctx, Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Dir: "/workspace", FS: fsys, Now: func() time.Time { return testNow },
		Environ: []string{"HOME=/workspace", "PATH=/bin"},
	}
	st := f(env)
	return result{out: out.String(), err: errb.String(), status: st, fs: fsys}
}

// tcase is one table-driven case: the expectations were verified against
// jq 1.7.1.
type tcase struct {
	args   []string
	stdin  string
	files  map[string]string
	out    string // exact stdout
	err    string // substring of stderr ("" means stderr must be empty)
	status int
	// check, when set, verifies the file system afterwards.
	check func(t *testing.T, fsys *vfs.FS)
}

// stdFiles is the default fixture of the table-driven tests.
var stdFiles = map[string]string{
	"f":         "a\nb\nc\n",
	"g":         "hello world\n",
	"n12":       "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n",
	"nonl":      "no newline",
	"v":         "a\tb\x01\n\n\n\nc\x80 \r\n",
	"j.json":    `{"a":1,"b":[1,2,{"c":null}],"s":"h\u00e9\u001f\u007f"}` + "\n" + `{"a":2}` + "\n",
	"d/x.txt":   "x\n",
	"d/sub/y.c": "yy\n",
	"d/empty":   "",
	"e/":        "",
}

func runCases(t *testing.T, cases []tcase) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			files := c.files
			if files == nil {
				files = stdFiles
			}
			r := run(t, nil, files, c.stdin, c.args...)
			if r.out != c.out {
				t.Errorf("stdout:\n%q\nwant:\n%q", r.out, c.out)
			}
			if r.status != c.status {
				t.Errorf("status %d, want %d (stderr %q)", r.status, c.status, r.err)
			}
			if c.err == "" && r.err != "" {
				t.Errorf("unexpected stderr %q", r.err)
			} else if !strings.Contains(r.err, c.err) {
				t.Errorf("stderr %q does not contain %q", r.err, c.err)
			}
			if c.check != nil {
				c.check(t, r.fs)
			}
		})
	}
}

// newTestEnv returns an Env on a new standard fixture with empty input and
// discarded output.
func newTestEnv(t testing.TB, args ...string) *command.Env {
	fsys := setupFS(t, stdFiles)
	return &command.Env{
		Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Dir: "/workspace", FS: fsys, Now: func() time.Time { return testNow },
	}
}
