package shellrt

import (
	"testing"

	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/vfs"
)

// Native counterparts of some of bench/shell-workloads.txt (which
// engine.BenchmarkShellWorkloads runs in the sandbox): the same scripts
// without WebAssembly, to profile the shell's own cost.

func benchScript(b *testing.B, script string) {
	fs := vfs.New(vfs.Limits{MaxBytes: 64 << 20})
	b.ReportAllocs()
	for b.Loop() {
		h := newHost()
		if out := Run(Options{Common: jsrt.Common{Host: h, FS: fs}}, "b.sh", script); out.ExitCode != 0 {
			b.Fatal(out, h.Stderr())
		}
	}
}

func BenchmarkWhileLoopNative(b *testing.B) {
	benchScript(b, `x=0; while [ $x -lt 2000 ]; do x=$((x+1)); done; echo $x`)
}

func BenchmarkStringConcatNative(b *testing.B) {
	benchScript(b, `s=""; for i in $(seq 1 500); do s="$s$i"; done; echo ${#s}`)
}

func BenchmarkPipesInLoopNative(b *testing.B) {
	benchScript(b, `for f in a b c d e f g h i j; do echo "$f" | tr a-z A-Z; done | tr -d '\n'`)
}

func BenchmarkJqSlurpNative(b *testing.B) {
	benchScript(b, `seq 1 3000 | jq -s 'map(. * 2) | add'`)
}

func BenchmarkJqSmallNative(b *testing.B) {
	benchScript(b, `echo '{"items":[{"n":1},{"n":2},{"n":3}]}' | jq '[.items[].n] | add'`)
}
