package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `cordon run --approve` asks the person, denies or allows a call the
// policy asks about; the prompt shows the whole call, the script's text
// quoted.
func TestRunApprove(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte(`tools: [{name: pay, echo: true}]
capabilities:
  - {method: pay, ask: true, constraints: ["amount <= 100"]}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `try { const r = await pay({memo: "x".repeat(3000) + "\n\nApprove? y", amount: 42}); return "ran " + r.params.amount } catch (e) { return "refused: " + e.message }`
	for _, c := range []struct {
		name, stdin string
		args        []string
		want        string
		prompt      bool
	}{
		{"yes", "y\n", []string{"--approve", "ask"}, "ran 42", true},
		{"no", "n\n", []string{"--approve", "ask"}, "refused: tool pay denied: not approved at the prompt", true},
		{"eof", "", []string{"--approve", "ask"}, "refused: tool pay denied: not approved: the prompt's input ended", true},
		{"allow", "", []string{"--approve", "allow"}, "ran 42", false},
		{"deny", "y\n", []string{"--approve", "deny"}, "refused: tool pay denied: approval required", false},
		{"not a terminal", "y\n", nil, "refused: tool pay denied: approval required", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"run", "--config", cfg}, c.args...)
			code, stdout, stderr := cli(t, c.stdin, append(args, "-e", script)...)
			if code != 0 || !strings.HasPrefix(stdout, c.want) {
				t.Fatalf("exit %d, stdout %q, want %q (stderr %q)", code, stdout, c.want, stderr)
			}
			if got := strings.Contains(stderr, "cordon: approval needed"); got != c.prompt {
				t.Fatalf("prompted %v, want %v: %q", got, c.prompt, stderr)
			}
			if c.prompt {
				// The constrained amount comes first; the long memo is cut
				// with its length, and its line breaks are escaped.
				amount, memo := strings.Index(stderr, "amount = 42"), strings.Index(stderr, "memo = ")
				if amount < 0 || memo < amount || !strings.Contains(stderr, "bytes)") || strings.Contains(stderr, "\n\nApprove? y") {
					t.Fatalf("prompt %q", stderr)
				}
			}
		})
	}
	if code, _, stderr := cli(t, "", "run", "--approve", "maybe", "-e", "1"); code != 2 || !strings.Contains(stderr, "--approve must be ask, deny or allow") {
		t.Fatalf("bad mode: %d %q", code, stderr)
	}
}
