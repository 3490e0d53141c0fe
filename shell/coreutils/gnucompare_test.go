//go:build gnucompare

package coreutils

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGNUCompare is a development aid: it runs each line of
// /tmp/compare.txt ("stdin-literal<TAB>args..." with files from
// /tmp/compare-files) both with the real tools and with ours.
func TestGNUCompare(t *testing.T) {
	data, err := os.ReadFile("/tmp/compare.txt")
	if err != nil {
		t.Skip()
	}
	files := map[string]string{}
	root := "/tmp/compare-files"
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if info.IsDir() {
			files[rel+"/"] = ""
		} else {
			b, _ := os.ReadFile(p)
			files[rel] = string(b)
		}
		return nil
	})
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		stdin, cmdline, _ := strings.Cut(line, "\t")
		stdin = strings.ReplaceAll(stdin, `\n`, "\n")
		args := strings.Fields(cmdline)
		for i, a := range args {
			args[i] = strings.ReplaceAll(strings.ReplaceAll(a, "%SP%", " "), `\t`, "\t")
		}
		tmp := t.TempDir()
		exec.Command("cp", "-a", root+"/.", tmp).Run()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = tmp
		cmd.Env = []string{"LC_ALL=C.UTF-8", "TZ=UTC", "PATH=" + os.Getenv("PATH"), "HOME=/workspace"}
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Run()
		st := cmd.ProcessState.ExitCode()
		r := run(t, nil, files, stdin, args...)
		if r.out != out.String() || r.status != st || r.err != errb.String() {
			t.Errorf("%s\n  GNU: %q %q %d\n  our: %q %q %d", cmdline, out.String(), errb.String(), st, r.out, r.err, r.status)
		}
	}
}

// TestGNUGenerate prints Go test cases for the lines of /tmp/cases.txt from
// the real tools' behavior.
func TestGNUGenerate(t *testing.T) {
	data, err := os.ReadFile("/tmp/cases.txt")
	if err != nil {
		t.Skip()
	}
	root := "/tmp/compare-files"
	var sb strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			sb.WriteString("\t\t// " + strings.TrimSpace(line[1:]) + "\n")
			continue
		}
		stdin, cmdline, _ := strings.Cut(line, "\t")
		stdin = strings.ReplaceAll(stdin, `\n`, "\n")
		stdin = strings.ReplaceAll(stdin, `\t`, "\t")
		args := strings.Fields(cmdline)
		for i, a := range args {
			args[i] = strings.ReplaceAll(strings.ReplaceAll(a, "%SP%", " "), `\t`, "\t")
		}
		tmp := t.TempDir()
		exec.Command("cp", "-a", root+"/.", tmp).Run()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = tmp
		cmd.Env = []string{"LC_ALL=C.UTF-8", "TZ=UTC", "PATH=" + os.Getenv("PATH"), "HOME=/workspace"}
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Run()
		st := cmd.ProcessState.ExitCode()
		errLine, _, _ := strings.Cut(errb.String(), "\n")
		var q []string
		for _, a := range args {
			q = append(q, strconv.Quote(a))
		}
		fmt.Fprintf(&sb, "\t\t{args: []string{%s}", strings.Join(q, ", "))
		if stdin != "" {
			fmt.Fprintf(&sb, ", stdin: %s", strconv.Quote(stdin))
		}
		fmt.Fprintf(&sb, ", out: %s", strconv.Quote(out.String()))
		if errLine != "" {
			fmt.Fprintf(&sb, ", err: %s", strconv.Quote(errLine))
		}
		if st != 0 {
			fmt.Fprintf(&sb, ", status: %d", st)
		}
		sb.WriteString("},\n")
	}
	os.WriteFile("/tmp/gen.txt", []byte(sb.String()), 0o644)
}
