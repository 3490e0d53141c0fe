package mcptools

import (
	"sync"
	"testing"
	"time"
)

// Work added while Wait waits is waited for too, without a race.
func TestInflightAddDuringWait(t *testing.T) {
	var f inflight
	f.Add(1)
	done := make(chan struct{})
	go func() { f.Wait(); close(done) }()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.Add(1)
			time.Sleep(time.Millisecond)
			f.Done()
		}()
	}
	wg.Wait()
	select {
	case <-done:
		t.Fatal("Wait returned while work was in flight")
	case <-time.After(10 * time.Millisecond):
	}
	f.Done()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Wait did not return at zero")
	}
}
