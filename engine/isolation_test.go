package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// Fifty sandboxes run at once, in JS and in the shell, each with its own
// files, globals, counters and output; nothing crosses between them. CI
// runs this under the race detector.
func TestFiftyConcurrentSandboxes(t *testing.T) {
	const n = 50
	var wg sync.WaitGroup
	var calls [n]atomic.Int32
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{
				ID:     fmt.Sprintf("sb-%d", i),
				Limits: engine.Limits{Timeout: time.Minute},
				Tools: []engine.Tool{{Name: "whoami", Handler: func(context.Context, json.RawMessage) (any, error) {
					calls[i].Add(1)
					return i, nil
				}}},
			})
			for j := 0; j < 3; j++ {
				res, err := sb.Execute(context.Background(), engine.JavaScript, fmt.Sprintf(`
globalThis.seen = (globalThis.seen || 0) + 1
Array.prototype.leak = %d
const prev = fs.existsSync('mine') ? fs.readFileSync('mine', 'utf8') : ''
fs.writeFileSync('mine', prev + '%d,')
console.log("out", %d)
return [seen, prev, await whoami()]`, i, i, i))
				if err != nil {
					t.Errorf("sandbox %d: %v", i, err)
					return
				}
				want := fmt.Sprintf("out %d\n[1,%q,%d]\n", i, strings.Repeat(fmt.Sprintf("%d,", i), j), i)
				if res.Stdout != want {
					t.Errorf("sandbox %d, run %d: %q, want %q", i, j, res.Stdout, want)
				}
			}
			res, err := sb.Execute(context.Background(), engine.Shell, `cat mine; echo; ls /workspace; tool whoami; echo "${leak:-none}"`)
			want := fmt.Sprintf("%s\nmine\n%d\nnone\n", strings.Repeat(fmt.Sprintf("%d,", i), 3), i)
			if err != nil || res.Stdout != want {
				t.Errorf("sandbox %d, shell: %q %v, want %q", i, res.Stdout, err, want)
			}
		}()
	}
	wg.Wait()
	for i := range calls {
		if got := calls[i].Load(); got != 4 {
			t.Errorf("sandbox %d's tool ran %d times, want 4", i, got)
		}
	}
}

// Closing a sandbox frees it: after 1000 create/close cycles the host's
// heap is back near where it started.
func TestCreateCloseReturnsMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("1000 cycles take about 30 s; skipped with -short and -race")
	}
	e := bareEngine(t)
	ctx := context.Background()
	cycle := func(k int) {
		for i := 0; i < k; i++ {
			sb, err := e.NewSandbox(ctx, engine.SandboxConfig{})
			if err != nil {
				t.Fatal(err)
			}
			if i%50 == 0 {
				if _, err := sb.Execute(ctx, engine.JavaScript, `fs.writeFileSync("x", "y".repeat(1 << 20))`); err != nil {
					t.Fatal(err)
				}
			}
			if err := sb.Close(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	cycle(20) // warm up: caches, pools
	before := heap()
	cycle(1000)
	after := heap()
	t.Logf("heap in use: %d MiB before, %d MiB after 1000 sandboxes", before>>20, after>>20)
	if after > before+64<<20 {
		t.Errorf("heap grew from %d MiB to %d MiB over 1000 create/close cycles", before>>20, after>>20)
	}
}
