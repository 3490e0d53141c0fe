package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A session continues across two runs through --snapshot-out and
// --snapshot-in: the second finds the first's files and its calls.
func TestRunSnapshotRoundTrip(t *testing.T) {
	cfg := writeFile(t, "c.yaml", `tools: [{name: pay, echo: true}]
capabilities: [{method: pay, max_calls: 3}]
`)
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.snap"), filepath.Join(dir, "second.snap")
	code, stdout, stderr := cli(t, "", "run", "--config", cfg, "--label", "team=blue", "--snapshot-out", first, "--lang", "sh", "-e",
		`echo draft > /workspace/notes.txt; tool pay >/dev/null; tool pay >/dev/null; echo ok`)
	if code != 0 || stdout != "ok\n" {
		t.Fatalf("first run: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "", "run", "--config", cfg, "--snapshot-in", first, "--snapshot-out", second, "-e", payTwice+` + " | " + (await fs.readFile("/workspace/notes.txt", "utf8")).trim()`)
	if code != 0 || !strings.HasPrefix(stdout, "ok | ") || !strings.Contains(stdout, "denied") || !strings.HasSuffix(stdout, "| draft\n") {
		t.Fatalf("second run: exit %d, stdout %q, stderr %q: want one call left of max_calls 3, and the file", code, stdout, stderr)
	}
	// The first snapshot is unchanged: a fork from it has its one call.
	code, stdout, stderr = cli(t, "", "run", "--config", cfg, "--snapshot-in", first, "-e", payTwice)
	if code != 0 || !strings.HasPrefix(stdout, "ok | ") {
		t.Fatalf("fork of the first snapshot: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "", "run", "--config", cfg, "--snapshot-in", second, "-e", payTwice)
	if code != 0 || strings.Contains(stdout, "ok") {
		t.Fatalf("third run from the second snapshot: exit %d, stdout %q, stderr %q: want no call left", code, stdout, stderr)
	}
}

// A file that is not a snapshot is a usage error that says so.
func TestRunSnapshotInvalid(t *testing.T) {
	bad := writeFile(t, "bad.snap", "not a snapshot")
	code, _, stderr := cli(t, "", "run", "--snapshot-in", bad, "-e", `return 1`)
	if code != 2 || !strings.Contains(stderr, "--snapshot-in") || !strings.Contains(stderr, "not a cordon snapshot") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
