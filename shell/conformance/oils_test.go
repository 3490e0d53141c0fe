// Package conformance runs the Oils spec tests against cordon's shell.
package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/vfs"
)

// passFloor is the minimum overall pass rate (percent of non-skipped
// cases) below which the test fails. It is the measured rate rounded down.
const passFloor = 94

// caseTimeout bounds the run of one case.
const caseTimeout = 2 * time.Second

// specCase is one "####" case of a spec file with its bash expectations.
type specCase struct {
	file   string
	name   string
	line   int
	script string
	stdout *string
	status int
}

var metaRe = regexp.MustCompile(`^## (?:(OK|BUG|N-I)(?:-\d+)? ([\w/.-]+) )?(stdout|STDOUT|status|stdout-json|STDERR|stderr|stderr-json|code):\s?(.*)$`)

// appliesToBash reports whether a shell list like "bash/mksh" names bash.
func appliesToBash(shells string) bool {
	for _, s := range strings.Split(shells, "/") {
		if s == "bash" {
			return true
		}
	}
	return false
}

// parseSpecFile reads the cases of one spec file.
func parseSpecFile(path string) ([]*specCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	file := filepath.Base(path)
	lines := strings.Split(string(data), "\n")
	var cases []*specCase
	var cur *specCase
	var script []string
	// overrides for bash, applied at the end of a case
	var bashStdout *string
	bashStatus := -1
	finish := func() {
		if cur == nil {
			return
		}
		cur.script = strings.Join(script, "\n") + "\n"
		if bashStdout != nil {
			cur.stdout = bashStdout
		}
		if bashStatus >= 0 {
			cur.status = bashStatus
		}
		cases = append(cases, cur)
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "#### ") {
			finish()
			cur = &specCase{file: file, name: strings.TrimSpace(line[5:]), line: i + 1}
			script = nil
			bashStdout = nil
			bashStatus = -1
			continue
		}
		if cur == nil {
			continue
		}
		m := metaRe.FindStringSubmatch(line)
		if m == nil {
			if strings.HasPrefix(line, "## ") {
				continue
			}
			script = append(script, line)
			continue
		}
		kind, shells, key, val := m[1], m[2], m[3], m[4]
		if key == "code" {
			script = append(script, val)
			continue
		}
		var block *string
		if key == "STDOUT" || key == "STDERR" {
			var b strings.Builder
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "## END") && !strings.HasPrefix(lines[i], "#### ") && !metaRe.MatchString(lines[i]); i++ {
				b.WriteString(lines[i])
				b.WriteByte('\n')
			}
			s := b.String()
			block = &s
			if i < len(lines) && !strings.HasPrefix(lines[i], "## END") {
				i-- // the next line is metadata or a new case
			}
		}
		forBash := kind == "" || appliesToBash(shells)
		if !forBash {
			continue
		}
		var out *string
		status := -1
		switch key {
		case "stdout":
			s := val + "\n"
			out = &s
		case "STDOUT":
			out = block
		case "stdout-json":
			var s string
			if err := json.Unmarshal([]byte(val), &s); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, i+1, err)
			}
			out = &s
		case "status":
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bad status %q", file, i+1, val)
			}
			status = n
		}
		if kind == "" {
			if out != nil {
				cur.stdout = out
			}
			if status >= 0 {
				cur.status = status
			}
		} else {
			if out != nil {
				bashStdout = out
			}
			if status >= 0 {
				bashStatus = status
			}
		}
	}
	finish()
	return cases, nil
}

// specDir finds ../shared/conformance/oils relative to the repository root.
func specDir() string {
	// Tests run in the package directory, <root>/shell/conformance; the
	// specs live in <root>/../shared/conformance/oils.
	rel := filepath.Join("..", "..", "..", "shared", "conformance", "oils")
	if fi, err := os.Stat(rel); err == nil && fi.IsDir() {
		return rel
	}
	// Fall back on the location of this source file.
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return rel
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	return filepath.Join(filepath.Dir(root), "shared", "conformance", "oils")
}

// loadSkips reads skip.txt: file<TAB>case<TAB>reason.
func loadSkips(t *testing.T) map[string]string {
	skips := map[string]string{}
	f, err := os.Open("skip.txt")
	if err != nil {
		t.Fatalf("skip list: %v", err)
	}
	defer f.Close()
	allowed := map[string]bool{"processes": true, "signals": true, "job control": true, "terminal": true, "real file system": true, "environment": true}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			t.Fatalf("skip.txt: bad line %q", line)
		}
		cat, _, _ := strings.Cut(parts[2], ":")
		if !allowed[cat] {
			t.Fatalf("skip.txt: reason %q is not an out-of-scope category", parts[2])
		}
		skips[parts[0]+"\t"+parts[1]] = parts[2]
	}
	return skips
}

// runCase runs one case and returns its stdout and status.
func runCase(c *specCase) (string, string, int, error) {
	fsys := vfs.New(vfs.Limits{})
	// The Oils runner starts each case in a directory with _tmp in it.
	fsys.MkdirAll("/workspace/_tmp/spec-tmp", 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cfg := shell.Config{
		FS:       fsys,
		Commands: registry(),
		Stdout:   &stdout,
		Stderr:   &stderr,
		Env:      []string{"SH=bash", "TMP=/tmp", "REPO_ROOT=/workspace", "LC_ALL=C.UTF-8"},
		Now:      func() time.Time { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) },
		// the spec tests run their cases as script files
		File: true,
	}
	st, err := shell.Run(ctx, cfg, "bash", c.script)
	return stdout.String(), stderr.String(), st, err
}

func TestOils(t *testing.T) {
	dir := specDir()
	files, _ := filepath.Glob(filepath.Join(dir, "*.test.sh"))
	if len(files) == 0 {
		t.Skipf("SKIPPED, not passed: the Oils spec files (*.test.sh) are absent from %s (../shared/conformance/oils beside the repository)", dir)
	}
	sort.Strings(files)
	skips := loadSkips(t)
	only := os.Getenv("OILS_CASE")
	verbose := os.Getenv("OILS_VERBOSE") != ""
	total, passed, skipped := 0, 0, 0
	for _, path := range files {
		cases, err := parseSpecFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fileTotal, filePassed := 0, 0
		for _, c := range cases {
			if only != "" && !strings.Contains(c.file+" "+c.name, only) {
				continue
			}
			if _, ok := skips[c.file+"\t"+c.name]; ok {
				skipped++
				continue
			}
			fileTotal++
			out, errOut, st, err := runCase(c)
			ok := err == nil && st == c.status && (c.stdout == nil || out == *c.stdout)
			if ok {
				filePassed++
			} else if verbose || only != "" {
				want := "<unchecked>"
				if c.stdout != nil {
					want = *c.stdout
				}
				t.Logf("FAIL %s:%d %s\n--- script:\n%s--- want status %d stdout:\n%s--- got status %d (err %v) stdout:\n%s--- stderr:\n%s",
					c.file, c.line, c.name, c.script, c.status, want, st, err, out, errOut)
			}
		}
		total += fileTotal
		passed += filePassed
		if fileTotal > 0 {
			t.Logf("%-28s %3d/%3d (%.0f%%)", filepath.Base(path), filePassed, fileTotal, 100*float64(filePassed)/float64(fileTotal))
		}
	}
	if total == 0 {
		t.Skipf("SKIPPED, not passed: no Oils case ran (OILS_CASE=%q matched none, or all are in skip.txt)", only)
	}
	rate := 100 * float64(passed) / float64(total)
	t.Logf("overall: %d/%d passed (%.1f%%), %d skipped", passed, total, rate, skipped)
	if only == "" && rate < passFloor {
		t.Errorf("pass rate %.1f%% is below the floor %d%%", rate, passFloor)
	}
}
