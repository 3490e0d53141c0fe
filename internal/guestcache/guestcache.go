// Package guestcache keeps the guest module in the form the engine
// compiles, split by internal/dataimage into the module without its data
// segments and the memory image they describe, in a file of the
// compilation cache directory.
//
// Getting there from the embedded gzip means decompressing it and, in a
// new process, splitting it, most of it the kernel handing out fresh
// pages. So the first Load writes both to a file in the cache directory,
// and later ones map that file read-only: its pages come straight from the
// page cache, many times faster (RATIONALE.md, "A split copy of the guest
// next to the compilation cache", has the figures).
//
// The file is checked against the embedded module it was made from (the
// CRC and length that the gzip trailer records) and against a checksum of
// its own content, which catches a damaged or stale copy. It is no defense
// against someone who can write the cache directory, but neither is
// anything else: that directory also holds the native code wazero runs.
package guestcache

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/cordonhq/cordon/internal/dataimage"
)

// copyMagic starts a guest copy; the last byte is the format's version.
const copyMagic = "cordon\x00\x01"

// copyHeader is the size of a copy's header: the magic, then four
// little-endian uint32s (the embedded module's CRC-32 and length, the
// module's and the image's lengths) and the CRC-32C of what follows.
const copyHeader = len(copyMagic) + 5*4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Guest is the guest ready to compile.
type Guest struct {
	// Module is what wazero compiles.
	Module []byte
	// Image is the data segments' image, or nil if Module keeps them.
	Image dataimage.Image
	// FromCopy is set when the module came from the copy an earlier Load
	// left in the cache directory: this guest has been compiled there
	// before (see HasCompiledCode).
	FromCopy bool

	release func()
}

// Release unmaps a mapped copy. Module and Image must not be used after
// it; wazero copies what it keeps of a module while compiling. Calling it
// again does nothing.
func (g *Guest) Release() {
	if g.release != nil {
		g.release()
	}
}

// Decompress returns the module that gz, a gzip stream, holds.
func Decompress(gz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("guestcache: decompressing the guest: %w", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("guestcache: decompressing the guest: %w", err)
	}
	return b, nil
}

// Load returns the guest that gz (the embedded gzip of the module) holds,
// split. With a cache directory dir it uses the copy there when that
// matches, and writes one when not; an unusable directory only costs the
// time to decompress. A module that cannot be split (not expected of the
// guest) comes back whole, with a nil Image.
func Load(gz []byte, dir string) (*Guest, error) {
	n := len(gz)
	if n < 8 {
		return nil, errors.New("guestcache: the embedded guest is truncated")
	}
	crc := binary.LittleEndian.Uint32(gz[n-8:])
	size := binary.LittleEndian.Uint32(gz[n-4:])
	var path string
	if dir != "" {
		path = filepath.Join(dir, fmt.Sprintf("%s%08x-%d.bin", copyPrefix, crc, size))
		if g := readGuestCopy(path, crc, size); g != nil {
			return g, nil
		}
	}
	wasm, err := Decompress(gz)
	if err != nil {
		return nil, err
	}
	stripped, img, err := dataimage.Split(wasm)
	if err != nil {
		// Not expected of the embedded guest (TestGuestDataSplits in
		// engine): compile it whole, and let each sandbox copy its data.
		return &Guest{Module: wasm}, nil
	}
	if path != "" {
		writeGuestCopy(dir, path, crc, size, stripped, img)
	}
	return &Guest{Module: stripped, Image: img}, nil
}

// copyPrefix starts the name of a guest copy; a copy being written is
// named with a dot before it.
const copyPrefix = "cordon-guest-"

// HasCompiledCode reports whether dir holds anything besides guest copies:
// wazero's compiled code. Only a copy that was there already, next to
// such code, says that this guest was compiled into dir.
func HasCompiledCode(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if n := e.Name(); !strings.HasPrefix(n, copyPrefix) && !strings.HasPrefix(n, "."+copyPrefix) {
			return true
		}
	}
	return false
}

// readGuestCopy returns the copy at path, or nil when there is none or it
// does not hold the embedded module with the given CRC and size.
func readGuestCopy(path string, crc, size uint32) *Guest {
	b, release, err := mapFile(path)
	if err != nil {
		return nil
	}
	var g *Guest
	if err := CatchFaults(func() { g = parseGuestCopy(b, crc, size) }); err != nil || g == nil {
		release()
		return nil
	}
	g.release, g.FromCopy = release, true
	return g
}

func parseGuestCopy(b []byte, crc, size uint32) *Guest {
	if len(b) < copyHeader || string(b[:len(copyMagic)]) != copyMagic {
		return nil
	}
	h := b[len(copyMagic):copyHeader]
	u32 := func(i int) uint32 { return binary.LittleEndian.Uint32(h[4*i:]) }
	modLen, imgLen := uint64(u32(2)), uint64(u32(3))
	if u32(0) != crc || u32(1) != size || uint64(len(b)) != uint64(copyHeader)+modLen+imgLen {
		return nil
	}
	body := b[copyHeader:]
	if crc32.Checksum(body, castagnoli) != u32(4) {
		return nil
	}
	return &Guest{Module: body[:modLen:modLen], Image: dataimage.Image(body[modLen:])}
}

// writeGuestCopy writes the copy at path (through a temporary file, so a
// reader never sees half of one) and deletes the copies that other cordon
// versions left behind. Failing to write only means the next Load
// decompresses again.
func writeGuestCopy(dir, path string, crc, size uint32, module []byte, img dataimage.Image) {
	if uint64(len(module)) > 1<<32-1 || uint64(len(img)) > 1<<32-1 || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	f, err := os.CreateTemp(dir, "."+copyPrefix+"*")
	if err != nil {
		return
	}
	defer os.Remove(f.Name()) // a no-op once renamed
	h := make([]byte, copyHeader)
	copy(h, copyMagic)
	sum := crc32.Update(crc32.Checksum(module, castagnoli), castagnoli, img)
	for i, v := range []uint32{crc, size, uint32(len(module)), uint32(len(img)), sum} {
		binary.LittleEndian.PutUint32(h[len(copyMagic)+4*i:], v)
	}
	_, err = f.Write(h)
	if err == nil {
		_, err = f.Write(module)
	}
	if err == nil {
		_, err = f.Write(img)
	}
	if cerr := f.Close(); err != nil || cerr != nil || os.Rename(f.Name(), path) != nil {
		return
	}
	removeOtherGuestCopies(dir, path)
}

// removeOtherGuestCopies deletes the copies other cordon versions left (27
// MB each), so that upgrades do not pile them up. A version still in use
// writes its copy again on its next start; a process that has one mapped
// keeps it until it is done.
func removeOtherGuestCopies(dir, keep string) {
	old, _ := filepath.Glob(filepath.Join(dir, copyPrefix+"*"))
	for _, p := range old {
		if p != keep {
			_ = os.Remove(p)
		}
	}
}

// ErrCopyFault reports that a mapped guest copy shrank while it was read.
var ErrCopyFault = errors.New("guestcache: the guest copy in the cache directory changed while it was read")

// CatchFaults runs f, turning a memory fault in it into ErrCopyFault.
// Reading a mapped file that someone truncates meanwhile faults (SIGBUS);
// that must not take the process down. A Guest's Module may be such a
// mapping: whoever reads it (wazero, decoding it) does so under
// CatchFaults. Only f's own goroutine is covered: f reads the mapping
// there (wazero decodes a module on the calling goroutine and compiles
// from its own copies). Other panics go on.
func CatchFaults(f func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			err = ErrCopyFault
		}
	}()
	f()
	return nil
}
