// Package wasmbin reads and writes the parts of the WebAssembly binary format
// that cordon's build-time module rewriters (internal/wasmtick,
// internal/itabcache, internal/wasmthunk) and the engine's data-segment
// splitter (internal/dataimage) need: sections, LEB128 numbers, names,
// imports, the function-name map of the name section, function types and
// code bodies. It is not a general parser: what it does not need, it does
// not decode.
package wasmbin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Section is one section of a module: its id and its body, which aliases
// the module's bytes.
type Section struct {
	ID   byte
	Body []byte
}

// Sections splits a version 1 module into its sections.
func Sections(wasm []byte) ([]Section, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], []byte("\x00asm")) || !bytes.Equal(wasm[4:8], []byte{1, 0, 0, 0}) {
		return nil, errors.New("wasmbin: not a version 1 wasm module")
	}
	return split(wasm[8:], "section")
}

// SectionSpan is a section with its place in its module: bytes Start to
// End of the module hold the section whole (its id, its size and its
// body).
type SectionSpan struct {
	Section
	Start, End int
}

// SectionSpans splits a version 1 module into its sections, as Sections
// does, and says where each lies in wasm, so that a caller can cut one
// out and keep the other bytes as they are.
func SectionSpans(wasm []byte) ([]SectionSpan, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], []byte("\x00asm")) || !bytes.Equal(wasm[4:8], []byte{1, 0, 0, 0}) {
		return nil, errors.New("wasmbin: not a version 1 wasm module")
	}
	spans, err := spans(wasm[8:], "section")
	if err != nil {
		return nil, err
	}
	for i := range spans {
		spans[i].Start += 8
		spans[i].End += 8
	}
	return spans, nil
}

// split reads a sequence of entries (id byte, size u32, body): a module's
// sections or a name section's subsections. Offsets in errors are from
// the start of b.
func split(b []byte, what string) ([]Section, error) {
	sp, err := spans(b, what)
	if err != nil {
		return nil, err
	}
	out := make([]Section, len(sp))
	for i, s := range sp {
		out[i] = s.Section
	}
	return out, nil
}

// spans is split with each entry's place in b.
func spans(b []byte, what string) ([]SectionSpan, error) {
	var out []SectionSpan
	for pos := 0; pos < len(b); {
		id := b[pos]
		size, n, err := U32(b, pos+1)
		if err != nil {
			return nil, fmt.Errorf("wasmbin: %s at %d: %w", what, pos, err)
		}
		start := pos + 1 + n
		end := start + int(size)
		if end > len(b) || end < start {
			return nil, fmt.Errorf("wasmbin: %s at %d runs past its end", what, pos)
		}
		out = append(out, SectionSpan{Section{id, b[start:end]}, pos, end})
		pos = end
	}
	return out, nil
}

// AppendSection appends a section with the given id and body to out.
func AppendSection(out []byte, id byte, body []byte) []byte {
	out = append(out, id)
	out = binary.AppendUvarint(out, uint64(len(body)))
	return append(out, body...)
}

// CustomName returns the name of a custom section (id 0) and the offset of
// the rest of its body.
func CustomName(s Section) (name string, rest int, ok bool) {
	if s.ID != 0 {
		return "", 0, false
	}
	return Name(s.Body)
}

// Name reads a name (a length-prefixed UTF-8 string) at the start of b and
// returns it with the number of bytes it took.
func Name(b []byte) (string, int, bool) {
	if len(b) == 0 {
		return "", 0, false
	}
	n, off, err := U32(b, 0)
	if err != nil || off+int(n) > len(b) {
		return "", 0, false
	}
	return string(b[off : off+int(n)]), off + int(n), true
}

// AppendName appends s as a wasm name.
func AppendName(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Import kinds.
const (
	ImportFunc   = 0
	ImportTable  = 1
	ImportMemory = 2
	ImportGlobal = 3
)

// Imports calls f for every entry of an import section's body. funcIndex is
// the function index of the entry when its kind is ImportFunc.
func Imports(b []byte, f func(module, name string, kind byte, funcIndex int)) error {
	return imports(b, func(module, name string, kind byte, funcIndex int, _ uint32) {
		f(module, name, kind, funcIndex)
	})
}

// FuncImport is one function that a module imports.
type FuncImport struct {
	Module, Name string
	// Type is the function's type, encoded as FuncTypes gives it: the
	// parameter vector and the result vector. It aliases the module.
	Type []byte
}

// FuncImports returns the functions a module imports, in the order of its
// import section (their function indices).
func FuncImports(wasm []byte) ([]FuncImport, error) {
	secs, err := Sections(wasm)
	if err != nil {
		return nil, err
	}
	var types [][]byte
	var out []FuncImport
	var typeIdx []uint32
	for _, s := range secs {
		switch s.ID {
		case 1:
			if types, err = FuncTypes(s.Body); err != nil {
				return nil, err
			}
		case 2:
			err = imports(s.Body, func(module, name string, kind byte, _ int, ti uint32) {
				if kind == ImportFunc {
					out = append(out, FuncImport{Module: module, Name: name})
					typeIdx = append(typeIdx, ti)
				}
			})
			if err != nil {
				return nil, err
			}
		}
	}
	for i, ti := range typeIdx {
		if int64(ti) >= int64(len(types)) {
			return nil, fmt.Errorf("wasmbin: import %s.%s: type %d out of range", out[i].Module, out[i].Name, ti)
		}
		out[i].Type = types[ti]
	}
	return out, nil
}

// imports is Imports, also giving a function import's type index.
func imports(b []byte, f func(module, name string, kind byte, funcIndex int, typeIdx uint32)) error {
	count, pos, err := U32(b, 0)
	if err != nil {
		return fmt.Errorf("wasmbin: import section: %w", err)
	}
	funcs := 0
	for i := uint32(0); i < count; i++ {
		if pos > len(b) {
			return errors.New("wasmbin: import section: truncated")
		}
		mod, n, ok := Name(b[pos:])
		if !ok {
			return errors.New("wasmbin: import section: bad module name")
		}
		pos += n
		nm, n, ok := Name(b[pos:])
		if !ok {
			return errors.New("wasmbin: import section: bad name")
		}
		pos += n
		if pos >= len(b) {
			return errors.New("wasmbin: import section: truncated")
		}
		kind := b[pos]
		pos++
		var ti uint32
		switch kind {
		case ImportFunc: // typeidx
			ti, n, err = U32(b, pos)
		case ImportTable: // reftype, limits
			pos++
			n, err = limits(b, pos)
		case ImportMemory: // limits
			n, err = limits(b, pos)
		case ImportGlobal: // valtype, mut
			n = 2
		default:
			return fmt.Errorf("wasmbin: import kind %d", kind)
		}
		if err != nil {
			return fmt.Errorf("wasmbin: import section: %w", err)
		}
		f(mod, nm, kind, funcs, ti)
		if kind == ImportFunc {
			funcs++
		}
		pos += n
	}
	return nil
}

func limits(b []byte, pos int) (int, error) {
	if pos >= len(b) {
		return 0, errors.New("truncated limits")
	}
	flag := b[pos]
	_, n, err := U32(b, pos+1)
	if err != nil {
		return 0, err
	}
	size := 1 + n
	if flag&1 != 0 {
		_, m, err := U32(b, pos+size)
		if err != nil {
			return 0, err
		}
		size += m
	}
	return size, nil
}

// FunctionNames returns the function-name map (subsection 1) of the body of
// a custom section named "name", as function index to name.
func FunctionNames(nameSection []byte) (map[uint32]string, error) {
	subs, err := split(nameSection, "name subsection")
	if err != nil {
		return nil, err
	}
	names := map[uint32]string{}
	for _, sub := range subs {
		if sub.ID != 1 {
			continue
		}
		count, p, err := U32(sub.Body, 0)
		if err != nil {
			return nil, fmt.Errorf("wasmbin: function names: %w", err)
		}
		for range count {
			idx, m, err := U32(sub.Body, p)
			if err != nil {
				return nil, fmt.Errorf("wasmbin: function names: %w", err)
			}
			p += m
			name, m, ok := Name(sub.Body[p:])
			if !ok {
				return nil, errors.New("wasmbin: function names: bad name")
			}
			p += m
			names[idx] = name
		}
	}
	return names, nil
}

// BlockType skips the block type of a block, loop or if at pos.
func BlockType(b []byte, pos int) (int, error) {
	if pos >= len(b) {
		return 0, errors.New("truncated block type")
	}
	switch c := b[pos]; c {
	case 0x40, 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
		return pos + 1, nil
	}
	return SkipLeb(b, pos, 5) // a type index (s33)
}

// SkipU32 skips n unsigned LEB128 numbers at pos.
func SkipU32(b []byte, pos, n int) (int, error) {
	for ; n > 0; n-- {
		_, m, err := U32(b, pos)
		if err != nil {
			return 0, err
		}
		pos += m
	}
	return pos, nil
}

// SkipLeb skips a LEB128 number of at most max bytes at pos.
func SkipLeb(b []byte, pos, max int) (int, error) {
	for i := 0; i < max; i++ {
		if pos+i >= len(b) {
			return 0, errors.New("truncated LEB128")
		}
		if b[pos+i]&0x80 == 0 {
			return pos + i + 1, nil
		}
	}
	return 0, errors.New("LEB128 too long")
}

// U32 reads an unsigned LEB128 number of at most 32 bits at pos and returns
// it with the number of bytes it took.
func U32(b []byte, pos int) (uint32, int, error) {
	if pos > len(b) {
		return 0, 0, errors.New("truncated LEB128")
	}
	v, n := binary.Uvarint(b[pos:])
	if n <= 0 || n > 5 || v > 1<<32-1 {
		return 0, 0, errors.New("bad LEB128")
	}
	return uint32(v), n, nil
}

// S32 reads a signed LEB128 number of at most 32 bits (an i32.const's
// operand) at pos and returns it with the number of bytes it took.
func S32(b []byte, pos int) (int32, int, error) {
	var v int64
	var shift uint
	for i := 0; i < 5; i++ {
		if pos < 0 || pos+i >= len(b) {
			return 0, 0, errors.New("truncated LEB128")
		}
		c := b[pos+i]
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if c&0x40 != 0 {
				v |= -1 << shift
			}
			if v < -1<<31 || v > 1<<31-1 {
				return 0, 0, errors.New("bad LEB128")
			}
			return int32(v), i + 1, nil
		}
	}
	return 0, 0, errors.New("LEB128 too long")
}

// AppendSleb appends v as a signed LEB128 number.
func AppendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// AppendFunctionName returns the body of a name section (after its name)
// with idx named name in its function-name map. idx must be greater than
// every index the map has, as a new function's is: the map stays sorted.
func AppendFunctionName(nameSection []byte, idx uint32, name string) ([]byte, error) {
	subs, err := split(nameSection, "name subsection")
	if err != nil {
		return nil, err
	}
	var out []byte
	found := false
	for _, sub := range subs {
		body := sub.Body
		if sub.ID == 1 {
			found = true
			count, p, err := U32(sub.Body, 0)
			if err != nil {
				return nil, fmt.Errorf("wasmbin: function names: %w", err)
			}
			body = binary.AppendUvarint(nil, uint64(count+1))
			body = append(body, sub.Body[p:]...)
			body = binary.AppendUvarint(body, uint64(idx))
			body = AppendName(body, name)
		}
		out = AppendSection(out, sub.ID, body)
	}
	if !found {
		return nil, errors.New("wasmbin: name section: no function names")
	}
	return out, nil
}

// StripCustom returns wasm without its custom sections named name.
func StripCustom(wasm []byte, name string) ([]byte, error) {
	secs, err := Sections(wasm)
	if err != nil {
		return nil, err
	}
	out := append(make([]byte, 0, len(wasm)), wasm[:8]...)
	for _, s := range secs {
		if n, _, ok := CustomName(s); ok && n == name {
			continue
		}
		out = AppendSection(out, s.ID, s.Body)
	}
	return out, nil
}

// FuncTypes returns each function type of a type section as its encoding
// after the 0x60 prefix: the parameter vector and the result vector.
func FuncTypes(b []byte) ([][]byte, error) {
	n, pos, err := U32(b, 0)
	if err != nil {
		return nil, fmt.Errorf("wasmbin: type section: %w", err)
	}
	var out [][]byte
	for range n {
		if pos >= len(b) || b[pos] != 0x60 {
			return nil, errors.New("wasmbin: type section: not a function type")
		}
		start := pos + 1
		pos = start
		for range 2 { // parameters, results
			k, m, err := U32(b, pos)
			if err != nil {
				return nil, fmt.Errorf("wasmbin: type section: %w", err)
			}
			pos += m + int(k)
		}
		if pos > len(b) {
			return nil, errors.New("wasmbin: type section: truncated")
		}
		out = append(out, b[start:pos])
	}
	return out, nil
}

// FuncTypeVectors splits a function type as FuncTypes gives it into its
// parameter and result value types, one byte each (wazero's api.ValueType
// is that byte). It refuses what is not exactly two vectors.
func FuncTypeVectors(t []byte) (params, results []byte, err error) {
	pos := 0
	vec := func() ([]byte, error) {
		n, m, err := U32(t, pos)
		if err != nil {
			return nil, fmt.Errorf("wasmbin: function type: %w", err)
		}
		pos += m
		if uint64(len(t)-pos) < uint64(n) {
			return nil, errors.New("wasmbin: function type: truncated")
		}
		v := t[pos : pos+int(n) : pos+int(n)]
		pos += int(n)
		return v, nil
	}
	if params, err = vec(); err != nil {
		return nil, nil, err
	}
	if results, err = vec(); err != nil {
		return nil, nil, err
	}
	if pos != len(t) {
		return nil, nil, errors.New("wasmbin: function type: trailing bytes")
	}
	return params, results, nil
}

// U32Vector reads a vector of unsigned LEB128 numbers, such as a function
// section (each function's type index).
func U32Vector(b []byte) ([]uint32, error) {
	n, pos, err := U32(b, 0)
	if err != nil {
		return nil, fmt.Errorf("wasmbin: vector: %w", err)
	}
	out := make([]uint32, 0, min(int(n), len(b)))
	for range n {
		v, m, err := U32(b, pos)
		if err != nil {
			return nil, fmt.Errorf("wasmbin: vector: %w", err)
		}
		pos += m
		out = append(out, v)
	}
	if pos != len(b) {
		return nil, errors.New("wasmbin: vector: trailing bytes")
	}
	return out, nil
}

// AppendU32Vector appends v as a vector of unsigned LEB128 numbers.
func AppendU32Vector(out []byte, v []uint32) []byte {
	out = binary.AppendUvarint(out, uint64(len(v)))
	for _, x := range v {
		out = binary.AppendUvarint(out, uint64(x))
	}
	return out
}

// CodeBodies splits a code section into its function bodies (each its
// locals and its expression, without the size before it). They alias b.
func CodeBodies(b []byte) ([][]byte, error) {
	count, pos, err := U32(b, 0)
	if err != nil {
		return nil, fmt.Errorf("wasmbin: code section: %w", err)
	}
	out := make([][]byte, 0, min(int(count), len(b)))
	for j := range count {
		size, n, err := U32(b, pos)
		if err != nil || pos+n+int(size) > len(b) {
			return nil, fmt.Errorf("wasmbin: code section: function %d is truncated", j)
		}
		out = append(out, b[pos+n:pos+n+int(size)])
		pos += n + int(size)
	}
	if pos != len(b) {
		return nil, errors.New("wasmbin: code section: trailing bytes")
	}
	return out, nil
}

// AppendCode appends a code section's body holding bodies to out.
func AppendCode(out []byte, bodies [][]byte) []byte {
	out = binary.AppendUvarint(out, uint64(len(bodies)))
	for _, f := range bodies {
		out = binary.AppendUvarint(out, uint64(len(f)))
		out = append(out, f...)
	}
	return out
}

// SkipLocals returns the offset, in a function body, of its expression:
// what follows the local declarations.
func SkipLocals(body []byte) (int, error) {
	n, pos, err := U32(body, 0)
	if err != nil {
		return 0, fmt.Errorf("wasmbin: locals: %w", err)
	}
	for range n {
		_, m, err := U32(body, pos)
		if err != nil {
			return 0, fmt.Errorf("wasmbin: locals: %w", err)
		}
		pos += m + 1
	}
	if pos > len(body) {
		return 0, errors.New("wasmbin: locals run past the body")
	}
	return pos, nil
}

// Instruction returns the end of the instruction at pos in an expression:
// its opcode and immediates. It knows the instructions of WebAssembly 1.0
// with the sign-extension, saturating-truncation, bulk-memory and
// reference-types extensions (what Go emits), and fails on any other.
func Instruction(b []byte, start int) (int, error) {
	if start >= len(b) {
		return 0, errors.New("wasmbin: instruction past the end")
	}
	op := b[start]
	pos := start + 1
	var err error
	switch {
	case op == 0x02 || op == 0x03 || op == 0x04: // block, loop, if
		pos, err = BlockType(b, pos)
	case op == 0x0c || op == 0x0d || op == 0x10 || op == 0x12 || op == 0xd2 || op == 0x25 || op == 0x26 ||
		op >= 0x20 && op <= 0x24: // one index
		pos, err = SkipU32(b, pos, 1)
	case op == 0x0e: // br_table
		var k uint32
		var m int
		if k, m, err = U32(b, pos); err == nil {
			if int64(k) >= int64(len(b)) {
				return 0, fmt.Errorf("wasmbin: br_table at %d: %d labels", start, k)
			}
			pos, err = SkipU32(b, pos+m, int(k)+1)
		}
	case op == 0x11 || op == 0x13: // call_indirect: type, table
		pos, err = SkipU32(b, pos, 2)
	case op == 0x1c: // select t*
		var k uint32
		var m int
		if k, m, err = U32(b, pos); err == nil {
			pos += m + int(k)
		}
	case op >= 0x28 && op <= 0x3e: // memarg
		var align uint32
		var m int
		if align, m, err = U32(b, pos); err == nil {
			pos += m
			if align&0x40 != 0 { // memory index
				pos, err = SkipU32(b, pos, 1)
			}
			if err == nil {
				pos, err = SkipU32(b, pos, 1)
			}
		}
	case op == 0x3f || op == 0x40: // memory.size, memory.grow
		pos, err = SkipU32(b, pos, 1)
	case op == 0x41:
		pos, err = SkipLeb(b, pos, 5)
	case op == 0x42:
		pos, err = SkipLeb(b, pos, 10)
	case op == 0x43:
		pos += 4
	case op == 0x44:
		pos += 8
	case op == 0xd0: // ref.null t
		pos++
	case op == 0xfc:
		var sub uint32
		var m int
		if sub, m, err = U32(b, pos); err == nil {
			pos += m
			switch {
			case sub <= 7: // saturating truncations
			case sub == 8 || sub == 10 || sub == 12 || sub == 14: // two immediates
				pos, err = SkipU32(b, pos, 2)
			case sub == 9 || sub == 11 || sub == 13 || sub == 15 || sub == 16 || sub == 17:
				pos, err = SkipU32(b, pos, 1)
			default:
				err = fmt.Errorf("unknown 0xfc opcode %d", sub)
			}
		}
	case op == 0x00 || op == 0x01 || op == 0x05 || op == 0x0b || op == 0x0f || op == 0x1a || op == 0x1b ||
		op >= 0x45 && op <= 0xc4 || op == 0xd1:
		// no immediates
	default:
		err = fmt.Errorf("opcode 0x%02x at %d is not supported", op, start)
	}
	if err != nil {
		return 0, fmt.Errorf("wasmbin: %w", err)
	}
	if pos > len(b) {
		return 0, fmt.Errorf("wasmbin: instruction at %d runs past the body", start)
	}
	return pos, nil
}

// Functions is what a module's type, import, function and code sections
// say about its functions.
type Functions struct {
	Imported int      // how many functions are imported; they come first in the index space
	Types    [][]byte // the type section (FuncTypes)
	TypeOf   []uint32 // each defined function's type index
	Bodies   [][]byte // each defined function's body (CodeBodies)
}

// ReadFunctions reads the Functions of a module's sections.
func ReadFunctions(secs []Section) (*Functions, error) {
	f := &Functions{}
	var err error
	for _, s := range secs {
		switch s.ID {
		case 1:
			f.Types, err = FuncTypes(s.Body)
		case 2:
			err = Imports(s.Body, func(_, _ string, kind byte, _ int) {
				if kind == ImportFunc {
					f.Imported++
				}
			})
		case 3:
			f.TypeOf, err = U32Vector(s.Body)
		case 10:
			f.Bodies, err = CodeBodies(s.Body)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(f.Bodies) != len(f.TypeOf) {
		return nil, errors.New("wasmbin: the function and code sections disagree")
	}
	return f, nil
}

// HasType reports whether defined function i (an index into Bodies) exists
// and has the function type whose encoding (as FuncTypes gives it) is t.
func (f *Functions) HasType(i int64, t []byte) bool {
	if i < 0 || i >= int64(len(f.TypeOf)) {
		return false
	}
	ti := f.TypeOf[i]
	return int64(ti) < int64(len(f.Types)) && bytes.Equal(f.Types[ti], t)
}

// GoFunc is the encoding (as FuncTypes gives it) of the one function type
// Go's wasm port compiles functions to: (i32) -> i32, the resume point in
// and 1 out when the function unwinds the wasm stack.
var GoFunc = []byte{1, 0x7f, 1, 0x7f}

// ReplaceCode returns wasm, whose sections are secs, with its code
// section's bodies replaced by bodies.
func ReplaceCode(wasm []byte, secs []Section, bodies [][]byte) []byte {
	out := append(make([]byte, 0, len(wasm)+len(wasm)/64), wasm[:8]...)
	for _, s := range secs {
		body := s.Body
		if s.ID == 10 {
			body = AppendCode(nil, bodies)
		}
		out = AppendSection(out, s.ID, body)
	}
	return out
}
