package awk

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// FuzzAwk checks that no program or input makes the interpreter panic or
// report an internal error.
func FuzzAwk(f *testing.F) {
	seeds := []string{
		`{ print $1, NF }`, `BEGIN { x = 1; print x++ + ++x }`, `/a+/,/b/ { n++ } END { print n }`,
		`{ a[$1] = a[$1] $2 } END { for (k in a) print k, a[k] }`, `BEGIN { printf "%5.2f %c %s\n", 1, 65, "x" }`,
		`function f(a, n) { a[n] = n; if (n > 0) f(a, n - 1) } BEGIN { f(x, 5); print length(x) }`,
		`{ gsub(/[[:alpha:]]+/, "<&>"); sub("x", "\\&"); print }`, `BEGIN { RS = "" } { $3 = "z"; print NF }`,
		`BEGIN { getline l < "data1.txt"; split(l, p, /[ ]/); print p[2] }`, `{ $0 = $2; print $1 }`,
		`BEGIN { while (i++ < 10) { if (i % 2) continue; s = s i }; print s }`, `NR == 2 { next } { print > "o.txt" }`,
	}
	for _, s := range seeds {
		f.Add(s, "a b c\nd e f\n\nx y\n")
	}
	f.Fuzz(func(t *testing.T, src, input string) {
		prog, err := Compile(src)
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("Compile(%q) returned %T %v", src, err, err)
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		env := testEnv(t, ctx, strings.NewReader(input), io.Discard)
		_, err = prog.Run(ctx, env, Options{Args: []string{"-"}})
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("program %q: %v", src, err)
		}
	})
}
