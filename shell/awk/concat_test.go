package awk

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// Long concatenations append to a shared buffer (interp.concat); values
// built from the same string must never see each other's appends.
func TestConcatAppendsDoNotAlias(t *testing.T) {
	prog := `BEGIN {
  s = sprintf("%300s", "")
  t = s "a"; u = s "b"
  print length(t), length(u), substr(t, 301), substr(u, 301)
  v = t; t = t "c"; w = v "d"
  print substr(t, 301), substr(v, 301), substr(w, 301)
  x = s (s "x")
  print length(x), substr(x, 600, 2) "|"
  y = substr(t, 1, 300); y = y "e"
  print substr(y, 300), substr(t, 301)
  acc = s; for (i = 0; i < 2000; i++) acc = acc (i % 10)
  print length(acc), substr(acc, 301, 12), substr(acc, length(acc) - 2)
}`
	out, errOut, st, _ := runAwk(t, context.Background(), []string{prog}, "")
	want := "301 301 a b\nac a ad\n601  x|\n e ac\n2300 012345678901 789\n"
	if st != 0 || out != want {
		t.Errorf("got %q (status %d, %s), want %q", out, st, errOut, want)
	}
}

// BenchmarkConcatAccumulate is s = s x over many records: linear, not
// quadratic, in the length of s.
func BenchmarkConcatAccumulate(b *testing.B) {
	input := strings.Repeat("host1 abcdef\n", 20000)
	for b.Loop() {
		out, _, _, _ := runAwk(b, context.Background(), []string{`{ s = s substr($2, 1, 3) } END { print length(s) }`}, input)
		if out != "60000\n" {
			b.Fatal(out)
		}
	}
}

// TestConcatAccumulateIsLinear: building a 60 KB string from 20,000 pieces
// allocates in proportion to the string, not to its square, as it would if
// every concatenation copied the whole string.
func TestConcatAccumulateIsLinear(t *testing.T) {
	input := strings.Repeat("host1 abcdef\n", 20000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, _, _, _ := runAwk(t, context.Background(), []string{`{ s = s substr($2, 1, 3) } END { print length(s) }`}, input)
	runtime.ReadMemStats(&after)
	if out != "60000\n" {
		t.Fatal(out)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
		t.Errorf("allocated %d MB", n>>20)
	}
}
