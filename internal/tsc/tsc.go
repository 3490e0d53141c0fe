// Package tsc runs the real TypeScript compiler for tests: it checks that
// the declarations package describe writes compile, and that scripts
// written against them type-check, or fail where they should.
//
// The compiler is `npx --yes -p typescript@Version tsc`, which npm
// installs into its cache the first time, or the command in
// $CORDON_TSC (as in CORDON_TSC="npx --yes -p typescript@5 tsc"). A test
// is skipped when node and npx are missing or the package cannot be
// installed (offline).
package tsc

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the TypeScript release the tests use unless $CORDON_TSC says
// otherwise.
const Version = "7.0.2"

// Args are the compiler's options: no output, strict, ES2022 without the
// DOM, and modules, so that a script may await at its top level.
var Args = []string{"--noEmit", "--strict", "--pretty", "false", "--target", "es2022", "--module", "esnext", "--lib", "es2022"}

// Diagnostic is one error of the compiler.
type Diagnostic struct {
	File    string // the file's name, as given to Check
	Line    int
	Code    string // "TS2322"
	Message string
}

// String formats d on one line: "FILE:LINE: CODE: MESSAGE".
func (d Diagnostic) String() string {
	return d.File + ":" + strconv.Itoa(d.Line) + ": " + d.Code + ": " + d.Message
}

var (
	probeOnce sync.Once
	probeErr  string
	command   []string
)

// compiler returns the command that runs tsc, or why there is none.
func compiler() ([]string, string) {
	probeOnce.Do(func() {
		if c := strings.Fields(os.Getenv("CORDON_TSC")); len(c) > 0 {
			command = c
		} else {
			if _, err := exec.LookPath("npx"); err != nil {
				probeErr = "npx is not installed (node and npm are needed to run tsc)"
				return
			}
			command = []string{"npx", "--yes", "-p", "typescript@" + Version, "tsc"}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		out, err := run(ctx, "", "--version")
		if err != nil || !strings.Contains(out, "Version") {
			probeErr = "cannot run " + strings.Join(command, " ") + " (offline?): " + strings.TrimSpace(out)
		}
	})
	return command, probeErr
}

func run(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, command[0], append(append([]string(nil), command[1:]...), args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

var (
	diagLine   = regexp.MustCompile(`^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$`)
	globalDiag = regexp.MustCompile(`^error (TS\d+): (.*)$`)
)

// Check writes files (a name to its text) into a temporary directory,
// compiles them together with Args, and returns the errors, sorted by
// file and line. It skips t when there is no compiler, and fails it when
// the compiler's output cannot be read.
func Check(t testing.TB, files map[string]string) []Diagnostic {
	t.Helper()
	if _, why := compiler(); why != "" {
		t.Skip(why)
	}
	dir := t.TempDir()
	names := make([]string, 0, len(files))
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := run(ctx, dir, append(append([]string(nil), Args...), names...)...)
	var diags []Diagnostic
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || line != raw && len(diags) > 0 {
			continue // a continuation of the previous message
		}
		if m := diagLine.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			diags = append(diags, Diagnostic{File: filepath.Base(m[1]), Line: n, Code: m[3], Message: m[4]})
			continue
		}
		if m := globalDiag.FindStringSubmatch(line); m != nil {
			diags = append(diags, Diagnostic{Code: m[1], Message: m[2]})
			continue
		}
		t.Fatalf("tsc: unexpected output %q in:\n%s", line, out)
	}
	if err != nil && len(diags) == 0 {
		t.Fatalf("tsc failed without a diagnostic: %v\n%s", err, out)
	}
	sort.SliceStable(diags, func(i, j int) bool {
		if diags[i].File != diags[j].File {
			return diags[i].File < diags[j].File
		}
		return diags[i].Line < diags[j].Line
	})
	return diags
}
