package awk

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/iotest"
)

// TestRecordBoundaries reads the same input whole, one byte at a time and
// in a large generated form, to exercise the buffer refills of every RS
// mode.
func TestRecordBoundaries(t *testing.T) {
	big := strings.Repeat("alpha beta\ngamma\n\n\ndelta;eps XYZ zeta\n", 5000)
	tests := []struct {
		prog, input, want string
	}{
		{`{ print NR ":" $0 }`, "a\nb\n\nc", "1:a\n2:b\n3:\n4:c\n"},
		{`BEGIN { RS = ";" } { print NR ":" $0 }`, "a;b;;c;\n", "1:a\n2:b\n3:\n4:c\n5:\n\n"},
		{`BEGIN { RS = "" } { print NR ":" $0 "|" NF }`, "\n\n\na b\nc\n\n\n\nd\n\n", "1:a b\nc|3\n2:d|1\n"},
		{`BEGIN { RS = "XY+Z|;" } { print NR ":" $0 }`, "aXYYZb;c", "1:a\n2:b\n3:c\n"},
		{`BEGIN { RS = "\n\n+" } { n++ } END { print n }`, big, "5001\n"},
		{`BEGIN { RS = "" } { n += NF } END { print n, NR }`, big, "30000 5001\n"},
		{`BEGIN { RS = ";" } END { print NR }`, big, "5001\n"},
		{`{ n += NF } END { print n, NR }`, big, "30000 25000\n"},
	}
	for _, tt := range tests {
		t.Run(tt.prog, func(t *testing.T) {
			for _, mode := range []string{"whole", "onebyte", "half"} {
				var out bytes.Buffer
				r := strings.NewReader(tt.input)
				env := testEnv(t, context.Background(), r, &out)
				switch mode {
				case "onebyte":
					env.Stdin = iotest.OneByteReader(r)
				case "half":
					env.Stdin = iotest.HalfReader(r)
				}
				prog, err := Compile(tt.prog)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := prog.Run(context.Background(), env, Options{}); err != nil {
					t.Fatal(err)
				}
				if out.String() != tt.want {
					t.Errorf("%s (%s): got %q, want %q", tt.prog, mode, out.String(), tt.want)
				}
			}
		})
	}
}

func TestMisc(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{`BEGIN { srand(); print srand() }`}, "", "1704164645\n"},
		{[]string{`BEGIN { print "b" | "sort"; print close("sort"), close("sort") }`}, "", "b\n0 -1\n"},
		{[]string{`BEGIN { print "x" | "false"; print close("false") }`}, "", "1\n"},
		{[]string{`BEGIN { printf "a"; fflush(); printf "b\n"; print fflush("nope") }`}, "", "ab\n-1\n"},
		{[]string{"-f", "-", "data1.txt"}, "{ print $2 }", "1\n2\n3\n"},
		{[]string{`BEGIN { getline x < "data1.txt"; split(x, p); if (p[2] == 1.0) print "numeric" }`}, "", "numeric\n"},
		{[]string{`BEGIN { getline x < "data1.txt"; if (x == "x 1") print "string" }`}, "", "string\n"},
		{[]string{`function f(a, k) { a[k] = k; return length(a) } BEGIN { print f(arr, 1), f(arr, 2), length(arr) }`}, "", "1 2 2\n"},
		{[]string{`function f(a) { delete a; a["n"] = 1 } BEGIN { x[1]; x[2]; f(x); for (k in x) print k }`}, "", "n\n"},
		{[]string{`BEGIN { while (("x" in a) == 0) a["x"]; print length(a) }`}, "", "1\n"},
		{[]string{`{ print; print "e" > "/dev/stderr" }`}, "l\n", "l\n"},
		{[]string{`BEGIN { OFS = "-"; $0 = "a b"; $1 = $1; print; OFS = ":"; print; $2 = $2; print }`}, "", "a-b\na-b\na:b\n"},
		{[]string{`BEGIN { CONVFMT = "%d"; a[1.5] = 1; for (k in a) print k }`}, "", "1\n"},
		{[]string{`BEGIN { OFMT = "%.2f"; x = 3.14159; print x, x "" }`}, "", "3.14 3.14159\n"},
		{[]string{`BEGIN { printf "%s %s %s\n", "-inf" + 0, "+nan" + 0, -log(0) }`}, "", "-inf +nan +inf\n"},
		{[]string{`BEGIN { print length() }`}, "", "0\n"},
		{[]string{`BEGIN { x["a"]; print length(x) }`, "data1.txt"}, "", "1\n"},
		{[]string{`END { print NR }`, "data1.txt", "-"}, "1\n2\n", "5\n"},
		{[]string{`{ print FILENAME ":" $0 }`, "x=1", "/workspace/data2.txt"}, "", "/workspace/data2.txt:a:b\n/workspace/data2.txt:c:d\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errOut, status, _ := runAwk(t, context.Background(), tt.args, tt.stdin)
			if out != tt.want || status != 0 {
				t.Errorf("awk %q: %q (status %d, stderr %q), want %q", tt.args, out, status, errOut, tt.want)
			}
		})
	}
}
