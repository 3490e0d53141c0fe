package shellrt

import (
	goruntime "runtime"
	"strings"
	"sync"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

// batchHost is a fakeHost that records the size of every batch of calls
// the guest hands it.
type batchHost struct {
	fakeHost
	bmu     sync.Mutex
	batches []int
}

func (h *batchHost) Yield(calls []abi.Call) (*abi.Resume, error) {
	h.bmu.Lock()
	h.batches = append(h.batches, len(calls))
	h.bmu.Unlock()
	return h.fakeHost.Yield(calls)
}

// Tool calls made by background jobs reach the host as one batch (which
// the engine runs in parallel), and each job gets its own answer.
// The guest has one thread: GOMAXPROCS(1) runs the goroutines as the
// guest does.
func TestBackgroundToolCallsBatch(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	h := &batchHost{}
	script := `for c in A B C D; do tool weather/current --city $c > out.$c & done; wait; cat out.A out.B out.C out.D`
	out := Run(Options{Common: jsrt.Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: testTools}}, "script.sh", script)
	if out.ExitCode != 0 {
		t.Fatalf("%+v: %s", out, h.stderr.String())
	}
	if len(h.batches) != 1 || h.batches[0] != 4 {
		t.Errorf("the host got batches of %v calls, want one of 4", h.batches)
	}
	got := h.stdout.String()
	for _, c := range []string{"A", "B", "C", "D"} {
		if strings.Count(got, `"city":"`+c+`"`) != 1 {
			t.Errorf("the answer for %s is not in %s", c, got)
		}
	}
	// Calls made one after another stay one per batch.
	h2 := &batchHost{}
	Run(Options{Common: jsrt.Common{Host: h2, FS: vfs.New(vfs.Limits{}), Tools: testTools}}, "script.sh", `tool weather/current --city X; tool weather/current --city Y`)
	if len(h2.batches) != 2 || h2.batches[0] != 1 || h2.batches[1] != 1 {
		t.Errorf("sequential calls came in batches %v", h2.batches)
	}
}
