// Package wasmtest assembles small WebAssembly modules for the tests of the
// wasm rewriters (wasmthunk, wasminline, wasmtick) and of wasmbin itself.
//
// A Module lists the parts of a module that those tests need (function
// types, function imports, functions, memories, globals, exports and
// code), and Bytes writes them in the order the binary format requires,
// leaving out the sections that would be empty. Function bodies are
// written by hand, as bytes: a body is its local declarations followed by
// its expression, as wasmbin.CodeBodies splits them.
package wasmtest

import (
	"encoding/binary"

	"github.com/cordonhq/cordon/internal/wasmbin"
)

// Value types.
const (
	I32 byte = 0x7f
	I64 byte = 0x7e
)

// Export kinds: what an Export's Index refers to.
const (
	ExportFunc   byte = 0
	ExportMemory byte = 2
	ExportGlobal byte = 3
)

// FuncType is a function type: its parameter and result value types.
type FuncType struct {
	Params, Results []byte
}

// Import is a function import; Type is its type's index in Module.Types.
type Import struct {
	Module, Name string
	Type         uint32
}

// Global is a global of value type Type (I32 or I64) whose initial value
// is the constant Init.
type Global struct {
	Type    byte
	Mutable bool
	Init    int64
}

// Export exports the function, memory or global Index (by Kind) as Name.
type Export struct {
	Name  string
	Kind  byte
	Index uint32
}

// Module is a module's parts. Imported functions come first in the
// function index space: defined function i has index len(Imports)+i.
type Module struct {
	Types   []FuncType
	Imports []Import
	// Funcs holds each defined function's type index; Code its body.
	Funcs []uint32
	// Memories holds each memory's minimum size in pages (no maximum).
	Memories []uint32
	Globals  []Global
	Exports  []Export
	Code     [][]byte
}

// Bytes returns the module's binary encoding.
func (m *Module) Bytes() []byte {
	out := []byte("\x00asm\x01\x00\x00\x00")
	section := func(id byte, count int, body []byte) {
		if count > 0 {
			out = wasmbin.AppendSection(out, id, append(binary.AppendUvarint(nil, uint64(count)), body...))
		}
	}
	var b []byte
	for _, t := range m.Types {
		b = append(b, 0x60)
		b = vector(b, t.Params)
		b = vector(b, t.Results)
	}
	section(1, len(m.Types), b)
	b = nil
	for _, im := range m.Imports {
		b = wasmbin.AppendName(b, im.Module)
		b = wasmbin.AppendName(b, im.Name)
		b = append(b, wasmbin.ImportFunc)
		b = binary.AppendUvarint(b, uint64(im.Type))
	}
	section(2, len(m.Imports), b)
	b = nil
	for _, t := range m.Funcs {
		b = binary.AppendUvarint(b, uint64(t))
	}
	section(3, len(m.Funcs), b)
	b = nil
	for _, min := range m.Memories {
		b = binary.AppendUvarint(append(b, 0), uint64(min))
	}
	section(5, len(m.Memories), b)
	b = nil
	for _, g := range m.Globals {
		b = append(b, g.Type, 0)
		if g.Mutable {
			b[len(b)-1] = 1
		}
		if g.Type == I64 {
			b = append(b, 0x42) // i64.const
		} else {
			b = append(b, 0x41) // i32.const
		}
		b = append(wasmbin.AppendSleb(b, g.Init), 0x0b)
	}
	section(6, len(m.Globals), b)
	b = nil
	for _, e := range m.Exports {
		b = wasmbin.AppendName(b, e.Name)
		b = binary.AppendUvarint(append(b, e.Kind), uint64(e.Index))
	}
	section(7, len(m.Exports), b)
	if len(m.Code) > 0 {
		out = wasmbin.AppendSection(out, 10, wasmbin.AppendCode(nil, m.Code))
	}
	return out
}

// vector appends a vector of bytes: its length, then the bytes.
func vector(b, v []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}
