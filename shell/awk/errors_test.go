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
		{"syntax error context: in an action, an illegal statement", []string{"BEGIN { x = }"}, "", "", "awk: line 1: syntax error at or near }\n context is\n\tBEGIN { x =  >>> } <<< \nawk: syntax error at source line 1: illegal statement\n", 2},
		{"syntax error outside an action: bailing out, with the brackets left unbalanced", []string{"{ print }}}"}, "", "", "awk: line 1: syntax error at or near }\n context is\n\t{ print } >>> } <<< }\nawk: syntax error at source line 1: bailing out\n\t2 extra }'s\n", 2},
		{"missing brace noted", []string{"{{ print }"}, "", "", "awk: line 1: syntax error: unexpected end of input\n context is\n\t{{ print } >>>  <<< \nawk: syntax error at source line 1: illegal statement\n\tmissing }\n", 2},
		{"lexer error in an action", []string{"BEGIN { s { c /./ } }"}, "", "", "awk: line 1: syntax error at or near .\n context is\n\tBEGIN { s { c / >>> . <<< / } }\nawk: syntax error at source line 1: illegal statement\n", 2},
		{"extra paren", []string{"{ x = 1) }"}, "", "", "awk: line 1: syntax error at or near )\n context is\n\t{ x = 1 >>> ) <<<  }\nawk: syntax error at source line 1: illegal statement\n\textra )\n", 2},
		{"nested function", []string{"function x() { function g() {} }"}, "", "", "awk: line 1: illegal nested function\n", 2},
		{"nextfile in END", []string{"END { nextfile }"}, "", "", "awk: line 1: illegal break, continue, next or nextfile from END\n", 2},
		{"continue outside loop", []string{"{ continue }"}, "", "", "awk: line 1: continue illegal outside of loops\n", 2},
		{"duplicate parameter", []string{"function f(i,j,i) { return i }"}, "", "", "awk: line 1: duplicate argument i in function f\n", 2},
		{"function defined twice", []string{"function f() { print 1 }\nfunction f() { print 2 }"}, "", "", "awk: line 2: you can't define function f more than once\n", 2},
		{"array then function", []string{"{ split($0, x) }; function x() {}"}, "", "", "awk: line 1: x is an array, not a function\n", 2},
		{"function read as a value", []string{"function f(){}; {split($0, x, f)}"}, "", "", "awk: line 1: can't read value of f; it's a function.\n", 2},
		{"function assigned to", []string{"function f(){}; {f = split($0, x)}"}, "", "", "awk: line 1: can't assign to f; it's a function.\n", 2},
		{"function as an array argument", []string{"function f(){}; {split($0, f)}"}, "", "", "awk: line 1: f is a function, not an array\n", 2},
		{"function as an argument", []string{"BEGIN { f(f) }\nfunction f() { print \"x\" }"}, "", "", "awk: line 1: warning: function f called with 1 args, uses only 0\nawk: line 1: can't use function f as argument in f\n", 2},
		{"function subscripted", []string{"function f(){}; BEGIN { f[1] = 2 }"}, "", "", "awk: line 1: f is a function, not an array\n", 2},
		{"array assigned to", []string{"{x = split($0, x)}"}, "", "", "awk: line 1: can't assign to x; it's an array name.\n", 2},
		{"next from a function called from BEGIN", []string{"BEGIN { f(); print 2 }\nfunction f() { next }"}, "", "", "awk: next is illegal inside a function called from BEGIN\n", 2},
		{"nextfile from a function called from END", []string{"END { f(); print 2 }\nfunction f() { nextfile }"}, "", "", "awk: nextfile is illegal inside a function called from END\n", 2},
		{"next from a function called from a rule", []string{"{ f(); print 2 }\nfunction f() { if (NR == 1) next }"}, "a\nb\n", "2\n", "", 0},
		{"-safe: system", []string{"-safe", "BEGIN { print 1; system(\"echo x\") }"}, "", "1\n", "awk: system is unsafe\n", 2},
		{"-safe: cmd | getline", []string{"-v", "x=1", "-safe", "BEGIN { \"date\" | getline }"}, "", "", "awk: cmd | getline is unsafe\n", 2},
		{"-safe: print >", []string{"-safe", "BEGIN { print 1 > \"/tmp/x\" }"}, "", "", "awk: print > is unsafe\n", 2},
		{"-safe: print >>", []string{"-safe", "BEGIN { print 1 >> \"/tmp/x\" }"}, "", "", "awk: print >> is unsafe\n", 2},
		{"-safe: print |", []string{"-safe", "BEGIN { print 1 | \"cat\" }"}, "", "", "awk: print | is unsafe\n", 2},
		{"-safe: /dev/stderr, and no ENVIRON", []string{"-safe", "BEGIN { print length(ENVIRON) > \"/dev/stderr\" }"}, "", "", "0\n", 0},
		{"-safe is an option only before the program", []string{"BEGIN { print ARGV[1] }", "-safe"}, "", "-safe\n", "", 0},
		{"array parameter read as a scalar", []string{"function f(a) { print a; a[1] = 1 } BEGIN { f() }"}, "", "", "awk: line 1: function f: can't read value of a; it's an array name.\n", 2},
		{"array passed to a parameter used in for-in", []string{"BEGIN { foo[1]; g(foo) }\nfunction g(i) { for (i in foo) delete foo[i] }"}, "", "", "awk: line 2: function g: can't assign to foo (passed as i); it's an array name.\n", 2},
		{"positional printf argument", []string{"BEGIN { printf \"%2$s %1$s\\n\", \"a\", \"b\" }"}, "", "", "awk: '$' not permitted in awk formats: %2$s %1$s\n", 2},
		{"runtime error: the source line of the statement", []string{"BEGIN {\n\tx = 1\n\tprint x/0\n}"}, "", "", "awk: division by zero\n source line number 3\n", 2},
		{"runtime error in a function: the line in the function", []string{"function f(a) {\n\treturn a % 0\n}\nBEGIN { f(1) }"}, "", "", "awk: division by zero in mod\n source line number 2\n", 2},
		{"runtime error in one of several program files: the file and the line in it", []string{"-e", "BEGIN { x = 1 }", "-f", "div.awk"}, "", "", "awk: division by zero\n source line number 2 source file div.awk\n", 2},
		{"negative NF", []string{"BEGIN { NF = -5 }"}, "", "", "awk: cannot set NF to a negative value\n source line number 1\n", 2},
		{"unknown printf conversion: copied, with a warning once", []string{"BEGIN { for (i = 0; i < 3; i++) printf(\"%z|%5k|\\n\", \"foo\") }"}, "", "%z|%5k|\n%z|%5k|\n%z|%5k|\n", "awk: warning: weird printf conversion %z|\nawk: warning: weird printf conversion %5k\n", 0},
		{"field past any record", []string{"{ print $40000000000000 }"}, "x\n", "", "awk: trying to access out of range field 40000000000000\n", 2},
		{"field past the record", []string{"{ print $2000000 \"|\" }"}, "x\n", "|\n", "", 0},
		{"atan2 with one argument", []string{"BEGIN { atan2(1) }"}, "", "", "awk: line 1: atan2 requires two args, not 1\n", 2},
		{"index with a regex", []string{"BEGIN { index(\"abc\", /a/) }"}, "", "", "awk: line 1: index() doesn't permit regular expressions\n", 2},
		{"length with two arguments", []string{"BEGIN { length(\"abc\", \"def\") }"}, "", "", "awk: line 1: length: function has too many arguments (2; it takes at most 1)\n", 2},
		{"unclosed bracket in a regex literal", []string{"/[[/"}, "", "", "awk: line 1: nonterminated character class in regular expression /[[/...\n", 2},
		{"unclosed bracket in a dynamic regex", []string{"BEGIN { s = \"[x\"; if (1 ~ s) print \"foo\"}"}, "", "", "awk: nonterminated character class \"[x\": ", 2},
		{"regex syntax error", []string{"/((.)/"}, "", "", "awk: line 1: syntax error in regular expression /((.)/: ", 2},
		{"log of a negative number: a warning and nan", []string{"BEGIN { print log(-1) }"}, "", "-nan\n", "awk: warning: log argument out of domain: log(-1)\n", 0},
		{"exp overflow: a warning and inf", []string{"BEGIN { print exp(1000) }"}, "", "+inf\n", "awk: warning: exp result out of range: exp(1000)\n", 0},
		{"division by zero in /=", []string{"BEGIN { x = 1; print x /= 0 }"}, "", "", "awk: division by zero in /=\n", 2},
		{"modulo by zero", []string{"BEGIN { print 1%0 }"}, "", "", "awk: division by zero in mod\n", 2},
		{"syntax error line 2", []string{"BEGIN {\n  print 1 +* 2\n}"}, "", "", "awk: line 2: syntax error at or near *\n", 2},
		{"missing brace", []string{"BEGIN { print"}, "", "", "awk: line 1: syntax error: unexpected end of input\n", 2},
		{"unterminated string", []string{"BEGIN { print \"abc }"}, "", "", "awk: line 1: non-terminated string \"abc }...\n", 2},
		{"unterminated regex", []string{"/abc"}, "", "", "awk: line 1: non-terminated regular expression /abc...\n", 2},
		{"bad regex", []string{"/a(/"}, "", "", "awk: line 1: illegal primary in regular expression /a(/: ", 2},
		{"undefined function", []string{"BEGIN { f(1) }"}, "", "", "awk: line 1: calling undefined function f\n", 2},
		{"too many args: a warning, and it runs", []string{"function f(a) { return a * 2 } BEGIN { print f(1, 2, x++), x }"}, "", "2 1\n", "awk: line 1: warning: function f called with 3 args, uses only 1\n", 0},
		{"array as scalar", []string{"BEGIN { a[1] = 1; print a }"}, "", "", "awk: line 1: can't read value of a; it's an array name.\n", 2},
		{"syntax error in a program file: its name and line", []string{"-f", "lib.awk", "-e", "BEGIN { x = 1 }", "-f", "bad.awk"}, "", "", "awk: bad.awk: line 2: syntax error at or near ]\n context is\n\t >>> ] <<< \nawk: syntax error at source line 2 source file bad.awk: illegal statement\n", 2},
		{"array as scalar: the line of the scalar use", []string{"BEGIN {\n\tsub(/x/, \"\", a)\n\ta[1]\n}"}, "", "", "awk: line 2: can't read value of a; it's an array name.\n", 2},
		{"next in BEGIN", []string{"BEGIN { next }"}, "", "", "awk: line 1: illegal break, continue, next or nextfile from BEGIN\n", 2},
		{"break outside loop", []string{"BEGIN { break }"}, "", "", "awk: line 1: break illegal outside of loops\n", 2},
		{"return outside function", []string{"BEGIN { return 1 }"}, "", "", "awk: line 1: return not in function\n", 2},
		{"builtin arg count", []string{"BEGIN { substr(1) }"}, "", "", "awk: line 1: 1 is invalid as number of arguments for substr\n", 2},
		{"division by zero", []string{"BEGIN { print 1; print 1/0 }"}, "", "1\n", "awk: division by zero\n", 2},
		{"modulo by zero", []string{"BEGIN { x %= 0 }"}, "", "", "awk: division by zero in %=\n", 2},
		{"printf args", []string{"BEGIN { printf \"%s %s\", 1 }"}, "", "", "awk: not enough args in printf(%s %s)\n source line number 1\n", 2},
		{"printf huge width", []string{"BEGIN { printf \"%*d\", 1e12, 1 }"}, "", "", "awk: printf: width or precision too large\n", 2},
		{"negative field", []string{"{ print $(-1) }"}, "a\n", "", "awk: trying to access out of range field -1\n", 2},
		{"huge field", []string{"BEGIN { $5000000 = 1 }"}, "", "", "awk: field index 5000000 too large\n", 2},
		{"huge NF", []string{"BEGIN { NF = 1e9 }"}, "", "", "awk: NF value 1000000000 too large\n", 2},
		{"recursion", []string{"function f(n) { return f(n + 1) } BEGIN { f(1) }"}, "", "", "awk: function call nesting too deep (more than 1000 levels) in f\n", 2},
		{"missing file", []string{"{ print }", "data1.txt", "nope.txt"}, "", "x 1\ny 2\nx 3\n", "awk: can't open file nope.txt for reading: No such file or directory\n", 2},
		{"directory input", []string{"{ print }", "/workspace"}, "", "", "awk: can't open file /workspace for reading: Is a directory\n", 2},
		{"missing progfile", []string{"-f", "nope.awk"}, "", "", "awk: fatal: can't open source file `nope.awk' for reading: No such file or directory\n", 2},
		{"bad -v", []string{"-v", "1x=2", "BEGIN { }"}, "", "", "awk: invalid -v option argument: 1x=2 (not a valid var=value)\n", 2},
		{"no program", nil, "", "", "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...\n", 2},
		{"bad option", []string{"-Z", "1"}, "", "", "awk: invalid option -- 'Z'\nUsage: awk", 2},
		{"redirect to read-only", []string{"BEGIN { print 1 > \"/etc/x\" }"}, "", "", "awk: can't open file /etc/x for output: ", 2},
		{"redirect to null name", []string{"BEGIN { print 1 > \"\" }"}, "", "", "awk: null file name in print or getline: the expression for `>' redirection has a null string value\n", 2},
		{"bad dynamic regex", []string{"BEGIN { print \"a\" ~ \"(\" }"}, "", "", "awk: illegal primary in regular expression \"(\": ", 2},
		{"scalar param as array", []string{"function f(a) { a[1] = 1 } BEGIN { f(1) }"}, "", "", "awk: function f: attempt to use scalar parameter a as an array\n", 2},
		{"assign to array param", []string{"function f(a) { a = 1 } BEGIN { x[1]; f(x) }"}, "", "", "awk: line 1: function f: can't assign to x (passed as a); it's an array name.\n", 2},
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
