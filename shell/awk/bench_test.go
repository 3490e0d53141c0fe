package awk

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// benchInput is about 10 MB of "word number decimal word" lines, made on
// first use.
var benchInput = sync.OnceValue(func() string {
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	var b strings.Builder
	for i := 0; b.Len() < 10<<20; i++ {
		fmt.Fprintf(&b, "%s %d %d.%d %s\n", words[i%8], i%1000, i%97, i%10, words[(i*7)%8])
	}
	return b.String()
})

func benchProgram(b *testing.B, src string) {
	prog, err := Compile(src)
	if err != nil {
		b.Fatal(err)
	}
	input := benchInput()
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		env := testEnv(b, context.Background(), strings.NewReader(input), io.Discard)
		if status, err := prog.Run(context.Background(), env, Options{}); err != nil || status != 0 {
			b.Fatal(status, err)
		}
	}
}

// BenchmarkSum sums a column.
func BenchmarkSum(b *testing.B) {
	benchProgram(b, `{ s += $3 } END { print s }`)
}

// BenchmarkCount counts fields and words with an associative array.
func BenchmarkCount(b *testing.B) {
	benchProgram(b, `{ n += NF; c[$1]++; w[$4] += $2 } END { for (k in c) print k, c[k], w[k]; print n }`)
}

// BenchmarkRegex filters with a regex and rebuilds records.
func BenchmarkRegex(b *testing.B) {
	benchProgram(b, `/a[lm]/ { $2 = toupper($1); gsub(/e/, "E"); n += length($0) } END { print n }`)
}
