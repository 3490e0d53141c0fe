package awk

// gawk's own test programs, as GoAWK keeps them (github.com/benhoyt/goawk:
// testdata/gawk, each NAME.awk with its NAME.in), run against this awk
// when GOAWK_DIR names a checkout of GoAWK. Nothing of that suite is kept
// in this repository.
//
//	GOAWK_DIR=/path/to/goawk go test ./shell/awk -run GawkSuite -v
//
// The .ok files there are GoAWK's outputs, so each program is compared
// with the reference awks instead (gawk, original-awk, mawk, those that
// are installed): it passes when its standard output and whether it
// failed are those of one of them. The words of error messages are not
// compared.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// gawkSuiteSkip lists the programs left out, with the reason.
var gawkSuiteSkip = map[string]string{
	"rand": "rand()'s sequence differs from every C awk's",
}

func TestGawkSuite(t *testing.T) {
	src := os.Getenv("GOAWK_DIR")
	if src == "" {
		t.Skip("SKIPPED, not passed: GOAWK_DIR is not set (a goawk checkout holding testdata/gawk)")
	}
	dir := filepath.Join(src, "testdata", "gawk")
	progs, _ := filepath.Glob(filepath.Join(dir, "*.awk"))
	if len(progs) == 0 {
		t.Skipf("SKIPPED, not passed: no testdata/gawk in GOAWK_DIR=%s", src)
	}
	var refs []string
	for _, name := range []string{"gawk", "original-awk", "mawk"} {
		if p, err := exec.LookPath(name); err == nil {
			refs = append(refs, p)
		}
	}
	if len(refs) == 0 {
		t.Skip("SKIPPED, not passed: no reference awk (gawk, original-awk or mawk) on PATH")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if out, err := exec.Command("cp", "-r", dir, root).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	work := filepath.Join(root, "gawk")
	run := func(env []string, name string, args ...string) (string, bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), append(env, "LC_ALL=C.UTF-8")...)
		if in, err := os.Open(filepath.Join(work, strings.TrimSuffix(args[len(args)-1], ".awk")+".in")); err == nil {
			defer in.Close()
			cmd.Stdin = in
		}
		out, err := cmd.Output()
		return string(out), err == nil
	}
	sort.Strings(progs)
	pass, total := 0, 0
	var failed []string
	for _, p := range progs {
		base := filepath.Base(p)
		name := strings.TrimSuffix(base, ".awk")
		if gawkSuiteSkip[name] != "" {
			continue
		}
		total++
		args := []string{"-v", "srcdir=.", "-f", base}
		unordered := forIn.MatchString(readText(p))
		matched := false
		var want, got string
		for _, ref := range refs {
			// This awk runs under each reference's name, which is its
			// ARGV[0], as the suite runs the awk under test.
			out, ok := run([]string{"CORDON_AWK_HOST=1", "CORDON_AWK_ARGV0=" + filepath.Base(ref)}, self, args...)
			rout, rok := run(nil, ref, args...)
			if want == "" {
				want, got = rout, out
			}
			// The order of "for (k in a)" is unspecified: this awk's is
			// the order of insertion, so only the lines are compared.
			if rok == ok && (rout == out || unordered && sortedText(rout) == sortedText(out)) {
				matched = true
				break
			}
		}
		if matched {
			pass++
			continue
		}
		failed = append(failed, name)
		t.Logf("FAIL %s\n%s", name, diffText(want, got))
	}
	t.Logf("gawk suite: %d of %d pass (%.2f%%); failing: %s", pass, total, 100*float64(pass)/float64(total), strings.Join(failed, " "))
	if float64(pass) < 0.995*float64(total) {
		t.Errorf("pass rate %.2f%% is under 99.5%%", 100*float64(pass)/float64(total))
	}
}
