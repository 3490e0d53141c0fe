package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cordon replay prints what cordon run --record printed, byte for byte,
// and exits as it did: the clock, Math.random, $RANDOM, date and the tool
// answers come from the trace.
func TestReplayCLI(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"js", []string{"-e", `const w = await weather.current({city: "SF"})
let denied
try { await email.send({to: "eve@evil.test", subject: "x"}) } catch (e) { denied = e.kind + " " + e.message }
const [a, b] = await Promise.all([weather.forecast({city: "A"}), weather.current({city: "B"})])
console.log(Date.now(), new Date().toString(), Math.random(), denied, a.length, b.temp)
console.error("to stderr", Math.random())
fs.writeFileSync("/workspace/x", String(Date.now()))
return {temp: w.temp, at: Date.now()}`}},
		{"sh", []string{"--lang", "sh", "-e", `date +%s%N; date; echo $RANDOM $RANDOM; mktemp
tool weather/forecast --city SF | jq -c '.[0]'
tool email/send --to eve@evil.test --subject x || echo "denied $?"
echo err >&2; exit 3`}},
		{"nested", []string{"-e", `const r = shell("date +%s%N; tool weather/current --city X | jq .temp; node -e 'console.log(Math.random(), Date.now())'")
console.log(r.stdout, Math.random())`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".json")
			exit, stdout, stderr := cli(t, "", append([]string{"run", "--record", path}, c.args...)...)
			rexit, rstdout, rstderr := cli(t, "", "replay", path)
			if rexit != exit || rstdout != stdout || rstderr != stderr {
				t.Fatalf("recorded: exit %d\nstdout %q\nstderr %q\nreplayed: exit %d\nstdout %q\nstderr %q", exit, stdout, stderr, rexit, rstdout, rstderr)
			}
			// The run again, live, prints something else: the replay
			// gave back what the recording held.
			_, again, _ := cli(t, "", append([]string{"run"}, c.args...)...)
			if again == stdout {
				t.Errorf("a second run printed the same %q: the test shows nothing", stdout)
			}
			// --json prints what run --json would have.
			jexit, jstdout, _ := cli(t, "", "replay", "--json", path)
			var doc struct {
				Stdout   string `json:"stdout"`
				ExitCode int    `json:"exit_code"`
			}
			if err := json.Unmarshal([]byte(jstdout), &doc); err != nil || doc.Stdout != stdout || doc.ExitCode != exit || jexit != exit {
				t.Errorf("replay --json: exit %d, %q (%v)", jexit, jstdout, err)
			}
		})
	}
}

// A trace whose calls were changed makes replay stop with exit 3 and show
// both calls; --continue-live runs the rest against the config's tools.
func TestReplayCLIDivergence(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.json")
	if exit, _, stderr := cli(t, "", "run", "--record", path, "-e", `const w = await weather.current({city: "SF"}); console.log(w.city)`); exit != 0 {
		t.Fatalf("run: exit %d: %s", exit, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tampered := strings.Replace(string(b), `"city": "SF"`, `"city": "Oslo"`, 1)
	if tampered == string(b) {
		t.Fatalf("the trace holds no params to change:\n%s", b)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(tampered), 0o644); err != nil {
		t.Fatal(err)
	}
	exit, _, stderr := cli(t, "", "replay", bad)
	if exit != exitDiverged || !strings.Contains(stderr, `weather/current {"city":"SF"}`) || !strings.Contains(stderr, `weather/current {"city":"Oslo"}`) {
		t.Fatalf("replay of a changed trace: exit %d, stderr %q; want %d and both calls", exit, stderr, exitDiverged)
	}
	exit, stdout, stderr := cli(t, "", "replay", "--continue-live", bad)
	if exit != 0 || stdout != "San Francisco\n" || !strings.Contains(stderr, "went live at call 1") {
		t.Fatalf("replay --continue-live: exit %d, stdout %q, stderr %q", exit, stdout, stderr)
	}
	if exit, _, stderr := cli(t, "", "replay", filepath.Join(dir, "missing.json")); exit != exitUsage || !strings.Contains(stderr, "missing.json") {
		t.Errorf("replay of a missing file: exit %d, %q", exit, stderr)
	}
	if exit, _, stderr := cli(t, "", "replay", "--config", "x.yaml", path); exit != exitUsage || !strings.Contains(stderr, "--continue-live") {
		t.Errorf("replay --config without --continue-live: exit %d, %q", exit, stderr)
	}
}
