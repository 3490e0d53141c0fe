package jq

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/command/commandtest"
	"github.com/cordonhq/cordon/vfs"
)

// testNow is the fixed clock of the tests (commandtest.Now).
var testNow = commandtest.Now()

// result is the outcome of one command run.
type result = commandtest.Result

// tcase is one table-driven case: the expectations were verified against
// jq 1.7.1.
type tcase = commandtest.Case

// stdFiles is the default fixture of the table-driven tests.
var stdFiles = map[string]string{
	"f":      "a\nb\nc\n",
	"j.json": `{"a":1,"b":[1,2,{"c":null}],"s":"h\u00e9\u001f\u007f"}` + "\n" + `{"a":2}` + "\n",
}

// runner runs jq on the standard fixture.
var runner = commandtest.Runner{Commands: Commands(), Files: stdFiles}

// setupFS creates an FS holding files (commandtest.NewFS).
func setupFS(t testing.TB, files map[string]string) *vfs.FS { return commandtest.NewFS(t, files) }

// run runs args with stdin on fsys (a new FS with files when fsys is nil).
func run(t testing.TB, fsys *vfs.FS, files map[string]string, stdin string, args ...string) result {
	t.Helper()
	return runner.Run(t, fsys, files, stdin, args...)
}

func runCases(t *testing.T, cases []tcase) {
	t.Helper()
	runner.RunCases(t, cases)
}

// newTestEnv returns an Env on a new standard fixture with empty input and
// discarded output.
func newTestEnv(t testing.TB, args ...string) *command.Env {
	return &command.Env{
		Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Dir: commandtest.Dir, FS: setupFS(t, stdFiles), Now: commandtest.Now,
	}
}
