package main

import (
	"strings"
	"testing"
)

// Every command and subcommand answers -h, -help and --help, and `cordon
// help` answers for each of them, with its usage on stdout, nothing on
// stderr and exit 0, without doing the command's work (mcp serves
// nothing, precompile compiles nothing). `cordon policy --help` exited 2.
func TestHelpForEveryCommand(t *testing.T) {
	commands := [][]string{
		{"run"}, {"mcp"}, {"describe"}, {"precompile"}, {"version"},
		{"policy"}, {"policy", "compile"}, {"policy", "lint"}, {"policy", "test"}, {"policy", "schema"},
	}
	var forms [][]string
	for _, cmd := range commands {
		for _, flag := range []string{"-h", "-help", "--help"} {
			forms = append(forms, append(cmd[:len(cmd):len(cmd)], flag))
		}
		forms = append(forms, append([]string{"help"}, cmd...))
		if len(cmd) == 2 {
			forms = append(forms, []string{"policy", "help", cmd[1]})
		}
	}
	forms = append(forms,
		[]string{"help"}, []string{"-h"}, []string{"-help"}, []string{"--help"}, []string{"help", "help"},
		[]string{"policy", "help"},
		// Flags before the help flag do not matter, nor do arguments.
		[]string{"run", "-e", "1", "--help"}, []string{"mcp", "-q", "--http", "127.0.0.1:0", "--help"},
		[]string{"policy", "test", "--config", "c.yaml", "-h"}, []string{"precompile", "-q", "--help"})
	for _, args := range forms {
		code, stdout, stderr := cli(t, "", args...)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage:") {
			t.Errorf("%q: exit %d, stdout %.40q, stderr %q; want exit 0 and the usage on stdout", args, code, stdout, stderr)
		}
	}
	// run's help is its flags, -q among them.
	if _, stdout, _ := cli(t, "", "help", "run"); !strings.HasPrefix(stdout, "usage: cordon run") || !strings.Contains(stdout, "-q, --quiet") {
		t.Errorf("help run: %q", stdout)
	}
	// Help about something that does not exist is a usage error.
	for _, args := range [][]string{{"help", "frobnicate"}, {"policy", "help", "frobnicate"}, {"policy"}} {
		code, stdout, stderr := cli(t, "", args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "cordon: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, stdout, stderr)
		}
	}
}
