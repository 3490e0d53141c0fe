package shellrt

import (
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/vfs"
)

// batchSizes returns the size of each batch of calls h was handed.
func batchSizes(h *hubtest.Host) []int {
	var sizes []int
	for _, b := range h.Batches() {
		sizes = append(sizes, len(b))
	}
	return sizes
}

// Tool calls made by background jobs reach the host as one batch (which
// the engine runs in parallel), and each job gets its own answer.
// The guest has one thread: GOMAXPROCS(1) runs the goroutines as the
// guest does.
func TestBackgroundToolCallsBatch(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	h := newHost()
	script := `for c in A B C D; do tool weather/current --city $c > out.$c & done; wait; cat out.A out.B out.C out.D`
	out := Run(Options{Common: jsrt.Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: testTools}}, "script.sh", script)
	if out.ExitCode != 0 {
		t.Fatalf("%+v: %s", out, h.Stderr())
	}
	if b := batchSizes(h); len(b) != 1 || b[0] != 4 {
		t.Errorf("the host got batches of %v calls, want one of 4", b)
	}
	got := h.Stdout()
	for _, c := range []string{"A", "B", "C", "D"} {
		if strings.Count(got, `"city":"`+c+`"`) != 1 {
			t.Errorf("the answer for %s is not in %s", c, got)
		}
	}
	// Calls made one after another stay one per batch.
	h2 := newHost()
	Run(Options{Common: jsrt.Common{Host: h2, FS: vfs.New(vfs.Limits{}), Tools: testTools}}, "script.sh", `tool weather/current --city X; tool weather/current --city Y`)
	if b := batchSizes(h2); len(b) != 2 || b[0] != 1 || b[1] != 1 {
		t.Errorf("sequential calls came in batches %v", b)
	}
}
