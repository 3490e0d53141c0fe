package difftest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/shell/commands"
	"github.com/cordonhq/cordon/vfs"
)

// The case files are testdata/<reference>/<class>.sh. Lines before the
// first case are comments; a line "# requires: NAME..." there names the
// reference programs the file needs besides bash (gnu-sed, gnu-find, jq). Each case
// starts with a line "#### NAME" and runs to the next one; its body is the
// script, run as `bash -c BODY bash` in a fresh empty directory (also the
// home directory) with an empty environment apart from HOME, PATH=/usr/bin:/bin
// and LC_ALL=C.UTF-8, and with stdin from /dev/null. Cordon's shell runs the
// same body with the same name, directory, environment and an empty stdin,
// over an in-memory file system holding that directory.
//
// Knobs: DIFFTEST_CASE=substring runs only the cases whose "file name"
// contains it; DIFFTEST_KEEP=1 keeps the reference's directories.
// CORDON_CI=1 turns a missing or wrong reference into a failure.

// caseTimeout bounds each run of a case.
const caseTimeout = 10 * time.Second

type diffCase struct {
	file, name, script string
	line               int
	requires           []string
}

var requiresRe = regexp.MustCompile(`^#\s*requires:\s*(.*)$`)

func parseFile(path string) ([]diffCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	file := filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path))
	var (
		cases    []diffCase
		requires []string
		cur      *diffCase
		body     strings.Builder
		n        int
	)
	flush := func() {
		if cur != nil {
			cur.script = body.String()
			cases = append(cases, *cur)
		}
		body.Reset()
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		n++
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "#### "); ok {
			flush()
			name = strings.TrimSpace(name)
			if name == "" || seen[name] {
				return nil, fmt.Errorf("%s:%d: case name %q is empty or repeated", file, n, name)
			}
			seen[name] = true
			cur = &diffCase{file: file, name: name, line: n, requires: requires}
			continue
		}
		if cur == nil {
			if m := requiresRe.FindStringSubmatch(line); m != nil {
				requires = append(requires, strings.Fields(m[1])...)
			}
			continue
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	flush()
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return cases, nil
}

// differences reads testdata/differences.txt: file<TAB>case<TAB>reason.
func differences(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("testdata/differences.txt")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"processes": true, "signals": true, "users": true, "symlinks": true,
		"fifos": true, "terminal": true, "real file system": true, "environment": true, "locale": true}
	out := map[string]string{}
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			t.Fatalf("differences.txt:%d: want file<TAB>case<TAB>reason, got %q", i+1, line)
		}
		cat, _, _ := strings.Cut(parts[2], ":")
		if !allowed[cat] {
			t.Fatalf("differences.txt:%d: reason %q does not start with a category the sandbox cannot have (%v)", i+1, parts[2], sortedKeys(allowed))
		}
		out[parts[0]+"\t"+parts[1]] = parts[2]
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// reference checks the reference programs a file needs; it returns why one
// is missing or the wrong program, or "".
func reference(name string) string {
	run := func(args ...string) string {
		out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
		if err != nil {
			return ""
		}
		return string(out)
	}
	switch name {
	case "bash":
		if v := run("bash", "-c", "echo $BASH_VERSION"); !strings.HasPrefix(v, "5.2.") {
			return fmt.Sprintf("the reference is bash 5.2; this machine's bash says %q", strings.TrimSpace(v))
		}
	case "gnu-sed":
		if v := run("sed", "--version"); !strings.HasPrefix(v, "sed (GNU sed) 4.9") {
			return fmt.Sprintf("the reference is GNU sed 4.9; this machine's sed says %q", firstLine(v))
		}
	case "gnu-find":
		if v := run("find", "--version"); !strings.HasPrefix(v, "find (GNU findutils) 4.9") {
			return fmt.Sprintf("the reference is GNU find 4.9; this machine's find says %q", firstLine(v))
		}
	case "jq":
		if v := run("jq", "--version"); !strings.HasPrefix(v, "jq-1.") {
			return fmt.Sprintf("the reference is jq 1.x; this machine's jq says %q", firstLine(v))
		}
	default:
		return fmt.Sprintf("unknown reference %q", name)
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

type result struct {
	stdout, stderr string
	status         int
}

func (r result) String() string {
	return fmt.Sprintf("status %d\nstdout %q\nstderr %q", r.status, r.stdout, r.stderr)
}

var env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}

func runBash(dir, script string) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script, "bash")
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + dir}, env...)
	if err := asNormalUser(cmd, dir); err != nil {
		return result{}, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return result{}, fmt.Errorf("bash did not finish in %v", caseTimeout)
	case errors.As(err, &ee):
		return result{stdout.String(), stderr.String(), ee.ExitCode()}, nil
	case err != nil:
		return result{}, err
	}
	return result{stdout.String(), stderr.String(), 0}, nil
}

func runCordon(dir, script string) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	fsys := vfs.New(vfs.Limits{})
	if err := fsys.MkdirAll(dir, 0o755); err != nil {
		return result{}, err
	}
	var stdout, stderr bytes.Buffer
	cfg := shell.Config{
		FS:       fsys,
		Commands: commands.All(),
		Stdout:   &stdout,
		Stderr:   &stderr,
		Dir:      dir,
		Env:      append([]string{"HOME=" + dir}, env...),
	}
	st, err := shell.Run(ctx, cfg, "bash", script)
	if err != nil {
		return result{}, fmt.Errorf("cordon's shell: %w", err)
	}
	return result{stdout.String(), stderr.String(), st}, nil
}

func TestDifferential(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.sh")
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files in testdata (%v)", err)
	}
	sort.Strings(files)
	skips := differences(t)
	only := os.Getenv("DIFFTEST_CASE")
	ci := os.Getenv("CORDON_CI") != ""
	missing := map[string]string{}
	for _, name := range []string{"bash", "gnu-sed", "gnu-find", "jq"} {
		missing[name] = reference(name)
	}
	used := map[string]bool{}
	total, failed := 0, 0
	for _, path := range files {
		cases, err := parseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			key := c.file + "\t" + c.name
			used[key] = true
			if only != "" && !strings.Contains(c.file+" "+c.name, only) {
				continue
			}
			t.Run(c.file+"/"+c.name, func(t *testing.T) {
				for _, ref := range append([]string{"bash"}, c.requires...) {
					why, known := missing[ref]
					if !known {
						why = reference(ref)
					}
					if why != "" {
						if ci {
							t.Fatalf("%s:%d: %s (CORDON_CI is set: .ci/run installs the references)", c.file, c.line, why)
						}
						t.Skipf("SKIPPED, not passed: %s", why)
					}
				}
				if reason, ok := skips[key]; ok {
					t.Skipf("deliberate difference: %s", reason)
				}
				total++
				dir, err := os.MkdirTemp("", "difftest")
				if err != nil {
					t.Fatal(err)
				}
				if os.Getenv("DIFFTEST_KEEP") == "" {
					defer os.RemoveAll(dir)
				}
				want, err := runBash(dir, c.script)
				if err != nil {
					t.Fatalf("%s:%d: %v", c.file, c.line, err)
				}
				got, err := runCordon(dir, c.script)
				if err != nil {
					t.Fatalf("%s:%d: %v", c.file, c.line, err)
				}
				if got != want {
					failed++
					t.Errorf("%s:%d: cordon's shell differs from the reference\nscript:\n%s\nreference:\n%v\ncordon:\n%v",
						c.file, c.line, indent(c.script), want, got)
				}
			})
		}
	}
	for key := range skips {
		if !used[key] {
			t.Errorf("differences.txt names %q, which is not a case", strings.ReplaceAll(key, "\t", " / "))
		}
	}
	t.Logf("%d cases run, %d differ", total, failed)
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
