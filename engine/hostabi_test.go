package engine

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/tetratelabs/wazero/api"
	wasi "github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// funcType is the encoding of an ABI function's type, as
// wasmbin.FuncTypes gives it: the parameter vector, then the result
// vector, all i32.
func funcType(f abi.HostFunc) []byte {
	b := append([]byte{byte(f.Params)}, bytes.Repeat([]byte{api.ValueTypeI32}, f.Params)...)
	b = append(b, byte(f.Results))
	return append(b, bytes.Repeat([]byte{api.ValueTypeI32}, f.Results)...)
}

// TestGuestImportsTheHostABI: the functions that the embedded guest
// imports from abi.HostModule (its go:wasmimport directives, read from
// its import section) are exactly abi.HostFuncs, each with its type; its
// only other imports are WASI's.
func TestGuestImportsTheHostABI(t *testing.T) {
	wasm, err := GuestWasm()
	if err != nil {
		t.Fatal(err)
	}
	imports, err := wasmbin.FuncImports(wasm)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	for _, im := range imports {
		switch im.Module {
		case abi.HostModule:
			got[im.Name] = im.Type
		case wasi.ModuleName:
		default:
			t.Errorf("the guest imports %s.%s, from neither %s nor %s", im.Module, im.Name, abi.HostModule, wasi.ModuleName)
		}
	}
	want := abi.HostFuncs()
	for _, f := range want {
		typ, ok := got[f.Name]
		switch {
		case !ok:
			t.Errorf("the guest does not import %s.%s", abi.HostModule, f.Name)
		case !bytes.Equal(typ, funcType(f)):
			t.Errorf("the guest imports %s.%s as type % x, want % x", abi.HostModule, f.Name, typ, funcType(f))
		}
		delete(got, f.Name)
	}
	for name := range got {
		t.Errorf("the guest imports %s.%s, which abi.HostFuncs does not list", abi.HostModule, name)
	}
}

// TestHostExportsTheHostABI: the module the engine registers with wazero
// as abi.HostModule exports exactly abi.HostFuncs, each with its type, and
// every function hostFuncs implements is one of them.
func TestHostExportsTheHostABI(t *testing.T) {
	e := newPooledEngine(t, 0)
	mod := e.runtime.Module(abi.HostModule)
	if mod == nil {
		t.Fatalf("no module %s is registered", abi.HostModule)
	}
	defs := mod.ExportedFunctionDefinitions()
	var names []string
	for _, f := range abi.HostFuncs() {
		names = append(names, f.Name)
		def, ok := defs[f.Name]
		if !ok {
			t.Errorf("the host does not export %s.%s", abi.HostModule, f.Name)
			continue
		}
		params := slices.Repeat([]api.ValueType{api.ValueTypeI32}, f.Params)
		results := slices.Repeat([]api.ValueType{api.ValueTypeI32}, f.Results)
		if !slices.Equal(def.ParamTypes(), params) || !slices.Equal(def.ResultTypes(), results) {
			t.Errorf("the host exports %s.%s as %v -> %v, want %v -> %v", abi.HostModule, f.Name, def.ParamTypes(), def.ResultTypes(), params, results)
		}
	}
	for name := range defs {
		if !slices.Contains(names, name) {
			t.Errorf("the host exports %s.%s, which abi.HostFuncs does not list", abi.HostModule, name)
		}
	}
	for name := range hostFuncs {
		if !slices.Contains(names, name) {
			t.Errorf("hostFuncs implements %q, which abi.HostFuncs does not list", name)
		}
	}
	if t.Failed() {
		t.Logf("abi.HostFuncs: %s", strings.Join(names, ", "))
	}
}
