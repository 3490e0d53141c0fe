package sysutils

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/command/commandtest"
)

func TestTimeout(t *testing.T) {
	cases := []struct {
		args []string
		out  string
		err  string
		st   int
	}{
		{[]string{"timeout", "0.05", "sleep", "10"}, "", "", 124},
		{[]string{"timeout", "5", "true"}, "", "", 0},
		{[]string{"timeout", "5", "false"}, "", "", 1},
		{[]string{"timeout", "0", "echo", "hi"}, "hi\n", "", 0},
		{[]string{"timeout", "1m", "echo", "a", "-v"}, "a -v\n", "", 0},
		{[]string{"timeout", "0.05", "spin"}, "", "", 124},
		{[]string{"timeout", "50e-3", "sleep", "10"}, "", "", 124},
		{[]string{"timeout", "-s", "KILL", "0.05", "sleep", "10"}, "", "", 137},
		{[]string{"timeout", "--preserve-status", "0.05", "sleep", "10"}, "", "", 143},
		{[]string{"timeout", "-s", "INT", "--preserve-status", "0.05", "sleep", "10"}, "", "", 130},
		{[]string{"timeout", "-v", "0.05", "sleep", "10"}, "", "timeout: sending signal TERM to command ‘sleep’\n", 124},
		{[]string{"timeout", "-k", "1", "0.05", "sleep", "10"}, "", "", 124},
		{[]string{"timeout", "0.1x", "true"}, "", "timeout: invalid time interval ‘0.1x’\nTry 'timeout --help' for more information.\n", 125},
		{[]string{"timeout", "-s", "FOO", "1", "true"}, "", "timeout: ‘FOO’: invalid signal\nTry 'timeout --help' for more information.\n", 125},
		{[]string{"timeout", "1"}, "", "Try 'timeout --help' for more information.\n", 125},
		{[]string{"timeout", "1", "nonexist"}, "", "sh: nonexist: command not found\n", 127},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			start := time.Now()
			r := commandtest.Run(t, Commands(), commandtest.NewFS(t, nil), "", c.args...)
			if r.Out != c.out || r.Status != c.st || r.Err != c.err {
				t.Errorf("got out %q err %q status %d; want out %q err %q status %d", r.Out, r.Err, r.Status, c.out, c.err, c.st)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
		})
	}
	// A canceled execution stops the command and timeout with it.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	r := commandtest.RunCtx(ctx, t, Commands(), commandtest.NewFS(t, nil), strings.NewReader(""), "timeout", "100", "sleep", "10")
	if r.Status != 130 {
		t.Errorf("canceled: status %d", r.Status)
	}
}

// TestTimeoutInShell runs timeout in the real shell, where the command is
// a shell construct that only the shell's own polling can stop.
func TestTimeoutInShell(t *testing.T) {
	reg := command.Registry{}.Merge(Commands())
	reg["cat"] = func(env *command.Env) int {
		io.Copy(env.Stdout, env.Stdin)
		return 0
	}
	cases := []struct {
		script string
		out    string
	}{
		{`timeout 0.1 sh -c 'while :; do :; done'; echo "st=$?"`, "st=124\n"},
		{`f() { while :; do :; done; }; export -f f; timeout 0.1 bash -c f; echo "st=$?"`, "st=124\n"},
		{`timeout 5 sh -c 'echo in; exit 3'; echo "st=$?"`, "in\nst=3\n"},
		{`timeout 0.1 sh -c 'while :; do :; done' | cat; echo "after ${PIPESTATUS[0]}"`, "after 124\n"},
	}
	for _, c := range cases {
		t.Run(c.script, func(t *testing.T) {
			var out, errb bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			fsys := commandtest.NewFS(t, nil)
			st, err := shell.Run(ctx, shell.Config{FS: fsys, Commands: reg, Stdout: &out, Stderr: &errb, Dir: "/workspace",
				Now: commandtest.Now}, "t", c.script)
			if err != nil || st != 0 || out.String() != c.out {
				t.Errorf("status %d err %v out %q stderr %q; want %q", st, err, out.String(), errb.String(), c.out)
			}
		})
	}
}

// runScript runs a script in the real shell with the commands of reg.
func runScript(t *testing.T, reg command.Registry, script string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	fsys := commandtest.NewFS(t, map[string]string{"bin/tool.sh": "echo hi\n", "bin/cat": "echo fake\n"})
	fsys.MkdirAll("/workspace/bin2", 0o755)
	fsys.WriteFile("/workspace/bin2/tool.sh", []byte("echo two\n"), 0o755)
	st, err := shell.Run(ctx, shell.Config{FS: fsys, Commands: reg, Stdout: &out, Stderr: &errb, Dir: "/workspace",
		Now: commandtest.Now}, "t", script)
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), st
}

// TestWhich checks which against the shell's type -P and command -v.
func TestWhich(t *testing.T) {
	reg := command.Registry{}.Merge(Commands())
	reg["cat"] = func(env *command.Env) int { return 0 }
	cases := []struct {
		script string
		out    string
	}{
		{`which cat; echo $?`, "/usr/bin/cat\n0\n"},
		{`which which timeout expr`, "/usr/bin/which\n/usr/bin/timeout\n/usr/bin/expr\n"},
		{`which sh bash echo; echo $?`, "/usr/bin/sh\n/usr/bin/bash\n/usr/bin/echo\n0\n"},
		{`which nonexist cat; echo $?`, "/usr/bin/cat\n1\n"},
		{`which cd; echo $?`, "1\n"},
		{`f() { :; }; which f; echo $?`, "1\n"},
		{`cat() { :; }; which cat`, "/usr/bin/cat\n"},
		{`alias cat=ls; which cat`, "/usr/bin/cat\n"},
		{`PATH=/workspace/bin2:$PATH; which tool.sh; type -p tool.sh; type tool.sh; command -v tool.sh`,
			"/workspace/bin2/tool.sh\n/workspace/bin2/tool.sh\ntool.sh is /workspace/bin2/tool.sh\n/workspace/bin2/tool.sh\n"},
		// A file without execute permission is no command.
		// (command -v reports it when there is nothing better, as bash does.)
		{`PATH=/workspace/bin:$PATH; which tool.sh; echo $?; command -v tool.sh; echo $?`, "1\n/workspace/bin/tool.sh\n0\n"},
		{`PATH=/workspace/bin:/workspace/bin2:$PATH; which tool.sh; which -a tool.sh`, "/workspace/bin2/tool.sh\n/workspace/bin2/tool.sh\n"},
		{`PATH=/workspace/bin:$PATH; which -a cat`, "/usr/bin/cat\n/bin/cat\n"}, // /bin is /usr/bin, as on merged-/usr systems
		{`which ./bin2/tool.sh`, "./bin2/tool.sh\n"},
		{`which ./bin/tool.sh; echo $?`, "1\n"},
		{`which -x cat; echo $?`, "2\n"},
		{`which -- cat`, "/usr/bin/cat\n"},
		{`type -P echo cat; type -p echo; echo $?; type -P cd; echo $?`, "/usr/bin/echo\n/usr/bin/cat\n0\n1\n"},
		{`type -p cat; command -v cat; type cat`, "/usr/bin/cat\n/usr/bin/cat\ncat is /usr/bin/cat\n"},
	}
	for _, c := range cases {
		t.Run(c.script, func(t *testing.T) {
			out, errs, _ := runScript(t, reg, c.script)
			if out != c.out {
				t.Errorf("got %q (stderr %q), want %q", out, errs, c.out)
			}
		})
	}
}
