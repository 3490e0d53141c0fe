package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/internal/guestmem"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// This file is the host side of the guest ABI: the functions of module
// abi.HostModule that abi.HostFuncs lists and documents (next, yield, recv,
// write, interrupt and tick), which guest/main.go imports. Each function
// finds its sandbox's conn through the context of the guest's _start call.

type connKey struct{}

func connFrom(ctx context.Context) *conn { return ctx.Value(connKey{}).(*conn) }

type eventKind int

const (
	evResponse eventKind = iota // the guest answered a request
	evYield                     // the guest yielded tool calls
)

type event struct {
	kind eventKind
	data []byte
}

// conn is the link between a sandbox and its guest. The guest runs as a
// coroutine (iter.Pull) of whichever goroutine drives it: resume hands it a
// message and runs it until its next call to next or yield, which hands
// back an event. The switch goes straight from one goroutine to the other,
// without the scheduler: with channels, each hand-off readied a parked
// goroutine and woke a sleeping thread to run it (a futex wake, about a
// quarter of a tool call's time on 2 cores; see BENCHMARKS.md, round 9).
type conn struct {
	mod  api.Module
	mem  *guestmem.Memory   // the guest's memory, for the interrupt flag
	kill context.CancelFunc // ends the guest at its next loop back-edge

	// own is held by the goroutine that resumes the guest, for as long as
	// the guest runs; the fields below it are the guest's side of the
	// switch, written before a resume and read by the guest while it runs.
	own      sync.Mutex
	next     func() (event, bool) // resume the coroutine (iter.Pull)
	stop     func()               // end a suspended coroutine
	yield    func(event) bool     // the coroutine's yield, for exchange
	inbox    []byte               // the message for the guest's next resume
	finished bool                 // the coroutine has returned
	pending  []byte               // the message recv copies into the guest

	closing atomic.Bool   // close was called: the guest must exit
	done    chan struct{} // closed when the guest has stopped
	exitErr error

	mu       sync.Mutex
	flagAddr uint32 // address of the interpreter's interrupt flag, or 0
	running  bool   // the guest is computing (between a resume and its next call)
	stopping bool   // stop requested for the current execution
	ticking  bool   // a goroutine is re-asserting the stop flag
	out      *output
	diag     limitedBuffer // the guest's own stderr: Go runtime messages

	// rec records the guest's clock readings and random values for the
	// execution being recorded (WithRecord); nil otherwise.
	rec atomic.Pointer[recorder]
}

func newConn() *conn {
	return &conn{
		done: make(chan struct{}),
		diag: limitedBuffer{max: 64 << 10},
	}
}

// resume hands msg to the guest, which is suspended in next or yield (or
// not started), and runs it until its next event. ok is false when the
// guest has ended (it crashed, was killed, or its sandbox closed); then
// c.done is closed and c.exitErr says why. One goroutine resumes at a time.
func (c *conn) resume(msg []byte) (ev event, ok bool) {
	c.own.Lock()
	defer c.own.Unlock()
	if c.finished {
		return event{}, false
	}
	if c.closing.Load() {
		c.endLocked()
		return event{}, false
	}
	c.inbox = msg
	ev, ok = c.next()
	if !ok {
		c.finished = true
	}
	return ev, ok
}

// endLocked ends a suspended guest: its yield returns false and it exits.
// The caller holds c.own.
func (c *conn) endLocked() {
	if !c.finished && c.stop != nil {
		c.stop()
	}
	c.finished = true
}

// close ends the guest and frees it. A running guest is stopped (its
// context is canceled, so it ends at its next loop back-edge or host call)
// and close waits for the goroutine that runs it to get it back.
func (c *conn) close() {
	c.closing.Store(true)
	c.requestStop()
	c.mu.Lock()
	out := c.out
	c.mu.Unlock()
	out.abandon() // a write to the host's writer must not hold the close
	if c.kill != nil {
		c.kill()
	}
	c.own.Lock()
	c.endLocked()
	c.own.Unlock()
	select {
	case <-c.done:
	case <-time.After(time.Second):
	}
	if c.mod != nil {
		_ = c.mod.Close(context.Background())
	}
}

// readGuest copies len bytes at ptr out of guest memory, or traps the guest
// when the range is outside it.
func readGuest(mod api.Module, ptr, size uint32) []byte {
	if size == 0 {
		return nil
	}
	b, ok := mod.Memory().Read(ptr, size)
	if !ok {
		panic(sys.NewExitError(guestFault))
	}
	return append([]byte(nil), b...)
}

// guestFault is the exit code the host uses when the guest broke the ABI.
const guestFault = 0xC0DE

// exchange hands ev to the goroutine that resumed the guest and suspends
// the guest until the next resume; it returns the length of the message
// that resume brought.
func (c *conn) exchange(ctx context.Context, mod api.Module, ev event) uint32 {
	c.endTurn()
	if !c.yield(ev) || c.closing.Load() {
		c.exitNow(ctx, mod)
	}
	msg := c.inbox
	c.inbox = nil
	c.pending = msg
	c.beginTurn()
	return uint32(len(msg))
}

// exitNow ends the guest because its sandbox is closing.
func (c *conn) exitNow(ctx context.Context, mod api.Module) {
	_ = mod.CloseWithExitCode(ctx, 0)
	panic(sys.NewExitError(0))
}

func hostNext(ctx context.Context, mod api.Module, stack []uint64) {
	c := connFrom(ctx)
	data := readGuest(mod, api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	stack[0] = api.EncodeU32(c.exchange(ctx, mod, event{kind: evResponse, data: data}))
}

func hostYield(ctx context.Context, mod api.Module, stack []uint64) {
	c := connFrom(ctx)
	data := readGuest(mod, api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	stack[0] = api.EncodeU32(c.exchange(ctx, mod, event{kind: evYield, data: data}))
}

func hostRecv(ctx context.Context, mod api.Module, stack []uint64) {
	c := connFrom(ctx)
	if len(c.pending) > 0 && !mod.Memory().Write(api.DecodeU32(stack[0]), c.pending) {
		panic(sys.NewExitError(guestFault))
	}
	c.pending = nil
}

func hostWrite(ctx context.Context, mod api.Module, stack []uint64) {
	c := connFrom(ctx)
	fd := api.DecodeU32(stack[0])
	b, ok := mod.Memory().Read(api.DecodeU32(stack[1]), api.DecodeU32(stack[2]))
	if !ok {
		panic(sys.NewExitError(guestFault))
	}
	c.mu.Lock()
	out := c.out
	c.mu.Unlock()
	if out != nil {
		out.write(int(fd), b)
	}
}

func hostInterrupt(ctx context.Context, mod api.Module, stack []uint64) {
	c := connFrom(ctx)
	addr := api.DecodeU32(stack[0])
	if addr != 0 && (addr%4 != 0 || uint64(addr)+4 > uint64(mod.Memory().Size())) {
		panic(sys.NewExitError(guestFault))
	}
	c.mu.Lock()
	c.flagAddr = addr
	if addr != 0 && c.stopping {
		c.writeFlagLocked()
	}
	c.mu.Unlock()
}

func (c *conn) beginTurn() {
	c.mu.Lock()
	c.running = true
	if c.stopping {
		c.writeFlagLocked()
	}
	c.mu.Unlock()
}

func (c *conn) endTurn() {
	c.mu.Lock()
	c.running = false
	c.mu.Unlock()
}

// writeFlagLocked stores 1 in the interpreter's interrupt flag. It stores
// only while the guest computes with a registered flag, so that the
// address belongs to a live interpreter. The store runs on a timer's
// goroutine while the guest's may be growing its memory: it goes through
// [guestmem.Memory.StoreUint32], atomically and under the memory's grow
// lock, never through wazero's view of the memory (the slice a grow
// replaces), so it races with nothing and no grow loses it (RATIONALE.md,
// "Timeouts"). A store that cannot be made (the memory is gone) leaves the
// hard stop to end the guest.
func (c *conn) writeFlagLocked() {
	if !c.running || c.flagAddr == 0 {
		return
	}
	c.mem.StoreUint32(c.flagAddr, 1)
}

// requestStop asks the running execution to stop: the interrupt flag is set
// now and re-asserted every few milliseconds until the guest comes back (the
// interpreter clears it when it unwinds, and a write can race with a memory
// grow).
func (c *conn) requestStop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopping = true
	c.writeFlagLocked()
	if c.ticking {
		return
	}
	c.ticking = true
	go func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
			case <-c.done:
				c.mu.Lock()
				c.ticking = false
				c.mu.Unlock()
				return
			}
			c.mu.Lock()
			if !c.stopping {
				c.ticking = false
				c.mu.Unlock()
				return
			}
			c.writeFlagLocked()
			c.mu.Unlock()
		}
	}()
}

// clearStop ends the stop request of a finished execution.
func (c *conn) clearStop() {
	c.mu.Lock()
	c.stopping = false
	c.mu.Unlock()
}

func (c *conn) setOutput(o *output) {
	c.mu.Lock()
	c.out = o
	c.mu.Unlock()
}

// hostTick is the call that instrumented guest code makes every few
// thousand loop iterations (internal/wasmtick). Entering Go here is what lets
// the host's scheduler and GC stop this goroutine; and a guest that must
// end (its sandbox is being killed or closed) ends here, as wazero's own
// loop checks would have ended it.
func hostTick(ctx context.Context, mod api.Module, _ []uint64) {
	if ctx.Err() != nil {
		_ = mod.CloseWithExitCode(context.Background(), sys.ExitCodeContextCanceled)
		panic(sys.NewExitError(sys.ExitCodeContextCanceled))
	}
	if mod.IsClosed() {
		panic(sys.NewExitError(0))
	}
}

// hostFuncs implements each function of the host ABI ([abi.HostFuncs]).
var hostFuncs = map[string]api.GoModuleFunc{
	abi.ImportNext:      hostNext,
	abi.ImportYield:     hostYield,
	abi.ImportRecv:      hostRecv,
	abi.ImportWrite:     hostWrite,
	abi.ImportInterrupt: hostInterrupt,
	abi.ImportTick:      hostTick,
}

// i32s returns n i32 value types (nil for none).
func i32s(n int) []api.ValueType {
	if n == 0 {
		return nil
	}
	t := make([]api.ValueType, n)
	for i := range t {
		t[i] = api.ValueTypeI32
	}
	return t
}

func instantiateHostModules(ctx context.Context, e *Engine) error {
	b := e.runtime.NewHostModuleBuilder(abi.HostModule)
	for _, f := range abi.HostFuncs() {
		fn, ok := hostFuncs[f.Name]
		if !ok {
			return &Error{Kind: KindInternal, Message: "the host ABI function " + f.Name + " has no implementation"}
		}
		b.NewFunctionBuilder().WithGoModuleFunction(fn, i32s(f.Params), i32s(f.Results)).Export(f.Name)
	}
	if _, err := b.Instantiate(ctx); err != nil {
		return &Error{Kind: KindInternal, Message: "instantiating the cordon host module", Err: err}
	}
	return nil
}
