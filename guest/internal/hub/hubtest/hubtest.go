// Package hubtest is the one fake of hub.Host for the native tests of the
// guest's packages (hub, server, jsrt, shellrt): it answers tool calls as
// a test tells it to, records the batches it was handed and the output it
// was sent, serves a list of requests to the request loop and keeps its
// responses, and holds the interrupt flag the running interpreter
// registered, so that a test can stop a script as the host does at its
// time limit.
//
// Only tests import it: the guest binary is built without it
// (GOOS=wasip1 GOARCH=wasm go list -deps ./guest does not list it).
package hubtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/internal/abi"
)

// ErrNoRequests is what Next returns when the requests are used up: the
// end of the request loop a test runs.
var ErrNoRequests = errors.New("hubtest: no more requests")

// Host is a fake hub.Host. Set its fields before the guest code under test
// runs; read what it recorded with its methods, which are safe to call
// while that code runs. The zero Host answers every call with its params
// and serves no requests.
type Host struct {
	// Answer answers one call. Nil answers with the call's params (Echo).
	Answer func(abi.Call) abi.CallResult
	// Resume, when set, answers each Yield in place of Answer: for a test
	// that answers calls out of order, answers none, forges answers or
	// stops the execution (abi.Resume{Stop: true}). It gets the batch as
	// the Hub handed it (maybe empty: the script waits on earlier calls),
	// after the Host recorded it.
	Resume func(calls []abi.Call) *abi.Resume
	// Requests are the requests Next serves, in order.
	Requests []*abi.Request
	// ReuseBuffer makes Next encode each request into the buffer of the
	// one before, as the guest's receive buffer is reused: what the guest
	// keeps of a request without copying it is overwritten by the next.
	ReuseBuffer bool

	mu        sync.Mutex
	batches   [][]abi.Call
	arena     []byte // the recorded calls' params, copied
	stdout    strings.Builder
	stderr    strings.Builder
	responses []*abi.Response
	next      int
	buf       []byte // the last request, with ReuseBuffer
	seen      map[uint32]bool
	reused    []uint32
	flag      atomic.Pointer[uint32]
}

// Next answers the previous request (the Host decodes and keeps the
// response) and returns the next of Requests, encoded; ErrNoRequests when
// they are used up. A response that does not decode ends the loop with
// the decoding error.
func (h *Host) Next(response []byte) ([]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if response != nil {
		// Decoded fields alias their buffer, which the guest reuses.
		r, err := abi.DecodeResponse(append([]byte(nil), response...))
		if err != nil {
			return nil, fmt.Errorf("hubtest: the guest answered with a malformed response: %w", err)
		}
		h.responses = append(h.responses, r)
	}
	if h.next == len(h.Requests) {
		return nil, ErrNoRequests
	}
	req := h.Requests[h.next]
	h.next++
	if !h.ReuseBuffer {
		return abi.EncodeRequest(nil, req), nil
	}
	clear(h.buf)
	h.buf = abi.EncodeRequest(h.buf[:0], req)
	return h.buf, nil
}

// Yield records the batch and answers it: with Resume when it is set,
// else each call with Answer (Echo when nil).
func (h *Host) Yield(calls []abi.Call) (*abi.Resume, error) {
	h.record(calls)
	if h.Resume != nil {
		return h.Resume(calls), nil
	}
	answer := h.Answer
	if answer == nil {
		answer = Echo
	}
	res := &abi.Resume{Results: make([]abi.CallResult, 0, len(calls))}
	for _, c := range calls {
		res.Results = append(res.Results, answer(c))
	}
	return res, nil
}

// record keeps a copy of the batch: the Hub reuses the calls and their
// array once Yield returns. The params of every batch go into one growing
// buffer, so that recording costs one allocation a batch, which the
// guest's allocation tests count.
func (h *Host) record(calls []abi.Call) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen == nil {
		h.seen = map[uint32]bool{}
	}
	batch := make([]abi.Call, len(calls))
	for i, c := range calls {
		if h.seen[c.ID] {
			h.reused = append(h.reused, c.ID)
		}
		h.seen[c.ID] = true
		start := len(h.arena)
		h.arena = append(h.arena, c.Params...)
		batch[i] = abi.Call{ID: c.ID, Method: c.Method, Lang: c.Lang, Params: h.arena[start:len(h.arena):len(h.arena)]}
	}
	h.batches = append(h.batches, batch)
}

// Write records script output: fd 1 is stdout, any other fd stderr.
func (h *Host) Write(fd int, p []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if fd == 1 {
		h.stdout.Write(p)
	} else {
		h.stderr.Write(p)
	}
}

// WatchInterrupt records the running interpreter's interrupt flag (nil:
// none runs).
func (h *Host) WatchInterrupt(flag *uint32) { h.flag.Store(flag) }

// Flag returns the interrupt flag registered now, or nil.
func (h *Host) Flag() *uint32 { return h.flag.Load() }

// Interrupt stores 1 into the registered interrupt flag, as the host does
// when a time limit is reached, and reports whether a flag was
// registered. The host keeps doing it until the script stops: an inner
// interpreter that returns hands the host its outer one's flag.
func (h *Host) Interrupt() bool {
	f := h.flag.Load()
	if f != nil {
		atomic.StoreUint32(f, 1)
	}
	return f != nil
}

// Batches returns the batches of calls the Host was handed, in order
// (an empty batch when the script yielded only to wait).
func (h *Host) Batches() [][]abi.Call {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([][]abi.Call(nil), h.batches...)
}

// Calls returns every call the Host was handed, in order.
func (h *Host) Calls() []abi.Call {
	h.mu.Lock()
	defer h.mu.Unlock()
	var calls []abi.Call
	for _, b := range h.batches {
		calls = append(calls, b...)
	}
	return calls
}

// Methods returns the method of every call, in order.
func (h *Host) Methods() []string {
	var methods []string
	for _, c := range h.Calls() {
		methods = append(methods, c.Method)
	}
	return methods
}

// ReusedIDs returns the ids that the Host was handed more than once: a
// Hub hands out each id once.
func (h *Host) ReusedIDs() []uint32 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]uint32(nil), h.reused...)
}

// Stdout returns what was written to fd 1.
func (h *Host) Stdout() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stdout.String()
}

// Stderr returns what was written to the other fds.
func (h *Host) Stderr() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stderr.String()
}

// Responses returns the responses Next decoded, one per request served
// before it.
func (h *Host) Responses() []*abi.Response {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*abi.Response(nil), h.responses...)
}

// Reset forgets the recorded calls and output, for a test that runs
// scripts in a loop (an allocation count, a benchmark) and looks at each
// run's. The flag, the requests and the responses stay.
func (h *Host) Reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.batches = h.batches[:0]
	h.arena = nil
	h.seen = nil
	h.reused = nil
	h.stdout.Reset()
	h.stderr.Reset()
}

// Echo answers c with its params.
func Echo(c abi.Call) abi.CallResult {
	return abi.CallResult{ID: c.ID, OK: true, Value: append([]byte(nil), c.Params...)}
}

// EchoCall answers c with {"method": METHOD, "params": PARAMS}.
func EchoCall(c abi.Call) abi.CallResult {
	return Value(c, map[string]any{"method": c.Method, "params": json.RawMessage(c.Params)})
}

// Value answers c with v as JSON. A v that does not marshal panics: it is
// a mistake in the test.
func Value(c abi.Call, v any) abi.CallResult {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("hubtest: the answer to %s does not marshal: %v", c.Method, err))
	}
	return abi.CallResult{ID: c.ID, OK: true, Value: b}
}

// Deny answers c as the host answers a call the policy denied: kind
// "denied", the message "tool METHOD denied: REASON" and the reason.
func Deny(c abi.Call, reason string) abi.CallResult {
	return abi.CallResult{ID: c.ID, ErrKind: abi.ToolDenied, ErrMsg: "tool " + c.Method + " denied: " + reason, Reasons: []string{reason}}
}

// Stop is a Resume that tells the guest to stop, as the host does at a
// time limit or a cancel, without answering any call.
func Stop([]abi.Call) *abi.Resume { return &abi.Resume{Stop: true} }

// InterruptUntil does what the host does once a script is past its time
// limit: it writes h's registered interrupt flag every 5 ms (Interrupt)
// until done delivers the run's outcome, and returns it. It gives up after
// limit and returns false: the script did not stop.
func InterruptUntil[T any](h *Host, done <-chan T, limit time.Duration) (T, bool) {
	giveUp := time.NewTimer(limit)
	defer giveUp.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		h.Interrupt()
		select {
		case out := <-done:
			return out, true
		case <-giveUp.C:
			var zero T
			return zero, false
		case <-tick.C:
		}
	}
}
