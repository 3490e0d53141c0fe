package wasmthunk

import (
	"bytes"
	"context"
	"testing"

	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/tetratelabs/wazero"
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
	sec := func(id byte, body []byte) []byte { return wasmbin.AppendSection(nil, id, body) }
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(1, []byte{2, 0x60, 1, 0x7f, 1, 0x7f, 0x60, 2, 0x7f, 0x7f, 1, 0x7f})...)
	m = append(m, sec(2, []byte{1, 3, 'e', 'n', 'v', 1, 'f', 0, 0})...)
	m = append(m, sec(3, append([]byte{byte(len(types))}, types...))...)
	m = append(m, sec(6, []byte{1, 0x7f, 1, 0x41, 0, 0x0b})...) // global 0: Go's SP
	exports := []byte{byte(len(bodies))}
	for i := range bodies {
		exports = append(exports, 2, 'f', '0'+byte(i), 0, byte(i+1))
	}
	m = append(m, sec(7, exports)...)
	return append(m, sec(10, wasmbin.AppendCode(nil, bodies))...)
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
