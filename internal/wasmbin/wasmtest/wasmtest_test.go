package wasmtest

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// TestModuleRuns: a module with every part Module writes is valid, and
// wazero sees what it declares: the import called, the memory's size, the
// globals' initial values and mutability, the exports under their names.
func TestModuleRuns(t *testing.T) {
	m := Module{
		Types:    []FuncType{{Params: []byte{I32}, Results: []byte{I32}}, {}},
		Imports:  []Import{{Module: "env", Name: "double", Type: 0}},
		Funcs:    []uint32{0},
		Memories: []uint32{2},
		Globals:  []Global{{Type: I32, Mutable: true, Init: -5}, {Type: I64, Init: 1 << 40}},
		Exports: []Export{
			{Name: "f", Kind: ExportFunc, Index: 1},
			{Name: "mem", Kind: ExportMemory, Index: 0},
			{Name: "g", Kind: ExportGlobal, Index: 0},
			{Name: "h", Kind: ExportGlobal, Index: 1},
		},
		// f(x) = double(x) + 1
		Code: [][]byte{{0, 0x20, 0, 0x10, 0, 0x41, 1, 0x6a, 0x0b}},
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	if _, err := rt.NewHostModuleBuilder("env").NewFunctionBuilder().
		WithFunc(func(x int32) int32 { return 2 * x }).Export("double").Instantiate(ctx); err != nil {
		t.Fatal(err)
	}
	mod, err := rt.Instantiate(ctx, m.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	res, err := mod.ExportedFunction("f").Call(ctx, 20)
	if err != nil || res[0] != 41 {
		t.Errorf("f(20) = %v, %v; want 41", res, err)
	}
	if size := mod.ExportedMemory("mem").Size(); size != 2*65536 {
		t.Errorf("memory of %d bytes, want 2 pages", size)
	}
	g, ok := mod.ExportedGlobal("g").(api.MutableGlobal)
	if !ok || int32(g.Get()) != -5 {
		t.Errorf("g: mutable %v, value %d; want a mutable -5", ok, int32(mod.ExportedGlobal("g").Get()))
	}
	h := mod.ExportedGlobal("h")
	if _, mutable := h.(api.MutableGlobal); mutable || h.Get() != 1<<40 || h.Type() != api.ValueTypeI64 {
		t.Errorf("h: mutable %v, value %d, type %v; want an immutable i64 1<<40", mutable, h.Get(), h.Type())
	}
}

// TestEmptySectionsLeftOut: a module with no parts is the header alone.
func TestEmptySectionsLeftOut(t *testing.T) {
	if got := (&Module{}).Bytes(); string(got) != "\x00asm\x01\x00\x00\x00" {
		t.Errorf("% x", got)
	}
}
