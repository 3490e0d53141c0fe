package wasminline

import (
	"bytes"
	"context"
	"testing"

	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/cordonhq/cordon/internal/wasmbin/wasmtest"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// loadBody is Load's body as Go emits it, calling sigpanic (function
// sigpanic) on a nil pointer.
func loadBody(sigpanic byte) []byte {
	b := append([]byte(nil), loadHead...)
	b = wasmbin.AppendSleb(b, 0x1234<<16|1)
	b = append(b, loadMid...)
	b = append(b, sigpanic)
	return append(b, loadTail...)
}

// module has Go's stack convention (global 0 is SP, exported "sp"; memory
// "mem"), and:
//
//	function 0, sigpanic: records 1 at 600 and returns 1 (unwinding)
//	function 1, load: body
//	function 2, exported "caller": callerCode, then the function's end
func module(body, callerCode []byte) []byte {
	sigpanic := []byte{0, 0x41, 0xd8, 4, 0x41, 1, 0x36, 2, 0, 0x41, 1, 0x0b}
	caller := append(append([]byte{0}, callerCode...), 0x0b)
	m := wasmtest.Module{
		Types:    []wasmtest.FuncType{{Params: []byte{wasmtest.I32}, Results: []byte{wasmtest.I32}}},
		Funcs:    []uint32{0, 0, 0},
		Memories: []uint32{1},
		Globals:  []wasmtest.Global{{Type: wasmtest.I32, Mutable: true}}, // SP
		Exports: []wasmtest.Export{
			{Name: "caller", Kind: wasmtest.ExportFunc, Index: 2},
			{Name: "mem", Kind: wasmtest.ExportMemory, Index: 0},
			{Name: "sp", Kind: wasmtest.ExportGlobal, Index: 0},
		},
		Code: [][]byte{sigpanic, body, caller},
	}
	return m.Bytes()
}

// callSite is how Go calls a function: the caller has pushed the return
// address; i32.const 0 (the resume point); call.
var callSite = []byte{0x41, 0, 0x10, 1}

// run calls caller with SP at 1024, 0(SP) a return address and 8(SP) ptr,
// and *3000 = 0x89abcdef; it returns the result, the word at 16(SP), how
// far SP moved and whether sigpanic ran.
func run(t *testing.T, wasm []byte, ptr uint64) (res, word uint64, moved int64, panicked bool) {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	mod, err := rt.Instantiate(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	mem := mod.ExportedMemory("mem")
	sp := mod.ExportedGlobal("sp").(api.MutableGlobal)
	mem.WriteUint64Le(1024, 0x77<<16)
	mem.WriteUint64Le(1032, ptr)
	mem.WriteUint64Le(1040, 0xffffffffffffffff)
	mem.WriteUint32Le(3000, 0x89abcdef)
	sp.Set(1024)
	out, err := mod.ExportedFunction("caller").Call(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	word, _ = mem.ReadUint64Le(1040)
	p, _ := mem.ReadUint32Le(600)
	return out[0], word, int64(uint32(sp.Get())) - 1024, p == 1
}

// TestAtomicsInlineBehavesAsTheCall compares the module before and after
// Atomics, with a pointer and with nil.
func TestAtomicsInlineBehavesAsTheCall(t *testing.T) {
	orig := module(loadBody(0), callSite)
	inl, n, err := Atomics(orig)
	if err != nil || n != 1 {
		t.Fatalf("%d call sites inlined, %v", n, err)
	}
	for _, ptr := range []uint64{3000, 0} {
		r0, w0, m0, p0 := run(t, orig, ptr)
		r1, w1, m1, p1 := run(t, inl, ptr)
		if r0 != r1 || w0 != w1 || m0 != m1 || p0 != p1 {
			t.Errorf("ptr %d: the call gives (%d, %x, %d, %v), inlined (%d, %x, %d, %v)", ptr, r0, w0, m0, p0, r1, w1, m1, p1)
		}
		if ptr != 0 && (r1 != 0 || w1 != 0xffffffff89abcdef || m1 != 8 || p1) {
			t.Errorf("ptr %d: inlined gives (%d, %x, %d, %v)", ptr, r1, w1, m1, p1)
		}
		if ptr == 0 && (r1 != 1 || !p1) {
			t.Errorf("nil: inlined gives (%d, %v), want sigpanic and 1", r1, p1)
		}
	}
}

func TestAtomicsLeaveOtherCode(t *testing.T) {
	for _, tc := range []struct {
		name         string
		body, caller []byte
	}{
		// A body that differs in one byte (the load's width) is not Load.
		{"not Load", bytes.Replace(loadBody(0), []byte{0x35, 2, 0, 0x3e}, []byte{0x34, 2, 0, 0x3e}, 1), callSite},
		// A resume point other than 0, or none before the call.
		{"resume point 1", loadBody(0), []byte{0x41, 1, 0x10, 1}},
		{"a resume point from a local", loadBody(0), []byte{0x20, 0, 0x10, 1}},
		// A call of another function.
		{"another function", loadBody(0), []byte{0x41, 0, 0x10, 0}},
	} {
		wasm := module(tc.body, tc.caller)
		out, n, err := Atomics(wasm)
		if err != nil || n != 0 || !bytes.Equal(out, wasm) {
			t.Errorf("%s: %d inlined, %v", tc.name, n, err)
		}
	}
}

func TestAtomicsRefusesBadModules(t *testing.T) {
	good := module(loadBody(0), callSite)
	for _, bad := range [][]byte{nil, good[:len(good)-3]} {
		if _, _, err := Atomics(bad); err == nil {
			t.Errorf("% x: accepted", bad)
		}
	}
	// An instruction the walker does not know, in a function that calls
	// Load, is an error, not a guess.
	simd := module(loadBody(0), append([]byte{0xfd, 0}, callSite...))
	if _, _, err := Atomics(simd); err == nil {
		t.Error("a SIMD instruction was accepted")
	}
}

// FuzzAtomics holds Atomics to never panicking, and to leaving a module it
// accepts still splittable into sections.
func FuzzAtomics(f *testing.F) {
	f.Add(module(loadBody(0), callSite))
	f.Add(module(loadBody(0), []byte{0x41, 1, 0x10, 1}))
	f.Fuzz(func(t *testing.T, wasm []byte) {
		out, _, err := Atomics(wasm)
		if err != nil {
			return
		}
		if _, err := wasmbin.Sections(out); err != nil {
			t.Fatalf("the rewritten module does not split: %v", err)
		}
	})
}
