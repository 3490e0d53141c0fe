// Package wasmthunk removes wasm calls that only forward to another
// function from a WebAssembly module built by Go. Fold gives each jump
// thunk (a function whose whole body jumps to another) its target's body;
// Wrappers turns method wrappers ((*T).m calling T.m) into thunks that put
// T.m's arguments in place and call it without a frame of their own.
//
// Fold:
//
// Why: Go assembly that is only `JMP other(SB)` compiles, on wasm, to a
// function that calls other and returns what it returns. sync/atomic's
// functions are such thunks to internal/runtime/atomic (LoadUint32 to Load,
// and so on), as are runtime.memhash and strhash (to their Go fallbacks,
// behind every map lookup with a string key) and math/big's vector
// kernels. goja reads its interrupt flag with atomic.LoadUint32 before every
// instruction it runs; in the guest, the two nested calls were 4% of a
// JavaScript loop's time.
//
// What makes this sound: in Go's wasm calling convention, the Go stack
// (addressed by global 0) holds the return addresses and arguments, and a
// thunk calls its target without pushing anything: the target finds the
// thunk's caller's return address and arguments where it expects them,
// pops the return address, and its result (1 when it unwinds the wasm
// stack for a goroutine switch or a stack growth, 0 otherwise) is what the
// thunk returns. So the target's body, run as the thunk's, does the same
// thing to the same memory. The return addresses that body stores name the
// target, not the thunk, as they did before: the runtime sees the same
// frames, and a suspended body resumes in the target, which is unchanged.
// A thunk never stores a return address of its own, so it is only ever
// called from the start (resume point 0).
//
// Only a body that is exactly the sequence Go emits is folded (type
// (i32) -> i32 on both sides, the target defined in the module); a thunk
// to a thunk gets the final target's body.
package wasmthunk

import (
	"bytes"
	"fmt"

	"github.com/cordonhq/cordon/internal/wasmbin"
)

// thunkHead and thunkTail surround the target's function index in the body
// Go emits for `JMP target(SB)`:
//
//	(local i32)
//	global.get 0 ; local.set 1 ; i32.const 0 ; call target
//	global.get 0 ; local.set 1 ; return ; unreachable
var (
	thunkHead = []byte{1, 1, 0x7f, 0x23, 0, 0x21, 1, 0x41, 0, 0x10}
	thunkTail = []byte{0x23, 0, 0x21, 1, 0x0f, 0x00, 0x0b}
)

// Fold returns wasm with every jump thunk's body replaced by its target's,
// and how many it folded.
func Fold(wasm []byte) ([]byte, int, error) {
	secs, fs, err := functions(wasm)
	if err != nil {
		return nil, 0, err
	}
	imported, bodies := fs.Imported, fs.Bodies
	isGo := func(i int) bool { return fs.HasType(int64(i), wasmbin.GoFunc) }
	// target returns the defined function (an index into bodies) that
	// body i jumps to, or -1.
	target := func(i int) int {
		b := bodies[i]
		if !isGo(i) || !bytes.HasPrefix(b, thunkHead) || !bytes.HasSuffix(b, thunkTail) {
			return -1
		}
		idx, n, err := wasmbin.U32(b, len(thunkHead))
		if err != nil || len(thunkHead)+n+len(thunkTail) != len(b) {
			return -1
		}
		t := int64(idx) - int64(imported)
		if !fs.HasType(t, wasmbin.GoFunc) {
			return -1
		}
		return int(t)
	}
	folded := make([][]byte, len(bodies))
	copy(folded, bodies)
	n := 0
	for i := range bodies {
		t := target(i)
		if t < 0 {
			continue
		}
		// Follow a chain of thunks to its end; a cycle (which would never
		// return) is left alone.
		for steps := 0; t >= 0; steps++ {
			next := target(t)
			if next < 0 {
				break
			}
			if steps > len(bodies) {
				t = -1
				break
			}
			t = next
		}
		if t < 0 || t == i {
			continue
		}
		folded[i] = bodies[t]
		n++
	}
	return wasmbin.ReplaceCode(wasm, secs, folded), n, nil
}

// functions splits wasm into its sections and reads its functions.
func functions(wasm []byte) ([]wasmbin.Section, *wasmbin.Functions, error) {
	secs, err := wasmbin.Sections(wasm)
	if err != nil {
		return nil, nil, fmt.Errorf("wasmthunk: %w", err)
	}
	fs, err := wasmbin.ReadFunctions(secs)
	if err != nil {
		return nil, nil, fmt.Errorf("wasmthunk: %w", err)
	}
	return secs, fs, nil
}
