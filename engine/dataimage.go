package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The guest's data segments (Go's read-only data, tables and initialized
// variables: 11 MB of the 27 MB module) are written into every instance's
// memory when it is instantiated, so each sandbox would hold its own copy.
// Instead the engine takes them out of the module it compiles and gives
// each instance a copy-on-write mapping of one shared image of them
// (memory_*.go): a sandbox holds only the pages it writes, and instantiating
// copies nothing. Both forms put the same bytes at the same addresses before
// the guest's first instruction, so the guest cannot tell them apart.

// dataImage is the initial content of linear memory that the data segments
// describe, from address 0.
type dataImage []byte

// errNotSplittable means the module's data segments cannot be turned into
// an image (a passive segment, an offset that is not a constant, a data
// count section); the module is then compiled as it is.
var errNotSplittable = errors.New("engine: data segments cannot be split out")

// splitData returns the module without its data segments (the data section
// is kept, empty) and the memory image they describe.
func splitData(wasm []byte) (stripped []byte, image dataImage, err error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, nil, errors.New("engine: not a wasm module")
	}
	pos := 8
	dataStart, dataEnd := -1, -1
	for pos < len(wasm) {
		id := wasm[pos]
		size, n := uvarint(wasm[pos+1:])
		if n <= 0 {
			return nil, nil, fmt.Errorf("engine: section at %d: bad size", pos)
		}
		body := pos + 1 + n
		end := body + int(size)
		if end > len(wasm) || end < body {
			return nil, nil, fmt.Errorf("engine: section at %d runs past the module", pos)
		}
		switch id {
		case 11:
			dataStart, dataEnd = pos, end
			if image, err = dataSegments(wasm[body:end]); err != nil {
				return nil, nil, err
			}
		case 12:
			return nil, nil, errNotSplittable
		}
		pos = end
	}
	if dataStart < 0 {
		return nil, nil, errNotSplittable
	}
	stripped = make([]byte, 0, len(wasm)-(dataEnd-dataStart)+3)
	stripped = append(stripped, wasm[:dataStart]...)
	stripped = append(stripped, 11, 1, 0) // a data section with no segments
	stripped = append(stripped, wasm[dataEnd:]...)
	return stripped, image, nil
}

// maxImage bounds the image a module may describe: the guest's is 11 MB; a
// module past the bound is compiled whole (the memory limit caps the image
// again when the engine maps it).
const maxImage = 64 << 20

func dataSegments(b []byte) (dataImage, error) {
	count, n := uvarint(b)
	if n <= 0 {
		return nil, errors.New("engine: data section: bad count")
	}
	b = b[n:]
	type seg struct {
		off  uint32
		data []byte
	}
	// A segment takes at least 5 bytes: the count cannot size the slice.
	segs := make([]seg, 0, min(count, uint64(len(b)/5)))
	var top uint64
	for i := uint64(0); i < count; i++ {
		// Only the MVP form: flags 0 (active, memory 0), offset
		// "i32.const N; end", then the bytes.
		if len(b) < 2 || b[0] != 0 || b[1] != 0x41 {
			return nil, errNotSplittable
		}
		off, n := varint32(b[2:])
		if n <= 0 || off < 0 || len(b) < 2+n+1 || b[2+n] != 0x0b {
			return nil, errNotSplittable
		}
		b = b[2+n+1:]
		size, m := uvarint(b)
		if m <= 0 || uint64(len(b)-m) < size {
			return nil, fmt.Errorf("engine: data segment %d runs past its section", i)
		}
		segs = append(segs, seg{uint32(off), b[m : m+int(size)]})
		b = b[m+int(size):]
		top = max(top, uint64(off)+size)
	}
	if len(b) != 0 {
		return nil, errors.New("engine: data section: trailing bytes")
	}
	if top > maxImage {
		return nil, fmt.Errorf("engine: data segments reach %d bytes", top)
	}
	img := make(dataImage, top)
	for _, s := range segs {
		copy(img[s.off:], s.data)
	}
	return img, nil
}

func uvarint(b []byte) (uint64, int) {
	v, n := binary.Uvarint(b)
	if n <= 0 || n > 5 || v > 1<<32-1 {
		return 0, -1
	}
	return v, n
}

// varint32 reads a signed LEB128 of at most 5 bytes.
func varint32(b []byte) (int64, int) {
	var v int64
	var shift uint
	for i := 0; i < 5 && i < len(b); i++ {
		c := b[i]
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			if v < -1<<31 || v > 1<<31-1 {
				return 0, -1
			}
			return v, i + 1
		}
	}
	return 0, -1
}
