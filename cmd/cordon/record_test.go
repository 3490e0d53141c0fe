package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/trace"
)

// readTrace reads the trace file path.
func readTrace(t *testing.T, path string) *trace.Trace {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.Read(f)
	if err != nil {
		t.Fatalf("the trace does not read: %v", err)
	}
	return tr
}

func TestRunRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.trace.json")
	code := `const w = await weather.current({city: "SF"})
let denied
try { await email.send({to: "eve@evil.test", subject: "x"}) } catch (e) { denied = e.kind }
console.log(Date.now() > 0, Math.random() < 1)
return {temp: w.temp, denied}`
	exit, stdout, stderr := cli(t, "", "run", "--record", path, "--label", "env=test", "-e", code)
	if exit != 0 {
		t.Fatalf("exit %d, stderr %q", exit, stderr)
	}
	tr := readTrace(t, path)
	if tr.Language != "js" || tr.Code != code || tr.Name != "[eval]" || tr.Principal != defaultPrincipal || tr.Labels["env"] != "test" {
		t.Errorf("language %q, name %q, principal %q, labels %v", tr.Language, tr.Name, tr.Principal, tr.Labels)
	}
	if tr.Output.Stdout != stdout || !strings.Contains(stdout, "true true") || tr.Output.ExitCode != 0 {
		t.Errorf("trace output %+v, run's stdout %q", tr.Output, stdout)
	}
	if len(tr.Calls) != 2 || tr.Calls[0].Method != "weather/current" || tr.Calls[0].Decision != "allow" ||
		!strings.Contains(string(tr.Calls[0].Result), `"temp":72`) ||
		tr.Calls[1].Method != "email/send" || tr.Calls[1].Decision != "deny" || tr.Calls[1].ErrorKind != "denied" {
		t.Errorf("calls %+v", tr.Calls)
	}
	if tr.PolicyRevision == "" || tr.Limits["timeout"] != "5s" || tr.VFS.Digest == "" || len(tr.VFS.Tar) == 0 || len(tr.Clock) == 0 || len(tr.Monotonic) == 0 {
		t.Errorf("policy %q, limits %v, vfs digest %q (%d bytes of tar), %d clock and %d monotonic readings",
			tr.PolicyRevision, tr.Limits, tr.VFS.Digest, len(tr.VFS.Tar), len(tr.Clock), len(tr.Monotonic))
	}

	// A shell script that fails: the trace has its status; --json is
	// unchanged by --record.
	exit, stdout, stderr = cli(t, "", "run", "--record", path, "--json", "--lang", "sh", "-e", `tool weather/forecast --city SF | jq -c '.[0].day'; echo $RANDOM; exit 4`)
	if exit != 4 || !strings.HasPrefix(stdout, `{"stdout":"1\n`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", exit, stdout, stderr)
	}
	tr = readTrace(t, path)
	if tr.Language != "sh" || tr.Output.ExitCode != 4 || len(tr.Calls) != 1 || tr.Calls[0].Method != "weather/forecast" || tr.Calls[0].Language != "sh" {
		t.Errorf("language %q, output %+v, calls %+v", tr.Language, tr.Output, tr.Calls)
	}
}

func TestRunRecordUnwritable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "t.json")
	exit, stdout, stderr := cli(t, "", "run", "--record", path, "-e", `console.log("ran")`)
	if exit != exitUsage || strings.Contains(stdout, "ran") || !strings.Contains(stderr, "--record") {
		t.Fatalf("exit %d, stdout %q, stderr %q", exit, stdout, stderr)
	}
}

// A trace that run --record writes is one that policy replay reads: the
// what-if of a candidate policy on a recorded run.
func TestRunRecordThenPolicyReplay(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	exit, _, stderr := cli(t, "", "run", "-q", "--record", path, "-e", `await weather.current({city: "SF"})`)
	if exit != 0 {
		t.Fatalf("run: exit %d, stderr %q", exit, stderr)
	}
	candidate := writeFile(t, "candidate.yaml", "capabilities:\n  - method: email/send\n")
	exit, stdout, stderr := cli(t, "", "policy", "replay", "--config", candidate, path)
	if exit != 1 || !strings.Contains(stdout, "weather/current  allow→deny") || !strings.Contains(stdout, `params: {"city":"SF"}`) {
		t.Fatalf("policy replay: exit %d, stdout %q, stderr %q", exit, stdout, stderr)
	}
}

// A run that starts from a snapshot records the files it started from.
func TestRunRecordFromSnapshot(t *testing.T) {
	dir := t.TempDir()
	snap, path := filepath.Join(dir, "snap"), filepath.Join(dir, "run.json")
	if exit, _, stderr := cli(t, "", "run", "-q", "--snapshot-out", snap, "-e", `fs.writeFileSync("/workspace/kept.txt", "kept")`); exit != 0 {
		t.Fatalf("first run: exit %d, stderr %q", exit, stderr)
	}
	if exit, _, stderr := cli(t, "", "run", "-q", "--snapshot-in", snap, "--record", path, "-e", `return fs.readFileSync("/workspace/kept.txt", "utf8")`); exit != 0 {
		t.Fatalf("second run: exit %d, stderr %q", exit, stderr)
	}
	tr := readTrace(t, path)
	if string(tr.Output.Value) != `"kept"` || !strings.Contains(string(tr.VFS.Tar), "workspace/kept.txt") {
		t.Errorf("value %s; the recorded archive (%d bytes) does not hold the snapshot's file", tr.Output.Value, len(tr.VFS.Tar))
	}
}
