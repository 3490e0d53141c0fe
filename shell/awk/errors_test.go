package awk

import (
	"context"
	"strings"
	"testing"
)

func TestErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		stdout string
		stderr string // expected prefix of stderr
		status int
	}{
		{"syntax error", []string{"BEGIN { x = }"}, "", "", "awk: line 1: syntax error at or near }\n", 2},
		{"syntax error caret", []string{"BEGIN { x = }"}, "", "", "awk: line 1: syntax error at or near }\nawk: line 1: BEGIN { x = }\nawk: line 1:             ^\n", 2},
		{"syntax error line 2", []string{"BEGIN {\n  print 1 +* 2\n}"}, "", "", "awk: line 2: syntax error at or near *\n", 2},
		{"missing brace", []string{"BEGIN { print"}, "", "", "awk: line 1: syntax error: unexpected end of input\n", 2},
		{"unterminated string", []string{"BEGIN { print \"abc }"}, "", "", "awk: line 1: runaway string constant \"abc } ...\n", 2},
		{"unterminated regex", []string{"/abc"}, "", "", "awk: line 1: runaway regular expression /abc ...\n", 2},
		{"bad regex", []string{"/a(/"}, "", "", "awk: line 1: regular expression /a(/: ", 2},
		{"undefined function", []string{"BEGIN { f(1) }"}, "", "", "awk: line 1: function `f' never defined\n", 2},
		{"too many args: a warning, and it runs", []string{"function f(a) { return a * 2 } BEGIN { print f(1, 2, x++), x }"}, "", "2 1\n", "awk: line 1: warning: function `f' called with more arguments than declared\n", 0},
		{"array as scalar", []string{"BEGIN { a[1] = 1; print a }"}, "", "", "awk: line 1: can't use array a in scalar context\n", 2},
		{"syntax error in a program file: its name and line", []string{"-f", "lib.awk", "-e", "BEGIN { x = 1 }", "-f", "bad.awk"}, "", "", "awk: bad.awk: line 2: syntax error at or near ]\nawk: bad.awk: line 2: ]\n", 2},
		{"array as scalar: the line of the scalar use", []string{"BEGIN {\n\tsub(/x/, \"\", a)\n\ta[1]\n}"}, "", "", "awk: line 2: can't use array a in scalar context\n", 2},
		{"next in BEGIN", []string{"BEGIN { next }"}, "", "", "awk: line 1: next used in BEGIN or END action\n", 2},
		{"break outside loop", []string{"BEGIN { break }"}, "", "", "awk: line 1: break is not allowed outside a loop\n", 2},
		{"return outside function", []string{"BEGIN { return 1 }"}, "", "", "awk: line 1: return used outside function context\n", 2},
		{"builtin arg count", []string{"BEGIN { substr(1) }"}, "", "", "awk: line 1: 1 is invalid as number of arguments for substr\n", 2},
		{"division by zero", []string{"BEGIN { print 1; print 1/0 }"}, "", "1\n", "awk: division by zero\n", 2},
		{"modulo by zero", []string{"BEGIN { x %= 0 }"}, "", "", "awk: division by zero in %\n", 2},
		{"printf args", []string{"BEGIN { printf \"%s %s\", 1 }"}, "", "", "awk: not enough arguments to satisfy format string\n", 2},
		{"printf huge width", []string{"BEGIN { printf \"%*d\", 1e12, 1 }"}, "", "", "awk: printf: width or precision too large\n", 2},
		{"negative field", []string{"{ print $(-1) }"}, "a\n", "", "awk: trying to access out of range field -1\n", 2},
		{"huge field", []string{"BEGIN { $5000000 = 1 }"}, "", "", "awk: field index 5000000 too large\n", 2},
		{"huge NF", []string{"BEGIN { NF = 1e9 }"}, "", "", "awk: NF value 1000000000 too large\n", 2},
		{"recursion", []string{"function f(n) { return f(n + 1) } BEGIN { f(1) }"}, "", "", "awk: function call nesting too deep (more than 1000 levels) in f\n", 2},
		{"missing file", []string{"{ print }", "data1.txt", "nope.txt"}, "", "x 1\ny 2\nx 3\n", "awk: cannot open file `nope.txt' for reading: No such file or directory\n", 2},
		{"directory input", []string{"{ print }", "/workspace"}, "", "", "awk: cannot open file `/workspace' for reading: Is a directory\n", 2},
		{"missing progfile", []string{"-f", "nope.awk"}, "", "", "awk: fatal: can't open source file `nope.awk' for reading: No such file or directory\n", 2},
		{"bad -v", []string{"-v", "1x=2", "BEGIN { }"}, "", "", "awk: fatal: `1x=2' argument to `-v' not in `var=value' form\n", 2},
		{"no program", nil, "", "", "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...\n", 2},
		{"bad option", []string{"-Z", "1"}, "", "", "awk: invalid option -- 'Z'\nUsage: awk", 2},
		{"redirect to read-only", []string{"BEGIN { print 1 > \"/etc/x\" }"}, "", "", "awk: can't redirect to `/etc/x' (", 2},
		{"redirect to null name", []string{"BEGIN { print 1 > \"\" }"}, "", "", "awk: expression for `>' redirection has null string value\n", 2},
		{"bad dynamic regex", []string{"BEGIN { print \"a\" ~ \"(\" }"}, "", "", "awk: regular expression \"(\": ", 2},
		{"scalar param as array", []string{"function f(a) { a[1] = 1 } BEGIN { f(1) }"}, "", "", "awk: function f: attempt to use scalar parameter a as an array\n", 2},
		{"assign to array param", []string{"function f(a) { a = 1 } BEGIN { x[1]; f(x) }"}, "", "", "awk: line 1: function `f': can't use array a in scalar context\n", 2},
		{"unknown command", []string{"BEGIN { print system(\"nosuch\") }"}, "", "127\n", "nosuch: command not found\n", 0},
		{"version", []string{"--version"}, "", "awk (cordon) 1.0, a POSIX awk\n", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, status, _ := runAwk(t, context.Background(), tt.args, tt.stdin)
			if out != tt.stdout || status != tt.status || !strings.HasPrefix(errOut, tt.stderr) || (tt.stderr == "" && errOut != "") {
				t.Errorf("awk %q\nstdout %q, want %q\nstatus %d, want %d\nstderr %q\nwant prefix %q", tt.args, out, tt.stdout, status, tt.status, errOut, tt.stderr)
			}
		})
	}
}
