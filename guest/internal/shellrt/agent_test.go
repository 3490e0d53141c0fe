package shellrt

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/vfs"
)

var updateBash = flag.Bool("update-bash", false, "regenerate testdata/agent/*.want with the real bash and GNU tools of this machine")

// knownDifferences lists scripts whose output differs from bash on
// purpose, with the reason.
var knownDifferences = map[string]string{
	// This machine has jq 1.6; cordon's jq follows jq 1.7, which prints an
	// unchanged number literal as its canonical decimal (1.5E+3 where 1.6
	// printed 1500) and exits 2, not 4, on a parse error.
	"21_jq_objects": "jq 1.7 number literals (the machine's jq is 1.6)",
	"29_exit_codes": "jq 1.7 exit status for invalid JSON (the machine's jq is 1.6)",
}

// TestAgentScriptsMatchBash runs scripts of the kind agents write (JSON and
// CSV pipelines, here-docs, loops, functions, sed, awk, grep, sort, jq) and
// compares stdout and exit status with what real bash printed for them
// (testdata/agent/NAME.want, regenerated with -update-bash under LC_ALL=C).
func TestAgentScriptsMatchBash(t *testing.T) {
	scripts, _ := filepath.Glob("testdata/agent/*.sh")
	if len(scripts) == 0 {
		t.Fatal("no scripts")
	}
	pass := 0
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".sh")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		wantPath := strings.TrimSuffix(path, ".sh") + ".want"
		if *updateBash {
			writeBashWant(t, path, wantPath)
		}
		want, err := os.ReadFile(wantPath)
		if err != nil {
			t.Fatalf("%s: %v (run with -update-bash)", name, err)
		}
		h := newHost()
		fsys := vfs.New(vfs.Limits{}, vfs.WithClock(func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }))
		out := Run(Options{Common: jsrt.Common{Host: h, FS: fsys}, Now: func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }}, "script.sh", string(src))
		got := h.Stdout() + "[status " + strconv.Itoa(out.ExitCode) + "]\n"
		if got == string(want) {
			pass++
			continue
		}
		if reason, ok := knownDifferences[name]; ok {
			t.Logf("%s: differs from bash, as known: %s", name, reason)
			continue
		}
		t.Errorf("%s differs from bash:\n--- bash\n%s--- cordon\n%s--- stderr\n%s", name, want, got, h.Stderr())
	}
	t.Logf("%d of %d agent scripts match bash", pass, len(scripts))
}

func writeBashWant(t *testing.T, script, wantPath string) {
	dir := t.TempDir()
	abs, _ := filepath.Abs(script)
	cmd := exec.Command("bash", abs)
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=" + dir}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	status := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	stdout.WriteString("[status " + strconv.Itoa(status) + "]\n")
	if err := os.WriteFile(wantPath, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
