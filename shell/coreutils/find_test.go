package coreutils

import (
	"strings"
	"testing"
	"time"
)

// The expectations below were produced by GNU findutils 4.9 on the same
// fixture (stdFiles); where a comment says so, the lines are in lexical
// order where GNU find uses the directory order.

func TestFind(t *testing.T) {
	runCases(t, []tcase{
		// find
		{args: []string{"find"}, out: ".\n./d\n./d/empty\n./d/sub\n./d/sub/y.c\n./d/x.txt\n./e\n./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"}, // GNU lists in directory order
		{args: []string{"find", "d"}, out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"},                                                      // GNU lists in directory order
		{args: []string{"find", "d/"}, out: "d/\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"},                                                    // GNU lists in directory order
		{args: []string{"find", "nope"}, out: "", err: "find: ‘nope’: No such file or directory", status: 1},
		{args: []string{"find", ".", "-bogus"}, out: "", err: "find: unknown predicate `-bogus'", status: 1},
		{args: []string{"find", ".", "-name"}, out: "", err: "find: missing argument to `-name'", status: 1},
		{args: []string{"find", ".", "-type", "q"}, out: "", err: "find: Unknown argument to -type: q", status: 1},
		{args: []string{"find", ".", "(", "-name", "x"}, out: "", err: "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.", status: 1},
		{args: []string{"find", "d", "-name", "*.c"}, out: "d/sub/y.c\n"},
		{args: []string{"find", ".", "-name", "?"}, out: ".\n./d\n./e\n./f\n./g\n./v\n"}, // GNU lists in directory order
		{args: []string{"find", ".", "-iname", "F"}, out: "./f\n"},
		{args: []string{"find", ".", "-type", "d"}, out: ".\n./d\n./d/sub\n./e\n"}, // GNU lists in directory order
		{args: []string{"find", ".", "-type", "f", "-name", "[fg]"}, out: "./f\n./g\n"},
		{args: []string{"find", ".", "-maxdepth", "1", "-type", "f"}, out: "./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"}, // GNU lists in directory order
		{args: []string{"find", ".", "-mindepth", "2"}, out: "./d/empty\n./d/sub\n./d/sub/y.c\n./d/x.txt\n"},           // GNU lists in directory order
		{args: []string{"find", "d", "-path", "*sub*"}, out: "d/sub\nd/sub/y.c\n"},
		{args: []string{"find", ".", "-empty"}, out: "./d/empty\n./e\n"},                                                                                              // GNU lists in directory order
		{args: []string{"find", ".", "-not", "-name", "*.txt", "-type", "f"}, out: "./d/empty\n./d/sub/y.c\n./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"},                // GNU lists in directory order
		{args: []string{"find", ".", "!", "-type", "d", "-o", "-name", "d"}, out: "./d\n./d/empty\n./d/sub/y.c\n./d/x.txt\n./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"}, // GNU lists in directory order
		{args: []string{"find", ".", "(", "-name", "f", "-o", "-name", "g", ")", "-print"}, out: "./f\n./g\n"},
		{args: []string{"find", "d", "-name", "sub", "-prune", "-o", "-print"}, out: "d\nd/empty\nd/x.txt\n"},                             // GNU lists in directory order
		{args: []string{"find", "d", "-exec", "echo", "{}", ";"}, out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"},                         // GNU lists in directory order
		{args: []string{"find", "d", "-exec", "echo", "{}", "+"}, out: "d d/empty d/sub d/sub/y.c d/x.txt\n"},                             // GNU lists in directory order
		{args: []string{"find", "d", "-exec", "echo", "x-{}-y", ";"}, out: "x-d-y\nx-d/empty-y\nx-d/sub-y\nx-d/sub/y.c-y\nx-d/x.txt-y\n"}, // GNU lists in directory order
		{args: []string{"find", "d", "-exec", "echo"}, out: "", err: "find: missing argument to `-exec'", status: 1},
		{args: []string{"find", "d", "-type", "f", "-exec", "false", "{}", ";"}, out: ""},
		{args: []string{"find", "d", "-type", "f", "-exec", "false", "{}", "+"}, out: "", status: 1},
		{args: []string{"find", "d", "-print0"}, out: "d\x00d/empty\x00d/sub\x00d/sub/y.c\x00d/x.txt\x00"},                                                                                                                                          // GNU lists in directory order
		{args: []string{"find", "d", "-printf", "%p|%f|%h|%P|%s|%d|%y|%m\\n"}, out: "d|d|.||4096|0|d|755\nd/empty|empty|d|empty|0|1|f|644\nd/sub|sub|d|sub|4096|1|d|755\nd/sub/y.c|y.c|d/sub|sub/y.c|3|2|f|644\nd/x.txt|x.txt|d|x.txt|2|1|f|644\n"}, // GNU lists in directory order
		{args: []string{"find", "-maxdepth", "1", "-name", "f"}, out: "./f\n"},
		{args: []string{"find", ".", "-size", "-1"}, out: "./d/empty\n"},
		{args: []string{"find", ".", "-size", "+0c", "-size", "-4c"}, out: "./d/sub/y.c\n./d/x.txt\n"},                       // GNU lists in directory order
		{args: []string{"find", ".", "-size", "1"}, out: "./d/sub/y.c\n./d/x.txt\n./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"}, // GNU lists in directory order
		{args: []string{"find", "d", "-depth"}, out: "d/empty\nd/sub/y.c\nd/sub\nd/x.txt\nd\n"},                              // GNU lists in directory order
		{args: []string{"find", ".", "-regex", ".*\\.c"}, out: "./d/sub/y.c\n"},
		{args: []string{"find", ".", "-regex", ".*\\(txt\\|c\\)"}, out: "./d/sub/y.c\n./d/x.txt\n"},                           // GNU lists in directory order
		{args: []string{"find", ".", "-regextype", "posix-extended", "-regex", ".*(txt|c)"}, out: "./d/sub/y.c\n./d/x.txt\n"}, // GNU lists in directory order
		{args: []string{"find", ".", "-name", "f", "-quit"}, out: ""},
		{args: []string{"find", "d", "e", "-type", "d"}, out: "d\nd/sub\ne\n"},
		{args: []string{"find", "d", ")"}, out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n", err: "find: ‘)’: No such file or directory", status: 1}, // GNU lists in directory order
		{args: []string{"find", "d", "f"}, out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\nf\n"},                                                      // GNU lists in directory order
		{args: []string{"find", "d", "-name", "x.txt", "-a", "-type", "f"}, out: "d/x.txt\n"},
		{args: []string{"find", "d", ","}, out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n", err: "find: ‘,’: No such file or directory", status: 1}, // GNU lists in directory order
		{args: []string{"find", ".", "-maxdepth", "x"}, out: "", err: "find: Expected a positive decimal integer argument to -maxdepth, but got ‘x’", status: 1},
		{args: []string{"find", "d", "-true"}, out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"}, // GNU lists in directory order
		{args: []string{"find", "d", "-false"}, out: ""},
		{args: []string{"find", "d", "-name", "*.txt", "-o", "-name", "*.c"}, out: "d/sub/y.c\nd/x.txt\n"},                // GNU lists in directory order
		{args: []string{"find", "d", "-type", "f,d"}, out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"},                     // GNU lists in directory order
		{args: []string{"find", "d", "-mindepth", "1", "-maxdepth", "1", "-printf", "%f\\n"}, out: "empty\nsub\nx.txt\n"}, // GNU lists in directory order
		{args: []string{"find", ".", "-name", "*.json", "-exec", "cat", "{}", ";"}, out: "{\"a\":1,\"b\":[1,2,{\"c\":null}],\"s\":\"h\\u00e9\\u001f\\u007f\"}\n{\"a\":2}\n"},
		{args: []string{"find", "d", "-type", "f", "-name", "y*", "-exec", "wc", "-c", "{}", "+"}, out: "3 d/sub/y.c\n"},
	})
}

func TestFindExecNotFound(t *testing.T) {
	r := run(t, nil, stdFiles, "", "find", "f", "-exec", "nosuch", "{}", ";")
	if r.status != 1 || !strings.Contains(r.err, "nosuch") {
		t.Errorf("status %d, stderr %q", r.status, r.err)
	}
}

func TestFindTimes(t *testing.T) {
	fsys := setupFS(t, map[string]string{"old": "", "new": "", "ref": ""})
	fsys.Chtimes("/workspace/old", testNow.Add(-72*time.Hour))
	fsys.Chtimes("/workspace/ref", testNow.Add(-time.Hour))
	fsys.Chtimes("/workspace", testNow.Add(-48*time.Hour))
	cases := []struct {
		args []string
		out  string
	}{
		{[]string{"find", ".", "-newer", "ref"}, "./new\n"},
		{[]string{"find", ".", "-mtime", "+2"}, "./old\n"},
		{[]string{"find", ".", "-mtime", "-1"}, "./new\n./ref\n"},
		{[]string{"find", ".", "-mtime", "2"}, ".\n"},
		{[]string{"find", ".", "-mmin", "-61", "-type", "f"}, "./new\n./ref\n"},
		{[]string{"find", ".", "-mmin", "+60"}, ".\n./old\n"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := run(t, fsys, nil, "", c.args...)
			if r.out != c.out || r.status != 0 {
				t.Errorf("%q: got %q (%d %q), want %q", c.args, r.out, r.status, r.err, c.out)
			}
		})
	}
}

func TestFindDelete(t *testing.T) {
	r := run(t, nil, stdFiles, "", "find", "d", "-name", "*.c", "-delete")
	if r.status != 0 || r.out != "" || readFile(r.fs, "d/sub/y.c") != "<missing>" || readFile(r.fs, "d/x.txt") != "x\n" {
		t.Errorf("find -delete: %+v", r)
	}
	r = run(t, nil, stdFiles, "", "find", "d", "-delete")
	if _, err := r.fs.Stat("/workspace/d"); r.status != 0 || err == nil {
		t.Errorf("find d -delete: %d %q %v", r.status, r.err, err)
	}
}

func TestFnmatch(t *testing.T) {
	cases := []struct {
		pat, name string
		fold, ok  bool
	}{
		{"*.c", "a.c", false, true},
		{"*.c", "a.h", false, false},
		{"a*b*c", "aXbYc", false, true},
		{"a*b*c", "aXbY", false, false},
		{"*", ".hidden", false, true},
		{"?", "é", false, true},
		{"[a-c]x", "bx", false, true},
		{"[!a-c]x", "bx", false, false},
		{"[^a-c]x", "dx", false, true},
		{"[[:digit:]]*", "7up", false, true},
		{"[]]", "]", false, true},
		{"\\*", "*", false, true},
		{"\\*", "a", false, false},
		{"[", "[", false, true},
		{"F*", "foo", true, true},
		{"*/*", "a/b", false, true},
		{"*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false, false},
	}
	for _, c := range cases {
		t.Run(c.pat+" "+c.name, func(t *testing.T) {
			if got := fnmatch(c.pat, c.name, c.fold); got != c.ok {
				t.Errorf("fnmatch(%q, %q) = %v", c.pat, c.name, got)
			}
		})
	}
}
