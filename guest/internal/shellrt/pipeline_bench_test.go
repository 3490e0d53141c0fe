package shellrt

import (
	"fmt"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/vfs"
)

// BenchmarkPipelineNative runs the pipeline of the engine's
// BenchmarkShellPipeline10MB natively (no WebAssembly) on similar data, to
// split the guest's cost from the code's.
func BenchmarkPipelineNative(b *testing.B) {
	var data []byte
	for i := 0; len(data) < 10<<20; i++ {
		data = fmt.Appendf(data, "2026-11-21T12:00:00 host%d %s user%d request %d done in %dms\n", i%7, []string{"a", "foo", "b"}[i%3], i%113, i, i%997)
	}
	fs := vfs.New(vfs.Limits{MaxBytes: 64 << 20})
	if err := fs.WriteFile("/workspace/log.txt", data, 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		h := newHost()
		out := Run(Options{Common: jsrt.Common{Host: h, FS: fs}}, "b.sh", `grep foo log.txt | cut -d' ' -f4,5 | sort | uniq -c | sort -rn | head -3`)
		if out.ExitCode != 0 {
			b.Fatal(out, h.Stderr())
		}
	}
}
