package engine

import (
	"context"
	"encoding/binary"
	"io"
	"time"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// cordon implements the WASI functions that the Go runtime imports itself,
// rather than using wazero's WASI, so that the guest has no authority by
// construction: no arguments, no preopened directories, no sockets, and an
// environment of one runtime setting (guestEnviron). stdout and stderr of
// the guest program (not of the script) go to a small diagnostic buffer
// used in crash reports. The clocks, random bytes and sleeping are the
// only services. Every other WASI function the module imports answers
// ENOSYS.

const wasiModule = "wasi_snapshot_preview1"

// WASI errno values.
const (
	errnoSuccess = 0
	errnoBadf    = 8
	errnoInval   = 28
	errnoIO      = 29
	errnoNosys   = 52
)

type wasiFunc struct {
	fn      api.GoModuleFunc
	params  []api.ValueType
	results []api.ValueType
}

// wasiImpl returns the WASI functions served with real behaviour.
func wasiImpl(e *Engine) map[string]wasiFunc {
	i32, i64 := api.ValueTypeI32, api.ValueTypeI64
	r32 := []api.ValueType{i32}
	return map[string]wasiFunc{
		"args_sizes_get":      {wasiZeroSizes, []api.ValueType{i32, i32}, r32},
		"args_get":            {wasiOK, []api.ValueType{i32, i32}, r32},
		"environ_sizes_get":   {wasiEnvironSizesGet(guestEnviron), []api.ValueType{i32, i32}, r32},
		"environ_get":         {wasiEnvironGet(guestEnviron), []api.ValueType{i32, i32}, r32},
		"clock_time_get":      {e.wasiClockTimeGet, []api.ValueType{i32, i64, i32}, r32},
		"clock_res_get":       {wasiClockResGet, []api.ValueType{i32, i32}, r32},
		"random_get":          {e.wasiRandomGet, []api.ValueType{i32, i32}, r32},
		"fd_write":            {wasiFdWrite, []api.ValueType{i32, i32, i32, i32}, r32},
		"fd_fdstat_get":       {wasiFdstatGet, []api.ValueType{i32, i32}, r32},
		"fd_prestat_get":      {wasiBadf, []api.ValueType{i32, i32}, r32},
		"fd_prestat_dir_name": {wasiBadf, []api.ValueType{i32, i32, i32}, r32},
		"sched_yield":         {wasiOK, nil, r32},
		"poll_oneoff":         {wasiPollOneoff, []api.ValueType{i32, i32, i32, i32}, r32},
		"proc_exit":           {wasiProcExit, []api.ValueType{i32}, nil},
	}
}

func instantiateWASI(ctx context.Context, e *Engine) error {
	impl := wasiImpl(e)
	b := e.runtime.NewHostModuleBuilder(wasiModule)
	for _, f := range e.compiled.ImportedFunctions() {
		mod, name, _ := f.Import()
		if mod != wasiModule {
			continue
		}
		w, ok := impl[name]
		if !ok {
			w = wasiFunc{wasiNosys, f.ParamTypes(), f.ResultTypes()}
		}
		b.NewFunctionBuilder().WithGoModuleFunction(w.fn, w.params, w.results).Export(name)
	}
	if _, err := b.Instantiate(ctx); err != nil {
		return &Error{Kind: KindInternal, Message: "instantiating WASI", Err: err}
	}
	return nil
}

func wasiOK(_ context.Context, _ api.Module, stack []uint64) {
	if len(stack) > 0 {
		stack[0] = errnoSuccess
	}
}

func wasiBadf(_ context.Context, _ api.Module, stack []uint64) { stack[0] = errnoBadf }

func wasiNosys(_ context.Context, _ api.Module, stack []uint64) {
	if len(stack) > 0 {
		stack[0] = errnoNosys
	}
}

func wasiZeroSizes(_ context.Context, mod api.Module, stack []uint64) {
	mem := mod.Memory()
	if !mem.WriteUint32Le(api.DecodeU32(stack[0]), 0) || !mem.WriteUint32Le(api.DecodeU32(stack[1]), 0) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

// guestEnviron is the guest's whole environment, which only its Go runtime
// reads (no guest code looks at the environment): GODEBUG=gcstoptheworld=1
// makes every collection stop the world, which in a guest with one thread
// is cheaper than a concurrent one (RATIONALE.md, "The guest's garbage
// collector").
var guestEnviron = []string{"GODEBUG=gcstoptheworld=1"}

// wasiEnvironSizesGet serves environ_sizes_get for the environment env.
func wasiEnvironSizesGet(env []string) api.GoModuleFunc {
	size := 0
	for _, kv := range env {
		size += len(kv) + 1
	}
	return func(_ context.Context, mod api.Module, stack []uint64) {
		mem := mod.Memory()
		if !mem.WriteUint32Le(api.DecodeU32(stack[0]), uint32(len(env))) || !mem.WriteUint32Le(api.DecodeU32(stack[1]), uint32(size)) {
			stack[0] = errnoInval
			return
		}
		stack[0] = errnoSuccess
	}
}

// wasiEnvironGet serves environ_get for the environment env: an array of
// pointers to NUL-terminated strings.
func wasiEnvironGet(env []string) api.GoModuleFunc {
	return func(_ context.Context, mod api.Module, stack []uint64) {
		mem := mod.Memory()
		ptrs, buf := api.DecodeU32(stack[0]), api.DecodeU32(stack[1])
		for i, kv := range env {
			if !mem.WriteUint32Le(ptrs+uint32(4*i), buf) || !mem.WriteString(buf, kv) || !mem.WriteByte(buf+uint32(len(kv)), 0) {
				stack[0] = errnoInval
				return
			}
			buf += uint32(len(kv)) + 1
		}
		stack[0] = errnoSuccess
	}
}

var monoBase = time.Now()

func (e *Engine) wasiClockTimeGet(_ context.Context, mod api.Module, stack []uint64) {
	var ns int64
	switch api.DecodeU32(stack[0]) {
	case 0: // realtime
		ns = e.cfg.now().UnixNano()
	case 1: // monotonic
		ns = int64(time.Since(monoBase)) + 1
	default:
		stack[0] = errnoInval
		return
	}
	if !mod.Memory().WriteUint64Le(api.DecodeU32(stack[2]), uint64(ns)) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

func wasiClockResGet(_ context.Context, mod api.Module, stack []uint64) {
	if !mod.Memory().WriteUint64Le(api.DecodeU32(stack[1]), 1000) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

func (e *Engine) wasiRandomGet(_ context.Context, mod api.Module, stack []uint64) {
	buf, ok := mod.Memory().Read(api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	if !ok {
		stack[0] = errnoInval
		return
	}
	if _, err := io.ReadFull(e.cfg.random, buf); err != nil {
		stack[0] = errnoIO
		return
	}
	stack[0] = errnoSuccess
}

// wasiFdWrite accepts writes to fd 1 and 2 (the guest program's own output,
// kept for crash reports) and refuses every other descriptor.
func wasiFdWrite(ctx context.Context, mod api.Module, stack []uint64) {
	fd := api.DecodeU32(stack[0])
	iovs, n, resultPtr := api.DecodeU32(stack[1]), api.DecodeU32(stack[2]), api.DecodeU32(stack[3])
	if fd != 1 && fd != 2 {
		stack[0] = errnoBadf
		return
	}
	mem := mod.Memory()
	vecs, ok := mem.Read(iovs, n*8)
	if !ok {
		stack[0] = errnoInval
		return
	}
	c := connFrom(ctx)
	var total uint32
	for i := uint32(0); i < n; i++ {
		ptr := binary.LittleEndian.Uint32(vecs[i*8:])
		size := binary.LittleEndian.Uint32(vecs[i*8+4:])
		b, ok := mem.Read(ptr, size)
		if !ok {
			stack[0] = errnoInval
			return
		}
		c.mu.Lock()
		c.diag.Write(b)
		c.mu.Unlock()
		total += size
	}
	if !mem.WriteUint32Le(resultPtr, total) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

func wasiFdstatGet(_ context.Context, mod api.Module, stack []uint64) {
	fd := api.DecodeU32(stack[0])
	if fd > 2 {
		stack[0] = errnoBadf
		return
	}
	var st [24]byte
	st[0] = 2 // character device
	if !mod.Memory().Write(api.DecodeU32(stack[1]), st[:]) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

// wasiPollOneoff serves the Go runtime's sleeps: clock subscriptions wait
// (in short steps, so a stop request is noticed); fd subscriptions fail with
// EBADF, since the guest has no descriptors to wait on.
func wasiPollOneoff(ctx context.Context, mod api.Module, stack []uint64) {
	in, out, n, neventsPtr := api.DecodeU32(stack[0]), api.DecodeU32(stack[1]), api.DecodeU32(stack[2]), api.DecodeU32(stack[3])
	mem := mod.Memory()
	if n == 0 || n > 1024 {
		stack[0] = errnoInval
		return
	}
	subs, ok := mem.Read(in, n*48)
	if !ok {
		stack[0] = errnoInval
		return
	}
	events := make([]byte, 0, n*32)
	var wait time.Duration = -1
	clockSubs := 0
	for i := uint32(0); i < n; i++ {
		s := subs[i*48:]
		ev := make([]byte, 32)
		copy(ev[0:8], s[0:8]) // userdata
		ev[10] = s[8]         // type
		switch s[8] {
		case 0: // clock
			timeout := time.Duration(binary.LittleEndian.Uint64(s[24:]))
			if binary.LittleEndian.Uint16(s[40:])&1 != 0 { // absolute
				timeout -= time.Since(monoBase)
			}
			timeout = max(timeout, 0)
			if wait < 0 || timeout < wait {
				wait = timeout
			}
			clockSubs++
			events = append(events, ev...)
		default:
			binary.LittleEndian.PutUint16(ev[8:], errnoBadf)
			events = append(events, ev...)
		}
	}
	if clockSubs == int(n) && wait > 0 {
		c := connFrom(ctx)
		deadline := time.Now().Add(min(wait, time.Minute))
		for d := time.Until(deadline); d > 0; d = time.Until(deadline) {
			c.mu.Lock()
			stop := c.stopping
			c.mu.Unlock()
			if stop {
				break
			}
			time.Sleep(min(d, 5*time.Millisecond))
		}
	}
	if !mem.Write(out, events) || !mem.WriteUint32Le(neventsPtr, uint32(len(events)/32)) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

func wasiProcExit(ctx context.Context, mod api.Module, stack []uint64) {
	code := api.DecodeU32(stack[0])
	_ = mod.CloseWithExitCode(ctx, code)
	panic(sys.NewExitError(code))
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	buf []byte
	max int
}

func (b *limitedBuffer) Write(p []byte) {
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(len(p), room)]...)
	}
}

func (b *limitedBuffer) String() string { return string(b.buf) }
