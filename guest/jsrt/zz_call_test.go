package jsrt

import (
	"testing"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

func BenchmarkToolCallNativeZZ(b *testing.B) {
	fs := vfs.New(vfs.Limits{})
	h := &fakeHost{answer: func(c abi.Call) abi.CallResult {
		return abi.CallResult{ID: c.ID, OK: true, Value: []byte(`{"ok":true}`)}
	}}
	tools := []abi.ToolInfo{{Name: "t"}}
	for b.Loop() {
		out := Run(Options{Host: h, FS: fs, Tools: tools}, "b.js", "for (let i = 0; i < 100; i++) await t({i})")
		if out.ExitCode != 0 {
			b.Fatal(out)
		}
		h.batches = h.batches[:0]
	}
}
