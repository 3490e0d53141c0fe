package wasi

import (
	"bytes"
	"context"
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The WASI functions served with real behaviour are few and
// reviewed; every other import is answered ENOSYS. This test pins the list
// so that adding a service is a deliberate change.
func TestWASIServices(t *testing.T) {
	served := map[string]bool{}
	for name := range impl(Config{}) {
		served[name] = true
	}
	want := "args_get args_sizes_get clock_res_get clock_time_get environ_get environ_sizes_get fd_fdstat_get fd_prestat_dir_name fd_prestat_get fd_write poll_oneoff proc_exit random_get sched_yield"
	var got []string
	for _, name := range strings.Fields(want) {
		if !served[name] {
			t.Errorf("%s is not served", name)
		}
		delete(served, name)
	}
	for name := range served {
		got = append(got, name)
	}
	if len(got) > 0 {
		t.Errorf("unreviewed WASI services: %v", got)
	}
}

// moduleWithMemory is a module that exports one page of memory, for
// calling the WASI functions directly.
func moduleWithMemory(t *testing.T) api.Module {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	t.Cleanup(func() { r.Close(ctx) })
	wasm := []byte{
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
		0x05, 0x03, 0x01, 0x00, 0x01, // memory section: one memory, min 1 page
		0x07, 0x0a, 0x01, 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00, // export "memory"
	}
	mod, err := r.Instantiate(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

// The guest's environment is GODEBUG=gcstoptheworld=1, with no GOMEMLIMIT
// (RATIONALE.md, "The guest's garbage collector"), laid out as WASI's
// environ_get lays out an environment: an array of pointers to
// NUL-terminated strings.
func TestWASIEnviron(t *testing.T) {
	if want := []string{"GODEBUG=gcstoptheworld=1"}; !slices.Equal(guestEnviron, want) {
		t.Errorf("the guest's environment is %q, want %q", guestEnviron, want)
	}
	// Two variables, to check the layout past the first.
	env := []string{"GODEBUG=gcstoptheworld=1", "GOMEMLIMIT=218103808"}
	sizesGet, get := wasiEnvironSizesGet(env), wasiEnvironGet(env)
	mod := moduleWithMemory(t)
	mem := mod.Memory()
	ctx := context.Background()
	stack := []uint64{100, 104}
	sizesGet(ctx, mod, stack)
	count, _ := mem.ReadUint32Le(100)
	size, _ := mem.ReadUint32Le(104)
	wantBytes := "GODEBUG=gcstoptheworld=1\x00GOMEMLIMIT=218103808\x00"
	if stack[0] != errnoSuccess || count != 2 || size != uint32(len(wantBytes)) {
		t.Fatalf("environ_sizes_get: errno %d, count %d, size %d", stack[0], count, size)
	}
	stack = []uint64{200, 300}
	get(ctx, mod, stack)
	p0, _ := mem.ReadUint32Le(200)
	p1, _ := mem.ReadUint32Le(204)
	got, _ := mem.Read(300, size)
	if stack[0] != errnoSuccess || p0 != 300 || p1 != 300+25 || string(got) != wantBytes {
		t.Errorf("environ_get: errno %d, pointers %d %d, %q", stack[0], p0, p1, got)
	}
	// Out of the guest's memory: EINVAL, not a panic.
	for _, stack := range [][]uint64{{1 << 20, 0}, {0, 1 << 20}} {
		sizesGet(ctx, mod, stack)
		if stack[0] != errnoInval {
			t.Errorf("environ_sizes_get outside memory: errno %d", stack[0])
		}
	}
	for _, stack := range [][]uint64{{1 << 20, 0}, {0, 1<<16 - 4}} {
		get(ctx, mod, stack)
		if stack[0] != errnoInval {
			t.Errorf("environ_get outside memory: errno %d", stack[0])
		}
	}
}

// testInstance is the Instance of TestInstantiate.
type testInstance struct {
	mu       sync.Mutex
	diag     bytes.Buffer
	stopping bool
}

func (i *testInstance) WriteDiag(p []byte) { i.mu.Lock(); i.diag.Write(p); i.mu.Unlock() }
func (i *testInstance) Stopping() bool     { i.mu.Lock(); defer i.mu.Unlock(); return i.stopping }

type instanceKey struct{}

// callerModule assembles a module that imports the given WASI functions
// (each of type (i32, i32, i32, i32) -> i32, or random_get's or
// clock_time_get's) and exports, under the same names, functions that pass
// their arguments on, with its memory as "memory".
func callerModule(names []string) []byte {
	typeOf := func(name string) byte {
		switch name {
		case "clock_time_get":
			return 1
		case "random_get":
			return 2
		}
		return 0
	}
	paramCount := []int{4, 3, 2}
	types := []byte{3,
		0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f, // (i32, i32, i32, i32) -> i32
		0x60, 3, 0x7f, 0x7e, 0x7f, 1, 0x7f, // (i32, i64, i32) -> i32
		0x60, 2, 0x7f, 0x7f, 1, 0x7f, // (i32, i32) -> i32
	}
	imports := []byte{byte(len(names))}
	funcs := []byte{byte(len(names))}
	exports := []byte{byte(len(names) + 1)}
	code := []byte{byte(len(names))}
	for i, name := range names {
		imports = wasmbin.AppendName(imports, ModuleName)
		imports = wasmbin.AppendName(imports, name)
		imports = append(imports, 0, typeOf(name))
		funcs = append(funcs, typeOf(name))
		exports = wasmbin.AppendName(exports, name)
		exports = append(exports, 0, byte(len(names)+i))
		body := []byte{0} // no locals
		for p := 0; p < paramCount[typeOf(name)]; p++ {
			body = append(body, 0x20, byte(p)) // local.get p
		}
		body = append(body, 0x10, byte(i), 0x0b) // call the import; end
		code = append(append(code, byte(len(body))), body...)
	}
	exports = wasmbin.AppendName(exports, "memory")
	exports = append(exports, 2, 0)
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = wasmbin.AppendSection(m, 1, types)
	m = wasmbin.AppendSection(m, 2, imports)
	m = wasmbin.AppendSection(m, 3, funcs)
	m = wasmbin.AppendSection(m, 5, []byte{1, 0, 1})
	m = wasmbin.AppendSection(m, 7, exports)
	return wasmbin.AppendSection(m, 10, code)
}

// Instantiate serves the module's WASI imports: the output of the guest
// program reaches its Instance, the clock and the random bytes are the
// configured ones, a sleep ends when the instance is stopping, and what
// is not served answers ENOSYS.
func TestInstantiate(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasm := callerModule([]string{"fd_write", "clock_time_get", "random_get", "poll_oneoff", "fd_read"})
	compiled, err := r.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	cfg := Config{
		Now:      func() time.Time { return now },
		Random:   bytes.NewReader([]byte("0123456789")),
		Instance: func(ctx context.Context) Instance { return ctx.Value(instanceKey{}).(*testInstance) },
	}
	if err := Instantiate(ctx, r, funcImports(t, wasm), cfg); err != nil {
		t.Fatal(err)
	}
	mod, err := r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		t.Fatal(err)
	}
	inst := &testInstance{}
	ictx := context.WithValue(ctx, instanceKey{}, inst)
	mem := mod.Memory()
	call := func(name string, args ...uint64) uint64 {
		t.Helper()
		res, err := mod.ExportedFunction(name).Call(ictx, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res[0]
	}

	mem.WriteUint32Le(0, 100) // one iovec: 5 bytes at 100
	mem.WriteUint32Le(4, 5)
	mem.WriteString(100, "hello")
	if errno := call("fd_write", 2, 0, 1, 200); errno != errnoSuccess {
		t.Fatalf("fd_write: errno %d", errno)
	}
	if n, _ := mem.ReadUint32Le(200); n != 5 || inst.diag.String() != "hello" {
		t.Errorf("fd_write: wrote %d, diag %q", n, inst.diag.String())
	}
	if errno := call("fd_write", 3, 0, 1, 200); errno != errnoBadf {
		t.Errorf("fd_write to fd 3: errno %d, want EBADF", errno)
	}

	if errno := call("clock_time_get", 0, 0, 300); errno != errnoSuccess {
		t.Fatalf("clock_time_get: errno %d", errno)
	}
	if ns, _ := mem.ReadUint64Le(300); ns != uint64(now.UnixNano()) {
		t.Errorf("realtime clock: %d, want %d", ns, now.UnixNano())
	}
	if errno := call("clock_time_get", 7, 0, 300); errno != errnoInval {
		t.Errorf("clock 7: errno %d, want EINVAL", errno)
	}

	if errno := call("random_get", 400, 4); errno != errnoSuccess {
		t.Fatalf("random_get: errno %d", errno)
	}
	if b, _ := mem.Read(400, 4); string(b) != "0123" {
		t.Errorf("random_get: %q", b)
	}

	// One clock subscription of a minute, relative, while stopping.
	sub := make([]byte, 48)
	binary.LittleEndian.PutUint64(sub[0:], 42) // userdata
	binary.LittleEndian.PutUint64(sub[24:], uint64(time.Minute))
	mem.Write(500, sub)
	inst.stopping = true
	start := time.Now()
	if errno := call("poll_oneoff", 500, 600, 1, 700); errno != errnoSuccess {
		t.Fatalf("poll_oneoff: errno %d", errno)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("a sleep of a stopping instance took %v", took)
	}
	if n, _ := mem.ReadUint32Le(700); n != 1 {
		t.Errorf("poll_oneoff: %d events", n)
	}
	if ud, _ := mem.ReadUint64Le(600); ud != 42 {
		t.Errorf("poll_oneoff: event userdata %d", ud)
	}

	if errno := call("fd_read", 0, 0, 0, 0); errno != errnoNosys {
		t.Errorf("fd_read: errno %d, want ENOSYS", errno)
	}
}

// testRecorder keeps what a Recorder is given.
type testRecorder struct {
	clock, mono []int64
	random      [][]byte
}

func (r *testRecorder) Clock(ns int64) int64     { r.clock = append(r.clock, ns); return ns }
func (r *testRecorder) Monotonic(ns int64) int64 { r.mono = append(r.mono, ns); return ns }
func (r *testRecorder) Random(p []byte)          { r.random = append(r.random, append([]byte(nil), p...)) }

// testPlayer gives the guest fixed values instead of the real ones.
type testPlayer struct{}

func (testPlayer) Clock(int64) int64     { return 111 }
func (testPlayer) Monotonic(int64) int64 { return 222 }
func (testPlayer) Random(p []byte)       { copy(p, "xyz") }

type recorderKey struct{}

// The clocks and random_get give their values to the recorder of the
// instance that calls, when it has one, and the values it gets are the
// guest's.
func TestRecorder(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasm := callerModule([]string{"clock_time_get", "random_get"})
	compiled, err := r.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	cfg := Config{
		Now:      func() time.Time { now = now.Add(time.Second); return now },
		Random:   bytes.NewReader([]byte("0123456789")),
		Instance: func(ctx context.Context) Instance { return &testInstance{} },
		Recorder: func(ctx context.Context) Recorder {
			if rec, ok := ctx.Value(recorderKey{}).(*testRecorder); ok {
				return rec
			}
			return nil
		},
	}
	if err := Instantiate(ctx, r, funcImports(t, wasm), cfg); err != nil {
		t.Fatal(err)
	}
	mod, err := r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		t.Fatal(err)
	}
	rec := &testRecorder{}
	call := func(ctx context.Context, name string, args ...uint64) {
		t.Helper()
		res, err := mod.ExportedFunction(name).Call(ctx, args...)
		if err != nil || res[0] != errnoSuccess {
			t.Fatalf("%s: errno %v, %v", name, res, err)
		}
	}
	call(ctx, "clock_time_get", 0, 0, 300) // not recorded
	call(ctx, "random_get", 400, 2)
	rctx := context.WithValue(ctx, recorderKey{}, rec)
	call(rctx, "clock_time_get", 0, 0, 300)
	wall, _ := mod.Memory().ReadUint64Le(300)
	call(rctx, "clock_time_get", 1, 0, 300)
	mono, _ := mod.Memory().ReadUint64Le(300)
	call(rctx, "random_get", 400, 3)
	got, _ := mod.Memory().Read(400, 3)
	if !slices.Equal(rec.clock, []int64{int64(wall)}) || !slices.Equal(rec.mono, []int64{int64(mono)}) {
		t.Errorf("recorded clock %v, monotonic %v; the guest read %d and %d", rec.clock, rec.mono, wall, mono)
	}
	if len(rec.random) != 1 || string(rec.random[0]) != "234" || string(got) != "234" {
		t.Errorf("recorded random %q, the guest got %q", rec.random, got)
	}
	got[0] = 'x' // the guest's memory changes: the recorded bytes do not
	if string(rec.random[0]) != "234" {
		t.Errorf("the recorded bytes are the guest's memory")
	}
}

// A recorder that plays values back decides what the guest reads.
func TestPlayer(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasm := callerModule([]string{"clock_time_get", "random_get"})
	compiled, err := r.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Now:      time.Now,
		Random:   bytes.NewReader([]byte("0123456789")),
		Instance: func(ctx context.Context) Instance { return &testInstance{} },
		Recorder: func(ctx context.Context) Recorder { return testPlayer{} },
	}
	if err := Instantiate(ctx, r, funcImports(t, wasm), cfg); err != nil {
		t.Fatal(err)
	}
	mod, err := r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		clock uint64
		want  uint64
	}{{0, 111}, {1, 222}} {
		if res, err := mod.ExportedFunction("clock_time_get").Call(ctx, c.clock, 0, 300); err != nil || res[0] != errnoSuccess {
			t.Fatalf("clock_time_get: %v %v", res, err)
		}
		if got, _ := mod.Memory().ReadUint64Le(300); got != c.want {
			t.Errorf("clock %d: the guest read %d, want the played %d", c.clock, got, c.want)
		}
	}
	if res, err := mod.ExportedFunction("random_get").Call(ctx, 400, 3); err != nil || res[0] != errnoSuccess {
		t.Fatalf("random_get: %v %v", res, err)
	}
	if got, _ := mod.Memory().Read(400, 3); string(got) != "xyz" {
		t.Errorf("random_get: the guest read %q, want the played %q", got, "xyz")
	}
}

// funcImports is wasmbin.FuncImports(wasm), which must succeed.
func funcImports(t *testing.T, wasm []byte) []wasmbin.FuncImport {
	t.Helper()
	imports, err := wasmbin.FuncImports(wasm)
	if err != nil {
		t.Fatal(err)
	}
	return imports
}
