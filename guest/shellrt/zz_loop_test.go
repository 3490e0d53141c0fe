package shellrt

import (
	"testing"

	"github.com/cordonhq/cordon/vfs"
)

func benchSh(b *testing.B, script string) {
	fs := vfs.New(vfs.Limits{MaxBytes: 64 << 20})
	for b.Loop() {
		h := &fakeHost{}
		out := Run(Options{Host: h, FS: fs}, "b.sh", script)
		if out.ExitCode != 0 {
			b.Fatal(out, h.stderr.String())
		}
	}
}

func BenchmarkZZWhile(b *testing.B) {
	benchSh(b, `x=0; while [ $x -lt 2000 ]; do x=$((x+1)); done; echo $x`)
}
func BenchmarkZZConcat(b *testing.B) {
	benchSh(b, `s=""; for i in $(seq 1 500); do s="$s$i"; done; echo ${#s}`)
}
func BenchmarkZZEcho(b *testing.B) {
	benchSh(b, `for i in $(seq 1 1000); do echo $i; done | wc -l`)
}
func BenchmarkZZJq(b *testing.B) {
	benchSh(b, `seq 1 3000 | jq -s 'map(. * 2) | add'`)
}
func BenchmarkZZJqSmall(b *testing.B) {
	benchSh(b, `echo '{"items":[{"n":1},{"n":2},{"n":3}]}' | jq '[.items[].n] | add'`)
}
func BenchmarkZZTrLoop(b *testing.B) {
	benchSh(b, `for f in a b c d e f g h i j; do echo "$f" | tr a-z A-Z; done | tr -d '\n'`)
}
func BenchmarkZZEchoOnly(b *testing.B) {
	benchSh(b, `echo hi`)
}
