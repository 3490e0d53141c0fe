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
		{Args: []string{"find"}, Out: ".\n./d\n./d/empty\n./d/sub\n./d/sub/y.c\n./d/x.txt\n./e\n./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"}, // GNU lists in directory order
		{Args: []string{"find", "d"}, Out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"},                                                      // GNU lists in directory order
		{Args: []string{"find", "d/"}, Out: "d/\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"},                                                    // GNU lists in directory order
		{Args: []string{"find", "nope"}, Out: "", Err: "find: ‘nope’: No such file or directory", Status: 1},
		{Args: []string{"find", ".", "-bogus"}, Out: "", Err: "find: unknown predicate `-bogus'", Status: 1},
		{Args: []string{"find", ".", "-name"}, Out: "", Err: "find: missing argument to `-name'", Status: 1},
		{Args: []string{"find", ".", "-type", "q"}, Out: "", Err: "find: Unknown argument to -type: q", Status: 1},
		{Args: []string{"find", ".", "(", "-name", "x"}, Out: "", Err: "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.", Status: 1},
		{Args: []string{"find", "d", "-name", "*.c"}, Out: "d/sub/y.c\n"},
		{Args: []string{"find", ".", "-name", "?"}, Out: ".\n./d\n./e\n./f\n./g\n./v\n"}, // GNU lists in directory order
		{Args: []string{"find", ".", "-iname", "F"}, Out: "./f\n"},
		{Args: []string{"find", ".", "-type", "d"}, Out: ".\n./d\n./d/sub\n./e\n"}, // GNU lists in directory order
		{Args: []string{"find", ".", "-type", "f", "-name", "[fg]"}, Out: "./f\n./g\n"},
		{Args: []string{"find", ".", "-maxdepth", "1", "-type", "f"}, Out: "./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"}, // GNU lists in directory order
		{Args: []string{"find", ".", "-mindepth", "2"}, Out: "./d/empty\n./d/sub\n./d/sub/y.c\n./d/x.txt\n"},           // GNU lists in directory order
		{Args: []string{"find", "d", "-path", "*sub*"}, Out: "d/sub\nd/sub/y.c\n"},
		{Args: []string{"find", ".", "-empty"}, Out: "./d/empty\n./e\n"},                                                                                              // GNU lists in directory order
		{Args: []string{"find", ".", "-not", "-name", "*.txt", "-type", "f"}, Out: "./d/empty\n./d/sub/y.c\n./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"},                // GNU lists in directory order
		{Args: []string{"find", ".", "!", "-type", "d", "-o", "-name", "d"}, Out: "./d\n./d/empty\n./d/sub/y.c\n./d/x.txt\n./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"}, // GNU lists in directory order
		{Args: []string{"find", ".", "(", "-name", "f", "-o", "-name", "g", ")", "-print"}, Out: "./f\n./g\n"},
		{Args: []string{"find", "d", "-name", "sub", "-prune", "-o", "-print"}, Out: "d\nd/empty\nd/x.txt\n"},                             // GNU lists in directory order
		{Args: []string{"find", "d", "-exec", "echo", "{}", ";"}, Out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"},                         // GNU lists in directory order
		{Args: []string{"find", "d", "-exec", "echo", "{}", "+"}, Out: "d d/empty d/sub d/sub/y.c d/x.txt\n"},                             // GNU lists in directory order
		{Args: []string{"find", "d", "-exec", "echo", "x-{}-y", ";"}, Out: "x-d-y\nx-d/empty-y\nx-d/sub-y\nx-d/sub/y.c-y\nx-d/x.txt-y\n"}, // GNU lists in directory order
		{Args: []string{"find", "d", "-exec", "echo"}, Out: "", Err: "find: missing argument to `-exec'", Status: 1},
		{Args: []string{"find", "d", "-type", "f", "-exec", "false", "{}", ";"}, Out: ""},
		{Args: []string{"find", "d", "-type", "f", "-exec", "false", "{}", "+"}, Out: "", Status: 1},
		{Args: []string{"find", "d", "-print0"}, Out: "d\x00d/empty\x00d/sub\x00d/sub/y.c\x00d/x.txt\x00"},                                                                                                                                          // GNU lists in directory order
		{Args: []string{"find", "d", "-printf", "%p|%f|%h|%P|%s|%d|%y|%m\\n"}, Out: "d|d|.||4096|0|d|755\nd/empty|empty|d|empty|0|1|f|644\nd/sub|sub|d|sub|4096|1|d|755\nd/sub/y.c|y.c|d/sub|sub/y.c|3|2|f|644\nd/x.txt|x.txt|d|x.txt|2|1|f|644\n"}, // GNU lists in directory order
		{Args: []string{"find", "-maxdepth", "1", "-name", "f"}, Out: "./f\n"},
		{Args: []string{"find", ".", "-size", "-1"}, Out: "./d/empty\n"},
		{Args: []string{"find", ".", "-size", "+0c", "-size", "-4c"}, Out: "./d/sub/y.c\n./d/x.txt\n"},                       // GNU lists in directory order
		{Args: []string{"find", ".", "-size", "1"}, Out: "./d/sub/y.c\n./d/x.txt\n./f\n./g\n./j.json\n./n12\n./nonl\n./v\n"}, // GNU lists in directory order
		{Args: []string{"find", "d", "-depth"}, Out: "d/empty\nd/sub/y.c\nd/sub\nd/x.txt\nd\n"},                              // GNU lists in directory order
		{Args: []string{"find", ".", "-regex", ".*\\.c"}, Out: "./d/sub/y.c\n"},
		{Args: []string{"find", ".", "-regex", ".*\\(txt\\|c\\)"}, Out: "./d/sub/y.c\n./d/x.txt\n"},                           // GNU lists in directory order
		{Args: []string{"find", ".", "-regextype", "posix-extended", "-regex", ".*(txt|c)"}, Out: "./d/sub/y.c\n./d/x.txt\n"}, // GNU lists in directory order
		{Args: []string{"find", ".", "-name", "f", "-quit"}, Out: ""},
		{Args: []string{"find", "d", "e", "-type", "d"}, Out: "d\nd/sub\ne\n"},
		{Args: []string{"find", "d", ")"}, Out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n", Err: "find: ‘)’: No such file or directory", Status: 1}, // GNU lists in directory order
		{Args: []string{"find", "d", "f"}, Out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\nf\n"},                                                      // GNU lists in directory order
		{Args: []string{"find", "d", "-name", "x.txt", "-a", "-type", "f"}, Out: "d/x.txt\n"},
		{Args: []string{"find", "d", ","}, Out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n", Err: "find: ‘,’: No such file or directory", Status: 1}, // GNU lists in directory order
		{Args: []string{"find", ".", "-maxdepth", "x"}, Out: "", Err: "find: Expected a positive decimal integer argument to -maxdepth, but got ‘x’", Status: 1},
		{Args: []string{"find", "d", "-true"}, Out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"}, // GNU lists in directory order
		{Args: []string{"find", "d", "-false"}, Out: ""},
		{Args: []string{"find", "d", "-name", "*.txt", "-o", "-name", "*.c"}, Out: "d/sub/y.c\nd/x.txt\n"},                // GNU lists in directory order
		{Args: []string{"find", "d", "-type", "f,d"}, Out: "d\nd/empty\nd/sub\nd/sub/y.c\nd/x.txt\n"},                     // GNU lists in directory order
		{Args: []string{"find", "d", "-mindepth", "1", "-maxdepth", "1", "-printf", "%f\\n"}, Out: "empty\nsub\nx.txt\n"}, // GNU lists in directory order
		{Args: []string{"find", ".", "-name", "*.json", "-exec", "cat", "{}", ";"}, Out: "{\"a\":1,\"b\":[1,2,{\"c\":null}],\"s\":\"h\\u00e9\\u001f\\u007f\"}\n{\"a\":2}\n"},
		{Args: []string{"find", "d", "-type", "f", "-name", "y*", "-exec", "wc", "-c", "{}", "+"}, Out: "3 d/sub/y.c\n"},
	})
}

func TestFindExecNotFound(t *testing.T) {
	r := run(t, nil, stdFiles, "", "find", "f", "-exec", "nosuch", "{}", ";")
	if r.Status != 1 || !strings.Contains(r.Err, "nosuch") {
		t.Errorf("status %d, stderr %q", r.Status, r.Err)
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
			if r.Out != c.out || r.Status != 0 {
				t.Errorf("%q: got %q (%d %q), want %q", c.args, r.Out, r.Status, r.Err, c.out)
			}
		})
	}
}

func TestFindDelete(t *testing.T) {
	r := run(t, nil, stdFiles, "", "find", "d", "-name", "*.c", "-delete")
	if r.Status != 0 || r.Out != "" || readFile(r.FS, "d/sub/y.c") != "<missing>" || readFile(r.FS, "d/x.txt") != "x\n" {
		t.Errorf("find -delete: %+v", r)
	}
	r = run(t, nil, stdFiles, "", "find", "d", "-delete")
	if _, err := r.FS.Stat("/workspace/d"); r.Status != 0 || err == nil {
		t.Errorf("find d -delete: %d %q %v", r.Status, r.Err, err)
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
