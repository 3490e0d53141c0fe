package jq

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
)

// benchJq runs jq with args over stdin b.N times.
func benchJq(b *testing.B, stdin string, args ...string) {
	b.Helper()
	fsys := setupFS(b, nil)
	f := Commands()["jq"]
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		env := &command.Env{
			Ctx: context.Background(), Args: append([]string{"jq"}, args...), Stdin: strings.NewReader(stdin),
			Stdout: io.Discard, Stderr: io.Discard, Dir: "/workspace", FS: fsys,
			Now: func() time.Time { return testNow },
		}
		if st := f(env); st != 0 {
			b.Fatalf("jq %v: status %d", args, st)
		}
	}
}

// seqInput returns the output of seq 1 n.
func seqInput(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "%d\n", i)
	}
	return sb.String()
}

// recordsInput returns n JSON objects, one a line, as an API returns them.
func recordsInput(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, `{"id":%d,"name":"user%d","email":"u%d@example.com","score":%d.5,"tags":["a","b"],"active":%v}`+"\n", i, i, i, i%97, i%2 == 0)
	}
	return sb.String()
}

// BenchmarkJqSlurp is bench/shell-workloads.txt's jq-slurp.
func BenchmarkJqSlurp(b *testing.B) {
	benchJq(b, seqInput(3000), "-s", "map(. * 2) | add")
}

// BenchmarkJqSmall is bench/shell-workloads.txt's jq-small.
func BenchmarkJqSmall(b *testing.B) {
	benchJq(b, `{"items":[{"n":1},{"n":2},{"n":3}]}`, "[.items[].n] | add")
}

// BenchmarkJqIdentity pretty-prints objects read from the input.
func BenchmarkJqIdentity(b *testing.B) {
	benchJq(b, recordsInput(1000), ".")
}

// BenchmarkJqUpdate changes objects (gojq rebuilds them).
func BenchmarkJqUpdate(b *testing.B) {
	benchJq(b, recordsInput(1000), "-c", ".score += 1 | del(.tags) | . + {seen: true}")
}

// BenchmarkJqConstruct builds objects and converts them to entries.
func BenchmarkJqConstruct(b *testing.B) {
	benchJq(b, recordsInput(1000), "-c", "{name, id, s: .score} | with_entries(.value |= tostring)")
}

// BenchmarkJqSlurpSort sorts slurped objects and groups them.
func BenchmarkJqSlurpSort(b *testing.B) {
	benchJq(b, recordsInput(1000), "-sc", "sort_by(.score) | group_by(.active) | map({active: .[0].active, n: length, top: .[-1].name})")
}

// BenchmarkJqCompile runs a filter that is not in the program cache: the
// cost of parsing and compiling a program.
func BenchmarkJqCompile(b *testing.B) {
	fsys := setupFS(b, nil)
	f := Commands()["jq"]
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		filter := fmt.Sprintf(`.items | map(select(.n > %d) | {n, s: (.n | tostring)})`, i)
		env := &command.Env{
			Ctx: context.Background(), Args: []string{"jq", "-c", filter}, Stdin: strings.NewReader(`{"items":[{"n":1},{"n":2}]}`),
			Stdout: io.Discard, Stderr: io.Discard, Dir: "/workspace", FS: fsys,
			Now: func() time.Time { return testNow },
		}
		if st := f(env); st != 0 {
			b.Fatalf("status %d", st)
		}
	}
}

// BenchmarkJqIndex indexes objects read from the input.
func BenchmarkJqIndex(b *testing.B) {
	benchJq(b, recordsInput(1000), "-r", `.name + " " + .email + " " + (.tags[0])`)
}
