// Package abi defines the messages that cross the boundary between the cordon
// host (package engine) and the guest program running inside WebAssembly.
//
// The guest is hostile, so everything here is written for decoding untrusted
// bytes: every length is checked against what remains, every count against a
// ceiling, and a malformed message is an error (ErrMalformed), never a panic.
//
// The encoding is deliberately small: little-endian u32 integers, byte strings
// prefixed with their u32 length, and a leading op byte per message. JSON
// payloads (tool params and results) travel as opaque byte strings so that
// neither side re-encodes them.
//
// It is also the one place that names the contract between the two sides
// (contract.go): the host functions the guest imports (HostModule,
// HostFuncs), the languages (Lang), the codes with which an execution ends
// (ErrCode) and the kinds of a refused or failed tool call
// (ToolErrorKind).
package abi

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrMalformed is returned (wrapped) when a message cannot be decoded.
var ErrMalformed = errors.New("abi: malformed message")

// MaxItems bounds every count in a message (tools, calls, files), so a forged
// count cannot make a decoder allocate without bound.
const MaxItems = 1 << 20

// Encoder appends values to a byte slice.
type Encoder struct {
	buf []byte
}

// NewEncoder returns an Encoder that appends to buf (which may be nil).
func NewEncoder(buf []byte) *Encoder { return &Encoder{buf: buf[:0]} }

// Bytes returns the encoded message.
func (e *Encoder) Bytes() []byte { return e.buf }

// U8 appends one byte.
func (e *Encoder) U8(v uint8) { e.buf = append(e.buf, v) }

// Bool appends a boolean as one byte.
func (e *Encoder) Bool(v bool) {
	if v {
		e.U8(1)
	} else {
		e.U8(0)
	}
}

// U32 appends a little-endian uint32.
func (e *Encoder) U32(v uint32) { e.buf = binary.LittleEndian.AppendUint32(e.buf, v) }

// I64 appends a little-endian int64.
func (e *Encoder) I64(v int64) { e.buf = binary.LittleEndian.AppendUint64(e.buf, uint64(v)) }

// Bytes32 appends a length-prefixed byte string.
func (e *Encoder) Bytes32(b []byte) {
	e.U32(uint32(len(b)))
	e.buf = append(e.buf, b...)
}

// String appends a length-prefixed string.
func (e *Encoder) String(s string) {
	e.U32(uint32(len(s)))
	e.buf = append(e.buf, s...)
}

// Decoder reads values from a byte slice. The first error sticks: later reads
// return zero values, and Err reports it.
type Decoder struct {
	buf []byte
	off int
	err error
}

// NewDecoder returns a Decoder over b. Byte strings it returns alias b.
func NewDecoder(b []byte) *Decoder { return &Decoder{buf: b} }

// Err returns the first decoding error, if any.
func (d *Decoder) Err() error { return d.err }

// Finish returns the first decoding error, or an error if bytes remain unread.
func (d *Decoder) Finish() error {
	if d.err == nil && d.off != len(d.buf) {
		d.fail("%d trailing bytes", len(d.buf)-d.off)
	}
	return d.err
}

func (d *Decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: at byte %d: %s", ErrMalformed, d.off, fmt.Sprintf(format, args...))
	}
}

func (d *Decoder) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.buf)-d.off {
		d.fail("%s needs %d bytes, %d remain", what, n, len(d.buf)-d.off)
		return nil
	}
	b := d.buf[d.off : d.off+n : d.off+n]
	d.off += n
	return b
}

// U8 reads one byte.
func (d *Decoder) U8() uint8 {
	b := d.take(1, "u8")
	if b == nil {
		return 0
	}
	return b[0]
}

// Bool reads a boolean; any byte other than 0 or 1 is malformed.
func (d *Decoder) Bool() bool {
	v := d.U8()
	if v > 1 {
		d.fail("bool byte %d", v)
	}
	return v == 1
}

// U32 reads a little-endian uint32.
func (d *Decoder) U32() uint32 {
	b := d.take(4, "u32")
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

// I64 reads a little-endian int64.
func (d *Decoder) I64() int64 {
	b := d.take(8, "i64")
	if b == nil {
		return 0
	}
	return int64(binary.LittleEndian.Uint64(b))
}

// Bytes32 reads a length-prefixed byte string. The result aliases the input.
func (d *Decoder) Bytes32() []byte {
	n := d.U32()
	return d.take(int(n), "byte string")
}

// String reads a length-prefixed string.
func (d *Decoder) String() string { return string(d.Bytes32()) }

// Count reads an item count and checks it against MaxItems and against the
// bytes left, assuming each item needs at least minSize bytes.
func (d *Decoder) Count(minSize int) int {
	n := d.U32()
	if d.err != nil {
		return 0
	}
	if n > MaxItems || (minSize > 0 && int(n) > (len(d.buf)-d.off)/minSize) {
		d.fail("count %d too large", n)
		return 0
	}
	return int(n)
}
