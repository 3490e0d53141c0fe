package wasmthunk

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/cordonhq/cordon/internal/wasmbin/wasmtest"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// thunk is the body Go emits for `JMP f(SB)`.
func thunk(f byte) []byte {
	return append(append(append([]byte(nil), thunkHead...), f), thunkTail...)
}

// leaf returns a Go-typed body that returns v.
func leaf(v byte) []byte { return []byte{0, 0x41, v, 0x0b} }

// build makes a module: type 0 is (i32) -> i32, type 1 (i32 i32) -> i32;
// an imported function "env.f" of type 0 is function 0, so defined
// function i has index i+1; global 0 is a mutable i32, as Go's stack
// pointer is. Each defined function is exported as "f<i>".
func build(types []byte, bodies ...[]byte) []byte {
	m := wasmtest.Module{
		Types: []wasmtest.FuncType{
			{Params: []byte{wasmtest.I32}, Results: []byte{wasmtest.I32}},
			{Params: []byte{wasmtest.I32, wasmtest.I32}, Results: []byte{wasmtest.I32}},
		},
		Imports: []wasmtest.Import{{Module: "env", Name: "f", Type: 0}},
		Globals: []wasmtest.Global{{Type: wasmtest.I32, Mutable: true}}, // Go's SP
		Code:    bodies,
	}
	for _, t := range types {
		m.Funcs = append(m.Funcs, uint32(t))
	}
	for i := range bodies {
		m.Exports = append(m.Exports, wasmtest.Export{Name: "f" + strconv.Itoa(i), Kind: wasmtest.ExportFunc, Index: uint32(i + 1)})
	}
	return m.Bytes()
}

func call(t *testing.T, wasm []byte, name string) uint64 {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	if _, err := rt.NewHostModuleBuilder("env").NewFunctionBuilder().
		WithFunc(func(int32) int32 { return 99 }).Export("f").Instantiate(ctx); err != nil {
		t.Fatal(err)
	}
	mod, err := rt.Instantiate(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	res, err := mod.ExportedFunction(name).Call(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	return res[0]
}

func codeOf(t *testing.T, wasm []byte) [][]byte {
	t.Helper()
	secs, err := wasmbin.Sections(wasm)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		if s.ID == 10 {
			b, err := wasmbin.CodeBodies(s.Body)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	t.Fatal("no code section")
	return nil
}

func TestFold(t *testing.T) {
	for _, tc := range []struct {
		name   string
		types  []byte
		bodies [][]byte
		want   []int // for each defined function, the one whose body it has after Fold
	}{
		{"a thunk", []byte{0, 0}, [][]byte{leaf(7), thunk(1)}, []int{0, 0}},
		{"a chain of thunks", []byte{0, 0, 0}, [][]byte{thunk(2), thunk(3), leaf(7)}, []int{2, 2, 2}},
		{"a cycle is left alone", []byte{0, 0, 0}, [][]byte{thunk(2), thunk(1), leaf(7)}, []int{0, 1, 2}},
		{"a thunk to itself", []byte{0}, [][]byte{thunk(1)}, []int{0}},
		{"a target of another type", []byte{1, 0}, [][]byte{{0, 0x41, 7, 0x0b}, thunk(1)}, []int{0, 1}},
		{"a thunk of another type", []byte{0, 1}, [][]byte{leaf(7), thunk(1)}, []int{0, 1}},
		{"an imported target", []byte{0}, [][]byte{thunk(0)}, []int{0}},
		{"a target out of range", []byte{0}, [][]byte{thunk(9)}, []int{0}},
		{"not exactly the sequence", []byte{0, 0}, [][]byte{leaf(7), bytes.Replace(thunk(1), []byte{0x41, 0}, []byte{0x41, 1}, 1)}, []int{0, 1}},
	} {
		wasm := build(tc.types, tc.bodies...)
		out, n, err := Fold(wasm)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := codeOf(t, out)
		folded := 0
		for i, j := range tc.want {
			if !bytes.Equal(got[i], tc.bodies[j]) {
				t.Errorf("%s: function %d has % x, want the body of %d", tc.name, i, got[i], j)
			}
			if i != j {
				folded++
			}
		}
		if n != folded {
			t.Errorf("%s: Fold reports %d folded, want %d", tc.name, n, folded)
		}
	}
}

// TestFoldedThunkRuns: a thunk returns what its target returns, before and
// after folding, and the module still validates.
func TestFoldedThunkRuns(t *testing.T) {
	wasm := build([]byte{0, 0, 0}, leaf(7), thunk(1), thunk(2))
	out, n, err := Fold(wasm)
	if err != nil || n != 2 {
		t.Fatalf("%d folded, %v", n, err)
	}
	for _, m := range [][]byte{wasm, out} {
		for _, f := range []string{"f0", "f1", "f2"} {
			if got := call(t, m, f); got != 7 {
				t.Errorf("%s returned %d", f, got)
			}
		}
	}
	// A thunk to the import keeps calling it.
	imp := build([]byte{0}, thunk(0))
	out, _, err = Fold(imp)
	if err != nil {
		t.Fatal(err)
	}
	if got := call(t, out, "f0"); got != 99 {
		t.Errorf("thunk to the import returned %d", got)
	}
}

func TestFoldRefusesBadModules(t *testing.T) {
	good := build([]byte{0, 0}, leaf(7), thunk(1))
	for _, bad := range [][]byte{nil, good[:len(good)-2], []byte("\x00asm\x01\x00\x00\x00\x03\x02\x01\x00")} {
		if _, _, err := Fold(bad); err == nil {
			t.Errorf("% x: accepted", bad)
		}
	}
}

// wrapperModule is a module with Go's stack convention whose function "w"
// is a wrapper of the given shape (wrapperShape, holes filled) calling
// "m", with:
//
//	m (function 0): records *(SP+8) at 512 and *(SP+16) at 520, pops its
//	  return address, returns 0
//	morestack (function 1) and panicwrap (function 2): record their
//	  number at 528 and return 1 (unwinding)
//	w (function 3)
//
// Global 0 is SP (exported "sp"), global 2 g, an i64 whose stackguard
// (g+16) is 0 so that no stack check fails; memory is exported "mem".
func wrapperModule(t *testing.T, zero bool, load, store []byte) []byte {
	t.Helper()
	var body []byte
	for _, v := range wrapperShape(zero, load, store) {
		switch v {
		case holeS64:
			body = wasmbin.AppendSleb(body, 0x1234<<16|3)
		case holeU32:
			// morestack comes first in the shape, panicwrap last.
			if bytes.Count(body, []byte{0x10, 1}) == 0 {
				body = append(body, 1)
			} else {
				body = append(body, 2)
			}
		case holeTarget:
			body = append(body, 0)
		default:
			body = append(body, byte(v))
		}
	}
	method := []byte{0,
		0x41, 0x80, 4, 0x23, 0, 0x29, 3, 8, 0x37, 3, 0, // 512: *(SP+8)
		0x41, 0x88, 4, 0x23, 0, 0x29, 3, 16, 0x37, 3, 0, // 520: *(SP+16)
		0x23, 0, 0x41, 8, 0x6a, 0x24, 0, 0x41, 0, 0x0b}
	record := func(n byte) []byte { return []byte{0, 0x41, 0x90, 4, 0x41, n, 0x36, 2, 0, 0x41, 1, 0x0b} }
	m := wasmtest.Module{
		Types:    []wasmtest.FuncType{{Params: []byte{wasmtest.I32}, Results: []byte{wasmtest.I32}}},
		Funcs:    []uint32{0, 0, 0, 0},
		Memories: []uint32{1},
		Globals: []wasmtest.Global{
			{Type: wasmtest.I32, Mutable: true}, // SP
			{Type: wasmtest.I32, Mutable: true},
			{Type: wasmtest.I64, Mutable: true, Init: 256}, // g
		},
		Exports: []wasmtest.Export{
			{Name: "w", Kind: wasmtest.ExportFunc, Index: 3},
			{Name: "mem", Kind: wasmtest.ExportMemory, Index: 0},
			{Name: "sp", Kind: wasmtest.ExportGlobal, Index: 0},
		},
		Code: [][]byte{method, record(1), record(2), body},
	}
	return m.Bytes()
}

// callWrapper calls w(pcB) with 0(SP) a return address, 8(SP) p and 16(SP)
// vm; it returns w's result, what m and the runtime stand-ins recorded,
// and how far SP moved.
func callWrapper(t *testing.T, wasm []byte, pcB, p, vm uint64) (res, arg0, arg1, called uint64, moved int64) {
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
	const base = 1024
	mem.WriteUint64Le(base, 0x99<<16)
	mem.WriteUint64Le(base+8, p)
	mem.WriteUint64Le(base+16, vm)
	mem.WriteUint64Le(3000, 0xa1b2c3d4e5f60718) // the value p points to
	sp.Set(base)
	out, err := mod.ExportedFunction("w").Call(ctx, pcB)
	if err != nil {
		t.Fatal(err)
	}
	arg0, _ = mem.ReadUint64Le(512)
	arg1, _ = mem.ReadUint64Le(520)
	c, _ := mem.ReadUint32Le(528)
	return out[0], arg0, arg1, uint64(c), int64(uint32(sp.Get())) - base
}

// TestWrappersBehaveAsBefore runs each wrapper shape before and after
// Wrappers, with a pointer and with nil, and compares what the method
// received, what ran, what was returned and where SP ended.
func TestWrappersBehaveAsBefore(t *testing.T) {
	shapes := []struct {
		name        string
		zero        bool
		load, store []byte
		mask        uint64 // the receiver bits the method reads
	}{
		{"zero size", true, nil, nil, 0},
		{"i64", false, receiverCopies[0][0], receiverCopies[0][1], ^uint64(0)},
		{"uint32", false, receiverCopies[1][0], receiverCopies[1][1], 0xffffffff},
		{"int32", false, receiverCopies[2][0], receiverCopies[2][1], 0xffffffff},
	}
	for _, s := range shapes {
		orig := wrapperModule(t, s.zero, s.load, s.store)
		patched, n, err := Wrappers(orig)
		if err != nil || n != 1 {
			t.Fatalf("%s: %d wrappers, %v", s.name, n, err)
		}
		if bytes.Equal(orig, patched) {
			t.Fatalf("%s: unchanged", s.name)
		}
		// p non-nil: m gets the receiver (zero size: the second argument
		// first) and the return address is popped.
		r0, a0, a1, c0, m0 := callWrapper(t, orig, 0, 3000, 77)
		r1, b0, b1, c1, m1 := callWrapper(t, patched, 0, 3000, 77)
		if r0 != 0 || r1 != 0 || c0 != 0 || c1 != 0 || m0 != 8 || m1 != 8 {
			t.Errorf("%s: results %d %d, calls %d %d, SP moved %d %d; want 0, none, 8", s.name, r0, r1, c0, c1, m0, m1)
		}
		if s.zero {
			if a0 != 77 || b0 != 77 {
				t.Errorf("%s: m's argument %d before, %d after; want 77", s.name, a0, b0)
			}
		} else if a0&s.mask != b0&s.mask || a0&s.mask != 0xa1b2c3d4e5f60718&s.mask || a1 != 77 || b1 != 77 {
			t.Errorf("%s: m got (%x, %d) before, (%x, %d) after", s.name, a0, a1, b0, b1)
		}
		// p nil: the original body runs, calls panicwrap, and unwinds.
		r0, _, _, c0, _ = callWrapper(t, orig, 0, 0, 77)
		r1, _, _, c1, _ = callWrapper(t, patched, 0, 0, 77)
		if r0 != 1 || r1 != 1 || c0 != 2 || c1 != 2 {
			t.Errorf("%s: nil p: results %d %d, runtime calls %d %d; want 1 and panicwrap", s.name, r0, r1, c0, c1)
		}
		// Resuming after the call of m (PC_B 3, segment 2) goes to the
		// original body, which pops its frame and return address.
		r0, _, _, _, m0 = callWrapper(t, orig, 3, 3000, 77)
		r1, _, _, _, m1 = callWrapper(t, patched, 3, 3000, 77)
		if r0 != 0 || r0 != r1 || m0 != m1 || m0 < 16 {
			t.Errorf("%s: resumed: results %d %d, SP moved %d %d", s.name, r0, r1, m0, m1)
		}
	}
}

// TestWrappersLeaveOtherShapes: a body that differs from the shape in one
// byte, or whose target is not of Go's function type, is left alone.
func TestWrappersLeaveOtherShapes(t *testing.T) {
	orig := wrapperModule(t, true, nil, nil)
	// The frame size 8 appears first in "i32.const 8; i32.sub" of the
	// stack check; change the p offset (frame+8 = 16) of the nil check.
	changed := bytes.Replace(orig, []byte{0x29, 3, 16, 0x50, 0xad}, []byte{0x29, 3, 17, 0x50, 0xad}, 1)
	if bytes.Equal(changed, orig) {
		t.Fatal("the test's edit did not apply")
	}
	if out, n, err := Wrappers(changed); err != nil || n != 0 || !bytes.Equal(out, changed) {
		t.Errorf("a changed body: %d wrappers, %v", n, err)
	}
}

// FuzzRewrite holds Fold and Wrappers to never panicking, and to leaving
// a module they accept still splittable into sections.
func FuzzRewrite(f *testing.F) {
	f.Add(build([]byte{0, 0}, leaf(7), thunk(1)))
	f.Add(build([]byte{0, 0, 0}, thunk(2), thunk(1), leaf(7)))
	f.Fuzz(func(t *testing.T, wasm []byte) {
		for _, rewrite := range []func([]byte) ([]byte, int, error){Fold, Wrappers} {
			out, _, err := rewrite(wasm)
			if err != nil {
				continue
			}
			if _, err := wasmbin.Sections(out); err != nil {
				t.Fatalf("the rewritten module does not split: %v", err)
			}
		}
	})
}
