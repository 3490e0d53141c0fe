package wasmthunk

import (
	"encoding/binary"
	"fmt"

	"github.com/cordonhq/cordon/internal/wasmbin"
)

// Wrappers returns wasm with Go's pointer-receiver method wrappers turned
// into thunks, and how many it turned.
//
// Why: when a method has a value receiver and a value of its type is
// stored in an interface, calls through the interface go to a wrapper
// (*T).m that Go's compiler generates: it checks the pointer, copies the
// value and the other arguments into a frame of its own, and calls T.m.
// On amd64 that is a few instructions; on wasm it is a whole function call
// more, with its own stack check and frame. goja's instructions are such
// values (type _add struct{}, type loadStackLex int, ...), so every
// instruction goja runs went through one: in the guest, the wrappers were
// about 15% of a recursive JavaScript function's time.
//
// A wrapper whose body is exactly what Go 1.26 emits for a receiver of
// zero size, or of one word (loaded by i64.load, i64.load32_u or
// i64.load32_s), gets this body instead (entry 0(SP) is the return
// address, 8(SP) the pointer p, 16(SP) the next argument):
//
//	if PC_B != 0 { return orig(PC_B) }   // resuming the original body
//	if *(SP+8) == 0 { return orig(0) }   // nil p: the original panics
//	*(SP+8) = *p, or for zero size *(SP+16)   // T.m's arguments in place
//	return T.m(0)                          // a thunk's call: see Fold
//
// orig is the wrapper's original body, appended to the module as a new
// function. T.m finds its receiver and arguments where Go's calling
// convention puts them for a call to T.m from the wrapper's caller, and
// the wrapper's caller's return address under them, as with a jump thunk:
// to the Go runtime, T.m was called from the wrapper's caller, as if the
// wrapper had been inlined, which the garbage collector and the
// unwinder handle as they handle every call. The slots that the wrapper
// received and T.m does not read (p, or the copy of the second word) are
// the wrapper's own arguments, which Go's convention lets a function
// overwrite, and nothing reads them after the call. A wrapper that is not
// exactly that shape is left as it is.
func Wrappers(wasm []byte) ([]byte, int, error) {
	secs, fs, err := functions(wasm)
	if err != nil {
		return nil, 0, err
	}
	imported, bodies, funcTypes := fs.Imported, fs.Bodies, fs.TypeOf
	isGo := func(i int64) bool { return fs.HasType(i, wasmbin.GoFunc) }
	out := append([][]byte(nil), bodies...)
	var origTypes []uint32
	var origOf []int
	for i, b := range bodies {
		if !isGo(int64(i)) {
			continue
		}
		w, ok := matchWrapper(b)
		if !ok || !isGo(int64(w.target)-int64(imported)) || int64(w.target) == int64(imported+i) {
			continue
		}
		orig := uint32(imported + len(bodies) + len(origOf))
		out[i] = w.shim(orig)
		out = append(out, b)
		origTypes = append(origTypes, funcTypes[i])
		origOf = append(origOf, i)
	}
	if len(origOf) == 0 {
		return wasm, 0, nil
	}
	res := append(make([]byte, 0, len(wasm)+len(origOf)*64), wasm[:8]...)
	for _, s := range secs {
		body := s.Body
		switch s.ID {
		case 3:
			body = wasmbin.AppendU32Vector(nil, append(append([]uint32(nil), funcTypes...), origTypes...))
		case 10:
			body = wasmbin.AppendCode(nil, out)
		case 0:
			if name, rest, _ := wasmbin.CustomName(s); name == "name" {
				names, err := wasmbin.FunctionNames(s.Body[rest:])
				if err != nil {
					return nil, 0, fmt.Errorf("wasmthunk: %w", err)
				}
				sub := s.Body[rest:]
				for k, i := range origOf {
					idx := uint32(imported + i)
					if sub, err = wasmbin.AppendFunctionName(sub, uint32(imported+len(bodies)+k), names[idx]+".orig"); err != nil {
						return nil, 0, fmt.Errorf("wasmthunk: %w", err)
					}
				}
				body = append(wasmbin.AppendName(nil, "name"), sub...)
			}
		}
		res = wasmbin.AppendSection(res, s.ID, body)
	}
	return res, len(origOf), nil
}

// wrapper is what matchWrapper found: the value method the wrapper calls,
// and how it copies the receiver (load and store are a memory
// instruction's opcode and alignment; zero size when load is nil).
type wrapper struct {
	target      uint32
	load, store []byte
}

// The loads and stores of a one-word receiver: i64.load with i64.store,
// i64.load32_u or i64.load32_s with i64.store32, each with its natural
// alignment.
var receiverCopies = [][2][]byte{
	{{0x29, 3}, {0x37, 3}},
	{{0x35, 2}, {0x3e, 2}},
	{{0x34, 2}, {0x3e, 2}},
}

// matchWrapper reports whether body is exactly a wrapper of the shape Go
// emits (see the template in wrapperShape).
func matchWrapper(body []byte) (wrapper, bool) {
	for _, s := range wrapperShapes {
		if t, ok := matchShape(body, s.shape); ok {
			return wrapper{target: t, load: s.load, store: s.store}, true
		}
	}
	return wrapper{}, false
}

// A wrapperShapeCase is one shape matchWrapper tries, with the receiver
// copy it stands for.
type wrapperShapeCase struct {
	shape       []int
	load, store []byte
}

// wrapperShapes are the shapes matchWrapper tries, made once: zero size,
// then each of receiverCopies.
var wrapperShapes = func() []wrapperShapeCase {
	shapes := []wrapperShapeCase{{shape: wrapperShape(true, nil, nil)}}
	for _, c := range receiverCopies {
		shapes = append(shapes, wrapperShapeCase{wrapperShape(false, c[0], c[1]), c[0], c[1]})
	}
	return shapes
}()

// hole marks, in a shape, an unsigned (holeU32) or signed 64-bit (holeS64)
// LEB128 number that may take any value; holeTarget is the unsigned one
// that is the called method's function index.
const (
	holeU32    = -1
	holeS64    = -2
	holeTarget = -3
)

// wrapperShape is the body Go 1.26 emits for (*T).m calling T.m, T of zero
// size or one word, m with one more argument (a pointer: goja's vm). Its
// frame is 8 bytes (zero size) or 16. Return addresses and the runtime
// functions it calls are holes.
func wrapperShape(zero bool, load, store []byte) []int {
	frame := 16
	if zero {
		frame = 8
	}
	var s []int
	add := func(b ...int) { s = append(s, b...) }
	add(1, 1, 0x7f)                               // one i32 local
	add(0x23, 0, 0x21, 1, 0x02, 0x40, 0x03, 0x40) // SP into local 1; block; loop
	for range 6 {
		add(0x02, 0x40)
	}
	add(0x20, 0, 0x0e, 6, 0, 0, 1, 2, 3, 4, 5, 0x0b) // the dispatch
	// The stack check: morestack_noctxt when SP <= g.stackguard0.
	add(0x20, 1, 0x23, 2, 0xa7, 0x28, 2, 0x10, 0x4d, 0x04, 0x40)
	add(0x20, 1, 0x41, 8, 0x6b, 0x22, 1, 0x24, 0, 0x20, 1, 0x42, holeS64, 0x37, 3, 0)
	add(0x41, 0, 0x10, holeU32, 0x23, 0, 0x21, 1, 0x0d, 7, 0x0b)
	// The frame; p nil: to segment 4 (panicwrap).
	add(0x20, 1, 0x41, frame, 0x6b, 0x22, 1, 0x24, 0)
	add(0x20, 1, 0x29, 3, frame+8, 0x50, 0xad, 0x50, 0x45, 0x04, 0x40, 0x41, 4, 0x21, 0, 0x0c, 6, 0x0b, 0x0b)
	if zero {
		add(0x20, 1, 0x20, 1, 0x29, 3, frame+16, 0x37, 3, 0) // 0(SP) = the second argument
	} else {
		add(0x20, 1, 0x20, 1, 0x29, 3, frame+8, 0xa7, int(load[0]), int(load[1]), 0, int(store[0]), int(store[1]), 0) // 0(SP) = *p
		add(0x20, 1, 0xad, 0x42, 8, 0x7c, 0xa7, 0x20, 1, 0x29, 3, frame+16, 0x37, 3, 0)                               // 8(SP) = the second argument
	}
	// The call of T.m, the frame popped, return 0.
	add(0x20, 1, 0x41, 8, 0x6b, 0x22, 1, 0x24, 0, 0x20, 1, 0x42, holeS64, 0x37, 3, 0)
	add(0x41, 0, 0x10, holeTarget, 0x23, 0, 0x21, 1, 0x0d, 5, 0x0b)
	add(0x20, 1, 0x41, frame, 0x6a, 0x22, 1, 0x24, 0, 0x20, 1, 0x41, 8, 0x6a, 0x22, 1, 0x24, 0, 0x41, 0, 0x0f, 0x0b)
	// Segment 4: panicwrap; then the function's unwinding exit.
	add(0x20, 1, 0x41, 8, 0x6b, 0x22, 1, 0x24, 0, 0x20, 1, 0x42, holeS64, 0x37, 3, 0)
	add(0x41, 0, 0x10, holeU32, 0x23, 0, 0x21, 1, 0x0d, 3, 0x0b, 0x0b, 0x01, 0x0b, 0x00, 0x0b, 0x41, 1, 0x0b)
	return s
}

// matchShape matches body against shape exactly and returns the value of
// its holeTarget.
func matchShape(body []byte, shape []int) (uint32, bool) {
	pos := 0
	var target uint32
	found := false
	for _, want := range shape {
		switch want {
		case holeU32, holeTarget:
			v, n, err := wasmbin.U32(body, pos)
			if err != nil {
				return 0, false
			}
			if want == holeTarget {
				target, found = v, true
			}
			pos += n
		case holeS64:
			end, err := wasmbin.SkipLeb(body, pos, 10)
			if err != nil {
				return 0, false
			}
			pos = end
		default:
			if pos >= len(body) || int(body[pos]) != want {
				return 0, false
			}
			pos++
		}
	}
	return target, found && pos == len(body)
}

// shim is the wrapper's new body (see Wrappers); orig is the function
// index of its original body.
func (w wrapper) shim(orig uint32) []byte {
	call := func(b []byte, f uint32) []byte { return binary.AppendUvarint(append(b, 0x10), uint64(f)) }
	b := []byte{0}                              // no locals
	b = append(b, 0x20, 0, 0x04, 0x40, 0x20, 0) // if PC_B { return orig(PC_B) }
	b = append(call(b, orig), 0x0f, 0x0b)
	b = append(b, 0x23, 0, 0x29, 3, 8, 0x50, 0x04, 0x40, 0x41, 0) // if *(SP+8) == 0 { return orig(0) }
	b = append(call(b, orig), 0x0f, 0x0b)
	if w.load == nil {
		b = append(b, 0x23, 0, 0x23, 0, 0x29, 3, 16, 0x37, 3, 8) // *(SP+8) = *(SP+16)
	} else {
		b = append(b, 0x23, 0, 0x23, 0, 0x29, 3, 8, 0xa7, w.load[0], w.load[1], 0, w.store[0], w.store[1], 8) // *(SP+8) = *p
	}
	b = append(b, 0x41, 0)
	return append(call(b, w.target), 0x0b) // T.m(0), its result the function's
}
