package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime/debug"
)

// Every New needs the guest in the form the engine compiles: the module
// without its data segments, and the memory image they describe
// (dataimage.go). Getting there from the embedded gzip costs about 100 ms
// to decompress and, in a new process, 50-90 ms more to split, most of it
// the kernel handing out fresh pages. So the first New writes both to a
// file in the cache directory, and later ones map that file read-only:
// its pages come straight from the page cache, about 2 ms for the 27 MB.
//
// The file is checked against the embedded module it was made from (the
// CRC and length that the gzip trailer records) and against a checksum of
// its own content, which catches a damaged or stale copy. It is no defense
// against someone who can write the cache directory, but neither is
// anything else: that directory also holds the native code wazero runs.

// copyMagic starts a guest copy; the last byte is the format's version.
const copyMagic = "cordon\x00\x01"

// copyHeader is the size of a copy's header: the magic, then four
// little-endian uint32s (the embedded module's CRC-32 and length, the
// module's and the image's lengths) and the CRC-32C of what follows.
const copyHeader = len(copyMagic) + 5*4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// guestModule is the guest ready to compile.
type guestModule struct {
	module []byte    // what wazero compiles
	image  dataImage // the data segments' image, or nil if module keeps them
	// release unmaps a mapped copy. module and image must not be used
	// after it; wazero copies what it keeps of a module while compiling.
	release func()
	// fromCopy is set when the module came from the copy an earlier New
	// left in the cache directory: this guest has been compiled there
	// before (see Engine's first-compile message).
	fromCopy bool
}

// loadGuest returns the embedded guest, split. With a cache directory it
// uses the copy there when that matches, and writes one when not; an
// unusable directory only costs the time to decompress.
func loadGuest(dir string) (*guestModule, error) {
	n := len(guestWasmGz)
	if n < 8 {
		return nil, errors.New("engine: embedded guest: truncated")
	}
	crc := binary.LittleEndian.Uint32(guestWasmGz[n-8:])
	size := binary.LittleEndian.Uint32(guestWasmGz[n-4:])
	var path string
	if dir != "" {
		path = filepath.Join(dir, fmt.Sprintf("cordon-guest-%08x-%d.bin", crc, size))
		if g := readGuestCopy(path, crc, size); g != nil {
			return g, nil
		}
	}
	wasm, err := GuestWasm()
	if err != nil {
		return nil, err
	}
	stripped, img, err := splitData(wasm)
	if err != nil {
		// Not expected of the embedded guest (TestGuestDataSplits):
		// compile it whole, and let each sandbox copy its data.
		return &guestModule{module: wasm, release: func() {}}, nil
	}
	if path != "" {
		writeGuestCopy(dir, path, crc, size, stripped, img)
	}
	return &guestModule{module: stripped, image: img, release: func() {}}, nil
}

// readGuestCopy returns the copy at path, or nil when there is none or it
// does not hold the embedded module with the given CRC and size.
func readGuestCopy(path string, crc, size uint32) *guestModule {
	b, release, err := mapFile(path)
	if err != nil {
		return nil
	}
	var g *guestModule
	if err := faultsAsErrors(func() { g = parseGuestCopy(b, crc, size) }); err != nil || g == nil {
		release()
		return nil
	}
	g.release, g.fromCopy = release, true
	return g
}

func parseGuestCopy(b []byte, crc, size uint32) *guestModule {
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
	return &guestModule{module: body[:modLen:modLen], image: dataImage(body[modLen:])}
}

// writeGuestCopy writes the copy at path (through a temporary file, so a
// reader never sees half of one) and deletes the copies that other cordon
// versions left behind. Failing to write only means the next New
// decompresses again.
func writeGuestCopy(dir, path string, crc, size uint32, module []byte, img dataImage) {
	if uint64(len(module)) > 1<<32-1 || uint64(len(img)) > 1<<32-1 || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".cordon-guest-*")
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
	old, _ := filepath.Glob(filepath.Join(dir, "cordon-guest-*"))
	for _, p := range old {
		if p != keep {
			_ = os.Remove(p)
		}
	}
}

// errCopyFault reports that a mapped guest copy shrank while it was read.
var errCopyFault = errors.New("engine: the guest copy in the cache directory changed while it was read")

// faultsAsErrors runs f, turning a memory fault in it into errCopyFault.
// Reading a mapped file that someone truncates meanwhile faults (SIGBUS);
// that must not take the process down. Only f's own goroutine is covered:
// f reads the mapping there (wazero decodes a module on the calling
// goroutine and compiles from its own copies).
func faultsAsErrors(f func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			err = errCopyFault
		}
	}()
	f()
	return nil
}
