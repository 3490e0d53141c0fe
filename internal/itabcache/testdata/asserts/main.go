// Command asserts makes type assertions to interface types in the ways that
// matter to internal/itabcache, and prints what each gave; run patched and
// unpatched, it must print the same. Built for GOOS=wasip1 by the package's
// tests.
package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
)

type Stringer interface{ String() string }

type Sizer interface{ Size() int }

type Both interface {
	Stringer
	Sizer
}

type A int

func (a A) String() string { return fmt.Sprintf("A%d", int(a)) }

type B struct{ n int }

func (b *B) String() string { return fmt.Sprintf("B%d", b.n) }
func (b *B) Size() int      { return b.n }

type C float64

type D struct{ s string }

func (d D) Size() int { return len(d.s) }

var values = []any{A(1), &B{2}, C(3), D{"four"}, nil, "five", 6, A(7), &B{8}, D{"nine"}}

// asStringer is one call site (one descriptor) that may fail.
//
//go:noinline
func asStringer(v any) string {
	if s, ok := v.(Stringer); ok {
		return s.String()
	}
	return "-"
}

//go:noinline
func asSizer(v any) int {
	if s, ok := v.(Sizer); ok {
		return s.Size()
	}
	return -1
}

//go:noinline
func asBoth(v any) string {
	if b, ok := v.(Both); ok {
		return fmt.Sprint(b.String(), b.Size())
	}
	return "-"
}

// mustStringer's assertion cannot fail: a wrong type panics.
//
//go:noinline
func mustStringer(v any) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = "panic: " + fmt.Sprint(r)
		}
	}()
	return v.(Stringer).String()
}

// fromSizer asserts from a non-empty interface.
//
//go:noinline
func fromSizer(s Sizer) string {
	if st, ok := s.(Stringer); ok {
		return st.String()
	}
	return "-"
}

// deep asserts at every level of a recursion deep enough to grow the
// goroutine's stack several times, so that assertions run across stack
// copies.
func deep(n int, v any) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	if n == 0 {
		return asSizer(v) + int(pad[0])
	}
	return deep(n-1, v) + len(asStringer(v)) + int(pad[n%64]&0)
}

func main() {
	var out strings.Builder
	// The same sites with each value, many times: each site's one-entry
	// cache is hit, missed and replaced.
	for round := 0; round < 50; round++ {
		for i, v := range values {
			line := fmt.Sprintf("%d %s %d %s %s", i, asStringer(v), asSizer(v), asBoth(v), mustStringer(v))
			if s, ok := v.(Sizer); ok {
				line += " " + fromSizer(s)
			}
			if round == 0 {
				out.WriteString(line + "\n")
			} else if round == 49 {
				out.WriteString(line + "\n")
			}
		}
		if round%10 == 0 {
			runtime.GC() // the collector scans the descriptors' cache words
		}
	}
	// One site, a thousand times with one type, then with another.
	n := 0
	for i := 0; i < 30000; i++ {
		n += len(asStringer(values[i/1000%2]))
	}
	fmt.Fprintln(&out, "loop", n)
	fmt.Fprintln(&out, "deep", deep(5000, &B{3}), deep(5000, A(5)))
	// Goroutines switch while they assert.
	done := make(chan string)
	for g := 0; g < 4; g++ {
		go func(g int) {
			s := 0
			for i := 0; i < 500; i++ {
				s += asSizer(values[(g+i)%len(values)])
				if i%100 == 0 {
					runtime.Gosched()
				}
			}
			done <- fmt.Sprint(g, s)
		}(g)
	}
	var sums []string
	for g := 0; g < 4; g++ {
		sums = append(sums, <-done)
	}
	slices.Sort(sums)
	fmt.Fprintln(&out, "goroutines", sums)
	os.Stdout.WriteString(out.String())
}
