package textproc

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/shell/command/commandtest"
)

func sortedLines(s string) []string {
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(l)
	return l
}

// TestShuf checks that shuf permutes (the same multiset out as in), and
// compares the sorted output, statuses and messages with GNU shuf.
func TestShuf(t *testing.T) {
	files := map[string]string{"f": "a\nb\nc\nd\ne\nf\ng\nh\n", "dup": "x\nx\ny\n", "empty": "", "src": "some random bytes"}
	cases := []struct {
		args  []string
		count int // lines expected (-1: as many as the input)
	}{
		{[]string{"shuf", "f"}, 8}, {[]string{"shuf", "dup"}, 3}, {[]string{"shuf", "-n", "3", "f"}, 3}, {[]string{"shuf", "-n", "0", "f"}, 0},
		{[]string{"shuf", "-n", "20", "f"}, 8}, {[]string{"shuf", "-e", "a", "b", "c"}, 3}, {[]string{"shuf", "-i", "1-10"}, 10},
		{[]string{"shuf", "-i", "5-5"}, 1}, {[]string{"shuf", "-i", "5-4"}, 0}, {[]string{"shuf", "-n", "2", "-i", "1-1000000000000"}, 2},
		{[]string{"shuf", "--random-source=src", "f"}, 8}, {[]string{"shuf", "empty"}, 0}, {[]string{"shuf"}, 2},
	}
	tool := ""
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			fsys := commandtest.NewFS(t, files)
			got := commandtest.Run(t, Commands(), fsys, "in1\nin2\n", c.args...)
			lines := 0
			if got.Out != "" {
				lines = strings.Count(got.Out, "\n")
			}
			if got.Status != 0 || lines != c.count {
				t.Fatalf("status %d, %d lines (%q); want 0, %d", got.Status, lines, got.Out, c.count)
			}
			if tool == "" {
				tool = commandtest.Tool(t, "shuf")
			}
			host := commandtest.Mirror(t, fsys, files)
			want := host.Run(t, "in1\nin2\n", tool, c.args[1:]...)
			if len(c.args) > 2 && c.args[1] == "-n" && c.count > 0 && c.args[2] != "20" {
				return // a random subset: only the count is comparable
			}
			if want.Status != got.Status || !slices.Equal(sortedLines(want.Out), sortedLines(got.Out)) {
				t.Errorf("GNU: status %d out %q; ours %q", want.Status, want.Out, got.Out)
			}
		})
	}
	// Repeats draw with replacement from the input.
	r := commandtest.Run(t, Commands(), commandtest.NewFS(t, files), "", "shuf", "-r", "-n", "50", "-e", "a", "b")
	if strings.Count(r.Out, "\n") != 50 || strings.Trim(r.Out, "ab\n") != "" {
		t.Errorf("-r: %q", r.Out)
	}
	// Errors, as GNU words them.
	for _, c := range [][]string{{"shuf", "-i", "x"}, {"shuf", "-n", "-1", "f"}, {"shuf", "-e", "-i", "1-2"}, {"shuf", "f", "g"}, {"shuf", "nope"}, {"shuf", "-r", "empty"}} {
		fsys := commandtest.NewFS(t, files)
		got := commandtest.Run(t, Commands(), fsys, "", c...)
		want := commandtest.Mirror(t, fsys, files).Run(t, "", commandtest.Tool(t, "shuf"), c[1:]...)
		if got.Status != want.Status || got.Err != want.Err {
			t.Errorf("%q: status %d %q, GNU %d %q", c, got.Status, got.Err, want.Status, want.Err)
		}
	}
}

// TestShufSeededLikeRandom runs shuf in the shell: the same script gives
// the same shuffles, two calls differ, and setting RANDOM changes them.
func TestShufSeededLikeRandom(t *testing.T) {
	run := func(script string) string {
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_, err := shell.Run(ctx, shell.Config{FS: commandtest.NewFS(t, nil), Commands: Commands(), Stdout: &out, Stderr: &out, Dir: "/workspace",
			Now: commandtest.Now}, "t", script)
		if err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	script := "a=$(shuf -i 1-20); b=$(shuf -i 1-20); echo $a; echo $b"
	first, second := run(script), run(script)
	if first != second {
		t.Errorf("two runs differ:\n%s\n%s", first, second)
	}
	lines := strings.Split(first, "\n")
	if len(lines) < 2 || lines[0] == lines[1] {
		t.Errorf("two calls gave the same shuffle: %q", first)
	}
	if other := run("RANDOM=42; " + script); other == first {
		t.Error("setting RANDOM did not change the shuffles")
	}
}
