//go:build gnucompare

// This file is a development aid, excluded from normal builds. It runs
// test cases both with the real GNU tools and with this package:
//
//	GNUCOMPARE_CASES=cases.txt go test -tags gnucompare -run TestGNU ./shell/coreutils/
//
// Each line of the cases file is "STDIN<TAB>COMMAND ARGS...": STDIN may use
// \n and \t, and %SP stands for a space inside an argument. Lines starting
// with "#" are comments. The commands run in a temporary directory holding
// stdFiles, with LC_ALL=C.UTF-8 and TZ=UTC. TestGNUCompare reports every
// difference; TestGNUGenerate logs Go table entries with the GNU results
// (run it with -v), which is how the expectations of the tests were made.
package coreutils

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// gnuCase is one line of the cases file.
type gnuCase struct {
	comment string
	stdin   string
	args    []string
}

func readGNUCases(t *testing.T) []gnuCase {
	name := os.Getenv("GNUCOMPARE_CASES")
	if name == "" {
		t.Skip("SKIPPED, not passed: GNUCOMPARE_CASES is not set (the file of GNU coreutils cases to compare against)")
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var cases []gnuCase
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "#"):
			cases = append(cases, gnuCase{comment: strings.TrimSpace(line[1:])})
			continue
		}
		stdin, cmdline, _ := strings.Cut(line, "\t")
		stdin = strings.NewReplacer(`\n`, "\n", `\t`, "\t", "%SP", " ").Replace(stdin)
		args := strings.Fields(cmdline)
		for i, a := range args {
			args[i] = strings.NewReplacer("%SP", " ", `\t`, "\t").Replace(a)
		}
		cases = append(cases, gnuCase{stdin: stdin, args: args})
	}
	return cases
}

// runGNU runs a case with the real tools in a copy of stdFiles.
func runGNU(t *testing.T, c gnuCase) (stdout, stderr string, status int) {
	dir := t.TempDir()
	for name, content := range stdFiles {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	cmd := exec.Command(c.args[0], c.args[1:]...)
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "TZ=UTC", "PATH=" + os.Getenv("PATH"), "HOME=/workspace"}
	cmd.Stdin = strings.NewReader(c.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Run()
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

func TestGNUCompare(t *testing.T) {
	for _, c := range readGNUCases(t) {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			if c.args == nil {
				return
			}
			out, errOut, st := runGNU(t, c)
			r := run(t, nil, stdFiles, c.stdin, c.args...)
			if r.Out != out || r.Status != st || r.Err != errOut {
				t.Errorf("%q\n  GNU: %q %q %d\n  our: %q %q %d", c.args, out, errOut, st, r.Out, r.Err, r.Status)
			}
		})
	}
}

func TestGNUGenerate(t *testing.T) {
	var sb strings.Builder
	for _, c := range readGNUCases(t) {
		if c.args == nil {
			sb.WriteString("\t\t// " + c.comment + "\n")
			continue
		}
		out, errOut, st := runGNU(t, c)
		comment := ""
		if r := run(t, nil, stdFiles, c.stdin, c.args...); r.Out != out && sortedBytes(r.Out) == sortedBytes(out) {
			out, comment = r.Out, " // GNU lists in directory order"
		}
		var q []string
		for _, a := range c.args {
			q = append(q, strconv.Quote(a))
		}
		fmt.Fprintf(&sb, "\t\t{Args: []string{%s}", strings.Join(q, ", "))
		if c.stdin != "" {
			fmt.Fprintf(&sb, ", Stdin: %s", strconv.Quote(c.stdin))
		}
		fmt.Fprintf(&sb, ", Out: %s", strconv.Quote(out))
		if line, _, _ := strings.Cut(errOut, "\n"); line != "" {
			fmt.Fprintf(&sb, ", Err: %s", strconv.Quote(line))
		}
		if st != 0 {
			fmt.Fprintf(&sb, ", Status: %d", st)
		}
		sb.WriteString("}," + comment + "\n")
	}
	t.Log("\n" + sb.String())
}

func sortedBytes(s string) string {
	b := []byte(s)
	sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
	return string(b)
}
