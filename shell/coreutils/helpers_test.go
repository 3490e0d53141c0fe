package coreutils

import (
	"bytes"
	"context"
	"io"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/command/commandtest"
	"github.com/cordonhq/cordon/shell/jq"
	"github.com/cordonhq/cordon/vfs"
)

// testNow is the fixed clock of the tests (commandtest.Now).
var testNow = commandtest.Now()

// result is the outcome of one command run.
type result = commandtest.Result

// tcase is one table-driven case: the expectations were verified against
// GNU coreutils 9.x and findutils 4.9 (see the package tests).
type tcase = commandtest.Case

// runner runs the commands of this package and jq on the standard fixture,
// with testExec as Env.Exec.
var runner = commandtest.Runner{
	Commands: allCommands(),
	Files:    stdFiles,
	Exec:     func(fsys *vfs.FS) commandtest.ExecFunc { return testExec(fsys) },
}

// setupFS creates an FS holding files (commandtest.NewFS).
func setupFS(t testing.TB, files map[string]string) *vfs.FS { return commandtest.NewFS(t, files) }

// testExec runs the commands of this package and jq, plus commandtest's
// stand-ins, for xargs, env and find -exec.
func testExec(fsys *vfs.FS) commandtest.ExecFunc { return commandtest.Exec(allCommands(), fsys) }

// run runs args with stdin on fsys (a new FS with files when fsys is nil).
func run(t testing.TB, fsys *vfs.FS, files map[string]string, stdin string, args ...string) result {
	t.Helper()
	return runner.Run(t, fsys, files, stdin, args...)
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
	runner.RunCases(t, cases)
}

// readFile returns a file's contents or "<missing>".
func readFile(fsys *vfs.FS, name string) string {
	if !path.IsAbs(name) {
		name = path.Join("/workspace", name)
	}
	b, err := fsys.ReadFile(name)
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// newTestEnv returns an Env on a new standard fixture with empty input and
// discarded output.
func newTestEnv(t testing.TB, args ...string) *command.Env {
	fsys := setupFS(t, stdFiles)
	return &command.Env{
		Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Dir: "/workspace", FS: fsys, Now: func() time.Time { return testNow },
		Exec: testExec(fsys),
	}
}

// limitWriter accepts limit bytes, then fails like a pipe whose reader is
// gone.
type limitWriter struct {
	buf   bytes.Buffer
	limit int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.limit {
		n := w.limit - w.buf.Len()
		w.buf.Write(p[:n])
		return n, io.ErrClosedPipe
	}
	return w.buf.Write(p)
}

// allCommands returns the commands of this package and jq, which the
// tests of xargs, find -exec and cancellation also run.
func allCommands() command.Registry {
	return Commands().Merge(jq.Commands())
}
