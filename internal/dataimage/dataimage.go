// Package dataimage takes the data segments out of a WebAssembly module and
// turns them into the memory image they describe.
//
// The guest's data segments (Go's read-only data, tables and initialized
// variables, a large part of the module) are written into every instance's
// memory when it is instantiated, so each sandbox would hold its own copy.
// Instead the engine compiles the module without them and gives each
// instance a copy-on-write mapping of one shared image of them
// (internal/guestmem): a sandbox holds only the pages it writes, and
// instantiating copies nothing. Both forms put the same bytes at the same
// addresses before the guest's first instruction, so the guest cannot tell
// them apart. RATIONALE.md has the figures ("Guest memory: a non-moving
// mapping, and one shared data image").
//
// The module's sections and numbers are read with internal/wasmbin.
package dataimage

import (
	"errors"
	"fmt"

	"github.com/cordonhq/cordon/internal/wasmbin"
)

// Image is the initial content of linear memory that a module's data
// segments describe, from address 0.
type Image []byte

// ErrNotSplittable means the module's data segments cannot be turned into
// an image (a passive segment, an offset that is not a constant, a data
// count section, no data section); the module is then compiled as it is.
var ErrNotSplittable = errors.New("dataimage: data segments cannot be split out")

// MaxImage bounds the image a module may describe, well above the guest's;
// a module past the bound is compiled whole (the memory limit caps the
// image again when the engine maps it).
const MaxImage = 64 << 20

// Section ids this package reads.
const (
	sectionData      = 11
	sectionDataCount = 12
)

// Split returns the module without its data segments (the data section is
// kept, empty; every other byte is kept as it is) and the memory image
// they describe. A module it cannot split returns ErrNotSplittable; one
// that is not well formed returns another error.
func Split(wasm []byte) (stripped []byte, image Image, err error) {
	spans, err := wasmbin.SectionSpans(wasm)
	if err != nil {
		return nil, nil, fmt.Errorf("dataimage: %w", err)
	}
	data := -1
	for i, s := range spans {
		switch s.ID {
		case sectionData:
			data = i
			if image, err = segments(s.Body); err != nil {
				return nil, nil, err
			}
		case sectionDataCount:
			return nil, nil, ErrNotSplittable
		}
	}
	if data < 0 {
		return nil, nil, ErrNotSplittable
	}
	start, end := spans[data].Start, spans[data].End
	stripped = make([]byte, 0, len(wasm)-(end-start)+3)
	stripped = append(stripped, wasm[:start]...)
	stripped = append(stripped, sectionData, 1, 0) // a data section with no segments
	stripped = append(stripped, wasm[end:]...)
	return stripped, image, nil
}

// segments returns the image that the body of a data section describes.
func segments(b []byte) (Image, error) {
	count, pos, err := wasmbin.U32(b, 0)
	if err != nil {
		return nil, fmt.Errorf("dataimage: data section: bad count: %w", err)
	}
	type seg struct {
		off  uint32
		data []byte
	}
	// A segment takes at least 5 bytes: the count cannot size the slice.
	segs := make([]seg, 0, min(uint64(count), uint64(len(b)-pos)/5))
	var top uint64
	for i := range count {
		// Only the MVP form: flags 0 (active, memory 0), offset
		// "i32.const N; end", then the bytes.
		if len(b)-pos < 2 || b[pos] != 0 || b[pos+1] != 0x41 {
			return nil, ErrNotSplittable
		}
		off, n, err := wasmbin.S32(b, pos+2)
		if err != nil || off < 0 || pos+2+n >= len(b) || b[pos+2+n] != 0x0b {
			return nil, ErrNotSplittable
		}
		pos += 2 + n + 1
		size, m, err := wasmbin.U32(b, pos)
		if err != nil || uint64(len(b)-pos-m) < uint64(size) {
			return nil, fmt.Errorf("dataimage: data segment %d runs past its section", i)
		}
		pos += m
		segs = append(segs, seg{uint32(off), b[pos : pos+int(size)]})
		pos += int(size)
		top = max(top, uint64(off)+uint64(size))
	}
	if pos != len(b) {
		return nil, errors.New("dataimage: data section: trailing bytes")
	}
	if top > MaxImage {
		return nil, fmt.Errorf("dataimage: data segments reach %d bytes", top)
	}
	img := make(Image, top)
	for _, s := range segs {
		copy(img[s.off:], s.data)
	}
	return img, nil
}
