package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The WASI functions the engine serves with real behaviour are few and
// reviewed; every other import is answered ENOSYS. This test pins the list
// so that adding a service is a deliberate change.
func TestWASIServices(t *testing.T) {
	served := map[string]bool{}
	for name := range wasiImpl(&Engine{}) {
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

// The guest's environment is GODEBUG=gcstoptheworld=1, laid out as WASI's
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
