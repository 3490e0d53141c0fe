package wasmtick

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

func module(sections ...[]byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		m = append(m, s...)
	}
	return m
}

func sec(id byte, body ...byte) []byte {
	return append([]byte{id, byte(len(body))}, body...)
}

// counter is a module whose count(n) loops n times (n >= 1) and returns n.
// withGlobal adds a global section of its own (index 0).
func counter(withGlobal bool) []byte {
	secs := [][]byte{
		sec(1, 2, 0x60, 0, 0, 0x60, 1, 0x7f, 1, 0x7f),
		sec(2, 1, 6, 'c', 'o', 'r', 'd', 'o', 'n', 4, 't', 'i', 'c', 'k', 0, 0),
		sec(3, 1, 1),
	}
	if withGlobal {
		secs = append(secs, sec(6, 1, 0x7f, 1, 0x41, 0, 0x0b))
	}
	body := []byte{1, 1, 0x7f, // one i32 local
		0x03, 0x40, // loop
		0x20, 1, 0x41, 1, 0x6a, 0x21, 1, // local1 += 1
		0x20, 1, 0x20, 0, 0x49, 0x0d, 0, // br_if 0 (local1 < n)
		0x0b,
		0x20, 1, 0x0b}
	secs = append(secs,
		sec(7, 1, 5, 'c', 'o', 'u', 'n', 't', 0, 1),
		sec(10, append([]byte{1, byte(len(body))}, body...)...))
	return module(secs...)
}

func run(t *testing.T, wasm []byte, n uint64) (result uint64, ticks int) {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	_, err := rt.NewHostModuleBuilder("cordon").NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) { ticks++ }), nil, nil).
		Export("tick").Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := rt.Instantiate(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	res, err := mod.ExportedFunction("count").Call(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	return res[0], ticks
}

func TestInstrumentedLoopsTick(t *testing.T) {
	for _, withGlobal := range []bool{false, true} {
		orig := counter(withGlobal)
		inst, err := Instrument(orig, "cordon", "tick", 100)
		if err != nil {
			t.Fatal(err)
		}
		if !IsInstrumented(inst) || IsInstrumented(orig) {
			t.Fatal("marker")
		}
		if got, ticks := run(t, orig, 1000); got != 1000 || ticks != 0 {
			t.Fatalf("original: %d, %d ticks", got, ticks)
		}
		// 1000 loop-header passes with the counter starting at 100 and
		// reset to 100 at each tick: a tick at passes 100, 200, ... 1000.
		if got, ticks := run(t, inst, 1000); got != 1000 || ticks != 10 {
			t.Fatalf("global section %v: result %d, %d ticks, want 1000 and 10", withGlobal, got, ticks)
		}
		if _, err := Instrument(inst, "cordon", "tick", 100); err == nil || !strings.Contains(err.Error(), "already") {
			t.Fatalf("instrumenting twice: %v", err)
		}
	}
}

func TestInstrumentRefusesWhatItCannotHandle(t *testing.T) {
	good := counter(true)
	if _, err := Instrument(good, "cordon", "nope", 100); err == nil {
		t.Error("a missing import was accepted")
	}
	if _, err := Instrument(good, "cordon", "tick", 0); err == nil {
		t.Error("interval 0 was accepted")
	}
	// A SIMD instruction (0xfd) in a body is refused, not skipped wrongly.
	simd := bytes.Replace(good, []byte{0x20, 1, 0x0b}, []byte{0xfd, 0, 0x0b}, 1)
	if _, err := Instrument(simd, "cordon", "tick", 100); err == nil || !strings.Contains(err.Error(), "0xfd") {
		t.Errorf("SIMD: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("\x00asm\x02\x00\x00\x00"), good[:len(good)-3], append(append([]byte{}, good...), 10, 0x7f)} {
		if _, err := Instrument(bad, "cordon", "tick", 100); err == nil {
			t.Errorf("% x: accepted", bad)
		}
	}
}

func FuzzInstrument(f *testing.F) {
	f.Add(counter(true))
	f.Add(counter(false))
	f.Fuzz(func(t *testing.T, wasm []byte) {
		out, err := Instrument(wasm, "cordon", "tick", 7)
		if err == nil && !IsInstrumented(out) {
			t.Fatal("instrumented module without the marker")
		}
	})
}
