package startprof

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"testing"

	"github.com/cordonhq/cordon/engine"
)

func TestHeap(t *testing.T) {
	e, err := engine.New(context.Background(), engine.Config{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heapinuse %d MB sys %d MB", ms.HeapInuse>>20, ms.Sys>>20)
	f, _ := os.Create("/tmp/startprof/heap.out")
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
	b, _ := os.ReadFile("/proc/self/status")
	t.Log(string(b))
	runtime.KeepAlive(e)
}
