package shell

import (
	"strings"
	"testing"
)

// A job whose standard input would be the script's reads an empty one, as
// in bash without job control.
func TestBackgroundJobStdin(t *testing.T) {
	res := run(t, `cat & wait; echo end; cat`, func(c *Config) { c.Stdin = strings.NewReader("data\n") })
	if res.stdout != "end\ndata\n" {
		t.Errorf("got %q (stderr %q)", res.stdout, res.stderr)
	}
}

func TestBackgroundJobs(t *testing.T) {
	cases := []struct{ name, script, out string }{
		{"wait-all", `echo a & echo b & wait; echo done`, "done\n"},
		{"status", `(exit 3) & wait $!; echo $?`, "3\n"},
		{"wait-all-status", `(exit 3) & wait; echo $?`, "0\n"},
		{"pid", `true & p=$!; [ -n "$p" ] && wait $p && echo ok`, "ok\n"},
		{"no-child", `wait 99999; echo $?`, "127\n"},
		{"job-spec", `(exit 4) & wait %1; echo $?`, "4\n"},
		{"wait-n", `(exit 5) & wait -n; echo $?`, "5\n"},
		{"stdin-pipe", `echo x | { cat & wait; }; echo end`, "x\nend\n"},
		{"variables", `v=1; { v=2; } & wait; echo $v`, "1\n"},
		{"no-wait", `echo tail &`, "tail\n"},
		{"pipeline", `echo b | cat & wait; echo c`, "b\nc\n"},
		{"subshell-waits", `( echo in & ); echo out`, "in\nout\n"},
		{"unset-bang", `echo "[$!]"`, "[]\n"},
		{"in-substitution", `x=$(echo a & wait; echo b); echo $x`, "a b\n"},
		{"jobs", `(exit 2) & wait; jobs; true & jobs -p > f; read -r p < f; [ "$p" = "$!" ] && echo same`, "same\n"},
		{"bad-pid", `wait x; echo $?`, "1\n"},
		{"function", `f() { echo in & }; f; wait; echo out`, "in\nout\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, c.script)
			got := res.stdout
			if c.name == "wait-all" {
				// a and b come in either order, before done.
				if !strings.HasSuffix(got, "done\n") || !strings.Contains(got, "a\n") || !strings.Contains(got, "b\n") {
					t.Errorf("got %q", got)
				}
				return
			}
			if got != c.out {
				t.Errorf("got %q, want %q (stderr %q)", got, c.out, res.stderr)
			}
		})
	}
}
