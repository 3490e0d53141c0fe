package fileutils

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell/command/commandtest"
)

type tcase struct {
	name  string
	args  []string
	stdin string
	out   string
	err   string
	st    int
}

func runTable(t *testing.T, files map[string]string, cases []tcase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := commandtest.Run(t, Commands(), commandtest.NewFS(t, files), c.stdin, c.args...)
			if r.Out != c.out || r.Status != c.st || !strings.HasPrefix(r.Err, c.err) || (c.err == "" && r.Err != "") {
				t.Errorf("%q: got out %q err %q status %d; want out %q err %q status %d", c.args, r.Out, r.Err, r.Status, c.out, c.err, c.st)
			}
		})
	}
}

// TestTree checks tree's drawing against tree 2.x's documented format
// (tree is not installed where these tests were written, so the
// expectations follow its manual and output).
func TestTree(t *testing.T) {
	files := map[string]string{
		"p/a.txt":       "a",
		"p/b/c.go":      "c",
		"p/b/d/e.txt":   "e",
		"p/.hidden":     "h",
		"p/.git/config": "g",
		"p/z/":          "",
		"f.txt":         "f",
	}
	runTable(t, files, []tcase{
		{"default", []string{"tree", "p"}, "", "p\n├── a.txt\n├── b\n│   ├── c.go\n│   └── d\n│       └── e.txt\n└── z\n\n3 directories, 3 files\n", "", 0},
		{"all", []string{"tree", "-a", "p"}, "", "p\n├── .git\n│   └── config\n├── .hidden\n├── a.txt\n├── b\n│   ├── c.go\n│   └── d\n│       └── e.txt\n└── z\n\n4 directories, 5 files\n", "", 0},
		{"level", []string{"tree", "-L", "1", "p"}, "", "p\n├── a.txt\n├── b\n└── z\n\n2 directories, 1 file\n", "", 0},
		{"level 2", []string{"tree", "-L2", "p"}, "", "p\n├── a.txt\n├── b\n│   ├── c.go\n│   └── d\n└── z\n\n3 directories, 2 files\n", "", 0},
		{"dirs only", []string{"tree", "-d", "p"}, "", "p\n├── b\n│   └── d\n└── z\n\n3 directories\n", "", 0},
		{"full path", []string{"tree", "-f", "p/b"}, "", "p/b\n├── p/b/c.go\n└── p/b/d\n    └── p/b/d/e.txt\n\n1 directory, 2 files\n", "", 0},
		{"no indent", []string{"tree", "-i", "--noreport", "p/b"}, "", "p/b\nc.go\nd\ne.txt\n", "", 0},
		{"ignore", []string{"tree", "-I", "b|z", "p"}, "", "p\n└── a.txt\n\n0 directories, 1 file\n", "", 0},
		{"pattern", []string{"tree", "-P", "*.go", "p"}, "", "p\n├── b\n│   ├── c.go\n│   └── d\n└── z\n\n3 directories, 1 file\n", "", 0},
		{"classify dirsfirst", []string{"tree", "-F", "--dirsfirst", "p"}, "", "p\n├── b/\n│   ├── d/\n│   │   └── e.txt\n│   └── c.go\n├── z/\n└── a.txt\n\n3 directories, 3 files\n", "", 0},
		{"empty dir", []string{"tree", "p/z"}, "", "p/z\n\n0 directories, 0 files\n", "", 0},
		{"file operand", []string{"tree", "f.txt"}, "", "f.txt\n\n0 directories, 1 file\n", "", 0},
		{"missing", []string{"tree", "nope"}, "", "nope  [error opening dir]\n\n0 directories, 0 files\n", "", 2},
		{"bad level", []string{"tree", "-L", "0"}, "", "", "tree: Invalid level, must be greater than 0.\n", 1},
		{"bad option", []string{"tree", "-Q"}, "", "", "tree: invalid option -- 'Q'\n", 1},
	})
}

// sizes returns the sizes of the named files on both sides ("-" when
// absent).
func hostSize(t *testing.T, dir, name string) string {
	fi, err := os.Stat(filepath.Join(dir, name))
	if err != nil {
		return "-"
	}
	return strconv.FormatInt(fi.Size(), 10)
}

func TestTruncateMatchesGNU(t *testing.T) {
	tool := commandtest.Tool(t, "truncate")
	files := map[string]string{"f": "0123456789", "g": "abc", "ref": strings.Repeat("r", 1000), "d/": ""}
	cases := [][]string{
		{"-s", "5", "f"}, {"-s", "0", "f"}, {"-s", "20", "f"}, {"-s", "+5", "f"}, {"-s", "-3", "f"}, {"-s", "-30", "f"},
		{"-s", "<5", "f"}, {"-s", "<50", "f"}, {"-s", ">50", "f"}, {"-s", ">5", "f"}, {"-s", "/4", "f"}, {"-s", "%4", "f"},
		{"-s", "1K", "f"}, {"-s", "1k", "f"}, {"-s", "1KB", "f"}, {"-s", "2KiB", "f"}, {"-s", "1M", "f", "g"},
		{"-s", "5", "new"}, {"-c", "-s", "5", "new"}, {"--no-create", "-s", "5", "new"}, {"-r", "ref", "f"}, {"-r", "ref", "-s", "+1", "f"},
		{"-r", "ref", "-s", "5", "f"}, {"-s", "x", "f"}, {"-s", "%0", "f"}, {"-s", "1", "d"}, {"-r", "nope", "f"}, {"f"}, {"-s", "5"},
		{"--size=7", "f"}, {"-s", "1Q", "f"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			fsys := commandtest.NewFS(t, files)
			host := commandtest.Mirror(t, fsys, files)
			want := host.Run(t, "", tool, args...)
			got := commandtest.Run(t, Commands(), fsys, "", append([]string{"truncate"}, args...)...)
			if got.Status != want.Status || got.Err != want.Err {
				t.Errorf("status %d %q, GNU %d %q", got.Status, got.Err, want.Status, want.Err)
			}
			for _, name := range []string{"f", "g", "new"} {
				gs := "-"
				if fi, err := fsys.Stat("/workspace/" + name); err == nil {
					gs = strconv.FormatInt(fi.Size(), 10)
				}
				if hs := hostSize(t, host.Dir, name); gs != hs {
					t.Errorf("%s: size %s, GNU %s", name, gs, hs)
				}
			}
			if data, err := fsys.ReadFile("/workspace/f"); err == nil && len(data) > 10 && strings.Trim(string(data[10:]), "\x00") != "" {
				t.Error("growth is not zero-filled")
			}
		})
	}
}

// listHost returns the host directory's files and contents.
func listHost(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = string(data)
	}
	return out
}

func TestSplitMatchesGNU(t *testing.T) {
	tool := commandtest.Tool(t, "split")
	var lines strings.Builder
	for i := range 700 {
		lines.WriteString(strconv.Itoa(i) + "\n")
	}
	files := map[string]string{"f": "1\n2\n3\n4\n5\n", "nonl": "a\nb\nc", "big": lines.String(), "empty": ""}
	cases := [][]string{
		{"f"}, {"-l", "2", "f"}, {"-l2", "f", "p_"}, {"-l", "2", "-d", "-a", "3", "f", "p_"}, {"-l", "1", "-a", "1", "f", "q"},
		{"-n", "2", "f", "n"}, {"-n", "3", "nonl"}, {"-n", "4", "empty"}, {"-e", "-n", "4", "empty"}, {"-b", "3", "--additional-suffix=.txt", "f", "b"},
		{"-b", "1K", "big"}, {"-l", "1", "big", "w"}, {"-l", "1", "-d", "big"}, {"-l", "1", "-x", "big"}, {"-l", "1", "-a", "1", "big"},
		{"-l", "2", "nonl"}, {"empty"}, {"-l", "0", "f"}, {"-b", "x", "f"}, {"nope"}, {"--verbose", "-l", "3", "f", "v"}, {"-l", "1", "f", "f"},
		{"-l", "2", "-", "s"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			fsys := commandtest.NewFS(t, files)
			host := commandtest.Mirror(t, fsys, files)
			want := host.Run(t, "from\nstdin\nhere\n", tool, args...)
			got := commandtest.Run(t, Commands(), fsys, "from\nstdin\nhere\n", append([]string{"split"}, args...)...)
			if got.Status != want.Status || got.Out != want.Out || got.Err != want.Err {
				t.Errorf("status %d %q %q, GNU %d %q %q", got.Status, got.Out, got.Err, want.Status, want.Out, want.Err)
			}
			hostFiles := listHost(t, host.Dir)
			ents, _ := fsys.ReadDir("/workspace")
			if len(ents) != len(hostFiles) {
				t.Errorf("%d files, GNU %d", len(ents), len(hostFiles))
			}
			for _, e := range ents {
				data, _ := fsys.ReadFile("/workspace/" + e.Name())
				if hd, ok := hostFiles[e.Name()]; !ok || hd != string(data) {
					t.Errorf("%s differs or is not GNU's", e.Name())
				}
			}
		})
	}
}
