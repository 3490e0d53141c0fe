package awk

import (
	"context"
	"testing"
)

// TestReferenceCompat checks behaviour where this awk differed from every
// reference awk (onetrueawk, gawk, mawk) on gawk's and onetrueawk's test
// programs. The expected outputs are those three awks' common output.
func TestReferenceCompat(t *testing.T) {
	tests := []struct {
		name, prog, stdin, want string
	}{
		// printf
		{"%#.0o of zero prints 0", `BEGIN { printf "%#.0o|%#o|%#.1o\n", 0, 0, 0 }`, "", "0|0|0\n"},
		{"%#0 width counts the 0x prefix", `BEGIN { printf "%#05x|%#06X|%#5x|%#-6x|%#05x\n", 45, 45, 45, 45, 0 }`, "", "0x02d|0X002D| 0x2d|0x2d  |00000\n"},
		{"%c of a for-in key is its first character", `BEGIN { x[65]; for (i in x) printf "%c\n", i }`, "", "6\n"},
		{"%c of a numeric field is a character code", `{ printf "%c\n", $1 }`, "65\n", "A\n"},
		// for-in keys are strings, as in onetrueawk and mawk (gawk keeps
		// integer keys numeric).
		{"for-in key compares as a string", `BEGIN { x[10]; for (k in x) print (k < 9) }`, "", "1\n"},
		// $0 assigned a string
		{"$0 assigned a string is a string", `BEGIN { $0 = "0"; print !$0; $0 = a = "00E0"; print ($0 && 1), ($0 != "") }`, "", "0\n1 1\n"},
		{"fields of an assigned $0 are strnums", `BEGIN { $0 = "0 00E0"; print !$1, ($2 == 0) }`, "", "1 1\n"},
		{"$0 from input stays a strnum", `{ print !$0 }`, "0\n", "1\n"},
		// cmd | getline followed by operators
		{"cmd | getline var concatenated", `BEGIN { cmd = "echo 3"; y = 7; print (cmd | getline x y); close(cmd) }`, "", "17\n"},
		{"cmd | getline var plus", `BEGIN { cmd = "echo B"; a = (cmd | getline x + 1); print a, x }`, "", "2 B\n"},
		{"cmd | getline compared", `BEGIN { while (("echo a" | getline l) > 0) n++; print n, l }`, "", "1 a\n"},
		// $ with a signed operand
		{"$+i++ increments i", `BEGIN { $0 = "a b c"; i = 1; x = $+i++; y = $- -i++; print x, y, i }`, "", "a b 3\n"},
		{"$-expr still negates", `BEGIN { $0 = "a b"; i = -2; print $-i }`, "", "b\n"},
		{"$$0++ increments the inner field", `{ $$0++; print $0 }`, "2 3 4\n", "3\n"},
		{"$$a++++ increments both fields", `BEGIN { $0 = "3 4 5 6 7 8 9"; a = 3; print $$a++++; print }`, "", "7\n3 4 6 6 8 8 9\n"},
		// an assignment as the right operand of && || ~ and comparisons
		{"1 && x = 2", `BEGIN { if (1 && x = 2) print "t", x }`, "", "t 2\n"},
		{"0 || x += 2", `BEGIN { if (0 || x += 2) print "t", x }`, "", "t 2\n"},
		{"assignments after every operator", `BEGIN { print(1&&x=2, 1||x=2, 1~x=2, 1!~x=2, 1==x=2, 1!=x=2, 1<x=2, 1<=x=2, 1>x=2, 1>=x=2); print x }`, "", "1 1 0 1 0 1 1 1 0 0\n2\n"},
		// NF keeps the value assigned to it
		{"NF keeps an assigned string", `BEGIN { NF = "3.14x"; print NF; NF++; print NF; $5 = "a"; print NF } { print NF }`, "a b c\n", "3.14x\n4.14\n5\n3\n"},
		// initial values and return values
		{"RLENGTH starts at 0", `BEGIN { print RSTART, RLENGTH }`, "", "0 0\n"},
		{"srand(srand()) returns the time seed", `BEGIN { srand(7); s = srand(srand()); print (s > 1000000000) }`, "", "1\n"},
		{"srand returns the previous seed", `BEGIN { srand(7); print srand(8), srand() }`, "", "7 8\n"},
		// commands read awk's standard input
		{"cmd | getline reads stdin", `BEGIN { "cat" | getline; print; close("cat") }`, "hi\n", "hi\n"},
		{"system() reads stdin", `BEGIN { system("cat") }`, "foo\nbar", "foo\nbar"},
		{"a command that does not read leaves stdin", `{ "echo x" | getline v; close("echo x"); print $0, v }`, "a\nb\nc\n", "a x\nb x\nc x\n"},
		{"fflush(\"\") flushes all and returns 0", `BEGIN { print "x"; print fflush("") }`, "", "x\n0\n"},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, status, _ := runAwk(t, context.Background(), []string{c.prog}, c.stdin)
			if out != c.want || status != 0 {
				t.Errorf("awk %q\nstdout: %q\nwant:   %q\nstatus %d\nstderr: %s", c.prog, out, c.want, status, errOut)
			}
		})
	}
}
