package awk

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestOutputFiles(t *testing.T) {
	tests := []struct {
		prog  string
		files map[string]string
	}{
		{`BEGIN { print "a" > "o.txt"; print "b" > "o.txt" }`, map[string]string{"o.txt": "a\nb\n"}},
		{`BEGIN { print "new" >> "data2.txt" }`, map[string]string{"data2.txt": "a:b\nc:d\nnew\n"}},
		{`BEGIN { print "x" > "data2.txt" }`, map[string]string{"data2.txt": "x\n"}},
		{`{ print $2 > ($1 ".out") }`, map[string]string{"x.out": "1\n3\n", "y.out": "2\n"}},
		{`BEGIN { printf "%d\n", 5 > "/tmp/p.txt"; close("/tmp/p.txt"); print 6 >> "/tmp/p.txt" }`, map[string]string{"/tmp/p.txt": "5\n6\n"}},
		{`BEGIN { print "1" > "c.txt"; close("c.txt"); print "2" > "c.txt" }`, map[string]string{"c.txt": "2\n"}},
		{`BEGIN { print "z\ny" | "sort > ignored" } END { }`, map[string]string{}},
		{`BEGIN { print "saved" > "e.txt"; print 1/0 }`, map[string]string{"e.txt": "saved\n"}},
		{`BEGIN { print "b\na" | "cat | sort"; close("cat | sort") }`, map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.prog, func(t *testing.T) {
			_, errOut, _, fsys := runAwk(t, context.Background(), []string{tt.prog, "data1.txt"}, "")
			for name, want := range tt.files {
				if !strings.HasPrefix(name, "/") {
					name = "/workspace/" + name
				}
				got, err := fsys.ReadFile(name)
				if err != nil || string(got) != want {
					t.Errorf("%s = %q, %v; want %q (stderr %q)", name, got, err, want, errOut)
				}
			}
		})
	}
}

func TestPipeline(t *testing.T) {
	out, _, status, _ := runAwk(t, context.Background(), []string{`BEGIN { print "b\na" | "cat | sort"; print close("cat | sort"); print "c" | "sort -r"; print "d" | "sort -r" }`}, "")
	if want := "a\nb\n0\nd\nc\n"; out != want || status != 0 {
		t.Errorf("out %q status %d; want %q", out, status, want)
	}
}

// TestProgramReuse runs one compiled program twice with different options.
func TestProgramReuse(t *testing.T) {
	prog, err := Compile(`{ s += $n } END { print s, x }`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n, want string
	}{{"1", "6 v\n"}, {"2", "15 v\n"}} {
		var out bytes.Buffer
		env := testEnv(t, context.Background(), strings.NewReader("1 4\n2 5\n3 6\n"), &out)
		status, err := prog.Run(context.Background(), env, Options{Assigns: []string{"n=" + tc.n, "x=v"}})
		if err != nil || status != 0 || out.String() != tc.want {
			t.Errorf("n=%s: %q, %d, %v; want %q", tc.n, out.String(), status, err, tc.want)
		}
	}
}
