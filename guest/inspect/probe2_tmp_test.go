package inspect

import (
	"testing"

	"github.com/dop251/goja"
)

func BenchmarkNewRuntimeTmp(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		goja.New()
	}
}

func BenchmarkRunProgramOnlyTmp(b *testing.B) {
	prg, _ := program()
	b.ReportAllocs()
	for b.Loop() {
		rt := goja.New()
		rt.RunProgram(prg)
	}
}
