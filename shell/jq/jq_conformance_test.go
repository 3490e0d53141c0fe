package jq

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// The conformance harness runs jq's own test files (tests/jq.test and its
// siblings in the jq repository, tag jq-1.7.1) against our jq, the way
// jq --run-tests does: each case is a program, an input and the expected
// outputs, compared as values (objects regardless of key order, numbers
// as decimals when both are literals, else as doubles); a case passes when
// the outputs match, whether or not an error follows them. A "%%FAIL" case
// must fail to compile (exit status 3) and, unless marked IGNORE MSG, with
// the given first line of the message.
//
// The test files are third-party source and are not part of this
// repository. The harness looks for them in $CORDON_JQ_TESTS (a directory
// or one file) or else in ../shared/conformance/jq beside the repository
// root, and skips when there are none. A "modules" directory beside the
// files is copied into the sandbox and searched with -L, as jq's test
// runner does. With $CORDON_JQ_REFERENCE naming a jq 1.7.1 binary, it also
// runs each case with that binary and reports where the text of the output
// or of the error differs (key order, number formatting, wording).

// jqConformanceMin is the pass rate below which TestJqConformance fails for
// jq.test.
const jqConformanceMin = 0.98

// jqTestDir returns the directory of jq's test files, or "".
func jqTestFiles() (dir string, files []string) {
	if p := os.Getenv("CORDON_JQ_TESTS"); p != "" {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return filepath.Dir(p), []string{p}
		}
		dir = p
	} else {
		dir = filepath.Join("..", "..", "..", "shared", "conformance", "jq")
		if _, err := os.Stat(dir); err != nil {
			if _, file, _, ok := runtime.Caller(0); ok {
				root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
				dir = filepath.Join(filepath.Dir(root), "shared", "conformance", "jq")
			}
		}
	}
	for _, sub := range []string{"", "tests"} {
		for _, name := range []string{"jq.test", "man.test", "onig.test", "manonig.test", "base64.test", "optional.test"} {
			p := filepath.Join(dir, sub, name)
			if _, err := os.Stat(p); err == nil {
				files = append(files, p)
			}
		}
		if len(files) > 0 {
			return filepath.Join(dir, sub), files
		}
	}
	return "", nil
}

// copyDirToVFS copies the tree at src to dst in fsys.
func copyDirToVFS(t *testing.T, fsys *vfs.FS, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.ToSlash(filepath.Join(dst, rel))
		if d.IsDir() {
			return fsys.MkdirAll(target, 0)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return fsys.WriteFile(target, data, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// jqTestEnv returns an Env on fsys for running cases.
func jqTestEnv(fsys *vfs.FS) *command.Env {
	return &command.Env{
		Ctx: context.Background(), Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Dir: "/workspace", FS: fsys, Now: func() time.Time { return testNow },
		Environ: []string{"HOME=/workspace", "PATH=/bin"},
	}
}

func TestJqConformance(t *testing.T) {
	dir, files := jqTestFiles()
	if len(files) == 0 {
		t.Skip("SKIPPED, not passed: jq's test files are absent: set CORDON_JQ_TESTS or put them in ../shared/conformance/jq")
	}
	reference := os.Getenv("CORDON_JQ_REFERENCE")
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cases := parseJqTests(data)
			fsys := setupFS(t, nil)
			var libArgs []string
			if fi, err := os.Stat(filepath.Join(dir, "modules")); err == nil && fi.IsDir() {
				copyDirToVFS(t, fsys, filepath.Join(dir, "modules"), "/workspace/modules")
				libArgs = []string{"-L", "modules"}
			}
			passed, diffs := 0, 0
			env := jqTestEnv(fsys)
			for _, c := range cases {
				ok, _, msg := runJqTestCase(env, libArgs, c)
				if ok {
					passed++
				} else {
					t.Logf("FAIL %s:%d: %s\n    %s", name, c.line, c.prog, msg)
				}
				if reference != "" && !c.mustFail {
					args := append(append([]string{"jq", "-c"}, libArgs...), c.prog)
					r := run(t, fsys, nil, c.input+"\n", args...)
					if d := jqReferenceDiff(reference, dir, c, r); d != "" {
						diffs++
						t.Logf("DIFF %s:%d: %s\n%s", name, c.line, c.prog, d)
					}
				}
			}
			rate := float64(passed) / float64(len(cases))
			t.Logf("%s: %d of %d cases pass (%.1f%%)", name, passed, len(cases), 100*rate)
			if reference != "" {
				t.Logf("%s: %d cases differ in text from %s", name, diffs, reference)
			}
			if name == "jq.test" && rate < jqConformanceMin {
				t.Errorf("%s: pass rate %.1f%% is below %.0f%%", name, 100*rate, 100*jqConformanceMin)
			}
		})
	}
}

// jqReferenceDiff runs a case with a reference jq and describes how the
// text of our output and of our error differ from its.
func jqReferenceDiff(reference, dir string, c jqTestCase, o result) string {
	cmd := exec.Command(reference, "-c", "-L", filepath.Join(dir, "modules"), c.prog)
	cmd.Stdin = strings.NewReader(c.input + "\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	status := 0
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else {
			return err.Error()
		}
	}
	var sb strings.Builder
	if out.String() != o.Out {
		fmt.Fprintf(&sb, "    stdout %q\n    want   %q\n", o.Out, out.String())
	}
	if firstLine(errb.String()) != firstLine(o.Err) {
		fmt.Fprintf(&sb, "    stderr %q\n    want   %q\n", firstLine(o.Err), firstLine(errb.String()))
	}
	if status != o.Status {
		fmt.Fprintf(&sb, "    status %d, want %d\n", o.Status, status)
	}
	return sb.String()
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
