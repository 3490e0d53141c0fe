package ere_test

import (
	"context"
	"io"
	"testing"

	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/shell/commands"
	"github.com/cordonhq/cordon/vfs"
)

// Native runs of the scripts of bench/shell-workloads.txt that use the
// commands whose regexes package ere translates (awk, sed, grep), to
// compare their cost before and after a change with benchstat.

func benchWorkload(b *testing.B, script string) {
	reg := commands.All()
	fsys := vfs.New(vfs.Limits{MaxBytes: 64 << 20})
	b.ReportAllocs()
	for b.Loop() {
		cfg := shell.Config{FS: fsys, Commands: reg, Stdout: io.Discard, Stderr: io.Discard}
		if st, err := shell.Run(context.Background(), cfg, "b.sh", script); st != 0 || err != nil {
			b.Fatal(st, err)
		}
	}
}

func BenchmarkAwkSum(b *testing.B) {
	benchWorkload(b, `seq 1 20000 | awk '{s+=$1} END {print s}'`)
}

func BenchmarkAwkAccumulate(b *testing.B) {
	benchWorkload(b, `seq 1 20000 | awk '{ s = s $1 } END { print length(s) }'`)
}

func BenchmarkSedGrep(b *testing.B) {
	benchWorkload(b, `seq 1 20000 | sed 's/1/one/g' | grep -c one`)
}

func BenchmarkGrepAlternation(b *testing.B) {
	benchWorkload(b, `seq 1 200000 | grep -cE '^1|77|999'`)
}

func BenchmarkAwkRegexFields(b *testing.B) {
	benchWorkload(b, `seq 1 20000 | awk -F'[05]' '/7$/ { n += NF; sub(/1/, "x"); if ($0 ~ "x.*9") m++ } END { print n, m }'`)
}
