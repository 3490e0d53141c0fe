package textproc

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell/command/commandtest"
)

func TestJoin(t *testing.T) {
	runCases(t, []gnuCase{
		{"basic", []string{"join", "j1", "j2"}, "", "1 a x\n3 c y\n5 e w\n", "", 0},
		{"unpaired 1", []string{"join", "-a1", "j1", "j2"}, "", "1 a x\n2 b\n3 c y\n5 e w\n", "", 0},
		{"only 2", []string{"join", "-v2", "j1", "j2"}, "", "4 z\n", "", 0},
		{"format", []string{"join", "-a1", "-a2", "-e", "NA", "-o", "0,1.2,2.2", "j1", "j2"}, "", "1 a x\n2 b NA\n3 c y\n4 NA z\n5 e w\n", "", 0},
		{"auto", []string{"join", "-o", "auto", "-a1", "-e", "X", "j1", "j2"}, "", "1 a x\n2 b X\n3 c y\n5 e w\n", "", 0},
		{"unsorted", []string{"join", "unsorted", "js"}, "", "b 1 2\n", "join: unsorted:2: is not sorted: a 2\njoin: input is not in sorted order\n", 1},
		{"nocheck", []string{"join", "--nocheck-order", "unsorted", "js"}, "", "b 1 2\n", "", 0},
		{"check", []string{"join", "--check-order", "unsorted", "js"}, "", "", "join: unsorted:2: is not sorted: a 2\n", 1},
		{"tab", []string{"join", "-t,", "jc1", "jc2"}, "", "a,1,x,A\nd,4,z,D\n", "", 0},
		{"tab format", []string{"join", "-t,", "-o", "1.3,2.2", "jc1", "jc2"}, "", "x,A\nz,D\n", "", 0},
		{"fields", []string{"join", "-1", "2", "-2", "1", "jc1", "jc2"}, "", "", "", 0},
		{"stdin", []string{"join", "-", "j2"}, "  1   a\n", "1 a x\n", "", 0},
		{"missing operand", []string{"join", "j1"}, "", "", "join: missing operand after ‘j1’\n", 1},
		{"bad field", []string{"join", "-1", "0", "j1", "j2"}, "", "", "join: invalid field number: ‘0’\n", 1},
		{"missing file", []string{"join", "nope", "j2"}, "", "", "join: nope: No such file or directory\n", 1},
	})
}

// TestJoinMatchesGNU compares join with GNU join on random inputs, sorted
// and not, with repeated keys and missing fields.
func TestJoinMatchesGNU(t *testing.T) {
	tool := commandtest.Tool(t, "join")
	r := rand.New(rand.NewPCG(3, 9))
	gen := func(sorted bool) string {
		var lines []string
		for range r.IntN(12) {
			k := fmt.Sprintf("k%d", r.IntN(8))
			switch r.IntN(4) {
			case 0:
				lines = append(lines, k)
			case 1:
				lines = append(lines, k+" v"+fmt.Sprint(r.IntN(9))+" w")
			default:
				lines = append(lines, k+" v"+fmt.Sprint(r.IntN(9)))
			}
		}
		if sorted {
			slices.SortStableFunc(lines, func(a, b string) int { return strings.Compare(strings.Fields(a)[0], strings.Fields(b)[0]) })
		}
		if len(lines) == 0 {
			return ""
		}
		return strings.Join(lines, "\n") + "\n"
	}
	optSets := [][]string{{}, {"-a1"}, {"-a2"}, {"-a1", "-a2"}, {"-v1"}, {"-v2"}, {"-a1", "-a2", "-e", "E", "-o", "0,1.2,2.2,2.3"},
		{"-o", "auto", "-e", "-"}, {"--nocheck-order"}, {"--check-order"}, {"-o", "2.1,1.1"}, {"--header"}}
	compared := 0
	for i := range 400 {
		files := map[string]string{"a": gen(i%5 != 0), "b": gen(i%7 != 0)}
		args := append(append([]string{}, optSets[i%len(optSets)]...), "a", "b")
		fsys := commandtest.NewFS(t, files)
		host := commandtest.Mirror(t, fsys, files)
		want := host.Run(t, "", tool, args...)
		got := commandtest.Run(t, Commands(), fsys, "", append([]string{"join"}, args...)...)
		compared++
		if got.Out != want.Out || got.Status != want.Status || got.Err != want.Err {
			t.Fatalf("join %q\na=%q\nb=%q\ngot %d %q %q\nwant %d %q %q", args, files["a"], files["b"], got.Status, got.Out, got.Err, want.Status, want.Out, want.Err)
		}
	}
	t.Logf("%d random join runs matched GNU join", compared)
}
