// Package itabcache gives the Go runtime's type assertions to interface
// types an inline cache in a WebAssembly module built by Go, the way Go's
// compiler gives them one on amd64 and arm64 but not on wasm.
//
// Why: on wasm, every x.(I) with I an interface type calls
// runtime.typeAssert, which calls getitab, which probes the runtime's itab
// hash table with an atomic load (a function call on wasm) per probe. goja
// makes such an assertion for every operand of `<` and for most property
// keys; in the guest, that chain was a large share of a JavaScript loop's
// time (BENCHMARKS.md, round 11, has the profile). Go's compiler, on ports
// with a cache (internal/abi.UseInterfaceSwitchCache), reads a per-call-site
// cache out of the call site's descriptor (an internal/abi.TypeAssert)
// before it calls the runtime; on wasm that descriptor's Cache field is
// written once by the linker and never read.
//
// Patch turns that field into a one-entry cache, kept by the function
// itself. runtime.typeAssert's body moves to a new function at the end of
// the module, and its index gets a wrapper:
//
//	typeAssert(s *abi.TypeAssert, t *_type) *itab:
//	  c := s.Cache's 8 bytes
//	  if c>>32 != 0 && uint32(c) == t {          // hit
//	    if c>>32 == 1 { return nil }
//	    return itab(c>>32)
//	  }
//	  tab := the original body(s, t)           // may panic
//	  if t != nil { s.Cache's 8 bytes = uint64(t) | uint64(tab or 1)<<32 }
//	  return tab
//
// What makes this sound:
//
//   - wasm memory is 32-bit, so a type and an itab address each fit in 32
//     bits of the 64-bit field, and the field is 8-byte aligned (the first
//     of the descriptor).
//   - An itab is never freed or changed once made, and a descriptor's
//     interface type and CanFail are fixed, so (descriptor, type) always
//     gives the same answer. A type that does not implement the interface
//     is cached too, as 1 (no itab is at address 1): it is what goja's `<`
//     asks of every number ("is it a String?"), and the runtime answers it
//     from the same table, by the same probe. Only a descriptor that may
//     fail (x, ok := v.(I)) gets such an entry; at the others, the body
//     panics and never returns to the wrapper. A nil type is not cached.
//   - The field's first value, a pointer to runtime.emptyTypeAssertCache,
//     has zero high bits: never a hit. A stored entry has non-zero high
//     bits, so, read by the garbage collector as a pointer (the descriptor
//     is in the data section), it is an address above 4 GiB, outside the
//     wasm heap: spanOf returns nil and it is ignored. Nothing else reads
//     the field on wasm (runtime.typeAssert's own cache code is compiled
//     out there).
//   - wasm runs one thread: no other thread sees a half-written entry.
//   - The wrapper keeps Go's wasm calling convention: a function takes its
//     resume point (PC_B) as its one i32 parameter and returns 1 when it
//     unwinds the wasm stack; the stack pointer SP is global 0; at entry,
//     0(SP) is the return address and the arguments and result follow at
//     8, 16 and 24. A call with PC_B != 0 resumes a suspended body and goes
//     straight to it; so does the wrapper when the body unwinds (a stack
//     growth, a goroutine switch), since a resumed frame's return address
//     names the original function's index, which is now the wrapper.
//
// Those are facts about one version of the Go toolchain (Audited); Patch
// refuses a module built by any other.
package itabcache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cordonhq/cordon/internal/wasmbin"
)

// Audited is the Go toolchain whose runtime.typeAssert, internal/abi
// layouts and wasm calling convention this package was written against.
const Audited = "go1.27.3"

// Marker names the custom section that marks a patched module.
const Marker = "cordon.itabcache"

// target is the runtime function that gets the cache, and uncached the
// name the module's name section gives its original body.
const (
	target   = "runtime.typeAssert"
	uncached = "runtime.typeAssert.uncached"
)

// Patch returns wasm with runtime.typeAssert cached. The module must have
// been built for GOARCH=wasm by the Go toolchain named (as `go version`
// names it), which must be Audited, with its function names (the name
// section: no -ldflags=-s), and not be patched already. (A wasm module's
// build information does not name its toolchain in a form
// debug/buildinfo reads, so the caller, which chose the toolchain, says.)
func Patch(wasm []byte, toolchain string) ([]byte, error) {
	secs, err := wasmbin.Sections(wasm)
	if err != nil {
		return nil, fmt.Errorf("itabcache: %w", err)
	}
	if toolchain != Audited {
		return nil, fmt.Errorf("itabcache: the module was built by %s; the patch is audited for %s only", toolchain, Audited)
	}
	var (
		importedFuncs, importedGlobals int
		names                          map[uint32]string
		funcTypes                      []uint32
		types                          [][]byte
		firstGlobal                    []byte
	)
	for _, s := range secs {
		switch s.ID {
		case 0:
			name, rest, ok := wasmbin.CustomName(s)
			if !ok {
				continue
			}
			switch name {
			case Marker:
				return nil, errors.New("itabcache: module is already patched")
			case "name":
				if names, err = wasmbin.FunctionNames(s.Body[rest:]); err != nil {
					return nil, fmt.Errorf("itabcache: %w", err)
				}
			}
		case 1:
			if types, err = wasmbin.FuncTypes(s.Body); err != nil {
				return nil, fmt.Errorf("itabcache: %w", err)
			}
		case 2:
			err = wasmbin.Imports(s.Body, func(_, _ string, kind byte, _ int) {
				switch kind {
				case wasmbin.ImportFunc:
					importedFuncs++
				case wasmbin.ImportGlobal:
					importedGlobals++
				}
			})
			if err != nil {
				return nil, fmt.Errorf("itabcache: %w", err)
			}
		case 3:
			if funcTypes, err = wasmbin.U32Vector(s.Body); err != nil {
				return nil, fmt.Errorf("itabcache: function section: %w", err)
			}
		case 6:
			n, off, err := wasmbin.U32(s.Body, 0)
			if err != nil || n == 0 || off+2 > len(s.Body) {
				return nil, errors.New("itabcache: global section: no first global")
			}
			firstGlobal = s.Body[off : off+2]
		}
	}
	if names == nil {
		return nil, errors.New("itabcache: the module has no function names (build it without -ldflags=-s)")
	}
	// Go's wasm linker defines the stack pointer as global 0, a mutable i32.
	if importedGlobals != 0 || !bytes.Equal(firstGlobal, []byte{0x7f, 0x01}) {
		return nil, errors.New("itabcache: global 0 is not Go's stack pointer (a mutable i32 defined by the module)")
	}
	idx := -1
	for i, n := range names {
		if n == target {
			idx = int(i)
		}
	}
	if idx < importedFuncs || idx-importedFuncs >= len(funcTypes) {
		return nil, fmt.Errorf("itabcache: the module defines no function %s", target)
	}
	ti := funcTypes[idx-importedFuncs]
	if int(ti) >= len(types) || !bytes.Equal(types[ti], wasmbin.GoFunc) {
		return nil, fmt.Errorf("itabcache: %s is not of Go's wasm function type (i32) -> i32", target)
	}
	moved := uint32(importedFuncs + len(funcTypes))

	out := append([]byte(nil), wasm[:8]...)
	for _, s := range secs {
		body := s.Body
		switch s.ID {
		case 3:
			body = binary.AppendUvarint(nil, uint64(len(funcTypes)+1))
			for _, t := range funcTypes {
				body = binary.AppendUvarint(body, uint64(t))
			}
			body = binary.AppendUvarint(body, uint64(ti))
		case 10:
			if body, err = patchCode(s.Body, idx-importedFuncs, moved); err != nil {
				return nil, err
			}
		case 0:
			if name, rest, _ := wasmbin.CustomName(s); name == "name" {
				sub, err := wasmbin.AppendFunctionName(s.Body[rest:], moved, uncached)
				if err != nil {
					return nil, fmt.Errorf("itabcache: %w", err)
				}
				body = append(wasmbin.AppendName(nil, "name"), sub...)
			}
		}
		out = wasmbin.AppendSection(out, s.ID, body)
	}
	// The marker's payload is the version of the patch.
	return wasmbin.AppendSection(out, 0, append(wasmbin.AppendName(nil, Marker), 1)), nil
}

// IsPatched reports whether wasm carries the Marker section.
func IsPatched(wasm []byte) bool {
	secs, err := wasmbin.Sections(wasm)
	if err != nil {
		return false
	}
	for _, s := range secs {
		if name, _, ok := wasmbin.CustomName(s); ok && name == Marker {
			return true
		}
	}
	return false
}

// patchCode copies the code section with body i replaced by the wrapper and
// the original appended as function moved.
func patchCode(b []byte, i int, moved uint32) ([]byte, error) {
	bodies, err := wasmbin.CodeBodies(b)
	if err != nil {
		return nil, fmt.Errorf("itabcache: %w", err)
	}
	if i >= len(bodies) {
		return nil, errors.New("itabcache: code section: function missing")
	}
	orig := bodies[i]
	bodies[i] = wrapper(moved)
	return wasmbin.AppendCode(nil, append(bodies, orig)), nil
}

// wrapper is the body described in the package comment; body is the
// function index of the original body. Offsets are from SP at entry: 8 is
// s, 16 is t, 24 the result. After the body returns normally it has popped
// its return address, so they are at 0, 8 and 16.
func wrapper(body uint32) []byte {
	const (
		localGet  = 0x20
		localTee  = 0x22
		globalGet = 0x23
		globalSet = 0x24
		i64Load   = 0x29
		i64Store  = 0x37
		i32Const  = 0x41
		i64Const  = 0x42
		i32Eqz    = 0x45
		i64Eqz    = 0x50
		i64Eq     = 0x51
		i64Ne     = 0x52
		selectOp  = 0x1b
		i32Add    = 0x6a
		i64And    = 0x83
		i64Or     = 0x84
		i64Shl    = 0x86
		i64ShrU   = 0x88
		i32Wrap   = 0xa7
		ifVoid    = 0x04
		blockVoid = 0x40
		end       = 0x0b
		ret       = 0x0f
		call      = 0x10
		sp        = 0 // global 0
		pcB       = 0 // local 0, the parameter
		c         = 1 // local 1, an i64
	)
	callBody := binary.AppendUvarint([]byte{call}, uint64(body))
	b := []byte{1, 1, 0x7e} // locals: one i64
	// Resuming a suspended body: go straight to it.
	b = append(b, localGet, pcB, ifVoid, blockVoid, localGet, pcB)
	b = append(b, callBody...)
	b = append(b, ret, end)
	// c := *s; a hit when c>>32 != 0 and uint32(c) == t.
	b = append(b, globalGet, sp, i64Load, 3, 8, i32Wrap, i64Load, 3, 0, localTee, c)
	b = append(b, i64Const, 32, i64ShrU, i64Eqz, i32Eqz, ifVoid, blockVoid)
	b = append(b, localGet, c, i64Const)
	b = wasmbin.AppendSleb(b, 0xffffffff)
	b = append(b, i64And, globalGet, sp, i64Load, 3, 16, i64Eq, ifVoid, blockVoid)
	// Hit: the result is c>>32, or nil when that is 1; pop the return
	// address and return 0.
	b = append(b, globalGet, sp, localGet, c, i64Const, 32, i64ShrU, localTee, c)
	b = append(b, i64Const, 0, localGet, c, i64Const, 1, i64Ne, selectOp, i64Store, 3, 24)
	b = append(b, globalGet, sp, i32Const, 8, i32Add, globalSet, sp, i32Const, 0, ret)
	b = append(b, end, end)
	// Miss: run the body; pass its unwinding on.
	b = append(b, i32Const, 0)
	b = append(b, callBody...)
	b = append(b, ifVoid, blockVoid, i32Const, 1, ret, end)
	// Unless t is nil: *s = t | tab<<32, with 1 for a nil tab.
	b = append(b, globalGet, sp, i64Load, 3, 8, i64Eqz, i32Eqz, ifVoid, blockVoid)
	b = append(b, globalGet, sp, i64Load, 3, 0, i32Wrap, globalGet, sp, i64Load, 3, 8)
	b = append(b, i64Const, 1, globalGet, sp, i64Load, 3, 16, localTee, c, localGet, c, i64Eqz, selectOp)
	b = append(b, i64Const, 32, i64Shl, i64Or, i64Store, 3, 0)
	b = append(b, end)
	return append(b, i32Const, 0, end)
}
