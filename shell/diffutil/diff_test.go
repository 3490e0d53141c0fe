package diffutil

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/command/commandtest"
)

func TestDiffCases(t *testing.T) {
	files := map[string]string{
		"a":       "x\ny\nz\n",
		"b":       "x\nY\nz\n",
		"nonl":    "x\ny",
		"same":    "x\ny\nz\n",
		"bin1":    "\x00one",
		"bin2":    "\x00two",
		"empty":   "",
		"da/f":    "1\n",
		"da/only": "o\n",
		"da/s/g":  "g\n",
		"db/f":    "2\n",
		"db/s/g":  "g\n",
		"db/new":  "n\n",
		"sp":      "a  b\n",
		"sp2":     "a b\n",
		"up":      "HELLO\n",
		"lo":      "hello\n",
	}
	ts := "\t2026-11-21 12:00:00.000000000 +0000"
	cases := []struct {
		name   string
		args   []string
		stdin  string
		out    string
		err    string
		status int
	}{
		{"same", []string{"diff", "a", "same"}, "", "", "", 0},
		{"normal change", []string{"diff", "a", "b"}, "", "2c2\n< y\n---\n> Y\n", "", 1},
		{"normal no newline", []string{"diff", "a", "nonl"}, "", "2,3c2\n< y\n< z\n---\n> y\n\\ No newline at end of file\n", "", 1},
		{"delete all", []string{"diff", "a", "empty"}, "", "1,3d0\n< x\n< y\n< z\n", "", 1},
		{"add all", []string{"diff", "empty", "a"}, "", "0a1,3\n> x\n> y\n> z\n", "", 1},
		{"unified", []string{"diff", "-u", "a", "b"}, "", "--- a" + ts + "\n+++ b" + ts + "\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n", "", 1},
		{"U0", []string{"diff", "-U0", "a", "b"}, "", "--- a" + ts + "\n+++ b" + ts + "\n@@ -2 +2 @@\n-y\n+Y\n", "", 1},
		{"unified=1", []string{"diff", "--unified=1", "a", "b"}, "", "--- a" + ts + "\n+++ b" + ts + "\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n", "", 1},
		{"unified empty", []string{"diff", "-u", "empty", "a"}, "", "--- empty" + ts + "\n+++ a" + ts + "\n@@ -0,0 +1,3 @@\n+x\n+y\n+z\n", "", 1},
		{"brief", []string{"diff", "-q", "a", "b"}, "", "Files a and b differ\n", "", 1},
		{"brief same", []string{"diff", "-q", "a", "same"}, "", "", "", 0},
		{"report identical", []string{"diff", "-s", "a", "same"}, "", "Files a and same are identical\n", "", 0},
		{"binary", []string{"diff", "bin1", "bin2"}, "", "Binary files bin1 and bin2 differ\n", "", 1},
		{"missing", []string{"diff", "a", "nope"}, "", "", "diff: nope: No such file or directory\n", 2},
		{"missing operand", []string{"diff", "a"}, "", "", "diff: missing operand after 'a'\n", 2},
		{"extra operand", []string{"diff", "a", "b", "c"}, "", "", "diff: extra operand 'c'\n", 2},
		{"bad option", []string{"diff", "-Z", "a", "b"}, "", "", "diff: invalid option -- 'Z'\n", 2},
		{"bad context", []string{"diff", "-U", "x", "a", "b"}, "", "", "diff: invalid context length 'x'\n", 2},
		{"stdin", []string{"diff", "-", "b"}, "x\ny\nz\n", "2c2\n< y\n---\n> Y\n", "", 1},
		{"dir and file", []string{"diff", "da", "f"}, "", "", "diff: f: No such file or directory\n", 2},
		{"dirs", []string{"diff", "da", "db"}, "", "diff da/f db/f\n1c1\n< 1\n---\n> 2\nOnly in db: new\nOnly in da: only\nCommon subdirectories: da/s and db/s\n", "", 1},
		{"recursive", []string{"diff", "-r", "da", "db"}, "", "diff -r da/f db/f\n1c1\n< 1\n---\n> 2\nOnly in db: new\nOnly in da: only\n", "", 1},
		{"recursive brief", []string{"diff", "-rq", "da", "db"}, "", "Files da/f and db/f differ\nOnly in db: new\nOnly in da: only\n", "", 1},
		{"new file", []string{"diff", "-rN", "da", "db"}, "", "diff -rN da/f db/f\n1c1\n< 1\n---\n> 2\ndiff -rN da/new db/new\n0a1\n> n\ndiff -rN da/only db/only\n1d0\n< o\n", "", 1},
		{"color never", []string{"diff", "--color=never", "a", "b"}, "", "2c2\n< y\n---\n> Y\n", "", 1},
		{"color always", []string{"diff", "--color=always", "a", "b"}, "", "\033[36m2c2\033[0m\n\033[31m< y\033[0m\n---\n\033[32m> Y\033[0m\n", "", 1},
		{"bad color", []string{"diff", "--color=red", "a", "b"}, "", "", "diff: invalid argument 'red' for '--color'\n", 2},
		{"ignore space change", []string{"diff", "-b", "sp", "sp2"}, "", "", "", 0},
		{"ignore all space", []string{"diff", "-w", "sp", "sp2"}, "", "", "", 0},
		{"ignore case", []string{"diff", "-i", "up", "lo"}, "", "", "", 0},
		{"case matters", []string{"diff", "up", "lo"}, "", "1c1\n< HELLO\n---\n> hello\n", "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := commandtest.NewFS(t, files)
			r := commandtest.Run(t, Commands(), fsys, c.stdin, c.args...)
			if r.Out != c.out || r.Status != c.status || !strings.HasPrefix(r.Err, c.err) || (c.err == "" && r.Err != "") {
				t.Errorf("%q: got out %q err %q status %d; want out %q err %q status %d", c.args, r.Out, r.Err, r.Status, c.out, c.err, c.status)
			}
		})
	}
}

// randomText returns n lines drawn from a small alphabet, so that lines
// repeat, which is what makes diff's choices (and GNU's heuristics) matter.
func randomText(r *rand.Rand, n, alphabet int) string {
	var b strings.Builder
	for range n {
		fmt.Fprintf(&b, "l%d\n", r.IntN(alphabet))
	}
	s := b.String()
	if r.IntN(8) == 0 && len(s) > 0 {
		s = s[:len(s)-1]
	}
	return s
}

// mutate edits text by deleting, inserting and changing lines.
func mutate(r *rand.Rand, s string, alphabet int) string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	edits := r.IntN(6) + 1
	for range edits {
		i := 0
		if len(lines) > 0 {
			i = r.IntN(len(lines) + 1)
		}
		switch r.IntN(3) {
		case 0:
			if i < len(lines) {
				lines = append(lines[:i], lines[i+1:]...)
			}
		case 1:
			n := r.IntN(4) + 1
			var add []string
			for range n {
				add = append(add, fmt.Sprintf("l%d\n", r.IntN(alphabet)))
			}
			lines = append(lines[:i], append(add, lines[i:]...)...)
		case 2:
			if i < len(lines) {
				lines[i] = fmt.Sprintf("m%d\n", r.IntN(alphabet))
			}
		}
	}
	out := strings.Join(lines, "")
	if r.IntN(6) == 0 && len(out) > 0 && out[len(out)-1] == '\n' {
		out = out[:len(out)-1]
	}
	return out
}

// TestDiffMatchesGNU compares diff's output with GNU diff's on random
// pairs of files, in the normal and unified formats.
func TestDiffMatchesGNU(t *testing.T) {
	tool := commandtest.Tool(t, "diff")
	r := rand.New(rand.NewPCG(26, 5))
	formats := [][]string{{}, {"-u"}, {"-U0"}, {"-U1"}, {"-U5"}, {"-d"}, {"-b"}, {"-i", "-u"}, {"-c"}, {"-C1"}, {"-C0"}}
	n := 600
	if testing.Short() {
		n = 100
	}
	compared := 0
	for i := range n {
		alphabet := 2 + r.IntN(12)
		size := r.IntN(40)
		if i%50 == 0 {
			size = 300 + r.IntN(400)
		}
		a := randomText(r, size, alphabet)
		b := mutate(r, a, alphabet)
		if r.IntN(4) == 0 {
			b = randomText(r, r.IntN(40), alphabet)
		}
		files := map[string]string{"a": a, "b": b}
		fsys := commandtest.NewFS(t, files)
		host := commandtest.Mirror(t, fsys, files)
		args := append(append([]string{}, formats[i%len(formats)]...), "a", "b")
		want := host.Run(t, "", tool, args...)
		got := commandtest.Run(t, Commands(), fsys, "", append([]string{"diff"}, args...)...)
		compared++
		if got.Out != want.Out || got.Status != want.Status {
			t.Fatalf("case %d: diff %q\na=%q\nb=%q\ngot status %d:\n%s\nwant status %d:\n%s", i, args, a, b, got.Status, got.Out, want.Status, want.Out)
		}
	}
	t.Logf("%d random comparisons with GNU diff matched", compared)
}

// TestDiffDiscardMatchesGNU compares with GNU diff on files made of lines
// that match none of the other file's and lines that match many of them:
// GNU sets both kinds aside before comparing and then takes back some of
// those at the ends of each run set aside, which changes the hunks.
func TestDiffDiscardMatchesGNU(t *testing.T) {
	tool := commandtest.Tool(t, "diff")
	r := rand.New(rand.NewPCG(1, 2))
	text := func(unique string, common int) string {
		var b strings.Builder
		for range 20 + r.IntN(60) {
			if r.IntN(common) == 0 {
				fmt.Fprintf(&b, "%s%d\n", unique, r.IntN(1000000))
			} else {
				fmt.Fprintf(&b, "c%d\n", r.IntN(3))
			}
		}
		return b.String()
	}
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := range n {
		files := map[string]string{"a": text("u", 3), "b": text("v", 4)}
		fsys := commandtest.NewFS(t, files)
		host := commandtest.Mirror(t, fsys, files)
		want := host.Run(t, "", tool, "a", "b")
		got := commandtest.Run(t, Commands(), fsys, "", "diff", "a", "b")
		if got.Out != want.Out || got.Status != want.Status {
			t.Fatalf("case %d:\na=%q\nb=%q\ngot status %d:\n%s\nwant status %d:\n%s", i, files["a"], files["b"], got.Status, got.Out, want.Status, want.Out)
		}
	}
	t.Logf("%d comparisons with GNU diff matched", n)
}

// TestDiffRecursiveMatchesGNU compares diff -r on directory trees.
func TestDiffRecursiveMatchesGNU(t *testing.T) {
	tool := commandtest.Tool(t, "diff")
	files := map[string]string{
		"a/f":        "1\n2\n3\n",
		"a/g":        "same\n",
		"a/only":     "o\n",
		"a/s/x":      "x\n",
		"a/s/deep/y": "y\n",
		"a/e":        "",
		"a/bin":      "\x00a",
		"a/sp ace":   "1\n",
		"a/d2/":      "",
		"b/f":        "1\n3\n4\n",
		"b/g":        "same\n",
		"b/new":      "n\n",
		"b/s/x":      "X\n",
		"b/s/deep/y": "y\n",
		"b/e/":       "",
		"b/bin":      "\x00b",
		"b/sp ace":   "2\n",
		"b/d2":       "file\n",
	}
	for _, args := range [][]string{{"-r"}, {"-ru"}, {"-u", "-r"}, {"-rq"}, {"-r", "-U", "1"}, {"-r", "--unified=2"}, {}, {"-rN"}, {"-r", "--color=never"}, {"-r", "--color=always", "-u"},
		{"-r", "-x", "s"}, {"-rc"}, {"-r", "-C", "2", "--color=always"}, {"-ru", "--exclude=bin", "-x", "sp*"}, {"-ru", "--label", "L1", "--label", "L2"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			fsys := commandtest.NewFS(t, files)
			host := commandtest.Mirror(t, fsys, files)
			full := append(append([]string{}, args...), "a", "b")
			want := host.Run(t, "", tool, full...)
			got := commandtest.Run(t, Commands(), fsys, "", append([]string{"diff"}, full...)...)
			if got.Out != want.Out || got.Status != want.Status {
				t.Errorf("diff %q: got status %d:\n%s\nwant status %d:\n%s", full, got.Status, got.Out, want.Status, want.Out)
			}
		})
	}
}

// TestDiffCanceled checks that a canceled context stops a long comparison
// with status 130.
func TestDiffCanceled(t *testing.T) {
	var a, b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	fsys := commandtest.NewFS(t, map[string]string{"a": a.String(), "b": b.String()})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := commandtest.RunCtx(ctx, t, Commands(), fsys, strings.NewReader(""), "diff", "-d", "a", "b")
	if r.Status != command.StatusCanceled {
		t.Fatalf("status %d, want %d", r.Status, command.StatusCanceled)
	}
	_ = time.Second
}
