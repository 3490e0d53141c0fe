package main

import (
	"regexp"
	"strings"
	"testing"
)

// compileLines is what a command that compiles the sandbox writes on
// stderr: a line when it starts, and one when it ends, with the time.
var compileLines = regexp.MustCompile(`^cordon: compiling the sandbox, about \d+ s the first time \(later runs use the cache\)\.\.\.\n` +
	`cordon: compiled the sandbox in \d+\.\d s\n$`)

// The first compile says when it starts and when it ends, with the time
// it took, on stderr that is not a terminal too (a cold `go run` in a
// pipe or a CI log used to show minutes of nothing); a run served by the
// cache says nothing, and -q or --quiet says nothing either.
func TestCompileProgressNotOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the guest from scratch")
	}
	dir := t.TempDir()
	code, stdout, stderr := cli(t, "", "run", "--cache-dir", dir, "-e", "return 1")
	if code != 0 || stdout != "1\n" || !compileLines.MatchString(stderr) {
		t.Fatalf("first run: exit %d, stdout %q, stderr %q; want the output and two lines on stderr", code, stdout, stderr)
	}
	for _, args := range [][]string{
		{"run", "--cache-dir", dir, "-e", "return 2"},
		{"run", "-q", "--cache-dir", dir, "-e", "return 2"},
		{"run", "--quiet", "--cache-dir", dir, "-e", "return 2"},
	} {
		if code, stdout, stderr := cli(t, "", args...); code != 0 || stdout != "2\n" || stderr != "" {
			t.Errorf("%q with the cache: exit %d, stdout %q, stderr %q; want nothing on stderr", args, code, stdout, stderr)
		}
	}
	// mcp takes -q too (over stdio, with a client that leaves at once).
	if code, stdout, stderr := cli(t, "", "mcp", "-q", "--cache-dir", dir); code != 0 || stdout != "" || stderr != "" {
		t.Errorf("mcp -q: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// -q leaves the lines out of a first compile too; precompile -q prints
// nothing at all.
func TestQuietFirstCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the guest from scratch")
	}
	dir := t.TempDir()
	if code, stdout, stderr := cli(t, "", "precompile", "-q", "--cache-dir", dir); code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("precompile -q: exit %d, stdout %q, stderr %q; want nothing", code, stdout, stderr)
	}
	if code, stdout, stderr := cli(t, "", "run", "--cache-dir", dir, "-e", "return 1"); code != 0 || stdout != "1\n" || stderr != "" {
		t.Errorf("run after precompile -q: exit %d, stdout %q, stderr %q; want the cache filled", code, stdout, stderr)
	}
}

// Over stdio, `cordon mcp`'s stdout is the protocol: the compile lines go
// to stderr only.
func TestMCPFirstCompileOnStderr(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the guest from scratch")
	}
	code, stdout, stderr := cli(t, "", "mcp", "--cache-dir", t.TempDir())
	if code != 0 || stdout != "" || !compileLines.MatchString(stderr) {
		t.Errorf("mcp: exit %d, stdout %q, stderr %q; want nothing on stdout, the two lines on stderr", code, stdout, stderr)
	}
	if strings.Contains(stdout, "compil") {
		t.Errorf("the protocol stream has a compile line: %q", stdout)
	}
}
