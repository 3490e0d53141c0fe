// Package wasi serves the WASI functions (wasi_snapshot_preview1) that the
// Go runtime of the guest imports, rather than using wazero's WASI, so that
// the guest has no authority by construction: no arguments, no preopened
// directories, no sockets, and an environment of one runtime setting
// (GODEBUG=gcstoptheworld=1). stdout and stderr of the guest program (not
// of the script) go to its Instance's diagnostic output, used in crash
// reports. The clocks, random bytes and sleeping are the only services.
// Every other WASI function the module imports answers ENOSYS.
package wasi

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"time"

	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// ModuleName is the module WASI functions are imported from.
const ModuleName = "wasi_snapshot_preview1"

// Instance is the guest instance a WASI call comes from, as far as WASI
// sees it.
type Instance interface {
	// WriteDiag keeps p, output of the guest program itself (fd 1 or 2).
	WriteDiag(p []byte)
	// Stopping reports whether the instance is asked to stop: a sleep in
	// poll_oneoff then ends early.
	Stopping() bool
}

// Config is what the WASI functions serve. Every field must be set.
type Config struct {
	// Now is the wall clock (clock_time_get's realtime clock).
	Now func() time.Time
	// Random is the source of random_get's bytes.
	Random io.Reader
	// Instance returns the instance that makes a call, from the call's
	// context.
	Instance func(ctx context.Context) Instance
	// Recorder, if set, returns the recorder of the instance that makes a
	// call, from the call's context, or nil when that instance is not
	// being recorded.
	Recorder func(ctx context.Context) Recorder
}

// Recorder receives, in order, every value the WASI functions give an
// instance that is being recorded or replayed: each reading of the wall
// clock, each reading of the monotonic clock and the bytes of each
// random_get. The functions call it on the goroutine that runs the
// instance, after the value is read and before the guest sees it. Clock
// and Monotonic return the value the guest gets: a recorder returns the
// one it was given, a player of a recording the recorded one. Random may
// overwrite p, which is the guest's memory: a recorder copies it, a player
// fills it with the recorded bytes; it must not keep p.
type Recorder interface {
	Clock(ns int64) int64
	Monotonic(ns int64) int64
	Random(p []byte)
}

// recorder returns the recorder of the instance that makes a call, or nil.
func (cfg Config) recorder(ctx context.Context) Recorder {
	if cfg.Recorder == nil {
		return nil
	}
	return cfg.Recorder(ctx)
}

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

// impl returns the WASI functions served with real behaviour.
func impl(cfg Config) map[string]wasiFunc {
	i32, i64 := api.ValueTypeI32, api.ValueTypeI64
	r32 := []api.ValueType{i32}
	return map[string]wasiFunc{
		"args_sizes_get":      {wasiZeroSizes, []api.ValueType{i32, i32}, r32},
		"args_get":            {wasiOK, []api.ValueType{i32, i32}, r32},
		"environ_sizes_get":   {wasiEnvironSizesGet(guestEnviron), []api.ValueType{i32, i32}, r32},
		"environ_get":         {wasiEnvironGet(guestEnviron), []api.ValueType{i32, i32}, r32},
		"clock_time_get":      {cfg.wasiClockTimeGet, []api.ValueType{i32, i64, i32}, r32},
		"clock_res_get":       {wasiClockResGet, []api.ValueType{i32, i32}, r32},
		"random_get":          {cfg.wasiRandomGet, []api.ValueType{i32, i32}, r32},
		"fd_write":            {cfg.wasiFdWrite, []api.ValueType{i32, i32, i32, i32}, r32},
		"fd_fdstat_get":       {wasiFdstatGet, []api.ValueType{i32, i32}, r32},
		"fd_prestat_get":      {wasiBadf, []api.ValueType{i32, i32}, r32},
		"fd_prestat_dir_name": {wasiBadf, []api.ValueType{i32, i32, i32}, r32},
		"sched_yield":         {wasiOK, nil, r32},
		"poll_oneoff":         {cfg.wasiPollOneoff, []api.ValueType{i32, i32, i32, i32}, r32},
		"proc_exit":           {wasiProcExit, []api.ValueType{i32}, nil},
	}
}

// Instantiate instantiates, in r, the WASI host module for a module whose
// function imports are imports (wasmbin.FuncImports of its binary): a
// function for each of its WASI imports, with real behaviour for the few
// that impl lists and ENOSYS for the others. The imports are read from the
// binary rather than from the compiled module, whose ImportedFunctions
// makes wazero build a definition of every function of the module, which
// for the guest is milliseconds of a process's start and megabytes kept.
func Instantiate(ctx context.Context, r wazero.Runtime, imports []wasmbin.FuncImport, cfg Config) error {
	served := impl(cfg)
	b := r.NewHostModuleBuilder(ModuleName)
	for _, f := range imports {
		if f.Module != ModuleName {
			continue
		}
		w, ok := served[f.Name]
		if !ok {
			params, results, err := wasmbin.FuncTypeVectors(f.Type)
			if err != nil {
				return fmt.Errorf("wasi: import %s.%s: %w", f.Module, f.Name, err)
			}
			w = wasiFunc{wasiNosys, params, results}
		}
		b.NewFunctionBuilder().WithGoModuleFunction(w.fn, w.params, w.results).Export(f.Name)
	}
	if _, err := b.Instantiate(ctx); err != nil {
		return fmt.Errorf("wasi: instantiating the host module: %w", err)
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

// guestEnviron is the guest's environment, which only its Go runtime reads
// (no guest code looks at the environment): GODEBUG=gcstoptheworld=1 makes every collection
// stop the world, which in a guest with one thread is cheaper than a
// concurrent one (RATIONALE.md, "The guest's garbage collector").
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

func (cfg Config) wasiClockTimeGet(ctx context.Context, mod api.Module, stack []uint64) {
	var ns int64
	switch api.DecodeU32(stack[0]) {
	case 0: // realtime
		ns = cfg.Now().UnixNano()
		if r := cfg.recorder(ctx); r != nil {
			ns = r.Clock(ns)
		}
	case 1: // monotonic
		ns = int64(time.Since(monoBase)) + 1
		if r := cfg.recorder(ctx); r != nil {
			ns = r.Monotonic(ns)
		}
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

func (cfg Config) wasiRandomGet(ctx context.Context, mod api.Module, stack []uint64) {
	buf, ok := mod.Memory().Read(api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	if !ok {
		stack[0] = errnoInval
		return
	}
	if _, err := io.ReadFull(cfg.Random, buf); err != nil {
		stack[0] = errnoIO
		return
	}
	if r := cfg.recorder(ctx); r != nil {
		r.Random(buf)
	}
	stack[0] = errnoSuccess
}

// wasiFdWrite accepts writes to fd 1 and 2 (the guest program's own output,
// kept for crash reports) and refuses every other descriptor.
func (cfg Config) wasiFdWrite(ctx context.Context, mod api.Module, stack []uint64) {
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
	inst := cfg.Instance(ctx)
	var total uint32
	for i := uint32(0); i < n; i++ {
		ptr := binary.LittleEndian.Uint32(vecs[i*8:])
		size := binary.LittleEndian.Uint32(vecs[i*8+4:])
		b, ok := mem.Read(ptr, size)
		if !ok {
			stack[0] = errnoInval
			return
		}
		inst.WriteDiag(b)
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
func (cfg Config) wasiPollOneoff(ctx context.Context, mod api.Module, stack []uint64) {
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
		inst := cfg.Instance(ctx)
		deadline := time.Now().Add(min(wait, time.Minute))
		for d := time.Until(deadline); d > 0; d = time.Until(deadline) {
			if inst.Stopping() {
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
