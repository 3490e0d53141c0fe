package hubtest_test

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
)

var _ hub.Host = (*hubtest.Host)(nil)

// The Host keeps its own copy of every batch, params included, since the
// Hub reuses them; it notices an id handed to it twice.
func TestRecordsCopies(t *testing.T) {
	h := &hubtest.Host{}
	params := []byte(`{"a":1}`)
	calls := []abi.Call{{ID: 1, Method: "x", Lang: abi.LangJS, Params: params}, {ID: 2, Method: "y", Params: []byte(`{}`)}}
	res, err := h.Yield(calls)
	if err != nil || len(res.Results) != 2 || string(res.Results[0].Value) != `{"a":1}` || !res.Results[1].OK || res.Results[1].ID != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	copy(params, `{"b":2}`)
	clear(calls)
	h.Yield([]abi.Call{{ID: 1, Method: "x"}})
	h.Yield(nil)
	b := h.Batches()
	if len(b) != 3 || string(b[0][0].Params) != `{"a":1}` || b[0][0].Lang != abi.LangJS || b[0][1].Method != "y" || len(b[2]) != 0 {
		t.Errorf("batches %+v", b)
	}
	if m := h.Methods(); !slices.Equal(m, []string{"x", "y", "x"}) {
		t.Errorf("methods %q", m)
	}
	if r := h.ReusedIDs(); !slices.Equal(r, []uint32{1}) {
		t.Errorf("reused ids %v", r)
	}
	h.Reset()
	if len(h.Calls()) != 0 || len(h.ReusedIDs()) != 0 {
		t.Errorf("after Reset: %v %v", h.Calls(), h.ReusedIDs())
	}
}

func TestAnswers(t *testing.T) {
	c := abi.Call{ID: 7, Method: "m/n", Params: []byte(`{"k":"v"}`)}
	for _, tc := range []struct {
		got  abi.CallResult
		want string
	}{
		{hubtest.Echo(c), `{"k":"v"}`},
		{hubtest.EchoCall(c), `{"method":"m/n","params":{"k":"v"}}`},
		{hubtest.Value(c, []int{1}), `[1]`},
	} {
		if !tc.got.OK || tc.got.ID != 7 || string(tc.got.Value) != tc.want {
			t.Errorf("%+v, want %s", tc.got, tc.want)
		}
	}
	d := hubtest.Deny(c, "not today")
	if d.OK || d.ID != 7 || d.ErrKind != abi.ToolDenied || d.ErrMsg != "tool m/n denied: not today" || !slices.Equal(d.Reasons, []string{"not today"}) {
		t.Errorf("Deny: %+v", d)
	}
	h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult { return hubtest.Deny(c, "no") }}
	if res, _ := h.Yield([]abi.Call{c}); res.Results[0].ErrKind != abi.ToolDenied {
		t.Errorf("Answer was not used: %+v", res)
	}
	h.Resume = func([]abi.Call) *abi.Resume { return &abi.Resume{Stop: true} }
	if res, _ := h.Yield([]abi.Call{c}); !res.Stop || len(h.Calls()) != 2 {
		t.Errorf("Resume was not used, or the batch not recorded: %+v", res)
	}
}

// Next serves the requests in order and keeps the decoded responses.
func TestNext(t *testing.T) {
	h := &hubtest.Host{Requests: []*abi.Request{{Op: abi.OpWarm}, {Op: abi.OpGetFiles, Path: "/a"}}}
	b, err := h.Next(nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := abi.DecodeRequest(b); err != nil || r.Op != abi.OpWarm {
		t.Fatalf("first request %+v %v", r, err)
	}
	b, err = h.Next(abi.EncodeResponse(nil, &abi.Response{ExitCode: 3}))
	if r, _ := abi.DecodeRequest(b); err != nil || r.Path != "/a" {
		t.Fatalf("second request %+v %v", r, err)
	}
	if _, err := h.Next(abi.EncodeResponse(nil, &abi.Response{Status: abi.StatusError, ErrMsg: "x"})); !errors.Is(err, hubtest.ErrNoRequests) {
		t.Fatalf("after the last request: %v", err)
	}
	r := h.Responses()
	if len(r) != 2 || r[0].ExitCode != 3 || r[1].ErrMsg != "x" {
		t.Errorf("responses %+v", r)
	}
	if _, err := h.Next([]byte{0xff}); err == nil || errors.Is(err, hubtest.ErrNoRequests) {
		t.Errorf("a malformed response: %v", err)
	}
}

// With ReuseBuffer, each request overwrites the one before, in place.
func TestNextReusesItsBuffer(t *testing.T) {
	h := &hubtest.Host{ReuseBuffer: true, Requests: []*abi.Request{{Op: abi.OpGetFiles, Path: "/first/long/path"}, {Op: abi.OpGetFiles, Path: "/b"}}}
	first, _ := h.Next(nil)
	kept := first[:len(first):len(first)]
	second, _ := h.Next(abi.EncodeResponse(nil, &abi.Response{}))
	if &first[0] != &second[0] {
		t.Fatal("the second request is not in the first one's buffer")
	}
	if r, err := abi.DecodeRequest(kept); err == nil && r.Path == "/first/long/path" {
		t.Error("the first request is still readable after the second")
	}
	if r, err := abi.DecodeRequest(second); err != nil || r.Path != "/b" {
		t.Errorf("the second request: %+v %v", r, err)
	}
}

func TestInterruptAndOutput(t *testing.T) {
	h := &hubtest.Host{}
	if h.Interrupt() || h.Flag() != nil {
		t.Error("an interrupt with no flag registered")
	}
	var flag uint32
	h.WatchInterrupt(&flag)
	if !h.Interrupt() || atomic.LoadUint32(&flag) != 1 || h.Flag() != &flag {
		t.Error("the registered flag was not set")
	}
	h.Write(1, []byte("out"))
	h.Write(2, []byte("err"))
	if h.Stdout() != "out" || h.Stderr() != "err" {
		t.Errorf("stdout %q stderr %q", h.Stdout(), h.Stderr())
	}
}

// InterruptUntil keeps writing the flag the running interpreter has now
// (an inner one's, then the outer one's) until the run ends, and gives
// up at its limit.
func TestInterruptUntil(t *testing.T) {
	h := &hubtest.Host{}
	done := make(chan string, 1)
	go func() {
		var inner, outer uint32
		h.WatchInterrupt(&inner)
		for atomic.LoadUint32(&inner) == 0 {
			time.Sleep(time.Millisecond)
		}
		h.WatchInterrupt(&outer)
		for atomic.LoadUint32(&outer) == 0 {
			time.Sleep(time.Millisecond)
		}
		h.WatchInterrupt(nil)
		done <- "stopped"
	}()
	if out, ok := hubtest.InterruptUntil(h, done, time.Minute); !ok || out != "stopped" {
		t.Errorf("%q %v", out, ok)
	}
	never := make(chan int)
	start := time.Now()
	if out, ok := hubtest.InterruptUntil(h, never, 30*time.Millisecond); ok || out != 0 || time.Since(start) < 30*time.Millisecond {
		t.Errorf("a run that never ends: %v %v after %v", out, ok, time.Since(start))
	}
}
