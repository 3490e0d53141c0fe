package coreutils

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command/commandtest"
)

// runWithin runs a command on the endless input and fails the test if it
// does not return within the limit.
func runWithin(t *testing.T, ctx context.Context, limit time.Duration, args []string) int {
	t.Helper()
	return commandtest.RunWithin(ctx, t, limit, allCommands(), setupFS(t, stdFiles), commandtest.Endless{}, args...).Status
}

// TestCancelWhileRunning cancels commands while they run on the endless
// input. That every command of the sandbox stops on a canceled context is
// TestCanceledContext of package shell/commands.
func TestCancelWhileRunning(t *testing.T) {
	cases := [][]string{
		{"yes"},
		{"seq", "1", "1000000000000"},
		{"seq", "0", "0.5", "1e300"},
		{"seq", "1", "1", "100000000000000000000000"},
		{"cat"},
		{"cat", "-n"},
		{"tail", "-n", "2"},
		{"tail", "-c", "5"},
		{"wc", "-l"},
		{"sha256sum"},
		{"tee"},
		{"rev"},
		{"fold", "-w", "3"},
		{"nl"},
		{"xargs", "-n", "1", "true"},
		{"sleep", "infinity"},
		{"jq", "-n", "range(1e18)"},
		{"jq", "-n", "[limit(1e9; repeat(1))] | length"},
		{"jq", "-n", "def f: f; f"},
		{"jq", "-n", "last(range(1e18))"},
		{"jq", "-R", "."},
		{"find", "/", "-exec", "true", "{}", ";", "-name", "nothing"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
			st := runWithin(t, ctx, 10*time.Second, args)
			cancel()
			if st == 0 && args[0] != "find" {
				t.Errorf("%q: status 0 after cancellation", args)
			}
		})
	}
}

func TestStopOnClosedOutput(t *testing.T) {
	for _, args := range [][]string{{"yes"}, {"seq", "1000000000000"}, {"cat"}, {"jq", "-n", "range(1e18)"}} {
		env := newTestEnv(t, args...)
		env.Stdin = commandtest.Endless{}
		w := &limitWriter{limit: 1000}
		env.Stdout = w
		done := make(chan int, 1)
		go func() { done <- allCommands()[args[0]](env) }()
		select {
		case st := <-done:
			if st == 0 {
				t.Errorf("%q: status 0 on a closed output", args)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q did not stop on a closed output", args)
		}
	}
}

func TestHostileInputs(t *testing.T) {
	// Huge lines, many lines and odd bytes must not break the commands.
	big := strings.Repeat("x", 3<<20) + "\n" + strings.Repeat("a b\n", 100000)
	for _, args := range [][]string{
		{"cat", "-A"}, {"head", "-n", "-1"}, {"tail", "-n", "1"}, {"wc"}, {"rev"}, {"nl"}, {"fold", "-w", "7"},
		{"sha1sum"}, {"jq", "-R", "length"}, {"paste", "-s", "-"}, {"find", "."},
	} {
		start := time.Now()
		r := run(t, nil, nil, big, args...)
		if r.Status != 0 {
			t.Errorf("%q: status %d %q", args, r.Status, r.Err)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("%q: took %v", args, d)
		}
	}
	// GNU xargs rejects arguments longer than its buffer in the same way.
	if r := run(t, nil, nil, big, "xargs", "true"); r.Status != 1 || r.Err != "xargs: argument line too long\n" {
		t.Errorf("xargs: status %d %q", r.Status, r.Err)
	}
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	r := run(t, nil, nil, deep, "jq", "-c", ".")
	if r.Status == 0 || !strings.Contains(r.Err, "Exceeds depth limit") {
		t.Errorf("deep JSON: %d %q", r.Status, r.Err)
	}
	r = run(t, nil, nil, "", "jq", "-nc", "reduce range(20000) as $i (0; [.])|length")
	if r.Status != 0 {
		t.Errorf("deep value: %d %q", r.Status, r.Err)
	}
	r = run(t, nil, nil, "", "jq", "-nc", "reduce range(20000) as $i (0; [.])")
	if r.Status != 0 || !strings.Contains(r.Out, "<stripped: exceeds max depth>") {
		t.Errorf("deep output: %d %q", r.Status, r.Err)
	}
}

func TestJqLargeInput(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 30000; i++ {
		sb.WriteString(`{"id":` + strconv.Itoa(i) + `,"name":"item","tags":["a","b"],"nested":{"z":1,"y":[1.5,2]}}` + "\n")
	}
	start := time.Now()
	r := run(t, nil, nil, sb.String(), "jq", "-c", "{id, n: .name} | select(.id % 2 == 0)")
	if r.Status != 0 || strings.Count(r.Out, "\n") != 15000 || !strings.HasPrefix(r.Out, `{"id":0,"n":"item"}`) {
		t.Errorf("status %d, %d lines, %.100q", r.Status, strings.Count(r.Out, "\n"), r.Out)
	}
	r = run(t, nil, nil, sb.String(), "jq", ".")
	if r.Status != 0 || !strings.HasPrefix(r.Out, "{\n  \"id\": 0,\n  \"name\": \"item\",") {
		t.Errorf("status %d, %.100q", r.Status, r.Out)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v", d)
	}
}
