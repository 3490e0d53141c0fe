//go:build gnucompare

// This file is a development tool, not part of the normal tests: it runs
// the cases of defs_test.go with the real GNU tools (LC_ALL=C) and with our
// commands, reports differences, and writes the table of GNU's outputs to
// the file named by $GEN_OUT, from which cases_test.go is made:
//
//	GEN_OUT=/tmp/gen.go go test -tags gnucompare -run GNUCompare ./shell/textutils/
//
// It needs GNU grep, sed, coreutils and util-linux column on the host.

package textutils

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestGNUCompare runs every case with the real GNU tools and prints the
// table with their outputs (development only: go test -tags gnucompare).
func TestGNUCompare(t *testing.T) {
	var gen strings.Builder
	for _, group := range allCases {
		fmt.Fprintf(&gen, "var %s = []tcase{\n", group.name)
		for _, c := range group.cases {
			dir := t.TempDir()
			for n, d := range c.files {
				p := filepath.Join(dir, n)
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(d), 0o644)
			}
			cmd := exec.Command(c.args[0], c.args[1:]...)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
			cmd.Stdin = strings.NewReader(c.stdin)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			got, gerr, gcode, _ := runCmd(context.Background(), c.files, c.stdin, c.args...)
			if (got != out.String() && !(c.unordered && sortedLines(got) == sortedLines(out.String()))) || gcode != code {
				t.Errorf("%q (stdin %q):\n ours %q, %d (stderr %q)\n GNU  %q, %d (stderr %q)", c.args, c.stdin, got, gcode, gerr, out.String(), code, errb.String())
			}
			if gerr != errb.String() && os.Getenv("STDERR") != "" {
				t.Logf("stderr %q:\n ours %q\n GNU  %q", c.args, gerr, errb.String())
			}
			c.out, c.code = out.String(), code
			fmt.Fprintf(&gen, "\t{")
			named := false
			for name, m := range map[string]map[string]string{"gfiles": gfiles, "sfiles": sfiles, "tfiles": tfiles} {
				if c.files != nil && reflect.DeepEqual(c.files, m) {
					fmt.Fprintf(&gen, "files: %s, ", name)
					named = true
				}
			}
			if c.files != nil && !named {
				fmt.Fprintf(&gen, "files: %#v, ", c.files)
			}
			if c.stdin != "" {
				fmt.Fprintf(&gen, "stdin: %q, ", c.stdin)
			}
			fmt.Fprintf(&gen, "args: %#v, out: %q, code: %d", c.args, c.out, c.code)
			if c.unordered {
				gen.WriteString(", unordered: true")
			}
			gen.WriteString("},\n")
		}
		gen.WriteString("}\n\n")
	}
	os.WriteFile(os.Getenv("GEN_OUT"), []byte(gen.String()), 0o644)
}
