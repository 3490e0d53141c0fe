// Package wasminline inlines, in a WebAssembly module built by Go, the
// 32-bit atomic load (internal/runtime/atomic.Load, and sync/atomic's
// LoadUint32 and LoadInt32 once internal/wasmthunk has given them its
// body) at its call sites.
//
// Why: goja reads its interrupt flag with atomic.LoadUint32 before every
// instruction it runs. On wasm, where one thread runs and the load is a
// plain load, that is still a function call with its prologue, dispatch
// and epilogue: about 3% of a JavaScript function call's time in the
// guest.
//
// Load's body, in Go's wasm calling convention (0(SP) the return address,
// 8(SP) the pointer, 16(SP) the result), is
//
//	if *(SP+8) == 0 { sigpanic }        // a nil pointer
//	*(SP+16) = uint32(**(SP+8))
//	SP += 8; return 0                  // pop the return address
//
// and each call site "i32.const 0; call Load" becomes
//
//	if (result i32) *(SP+8) == 0
//	  i32.const 0; call Load            // as before: the body panics
//	else
//	  *(SP+16) = uint32(**(SP+8)); SP += 8; i32.const 0
//	end
//
// which leaves the memory, SP and the value on the wasm stack as the call
// did. The caller pushed the return address before, as it still does; on
// the inline path nothing reads it, as nothing would have before it was
// popped. Only a function whose body is exactly what Go 1.26 emits for
// Load is inlined; the functions themselves stay, for the nil path and for
// calls through the table.
package wasminline

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/cordonhq/cordon/internal/wasmbin"
)

// loadHead and loadTail surround the two holes of Load's body: the return
// address of its sigpanic call (a signed LEB128 i64) and sigpanic's
// function index.
var (
	loadHead = []byte{
		1, 1, 0x7f, // one i32 local
		0x23, 0, 0x21, 1, // SP into local 1
		0x02, 0x40, 0x02, 0x40, 0x02, 0x40,
		0x20, 0, 0x0e, 3, 0, 0, 0, 1, 0x0b, // the dispatch
		0x20, 1, 0x29, 3, 8, 0x50, 0x04, 0x40, // if *(SP+8) == 0
		0x20, 1, 0x41, 8, 0x6b, 0x22, 1, 0x24, 0, // SP -= 8
		0x20, 1, 0x42, // i64.const (the return address)
	}
	loadMid  = []byte{0x37, 3, 0, 0x41, 0, 0x10} // i64.store; call (sigpanic)
	loadTail = []byte{
		0x23, 0, 0x21, 1, 0x0d, 2, 0x0b, // unwinding: br_if 2
		0x20, 1, 0xad, 0x42, 16, 0x7c, 0xa7, // SP+16
		0x20, 1, 0x29, 3, 8, 0xa7, 0x35, 2, 0, // i64.load32_u **(SP+8)
		0x3e, 2, 0, // i64.store32
		0x20, 1, 0x41, 8, 0x6a, 0x22, 1, 0x24, 0, // SP += 8
		0x41, 0, 0x0f, 0x0b, // return 0; end
		0x00, 0x0b, 0x41, 1, 0x0b, // unreachable; end; the unwinding exit
	}
)

// isLoad reports whether body is exactly Load's.
func isLoad(body []byte) bool {
	if !bytes.HasPrefix(body, loadHead) {
		return false
	}
	pos, err := wasmbin.SkipLeb(body, len(loadHead), 10)
	if err != nil || !bytes.HasPrefix(body[pos:], loadMid) {
		return false
	}
	_, n, err := wasmbin.U32(body, pos+len(loadMid))
	return err == nil && bytes.Equal(body[pos+len(loadMid)+n:], loadTail)
}

// inline is what replaces "i32.const 0; call f" (see the package comment).
func inline(f uint32) []byte {
	b := []byte{0x23, 0, 0x29, 3, 8, 0x50, 0x04, 0x7f, 0x41, 0, 0x10}
	b = binary.AppendUvarint(b, uint64(f))
	b = append(b, 0x05,
		0x23, 0, 0xad, 0x42, 16, 0x7c, 0xa7,
		0x23, 0, 0x29, 3, 8, 0xa7, 0x35, 2, 0,
		0x3e, 2, 0,
		0x23, 0, 0x41, 8, 0x6a, 0x24, 0,
		0x41, 0, 0x0b)
	return b
}

// Atomics returns wasm with every call of a function whose body is Go's
// atomic.Load inlined, and how many call sites it inlined.
func Atomics(wasm []byte) ([]byte, int, error) {
	secs, err := wasmbin.Sections(wasm)
	if err != nil {
		return nil, 0, fmt.Errorf("wasminline: %w", err)
	}
	fs, err := wasmbin.ReadFunctions(secs)
	if err != nil {
		return nil, 0, fmt.Errorf("wasminline: %w", err)
	}
	imported, bodies := fs.Imported, fs.Bodies
	loads := map[uint32]bool{}
	for i, b := range bodies {
		if fs.HasType(int64(i), wasmbin.GoFunc) && isLoad(b) {
			loads[uint32(imported+i)] = true
		}
	}
	if len(loads) == 0 {
		return wasm, 0, nil
	}
	sites := 0
	out := make([][]byte, len(bodies))
	for i, b := range bodies {
		nb, n, err := inlineCalls(b, loads)
		if err != nil {
			return nil, 0, fmt.Errorf("wasminline: function %d: %w", imported+i, err)
		}
		out[i], sites = nb, sites+n
	}
	return wasmbin.ReplaceCode(wasm, secs, out), sites, nil
}

// inlineCalls returns body with each "i32.const 0; call f", f in loads,
// replaced by inline(f), and how many it replaced; body itself when none.
func inlineCalls(body []byte, loads map[uint32]bool) ([]byte, int, error) {
	pos, err := wasmbin.SkipLocals(body)
	if err != nil {
		return nil, 0, err
	}
	var out []byte
	copied, n := 0, 0 // body[:copied] is in out
	zeroAt := -1      // the start of an "i32.const 0" just before
	for pos < len(body) {
		start := pos
		if pos, err = wasmbin.Instruction(body, start); err != nil {
			return nil, 0, err
		}
		switch {
		case body[start] == 0x41 && pos == start+2 && body[start+1] == 0:
			zeroAt = start
			continue
		case body[start] == 0x10 && zeroAt >= 0:
			f, _, _ := wasmbin.U32(body, start+1)
			if loads[f] {
				out = append(out, body[copied:zeroAt]...)
				out = append(out, inline(f)...)
				copied = pos
				n++
			}
		}
		zeroAt = -1
	}
	if n == 0 {
		return body, 0, nil
	}
	return append(out, body[copied:]...), n, nil
}
