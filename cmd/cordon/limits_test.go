package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Any memory limit the CLI accepts works on its own, from the flag or the
// config; a VFS quota set past what it holds is refused with both values
// and where each came from.
func TestMemoryLimitWorksOnItsOwn(t *testing.T) {
	for _, mb := range []string{"24", "64", "128"} {
		code, stdout, stderr := cli(t, "", "run", "--memory", mb, "-e", "return 6*7")
		if code != 0 || stdout != "42\n" {
			t.Errorf("--memory %s: exit %d, stdout %q, stderr %q", mb, code, stdout, stderr)
		}
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("tools: [{name: t, echo: true}]\nlimits: {memory_mb: 64}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := cli(t, "", "run", "--config", cfg, "-e", "return 6*7"); code != 0 || stdout != "42\n" {
		t.Errorf("config memory_mb 64: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--memory", "64", "--vfs-bytes", "67108864"}, []string{"--vfs-bytes 67108864", "--memory 64"}},
		{[]string{"--vfs-bytes", "100000000"}, []string{"--vfs-bytes 100000000", "default memory limit (256 MiB)"}},
		{[]string{"--config", cfg, "--vfs-bytes", "30000000"}, []string{"--vfs-bytes 30000000", "limits.memory_mb 64 in " + cfg}},
		{[]string{"--memory", "8"}, []string{"--memory must be between 24 and 4096"}},
	} {
		code, _, stderr := cli(t, "", append(append([]string{"run"}, c.args...), "-e", "return 1")...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", c.args, code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q does not say %q", c.args, stderr, w)
			}
		}
	}
	// A VFS quota in the config against the flag's memory limit.
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("tools: [{name: t, echo: true}]\nlimits: {vfs_bytes: 67108864}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "", "run", "--config", big, "--memory", "64", "-e", "return 1"); code != 2 || !strings.Contains(stderr, "limits.vfs_bytes in "+big) || !strings.Contains(stderr, "--memory 64") {
		t.Errorf("config vfs_bytes with --memory 64: exit %d, stderr %q", code, stderr)
	}
}

// An expired time limit is a timeout, with exit 124, every time.
func TestCLITimeoutIsDeterministic(t *testing.T) {
	for i := range 20 {
		code, stdout, stderr := cli(t, "", "run", "--json", "--timeout", "1ns", "-e", "return 1")
		if code != 124 || !strings.Contains(stdout, `"kind":"timeout"`) {
			t.Fatalf("round %d: exit %d, stdout %q, stderr %q", i, code, stdout, stderr)
		}
	}
}
