package shell

import (
	"strings"
	"testing"
)

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
