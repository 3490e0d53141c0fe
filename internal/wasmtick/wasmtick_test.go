package wasmtick

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/internal/wasmbin"
	"github.com/cordonhq/cordon/internal/wasmbin/wasmtest"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// build returns a module that imports cordon.tick (type 0, () -> (), function
// 0) and defines count (type 1, (i32) -> i32, function 1) with body, and
// that has, when withGlobal is set, a global section of its own (an i32,
// index 0).
func build(body []byte, withGlobal bool) []byte {
	m := wasmtest.Module{
		Types:   []wasmtest.FuncType{{}, {Params: []byte{wasmtest.I32}, Results: []byte{wasmtest.I32}}},
		Imports: []wasmtest.Import{{Module: "cordon", Name: "tick", Type: 0}},
		Funcs:   []uint32{1},
		Exports: []wasmtest.Export{{Name: "count", Kind: wasmtest.ExportFunc, Index: 1}},
		Code:    [][]byte{body},
	}
	if withGlobal {
		m.Globals = []wasmtest.Global{{Type: wasmtest.I32, Mutable: true}}
	}
	return m.Bytes()
}

// counter is a module whose count(n) loops n times (n >= 1) and returns n.
// withGlobal adds a global section of its own (index 0).
func counter(withGlobal bool) []byte {
	body := []byte{1, 1, 0x7f, // one i32 local
		0x03, 0x40, // loop
		0x20, 1, 0x41, 1, 0x6a, 0x21, 1, // local1 += 1
		0x20, 1, 0x20, 0, 0x49, 0x0d, 0, // br_if 0 (local1 < n)
		0x0b,
		0x20, 1, 0x0b}
	return build(body, withGlobal)
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
		inst, _, err := Instrument(orig, "cordon", "tick", 100)
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
		if _, _, err := Instrument(inst, "cordon", "tick", 100); err == nil || !strings.Contains(err.Error(), "already") {
			t.Fatalf("instrumenting twice: %v", err)
		}
	}
}

func TestInstrumentRefusesWhatItCannotHandle(t *testing.T) {
	good := counter(true)
	if _, _, err := Instrument(good, "cordon", "nope", 100); err == nil {
		t.Error("a missing import was accepted")
	}
	if _, _, err := Instrument(good, "cordon", "tick", 0); err == nil {
		t.Error("interval 0 was accepted")
	}
	// A SIMD instruction (0xfd) in a body is refused, not skipped wrongly.
	simd := bytes.Replace(good, []byte{0x20, 1, 0x0b}, []byte{0xfd, 0, 0x0b}, 1)
	if _, _, err := Instrument(simd, "cordon", "tick", 100); err == nil || !strings.Contains(err.Error(), "0xfd") {
		t.Errorf("SIMD: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("\x00asm\x02\x00\x00\x00"), good[:len(good)-3], append(append([]byte{}, good...), 10, 0x7f)} {
		if _, _, err := Instrument(bad, "cordon", "tick", 100); err == nil {
			t.Errorf("% x: accepted", bad)
		}
	}
}

func FuzzInstrument(f *testing.F) {
	f.Add(counter(true))
	f.Add(counter(false))
	f.Fuzz(func(t *testing.T, wasm []byte) {
		out, _, err := Instrument(wasm, "cordon", "tick", 7)
		if err == nil && !IsInstrumented(out) {
			t.Fatal("instrumented module without the marker")
		}
	})
}

// dispatcher is a module whose count(n) has the shape Go compiles functions
// to (a loop whose body opens with nested blocks and a br_table on a local,
// see dispatch) and counts to n (n >= 1) through it:
//
//	pc = 0
//	loop                                   ; the dispatch
//	  block block block
//	    local.get pc; br_table 0 1 2 (2)  ; to segment pc
//	  end
//	  x = 0; pc = first; br loop          ; segment 0: jump to segment 2
//	  end
//	  x += 1                               ; segment 1, falls into 2
//	  end
//	  if x < n { pc = back; br loop }     ; segment 2: jump back to 1
//	end
//	return x
//
// first and back are the jump targets, and setLocal the local that the
// first jump sets (2 is pc).
func dispatcher(first, back, setLocal byte) []byte {
	body := []byte{1, 2, 0x7f, // locals 1 (x) and 2 (pc)
		0x41, 0, 0x21, 2,
		0x03, 0x40,
		0x02, 0x40, 0x02, 0x40, 0x02, 0x40,
		0x20, 2, 0x0e, 3, 0, 1, 2, 2,
		0x0b,
		0x41, 0, 0x21, 1, 0x41, first, 0x21, setLocal, 0x0c, 2,
		0x0b,
		0x20, 1, 0x41, 1, 0x6a, 0x21, 1,
		0x0b,
		0x20, 1, 0x20, 0, 0x49, 0x04, 0x40, 0x41, back, 0x21, 2, 0x0c, 1, 0x0b,
		0x0b,
		0x20, 1, 0x0b}
	return build(body, false)
}

// TestDispatchForwardJumpsDoNotTick: with a tick at every check (interval
// 1), a function counts one check where it is entered and one per backward
// jump; a jump through the dispatch to a later segment has none.
func TestDispatchForwardJumpsDoNotTick(t *testing.T) {
	const n = 50
	inst, _, err := Instrument(dispatcher(2, 1, 2), "cordon", "tick", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, ticks := run(t, inst, n); got != n || ticks != 1+n {
		t.Fatalf("result %d, %d ticks, want %d and %d (entry and backward jumps)", got, ticks, n, 1+n)
	}
}

// TestDispatchForwardJumpsBranchDirectly: a forward jump through the
// dispatch becomes a branch to the end of the block its segment follows,
// without the detour through the loop's br_table; the function still
// counts the same.
func TestDispatchForwardJumpsBranchDirectly(t *testing.T) {
	for _, tc := range []struct {
		first byte
		label byte // from segment 0: the blocks of segments 1 and 2, then the loop
		ticks int  // entry, and a backward jump for each count from x after the first jump
	}{{2, 1, 51}, {1, 0, 50}} {
		inst, _, err := Instrument(dispatcher(tc.first, 1, 2), "cordon", "tick", 1)
		if err != nil {
			t.Fatal(err)
		}
		if want := []byte{0x41, tc.first, 0x21, 2, 0x0c, tc.label}; !bytes.Contains(inst, want) {
			t.Errorf("jump to segment %d: no % x in the instrumented body", tc.first, want)
		}
		if bytes.Contains(inst, []byte{0x41, tc.first, 0x21, 2, 0x0c, 2}) {
			t.Errorf("jump to segment %d: still a branch to the loop", tc.first)
		}
		if got, ticks := run(t, inst, 50); got != 50 || ticks != tc.ticks {
			t.Errorf("jump to segment %d: result %d, %d ticks, want 50 and %d", tc.first, got, ticks, tc.ticks)
		}
	}
}

// TestDispatchEntryBranchesDirectly: the dispatch's br_table gets a direct
// branch for X = 0 (a call's start) in front of it, to the same label, unless
// that label is the loop itself.
func TestDispatchEntryBranchesDirectly(t *testing.T) {
	fast := []byte{0x20, 2, 0x45, 0x0d, 0, 0x20, 2, 0x0e}
	inst, _, err := Instrument(dispatcher(2, 1, 2), "cordon", "tick", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(inst, fast) {
		t.Errorf("no % x in the instrumented body", fast)
	}
	// A br_table whose label for 0 is the loop: no direct branch, which
	// would go around the check before the br_table.
	toLoop := bytes.Replace(dispatcher(2, 1, 2), []byte{0x0e, 3, 0, 1, 2, 2}, []byte{0x0e, 3, 3, 1, 2, 2}, 1)
	if inst, _, err = Instrument(toLoop, "cordon", "tick", 1); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(inst, []byte{0x45, 0x0d, 3}) || !bytes.Contains(inst, append(append([]byte{0x20, 2}, checkSequence(0, 0, 1)...), 0x0e)) {
		t.Error("a br_table to the loop got a direct branch, or lost its check")
	}
}

// TestDispatchOtherEntriesTick: what is not provably a forward jump through
// the dispatch gets a check, so no loop escapes the count.
func TestDispatchOtherEntriesTick(t *testing.T) {
	for _, tc := range []struct {
		name             string
		first, back, set byte
		checks           int
	}{
		{"forward, then backward", 2, 1, 2, 2},
		{"forward to the next segment", 1, 1, 2, 2},
		{"a value past the table takes the default, forward", 9, 1, 2, 2},
		{"a negative value (i32.const -1) is a large unsigned one: the default", 0x7f, 1, 2, 2},
		{"a jump to its own segment is a loop", 2, 2, 2, 2 + 0},
		{"a jump from segment 0 to segment 0", 0, 1, 2, 3},
		{"a jump that sets another local than the dispatch reads", 2, 1, 1, 3},
	} {
		inst, _, err := Instrument(dispatcher(tc.first, tc.back, tc.set), "cordon", "tick", 1)
		if err != nil {
			t.Fatal(err)
		}
		// The module has no globals: the counter is global 0; tick is
		// function 0.
		if c := bytes.Count(inst, checkSequence(0, 0, 1)); c != tc.checks {
			t.Errorf("%s: %d checks, want %d", tc.name, c, tc.checks)
		}
	}
	// A jump to its own segment must be checked: were it taken as forward,
	// segment 2 would jump to itself with no check at all.
	inst, _, err := Instrument(dispatcher(2, 2, 2), "cordon", "tick", 1)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]byte{0x41, 2, 0x21, 2}, checkSequence(0, 0, 1)...), 0x0c, 1)
	if !bytes.Contains(inst, want) {
		t.Error("the jump of segment 2 to itself has no check before it")
	}
}

func TestSleb32(t *testing.T) {
	for _, tc := range []struct {
		b  []byte
		v  int64
		ok bool
	}{
		{[]byte{0}, 0, true}, {[]byte{0x7f}, -1, true}, {[]byte{0x3f}, 63, true}, {[]byte{0x40}, -64, true},
		{[]byte{0x80, 0x01}, 128, true}, {wasmbin.AppendSleb(nil, -2147483648), -2147483648, true},
		{wasmbin.AppendSleb(nil, 2147483647), 2147483647, true}, {[]byte{0x80}, 0, false}, {[]byte{0, 0}, 0, false},
	} {
		if v, ok := sleb32(tc.b); v != tc.v || ok != tc.ok {
			t.Errorf("% x: %d %v, want %d %v", tc.b, v, ok, tc.v, tc.ok)
		}
	}
}

// TestStats: Instrument counts what it found and did, check for check
// (as the instrumented body shows them).
func TestStats(t *testing.T) {
	toLoop := bytes.Replace(dispatcher(2, 1, 2), []byte{0x0e, 3, 0, 1, 2, 2}, []byte{0x0e, 3, 3, 1, 2, 2}, 1)
	for _, tc := range []struct {
		name string
		wasm []byte
		want Stats
	}{
		{"a plain loop", counter(false), Stats{Loops: 1, Checks: 2}},
		{"a dispatch: entry, one forward jump, one backward", dispatcher(2, 1, 2), Stats{Loops: 1, Dispatches: 1, Checks: 2, ForwardJumps: 1, DirectEntries: 1}},
		{"a dispatch whose br_table sends 0 to the loop", toLoop, Stats{Loops: 1, Dispatches: 1, Checks: 3, ForwardJumps: 1}},
		{"a dispatch whose jump sets another local", dispatcher(2, 1, 1), Stats{Loops: 1, Dispatches: 1, Checks: 3, DirectEntries: 1}},
	} {
		inst, st, err := Instrument(tc.wasm, "cordon", "tick", 1)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if st != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, st, tc.want)
		}
		// None of the modules has globals of its own: the counter is
		// global 0, and tick is function 0.
		if c := bytes.Count(inst, checkSequence(0, 0, 1)); c != st.Checks {
			t.Errorf("%s: %d checks in the body, %d counted", tc.name, c, st.Checks)
		}
	}
}
