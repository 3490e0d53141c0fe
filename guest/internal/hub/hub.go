// Package hub is the guest's single door to the host for one execution.
//
// An execution can nest interpreters: JavaScript calls shell(), whose script
// runs `node -e`, whose script makes tool calls. All of them share one Hub,
// which owns what must be unique per execution:
//
//   - tool-call ids: every call gets the next id, whoever makes it, so the
//     host never sees an id twice;
//   - the answers: the host may answer any pending call when an
//     interpreter yields, and the Hub delivers each answer to the call's
//     owner, which may be an outer interpreter waiting further up the
//     stack;
//   - the interrupt flag: the host writes to the flag of the innermost
//     running interpreter, and when that one returns, the Hub points the host
//     back at the outer flag, carrying an interruption outwards;
//   - the nesting depth, bounded so that a script cannot recurse through
//     shell() and node -e until memory runs out.
//
// A Hub is used by one goroutine at a time (the guest is single-threaded
// where it talks to the host; the shell's pipeline goroutines serialize
// their calls through the Hub's mutex).
package hub

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/internal/abi"
)

// Host is the guest's view of the host: the functions of the host ABI
// (abi.HostFuncs) as the guest program wraps them. The request loop
// (package server), the Hub and the interpreters (packages jsrt and
// shellrt) all take this one interface; their tests implement it natively.
type Host interface {
	// Next answers the previous request (nil before the first) and blocks
	// until the next request arrives. An error ends the request loop.
	Next(response []byte) ([]byte, error)
	// Yield hands the host the tool calls made since the last Yield (maybe
	// none, when the script only waits for earlier ones) and blocks until
	// the host answers some of the pending calls, or tells the guest to
	// stop. It must not keep calls (or its array) after it returns: the
	// Hub reuses them.
	Yield(calls []abi.Call) (*abi.Resume, error)
	// Write sends script output to the host: fd 1 is stdout, 2 is stderr.
	Write(fd int, p []byte)
	// WatchInterrupt tells the host where the running interpreter's
	// interrupt flag is, so that it can stop a runaway script by storing a
	// non-zero value there. A nil flag means no script is running.
	WatchInterrupt(flag *uint32)
}

// Owner receives the answer to a call it queued with Enqueue.
type Owner interface {
	// Deliver is called once, with the call's answer, on the goroutine
	// that yields when the answer arrives.
	Deliver(abi.CallResult)
}

// MaxDepth bounds how deeply interpreters nest (JS in shell in JS ...).
const MaxDepth = 8

// ErrStopped means the host told the guest to stop (a timeout or a cancel).
var ErrStopped = errors.New("hub: the host stopped the execution")

// ErrTooDeep means an interpreter would nest deeper than MaxDepth.
var ErrTooDeep = fmt.Errorf("hub: interpreters nested more than %d deep", MaxDepth)

// Hub routes one execution's tool calls and interrupt flags.
type Hub struct {
	host Host

	mu     sync.Mutex
	nextID uint32
	queued []abi.Call
	owners map[uint32]Owner
	// stopped is set once the host told the execution to stop. It is
	// atomic, like flagView, because Interrupted is polled for every line
	// or buffer a shell command handles and must not take locks.
	stopped atomic.Bool

	callMu sync.Mutex // serializes Call

	flagMu sync.Mutex
	flags  []*uint32 // the registered flags, newest last
	// flagView is a copy of flags, replaced whole after every change, for
	// Interrupted to read without flagMu.
	flagView atomic.Pointer[[]*uint32]
}

// New returns a Hub for one execution.
func New(h Host) *Hub {
	return &Hub{host: h, owners: map[uint32]Owner{}}
}

// Enqueue queues a call that an interpreter of language lang (abi.LangJS,
// abi.LangShell) made, and returns its id. The Hub keeps params until it
// hands the call to the host; owner receives the answer.
func (h *Hub) Enqueue(lang abi.Lang, method string, params []byte, owner Owner) uint32 {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nextID++
	id := h.nextID
	h.owners[id] = owner
	h.queued = append(h.queued, abi.Call{ID: id, Method: method, Lang: lang, Params: params})
	return id
}

// Pending reports how many calls are queued or waiting for an answer.
func (h *Hub) Pending() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.owners)
}

// Yield hands the queued calls to the host, waits for answers and
// delivers them. It returns ErrStopped when the host stops the execution;
// from then on every Yield does.
func (h *Hub) Yield() error {
	if h.stopped.Load() {
		return ErrStopped
	}
	h.mu.Lock()
	calls := h.queued
	h.queued = nil
	h.mu.Unlock()
	res, err := h.host.Yield(calls)
	if len(calls) > 0 {
		// The host has copied the calls out; their array takes the next
		// batch unless a call was queued meanwhile (one made by another
		// goroutine of a shell pipeline).
		clear(calls)
		h.mu.Lock()
		if h.queued == nil {
			h.queued = calls[:0]
		}
		h.mu.Unlock()
	}
	if err != nil {
		return fmt.Errorf("hub: host: %w", err)
	}
	if res.Stop {
		h.stopped.Store(true)
		h.Interrupt()
		return ErrStopped
	}
	for _, r := range res.Results {
		h.mu.Lock()
		owner := h.owners[r.ID]
		delete(h.owners, r.ID)
		h.mu.Unlock()
		if owner != nil { // an answer for no pending call is ignored
			owner.Deliver(r)
		}
	}
	return nil
}

// Call makes one call and waits for its answer, delivering answers for other
// pending calls to their owners meanwhile. Calls from several goroutines
// (the stages of a shell pipeline, its background jobs) go to the host
// together: before it yields, a call lets the other goroutines that can
// run make theirs (gather), and one goroutine at a time yields, handing
// the host every call queued by then; the host runs a batch of calls in
// parallel. A goroutine whose answer another's Yield delivered returns
// without yielding.
func (h *Hub) Call(lang abi.Lang, method string, params []byte) (abi.CallResult, error) {
	a := &answer{ready: make(chan struct{})}
	h.Enqueue(lang, method, params, a)
	h.gather()
	for {
		h.callMu.Lock()
		select {
		case <-a.ready:
			h.callMu.Unlock()
			return a.got, nil
		default:
		}
		err := h.Yield()
		h.callMu.Unlock()
		if err != nil {
			return abi.CallResult{}, err
		}
	}
}

// maxGather bounds the rounds gather gives other goroutines.
const maxGather = 8

// gather yields the processor while other goroutines queue calls: each
// round lets every runnable goroutine run until it blocks (in its own
// Call, say); it stops after a round in which no call was queued.
func (h *Hub) gather() {
	n := h.queuedLen()
	for range maxGather {
		runtime.Gosched()
		m := h.queuedLen()
		if m == n {
			return
		}
		n = m
	}
}

// queuedLen returns how many calls wait to be handed to the host.
func (h *Hub) queuedLen() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.queued)
}

// answer is the Owner of a call made by Call.
type answer struct {
	got   abi.CallResult
	ready chan struct{}
}

// Deliver records the answer.
func (a *answer) Deliver(r abi.CallResult) {
	a.got = r
	close(a.ready)
}

// Enter registers an interpreter's interrupt flag: the host now writes
// there. The returned function unregisters it; if the flag was set (the
// interpreter was interrupted) every other registered flag is set too, so
// that the stop reaches every level. Enter fails with ErrTooDeep past
// MaxDepth running interpreters.
//
// Interpreters normally nest, but the stages of a shell pipeline can run
// two (`node -e A | node -e B`) side by side; the host then writes the
// newest one's flag. As the guest cannot preempt, the one that spins is
// the one that runs, which is the newest unless it blocked on its pipe; in
// the rare other case the host's hard stop ends the sandbox instead.
func (h *Hub) Enter(flag *uint32) (leave func(), err error) {
	h.flagMu.Lock()
	defer h.flagMu.Unlock()
	if len(h.flags) >= MaxDepth {
		return nil, ErrTooDeep
	}
	h.flags = append(h.flags, flag)
	h.publishFlags()
	h.host.WatchInterrupt(flag)
	return func() {
		h.flagMu.Lock()
		defer h.flagMu.Unlock()
		for i, f := range h.flags {
			if f == flag {
				h.flags = append(h.flags[:i], h.flags[i+1:]...)
				break
			}
		}
		h.publishFlags()
		var top *uint32
		for _, f := range h.flags {
			if atomic.LoadUint32(flag) != 0 {
				atomic.StoreUint32(f, 1)
			}
			top = f
		}
		h.host.WatchInterrupt(top)
	}, nil
}

// Interrupt sets every registered flag, as the host would.
func (h *Hub) Interrupt() {
	h.flagMu.Lock()
	defer h.flagMu.Unlock()
	for _, f := range h.flags {
		atomic.StoreUint32(f, 1)
	}
}

// Interrupted reports whether the execution was stopped: by the host's
// Stop answer or by its writing a registered flag.
func (h *Hub) Interrupted() bool {
	if h.stopped.Load() {
		return true
	}
	if flags := h.flagView.Load(); flags != nil {
		for _, f := range *flags {
			if atomic.LoadUint32(f) != 0 {
				return true
			}
		}
	}
	return false
}

// publishFlags makes a copy of flags visible to Interrupted. flagMu is held.
func (h *Hub) publishFlags() {
	view := slices.Clone(h.flags)
	h.flagView.Store(&view)
}

// Context returns a context whose Err reports the execution's interruption.
// Go on WebAssembly cannot preempt, so nothing closes Done by itself: the
// shell and its commands poll Err, which closes Done when it first sees the
// interruption.
func (h *Hub) Context() context.Context {
	return &flagCtx{h: h, done: make(chan struct{})}
}

type flagCtx struct {
	h    *Hub
	once sync.Once
	done chan struct{}
}

func (c *flagCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *flagCtx) Done() <-chan struct{}       { return c.done }
func (c *flagCtx) Value(any) any               { return nil }
func (c *flagCtx) Err() error {
	if c.h.Interrupted() {
		c.once.Do(func() { close(c.done) })
		return context.Canceled
	}
	return nil
}
