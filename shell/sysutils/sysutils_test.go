package sysutils

import (
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell/command/commandtest"
)

// gnuCase is a command line run both here and, when it is installed, with
// the host's GNU tool.
type gnuCase struct {
	args []string
	out  string
	err  string
	st   int
}

// runCases runs the table, and checks it against GNU when the tool exists.
func runCases(t *testing.T, cases []gnuCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := commandtest.Run(t, Commands(), commandtest.NewFS(t, nil), "", c.args...)
			if r.Out != c.out || r.Status != c.st || !strings.HasPrefix(r.Err, c.err) || (c.err == "" && r.Err != "") {
				t.Errorf("%q: got out %q err %q status %d; want out %q err %q status %d", c.args, r.Out, r.Err, r.Status, c.out, c.err, c.st)
			}
		})
	}
	compared := 0
	for _, c := range cases {
		tool := commandtest.Tool(t, c.args[0])
		host := commandtest.Host{Dir: t.TempDir()}
		want := host.Run(t, "", tool, c.args[1:]...)
		compared++
		if want.Out != c.out || want.Status != c.st {
			t.Errorf("GNU %q: out %q status %d, the table says %q %d", c.args, want.Out, want.Status, c.out, c.st)
		}
	}
	t.Logf("%d cases compared with GNU", compared)
}

func TestExpr(t *testing.T) {
	runCases(t, []gnuCase{
		{[]string{"expr", "1", "+", "2"}, "3\n", "", 0},
		{[]string{"expr", "2", "-", "2"}, "0\n", "", 1},
		{[]string{"expr", "2", "*", "(", "3", "+", "4", ")"}, "14\n", "", 0},
		{[]string{"expr", "7", "/", "2"}, "3\n", "", 0},
		{[]string{"expr", "-7", "/", "2"}, "-3\n", "", 0},
		{[]string{"expr", "5", "%", "-3"}, "2\n", "", 0},
		{[]string{"expr", "99999999999999999999", "+", "1"}, "100000000000000000000\n", "", 0},
		{[]string{"expr", "9223372036854775807", "*", "9223372036854775807"}, "85070591730234615847396907784232501249\n", "", 0},
		{[]string{"expr", "1", "/", "0"}, "", "expr: division by zero\n", 2},
		{[]string{"expr", "1", "%", "0"}, "", "expr: division by zero\n", 2},
		{[]string{"expr", "a", "+", "1"}, "", "expr: non-integer argument\n", 2},
		{[]string{"expr", "+5", "+", "1"}, "", "expr: non-integer argument\n", 2},
		{[]string{"expr", "0", "|", "1", "/", "0"}, "", "expr: division by zero\n", 2},
		{[]string{"expr", "1", "|", "1", "/", "0"}, "1\n", "", 0},
		{[]string{"expr", "0", "&", "1", "/", "0"}, "0\n", "", 1},
		{[]string{"expr", "", "|", "0"}, "0\n", "", 1},
		{[]string{"expr", "a", "&", "b"}, "a\n", "", 0},
		{[]string{"expr", "a", "&", ""}, "0\n", "", 1},
		{[]string{"expr", "01", "=", "1"}, "1\n", "", 0},
		{[]string{"expr", "a", "<", "B"}, "0\n", "", 1},
		{[]string{"expr", "10", ">", "9"}, "1\n", "", 0},
		{[]string{"expr", "10", ">", "9a"}, "0\n", "", 1},
		{[]string{"expr", "abc", "!=", "abd"}, "1\n", "", 0},
		{[]string{"expr", "abc", ":", "a\\(b\\)"}, "b\n", "", 0},
		{[]string{"expr", "abc", ":", "b"}, "0\n", "", 1},
		{[]string{"expr", "abc", ":", "a.*"}, "3\n", "", 0},
		{[]string{"expr", "héllo", ":", ".*"}, "5\n", "", 0},
		{[]string{"expr", "abc", ":", "x\\(y\\)"}, "\n", "", 1},
		{[]string{"expr", "match", "aaa", "a*"}, "3\n", "", 0},
		{[]string{"expr", "x", ":", "x\\{1"}, "", "expr: Unmatched \\{", 2},
		{[]string{"expr", "length", "abcd"}, "4\n", "", 0},
		{[]string{"expr", "length", "héllo"}, "5\n", "", 0},
		{[]string{"expr", "substr", "abcdef", "2", "3"}, "bcd\n", "", 0},
		{[]string{"expr", "substr", "abc", "0", "1"}, "\n", "", 1},
		{[]string{"expr", "substr", "abc", "2", "99"}, "bc\n", "", 0},
		{[]string{"expr", "index", "abc", "cb"}, "2\n", "", 0},
		{[]string{"expr", "index", "abc", ""}, "0\n", "", 1},
		{[]string{"expr", "+", "length"}, "length\n", "", 0},
		{[]string{"expr", "length", "+", "1"}, "1\n", "", 0},
		{[]string{"expr", "--", "-5", "+", "1"}, "-4\n", "", 0},
		{[]string{"expr", "quote"}, "quote\n", "", 0},
		{[]string{"expr", "-0"}, "-0\n", "", 1},
		{[]string{"expr"}, "", "expr: missing operand\n", 2},
		{[]string{"expr", "1", "+"}, "", "expr: syntax error: missing argument after ‘+’\n", 2},
		{[]string{"expr", "(", "1"}, "", "expr: syntax error: expecting ')' after ‘1’\n", 2},
		{[]string{"expr", "(", "1", "2"}, "", "expr: syntax error: expecting ')' instead of ‘2’\n", 2},
		{[]string{"expr", "1", "2"}, "", "expr: syntax error: unexpected argument ‘2’\n", 2},
		{[]string{"expr", ")"}, "", "expr: syntax error: unexpected ')'\n", 2},
		{[]string{"expr", "match"}, "", "expr: syntax error: missing argument after ‘match’\n", 2},
	})
}

// TestExprBounds checks the decisions where expr departs from GNU's
// unbounded integers: a product past about a million digits is refused
// with status 3 instead of exhausting memory, while big sums work.
func TestExprBounds(t *testing.T) {
	big := strings.Repeat("9", 700000)
	r := commandtest.Run(t, Commands(), commandtest.NewFS(t, nil), "", "expr", big, "*", big)
	if r.Status != 3 || r.Err != "expr: result too large\n" {
		t.Errorf("huge product: status %d, stderr %q", r.Status, r.Err)
	}
	r = commandtest.Run(t, Commands(), commandtest.NewFS(t, nil), "", "expr", big, "+", "1")
	if r.Status != 0 || r.Out != "1"+strings.Repeat("0", 700000)+"\n" {
		t.Errorf("huge sum: status %d", r.Status)
	}
	r = commandtest.Run(t, Commands(), commandtest.NewFS(t, nil), "", "expr", "-9223372036854775808", "/", "-1")
	if r.Out != "9223372036854775808\n" {
		t.Errorf("no 64-bit overflow: %q", r.Out)
	}
}
