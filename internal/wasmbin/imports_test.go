package wasmbin_test

import (
	"reflect"
	"testing"

	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/cordonhq/cordon/internal/wasmbin/wasmtest"
)

func TestFuncImports(t *testing.T) {
	m := wasmtest.Module{
		Types: []wasmtest.FuncType{{}, {Params: []byte{wasmtest.I32, wasmtest.I32}, Results: []byte{wasmtest.I32}}},
		Imports: []wasmtest.Import{
			{Module: "cordon", Name: "next", Type: 1},
			{Module: "wasi_snapshot_preview1", Name: "sched_yield", Type: 0},
		},
	}
	got, err := wasmbin.FuncImports(m.Bytes())
	want := []wasmbin.FuncImport{
		{Module: "cordon", Name: "next", Type: []byte{2, 0x7f, 0x7f, 1, 0x7f}},
		{Module: "wasi_snapshot_preview1", Name: "sched_yield", Type: []byte{0, 0}},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("FuncImports: %+v, %v; want %+v", got, err, want)
	}
	// An import whose type is not in the type section is an error.
	m.Imports[1].Type = 2
	if _, err := wasmbin.FuncImports(m.Bytes()); err == nil {
		t.Error("an import of type 2 of 2 was accepted")
	}
	if _, err := wasmbin.FuncImports([]byte("junk")); err == nil {
		t.Error("junk accepted")
	}
}

// FuncTypeVectors splits what FuncImports and FuncTypes give, and refuses
// what is not exactly a parameter vector and a result vector.
func TestFuncTypeVectors(t *testing.T) {
	params, results, err := wasmbin.FuncTypeVectors([]byte{3, wasmtest.I32, 0x7e, wasmtest.I32, 1, wasmtest.I32})
	if err != nil || !reflect.DeepEqual(params, []byte{wasmtest.I32, 0x7e, wasmtest.I32}) || !reflect.DeepEqual(results, []byte{wasmtest.I32}) {
		t.Errorf("FuncTypeVectors: %v %v %v", params, results, err)
	}
	for _, bad := range [][]byte{nil, {3, wasmtest.I32}, {0}, {0, 0, 0}, {0x80}, {0, 0xff, 0xff, 0xff, 0xff, 0x0f}} {
		if _, _, err := wasmbin.FuncTypeVectors(bad); err == nil {
			t.Errorf("FuncTypeVectors(% x): no error", bad)
		}
	}
}
