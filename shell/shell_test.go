package shell

import (
	"context"
	"errors"
	"io"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/internal/slack"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

func TestPipelineStreams(t *testing.T) {
	// yes never ends by itself: the pipeline ends because head1 exits
	// and closes its input.
	res := run(t, "yes | head1; echo ${PIPESTATUS[@]}")
	if res.stdout != "y\n141 0\n" || res.status != 0 {
		t.Fatalf("got %q status %d stderr %q", res.stdout, res.status, res.stderr)
	}
	if res.stderr != "" {
		t.Errorf("the SIGPIPE'd writer must be silent, stderr %q", res.stderr)
	}
	// A shell loop writing into a closed pipe dies too.
	res = run(t, "while true; do echo x; done | head1; echo done")
	if res.stdout != "x\ndone\n" {
		t.Fatalf("got %q status %d stderr %q", res.stdout, res.status, res.stderr)
	}
}

func TestPipelineSubshells(t *testing.T) {
	res := run(t, "x=1; echo 2 | read x; echo $x; shopt -s lastpipe; echo 3 | read x; echo $x")
	if res.stdout != "1\n3\n" {
		t.Fatalf("got %q", res.stdout)
	}
	res = run(t, "set -o pipefail; false | true; echo $?; true | false | true; echo ${PIPESTATUS[*]}")
	if res.stdout != "1\n0 1 0\n" {
		t.Fatalf("got %q", res.stdout)
	}
}

func TestRedirectsIntoVFS(t *testing.T) {
	script := `echo one > out.txt
echo two >> out.txt
echo err 2> err.txt 1>&2
{ echo a; echo b >&2; } &> both.txt
cat < out.txt > copy.txt
cat <<EOF > here.txt
x=$((1+2))
EOF
echo hidden > /dev/null
echo visible > /dev/stdout
set -o noclobber
echo again > out.txt || echo refused
echo forced >| copy.txt
`
	res := run(t, script)
	if res.stdout != "visible\nrefused\n" {
		t.Fatalf("stdout %q stderr %q", res.stdout, res.stderr)
	}
	want := map[string]string{
		"/workspace/out.txt":  "one\ntwo\n",
		"/workspace/err.txt":  "err\n",
		"/workspace/both.txt": "a\nb\n",
		"/workspace/copy.txt": "forced\n",
		"/workspace/here.txt": "x=3\n",
	}
	for name, content := range want {
		data, err := res.fs.ReadFile(name)
		if err != nil || string(data) != content {
			t.Errorf("%s: got %q, %v; want %q", name, data, err, content)
		}
	}
	if !strings.Contains(res.stderr, "out.txt: cannot overwrite existing file") {
		t.Errorf("stderr %q", res.stderr)
	}
}

func TestErrexit(t *testing.T) {
	tests := []struct{ script, out string }{
		{"set -e; false; echo no", ""},
		{"set -e; if false; then :; fi; false || true; ! true; echo yes", "yes\n"},
		{"set -e; f() { false; echo no; }; f; echo no", ""},
		{"set -e; f() { false; echo in; }; f || echo caught", "in\n"},
		{"set -e; (exit 3); echo no", ""},
		{"set -e; x=$(false); echo no", ""},
		{"set -e; false && true; echo yes", "yes\n"},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			res := run(t, tc.script)
			if res.stdout != tc.out {
				t.Errorf("%q: got %q status %d", tc.script, res.stdout, res.status)
			}
		})
	}
}

func TestUnsupported(t *testing.T) {
	tests := []struct{ script, msg string }{
		{"coproc cat", "coprocesses are not supported"},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			res := run(t, tc.script)
			if res.status != 2 || !strings.Contains(res.stderr, tc.msg) {
				t.Errorf("%q: status %d stderr %q", tc.script, res.status, res.stderr)
			}
			if strings.Contains(res.stdout, "b") || strings.Contains(res.stdout, "hi") {
				t.Errorf("%q: ran on after the error: %q", tc.script, res.stdout)
			}
		})
	}
}

func TestSyntaxError(t *testing.T) {
	res := run(t, "echo before\nif then\necho after")
	if res.status != 2 || res.stdout != "before\n" || !strings.Contains(res.stderr, "cordon: line 2: syntax error") {
		t.Fatalf("status %d stdout %q stderr %q", res.status, res.stdout, res.stderr)
	}
}

func TestMessages(t *testing.T) {
	tests := []struct {
		script, stderr string
		status         int
	}{
		{"nosuchcmd", "cordon: line 1: nosuchcmd: command not found\n", 127},
		{"\ncd /nope", "cordon: line 2: cd: /nope: No such file or directory\n", 1},
		{"readonly r=1; r=2", "cordon: line 1: r: readonly variable\n", 1},
		{"set -u; echo $nope", "cordon: line 1: nope: unbound variable\n", 127},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			res := run(t, tc.script)
			if res.stderr != tc.stderr || res.status != tc.status {
				t.Errorf("%q: status %d stderr %q", tc.script, res.status, res.stderr)
			}
		})
	}
}

func TestCancel(t *testing.T) {
	for _, script := range []string{
		"while true; do :; done",
		"yes | cat | cat > /dev/null",
		"while true; do echo y; done | while read l; do :; done",
		"f() { f; }; while true; do x=$(echo 1); done",
		"while true; do :; done < <(yes)",
		"while read l; do :; done < <(yes)",
	} {
		factor := slack.Factor(t)
		bound := slack.Times(2*time.Second, factor)
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		st, err := Run(ctx, Config{FS: vfs.New(vfs.Limits{}), Commands: testCommands(), Stdout: io.Discard, Stderr: io.Discard}, "cordon", script)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || st != CanceledStatus {
			t.Errorf("%q: status %d err %v", script, st, err)
		}
		if d := time.Since(start); d > bound {
			t.Errorf("%q: took %v, past %v", script, d, bound)
		}
		// No goroutine may outlive Run.
		deadline := time.Now().Add(slack.Times(time.Second, factor))
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			t.Errorf("%q: %d goroutines left (had %d)", script, n, before)
		}
	}
}

func TestRecursionLimit(t *testing.T) {
	res := run(t, "f() { f; }; f; echo next=$?\necho line2", func(c *Config) { c.MaxDepth = 50 })
	if !strings.Contains(res.stderr, "f: maximum function nesting level exceeded (50)") {
		t.Fatalf("stderr %q", res.stderr)
	}
	if res.stdout != "line2\n" {
		t.Fatalf("stdout %q", res.stdout)
	}
	res = run(t, `s='x=$(eval "$s")'; eval "$s"; echo survived`, func(c *Config) { c.MaxDepth = 30 })
	if !strings.Contains(res.stdout, "survived") {
		t.Fatalf("stdout %q stderr %q", res.stdout, res.stderr)
	}
}

func TestCommandPanicRecovered(t *testing.T) {
	res := run(t, "boom; echo status=$?")
	if res.stdout != "status=2\n" || !strings.Contains(res.stderr, "boom") {
		t.Fatalf("stdout %q stderr %q", res.stdout, res.stderr)
	}
}

func TestExecCallback(t *testing.T) {
	res := run(t, "f() { echo fn:$1; }; run f a; run echo builtin; run nosuch; echo $?")
	if res.stdout != "fn:a\nbuiltin\n127\n" {
		t.Fatalf("stdout %q stderr %q", res.stdout, res.stderr)
	}
}

func TestEnvAndArgs(t *testing.T) {
	res := run(t, `echo "$0 $1 $# $HOME $PWD $FOO"; cd /tmp; echo $PWD $OLDPWD`, func(c *Config) {
		c.Args = []string{"a1", "a2"}
		c.Env = []string{"FOO=bar", "HOME=/home/me"}
		c.Stdin = strings.NewReader("")
	})
	if res.stdout != "cordon a1 2 /home/me /workspace bar\n/tmp /workspace\n" {
		t.Fatalf("stdout %q", res.stdout)
	}
}

func TestReadStdin(t *testing.T) {
	res := run(t, `while read -r a b; do echo "[$a|$b]"; done; read x; echo $?`, func(c *Config) {
		c.Stdin = strings.NewReader("1 2 3\nfour\n")
	})
	if res.stdout != "[1|2 3]\n[four|]\n1\n" {
		t.Fatalf("stdout %q", res.stdout)
	}
}

func TestGlob(t *testing.T) {
	res := run(t, "touch_() { : > $1; }; touch_ b.txt; touch_ a.txt; touch_ .h.txt; touch_ c.md; echo *.txt; echo *.none; shopt -s nullglob; echo *.none end; echo [ab].*")
	if res.stdout != "a.txt b.txt\n*.none\nend\na.txt b.txt\n" {
		t.Fatalf("stdout %q stderr %q", res.stdout, res.stderr)
	}
}

func TestHostileInput(t *testing.T) {
	deep := strings.Repeat("(", 100000)
	for _, script := range []string{
		"echo $((" + deep + "1" + strings.Repeat(")", 100000) + "))",
		strings.Repeat("$(", 50000) + "echo" + strings.Repeat(")", 50000),
		"x='" + deep + "'; echo $((x))",
		"echo {1..100000000}",
		"x=" + strings.Repeat("[", 200000) + "; echo $x",
	} {
		bound := slack.Scale(t, 3*time.Second)
		start := time.Now()
		res := run(t, script)
		if res.err != nil || time.Since(start) > bound {
			t.Errorf("%.40q: status %d err %v after %v (bound %v)", script, res.status, res.err, time.Since(start), bound)
		}
	}
}

func TestNamedFd(t *testing.T) {
	res := run(t, "exec {fd}>f.txt; echo $fd; echo hello >&$fd; exec {fd}>&-; echo x >&$fd; cat < f.txt")
	if res.stdout != "10\nhello\n" || !strings.Contains(res.stderr, "10: Bad file descriptor") {
		t.Fatalf("stdout %q stderr %q", res.stdout, res.stderr)
	}
}

func TestShCommand(t *testing.T) {
	res := run(t, `bash -c 'echo "$0 $1 $#"; exit 3' name a b; echo st=$?
echo 'echo from file $1' > s.sh; sh s.sh arg
echo 'echo stdin' | bash
sh -e -c 'false; echo no'; echo st=$?
export E=exported; N=not; bash -c 'echo "$E-$N"'
f() { echo fn; }; export -f f; bash -c f`)
	want := "name a 2\nst=3\nfrom file arg\nstdin\nst=1\nexported-\nfn\n"
	if res.stdout != want {
		t.Fatalf("stdout %q stderr %q", res.stdout, res.stderr)
	}
}

func TestProcSubstRedirect(t *testing.T) {
	res := run(t, `n=0; while read -r l; do n=$((n+1)); last=$l; done < <(printf 'a\nb\nc\n'); echo "$n $last"
while read x; do echo got $x; break; done < <(yes); echo end`)
	if res.stdout != "3 c\ngot y\nend\n" || res.status != 0 {
		t.Fatalf("stdout %q status %d stderr %q", res.stdout, res.status, res.stderr)
	}
}

func TestCommandDeadline(t *testing.T) {
	// A command that only polls Env.Ctx.Err() must see the deadline even
	// if the context's timer has not fired (wasm has no preemption).
	spin := func(env *command.Env) int {
		for env.Ctx.Err() == nil {
		}
		return 1
	}
	bound := slack.Scale(t, 2*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Run(ctx, Config{FS: vfs.New(vfs.Limits{}), Commands: command.Registry{"spin": spin}, Stdout: io.Discard, Stderr: io.Discard}, "x", "spin")
	if err == nil || time.Since(start) > bound {
		t.Fatalf("err %v after %v (bound %v)", err, time.Since(start), bound)
	}
}

func TestPrintfHugeWidth(t *testing.T) {
	res := run(t, "printf '%*s' 1000000000 x; echo \"status=$?\"; printf '%.*f|%*d\\n' 2 3.14159 -4 7")
	if res.stdout != "status=1\n3.14|7   \n" || !strings.Contains(res.stderr, "too large") {
		t.Errorf("%q %q", res.stdout, res.stderr)
	}
}

// An associative array's subscript is a string, even when it looks like
// arithmetic (the parser cannot know the array's kind).
func TestAssocSubscriptLooksArithmetic(t *testing.T) {
	res := run(t, `declare -A a; a[1+1]=x; a[-1]=y; a[k]=z; echo "${a[1+1]}|${a[-1]}|${a[!0]}|${#a[1+1]}|${a[1,2]:-none}|${a[k]}"; [[ -v a[1+1] ]] && echo set`)
	if res.stdout != "x|y||1|none|z\nset\n" || res.stderr != "" {
		t.Errorf("%q %q", res.stdout, res.stderr)
	}
}

// env K=V cmd runs cmd with the changed environment, in the real shell.
func TestEnvChangesTheCommandsEnvironment(t *testing.T) {
	res := run(t, `export A=1 B=2; env -u B C=3 sh -c 'echo "$A-${B:-unset}-$C"'; env -i D=4 sh -c 'echo "[$A][$D]"'; echo "$A$B"`, func(c *Config) {
		c.Commands = command.Registry{"env": func(env *command.Env) int {
			// a minimal env: NAME=VALUE... cmd, with -i and -u
			vars := append([]string(nil), env.Environ...)
			args := env.Args[1:]
			for len(args) > 0 {
				switch {
				case args[0] == "-i":
					vars = []string{}
				case args[0] == "-u":
					args = args[1:]
					out := vars[:0]
					for _, kv := range vars {
						if !strings.HasPrefix(kv, args[0]+"=") {
							out = append(out, kv)
						}
					}
					vars = out
				case strings.Contains(args[0], "="):
					vars = append(vars, args[0])
				default:
					return env.Exec(env.Ctx, args, vars, env.Stdin, env.Stdout, env.Stderr)
				}
				args = args[1:]
			}
			return 0
		}}
	})
	if res.stdout != "1-unset-3\n[][4]\n12\n" {
		t.Errorf("%q %q", res.stdout, res.stderr)
	}
}

// TestCommandFDs checks that descriptors above 2 reach a command through
// Env.FD.
func TestCommandFDs(t *testing.T) {
	res := run(t, `echo three >/tmp/f; readfd 3 3</tmp/f; readfd 4 4</tmp/f 3<&-; readfd 3; exec 5>/tmp/g; writefd 5; cat </tmp/g`, func(c *Config) {
		c.Commands["readfd"] = func(env *command.Env) int {
			r, _, ok := env.FD(int(env.Args[1][0] - '0'))
			if !ok || r == nil {
				return env.Errorf(1, "%s: not open", env.Args[1])
			}
			b, _ := io.ReadAll(r)
			env.Stdout.Write(b)
			return 0
		}
		c.Commands["writefd"] = func(env *command.Env) int {
			_, w, ok := env.FD(int(env.Args[1][0] - '0'))
			if !ok || w == nil {
				return env.Errorf(1, "%s: not open", env.Args[1])
			}
			io.WriteString(w, "five\n")
			return 0
		}
	})
	if res.stdout != "three\nthree\nfive\n" || res.stderr != "readfd: 3: not open\n" {
		t.Fatalf("stdout %q stderr %q", res.stdout, res.stderr)
	}
}

func TestBuiltins(t *testing.T) {
	names := Builtins()
	if !sort.StringsAreSorted(names) || len(names) != len(builtins) {
		t.Fatalf("Builtins() = %q: not sorted, or not every builtin", names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			r := run(t, "type -t '"+name+"'")
			if r.stdout != "builtin\n" && r.stdout != "keyword\n" {
				t.Errorf("type -t %s: %q, want builtin", name, r.stdout)
			}
		})
	}
}
