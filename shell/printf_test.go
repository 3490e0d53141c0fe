package shell

import "testing"

// TestPrintfOrderAndStop: printf's output and its error messages reach one
// stream in the order they were made (the output was kept until the end,
// after the messages), and \c follows bash's builtin: literal in the
// format, the end of all output in a %b argument.
func TestPrintfOrderAndStop(t *testing.T) {
	cases := []struct{ script, want string }{
		{`printf '%d|%d|\n' 1 x 2>&1`, "1|cordon: line 1: printf: x: invalid number\n0|\n"},
		{`printf 'a%db%s\n' z q r 2 2>&1`, "acordon: line 1: printf: z: invalid number\n0bq\nacordon: line 1: printf: r: invalid number\n0b2\n"},
		// The bash 5.2 outputs of the same scripts.
		{`printf 'x\cy%s' 1; echo '|'`, "x\\cy1|\n"},
		{`printf '%s\c%s\n' a b c d; echo '|'`, "a\\cb\nc\\cd\n|\n"},
		{`printf '%b-%s\n' 'a\cb' c d e; echo '|'`, "a|\n"},
		{`printf '%q\c\n' 'a b'; echo '|'`, "a\\ b\\c\n|\n"},
	}
	for _, c := range cases {
		t.Run(c.script, func(t *testing.T) {
			res := run(t, c.script, func(cfg *Config) { cfg.Stderr = cfg.Stdout })
			if res.stdout != c.want {
				t.Errorf("%s:\n got  %q\n want %q", c.script, res.stdout, c.want)
			}
		})
	}
}
