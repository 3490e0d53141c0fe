package textproc

import (
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell/command/commandtest"
)

// gnuCase is a command line run both here and, when it is installed, with
// the host's GNU tool.
type gnuCase struct {
	name  string
	args  []string
	stdin string
	out   string
	err   string
	st    int
}

var fixture = map[string]string{
	"lines":    "one\ntwo\nthree\n",
	"nonl":     "a\nb",
	"seps":     "a::b::c",
	"empty":    "",
	"j1":       "1 a\n2 b\n3 c\n5 e\n",
	"j2":       "1 x\n3 y\n4 z\n5 w\n",
	"jc1":      "a,1,x\nb,2,y\nd,4,z\n",
	"jc2":      "a,A\nc,C\nd,D\n",
	"unsorted": "b 1\na 2\n",
	"js":       "a 1\nb 2\n",
}

// runCases runs the table, and compares with GNU when the tool exists.
func runCases(t *testing.T, cases []gnuCase) {
	t.Helper()
	compared := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := commandtest.NewFS(t, fixture)
			r := commandtest.Run(t, Commands(), fsys, c.stdin, c.args...)
			if r.Out != c.out || r.Status != c.st || !strings.HasPrefix(r.Err, c.err) || (c.err == "" && r.Err != "") {
				t.Errorf("%q: got out %q err %q status %d; want out %q err %q status %d", c.args, r.Out, r.Err, r.Status, c.out, c.err, c.st)
			}
		})
	}
	for _, c := range cases {
		if strings.HasPrefix(c.name, "cordon:") {
			continue // a documented difference from GNU
		}
		tool := commandtest.Tool(t, c.args[0])
		fsys := commandtest.NewFS(t, fixture)
		host := commandtest.Mirror(t, fsys, fixture)
		want := host.Run(t, c.stdin, tool, c.args[1:]...)
		compared++
		if want.Out != c.out || want.Status != c.st {
			t.Errorf("GNU %q: out %q status %d, the table says %q %d", c.args, want.Out, want.Status, c.out, c.st)
		}
	}
	t.Logf("%d cases compared with GNU", compared)
}

func TestTac(t *testing.T) {
	runCases(t, []gnuCase{
		{"lines", []string{"tac", "lines"}, "", "three\ntwo\none\n", "", 0},
		{"no newline", []string{"tac", "nonl"}, "", "ba\n", "", 0},
		{"stdin", []string{"tac"}, "x\ny\n", "y\nx\n", "", 0},
		{"two files", []string{"tac", "lines", "-", "nonl"}, "z\n", "three\ntwo\none\nz\nba\n", "", 0},
		{"separator", []string{"tac", "-s", "::", "seps"}, "", "cb::a::", "", 0},
		{"before", []string{"tac", "-b"}, "a\nb\n", "\n\nba", "", 0},
		{"before separator", []string{"tac", "-b", "-s", ":"}, ":a:b", ":b:a", "", 0},
		{"empty", []string{"tac", "empty"}, "", "", "", 0},
		{"missing", []string{"tac", "nope"}, "", "", "tac: failed to open 'nope' for reading: No such file or directory\n", 1},
		{"bad option", []string{"tac", "-x"}, "", "", "tac: invalid option -- 'x'\n", 1},
	})
}
