package hub

import (
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
)

type ownerFunc func(abi.CallResult)

func (f ownerFunc) Deliver(r abi.CallResult) { f(r) }

// Call delivers answers for other pending calls to their owners and returns
// its own; ids are unique across owners.
func TestCallDeliversOthers(t *testing.T) {
	var pending []uint32
	h := &hubtest.Host{}
	h.Resume = func(calls []abi.Call) *abi.Resume {
		for _, c := range calls {
			pending = append(pending, c.ID)
		}
		// Answer the oldest pending call only.
		id := pending[0]
		pending = pending[1:]
		return &abi.Resume{Results: []abi.CallResult{{ID: id, OK: true, Value: []byte("1")}, {ID: 99, OK: true}}}
	}
	hb := New(h)
	var first abi.CallResult
	hb.Enqueue(abi.LangJS, "a", []byte("{}"), ownerFunc(func(r abi.CallResult) { first = r }))
	got, err := hb.Call(abi.LangJS, "b", []byte("{}"))
	if err != nil || got.ID != 2 || first.ID != 1 {
		t.Fatalf("got %+v %v, first %+v", got, err, first)
	}
	if hb.Pending() != 0 {
		t.Errorf("pending %d", hb.Pending())
	}
}

// The Hub reuses a batch's array for the next batch, but not when a call
// was queued while the host had the batch (by another goroutine of a shell
// pipeline): that call must reach the host, and the batch the host saw
// must not change.
func TestBatchesAreNotLostOrOverwritten(t *testing.T) {
	h := &hubtest.Host{}
	hb := New(h)
	n := 0
	var seen [][]string
	h.Resume = func(calls []abi.Call) *abi.Resume {
		var methods []string
		res := &abi.Resume{}
		for _, c := range calls {
			methods = append(methods, c.Method)
			res.Results = append(res.Results, abi.CallResult{ID: c.ID, OK: true})
		}
		seen = append(seen, methods)
		if n++; n == 1 {
			hb.Enqueue(abi.LangJS, "during", nil, ownerFunc(func(abi.CallResult) {}))
		}
		return res
	}
	for _, m := range []string{"a", "b"} {
		hb.Enqueue(abi.LangJS, m, nil, ownerFunc(func(abi.CallResult) {}))
	}
	for i := 0; hb.Pending() > 0; i++ {
		if i == 3 {
			t.Fatalf("calls still pending after %d batches: %q", i, seen)
		}
		if err := hb.Yield(); err != nil {
			t.Fatal(err)
		}
	}
	hb.Enqueue(abi.LangJS, "c", nil, ownerFunc(func(abi.CallResult) {}))
	if err := hb.Yield(); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"a", "b"}, {"during"}, {"c"}}
	if !slices.EqualFunc(seen, want, slices.Equal) {
		t.Errorf("the host saw %q, want %q", seen, want)
	}
	for i, b := range h.Batches() {
		for j, c := range b {
			if c.Method != want[i][j] {
				t.Errorf("batch %d call %d is now %q", i, j, c.Method)
			}
		}
	}
}

func TestStop(t *testing.T) {
	h := &hubtest.Host{Resume: func([]abi.Call) *abi.Resume { return &abi.Resume{Stop: true} }}
	hb := New(h)
	var f uint32
	leave, _ := hb.Enter(&f)
	defer leave()
	if _, err := hb.Call(abi.LangShell, "a", nil); err != ErrStopped {
		t.Fatalf("err %v", err)
	}
	if atomic.LoadUint32(&f) == 0 || !hb.Interrupted() || hb.Context().Err() == nil {
		t.Error("a stop did not set the flag")
	}
	if err := hb.Yield(); err != ErrStopped {
		t.Errorf("second yield: %v", err)
	}
}

// Leaving an interrupted inner interpreter interrupts the outer one and
// points the host back at it; depth is bounded.
func TestEnterLeave(t *testing.T) {
	h := &hubtest.Host{}
	hb := New(h)
	var outer, inner uint32
	leaveOuter, _ := hb.Enter(&outer)
	leaveInner, _ := hb.Enter(&inner)
	if h.Flag() != &inner || len(hb.flags) != 2 {
		t.Fatal("host does not watch the inner flag")
	}
	atomic.StoreUint32(&inner, 1)
	leaveInner()
	if h.Flag() != &outer || atomic.LoadUint32(&outer) != 1 {
		t.Error("the interruption did not reach the outer flag")
	}
	leaveOuter()
	if h.Flag() != nil {
		t.Error("host still watches a flag")
	}
	flags := make([]uint32, MaxDepth+1)
	for i := range flags {
		_, err := hb.Enter(&flags[i])
		if (err != nil) != (i == MaxDepth) {
			t.Fatalf("enter %d: %v", i, err)
		}
	}
}

// Interrupted watches exactly the registered flags: a flag the host writes
// after Enter is seen, one written after its interpreter left is not.
func TestInterruptedWatchesRegisteredFlags(t *testing.T) {
	hb := New(&hubtest.Host{})
	var outer, inner uint32
	leaveOuter, _ := hb.Enter(&outer)
	leaveInner, _ := hb.Enter(&inner)
	if hb.Interrupted() {
		t.Fatal("interrupted before any flag was set")
	}
	leaveInner()
	atomic.StoreUint32(&inner, 1)
	if hb.Interrupted() {
		t.Error("a flag written after its interpreter left counts")
	}
	atomic.StoreUint32(&outer, 1)
	if !hb.Interrupted() {
		t.Error("the registered flag's write is not seen")
	}
	leaveOuter()
	atomic.StoreUint32(&outer, 0)
	var next uint32
	leaveNext, _ := hb.Enter(&next)
	defer leaveNext()
	atomic.StoreUint32(&next, 1)
	if !hb.Interrupted() {
		t.Error("a flag registered after others left is not seen")
	}
}

// Calls that several goroutines make at once reach the host as one batch,
// and each caller gets its own answer, whichever goroutine yielded; the
// host answering one call at a time still reaches every caller. The guest
// runs one goroutine at a time: GOMAXPROCS(1) does the same here.
func TestConcurrentCallsBatch(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, oneAtATime := range []bool{false, true} {
		var mu sync.Mutex
		var pending []abi.Call
		h := &hubtest.Host{}
		h.Resume = func(calls []abi.Call) *abi.Resume {
			mu.Lock()
			defer mu.Unlock()
			pending = append(pending, slices.Clone(calls)...)
			res := &abi.Resume{}
			for len(pending) > 0 {
				c := pending[0]
				pending = pending[1:]
				res.Results = append(res.Results, abi.CallResult{ID: c.ID, OK: true, Value: c.Params})
				if oneAtATime {
					break
				}
			}
			return res
		}
		hb := New(h)
		const n = 5
		got := make([]string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := hb.Call("shell", "m", []byte(strconv.Itoa(i)))
				if err != nil {
					t.Error(err)
				}
				got[i] = string(r.Value)
			}()
		}
		wg.Wait()
		for i, g := range got {
			if g != strconv.Itoa(i) {
				t.Errorf("caller %d got %q", i, g)
			}
		}
		if !oneAtATime && (len(h.Batches()) != 1 || len(h.Batches()[0]) != n) {
			t.Errorf("batches of %v calls, want one of %d", batchSizes(h.Batches()), n)
		}
		if hb.Pending() != 0 {
			t.Errorf("pending %d", hb.Pending())
		}
	}
}

func batchSizes(b [][]abi.Call) []int {
	var s []int
	for _, c := range b {
		s = append(s, len(c))
	}
	return s
}
