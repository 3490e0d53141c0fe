//go:build wasip1

// Command guest is the program cordon runs inside WebAssembly for every
// sandbox. It is built with GOOS=wasip1 GOARCH=wasm by `go generate ./engine`
// and embedded, compressed, in package engine.
//
// It has no ambient authority: its only imports are the cordon host ABI
// (module "cordon", below) and the WASI functions the Go runtime needs, which
// the host implements with no files, no environment, no arguments and no
// network. Everything the script can touch lives in this program's memory.
//
// The ABI is the functions of module abi.HostModule that abi.HostFuncs
// lists and documents (internal/abi): next, yield, recv, write, interrupt
// and tick. A go:wasmimport directive must spell its names as literals, so
// they are written again below; a test of package engine holds the
// embedded guest's imports, and the host's exports, to abi.HostFuncs.
package main

import (
	"os"
	"runtime/debug"
	"unsafe"

	"github.com/cordonhq/cordon/guest/internal/server"
	"github.com/cordonhq/cordon/internal/abi"
)

//go:wasmimport cordon next
func hostNext(ptr unsafe.Pointer, size uint32) uint32

//go:wasmimport cordon yield
func hostYield(ptr unsafe.Pointer, size uint32) uint32

//go:wasmimport cordon recv
func hostRecv(ptr unsafe.Pointer)

//go:wasmimport cordon write
func hostWrite(fd uint32, ptr unsafe.Pointer, size uint32)

//go:wasmimport cordon interrupt
func hostInterrupt(ptr unsafe.Pointer)

// hostTick is called by the loops that buildguest instruments; the guest
// calls it once itself so that the linker keeps the import.
//
//go:wasmimport cordon tick
func hostTick()

func ptrOf(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

type host struct {
	callBuf []byte
}

func receive(n uint32) []byte {
	b := make([]byte, n)
	if n > 0 {
		hostRecv(unsafe.Pointer(&b[0]))
	}
	return b
}

func (h *host) Next(resp []byte) ([]byte, error) {
	return receive(hostNext(ptrOf(resp), uint32(len(resp)))), nil
}

func (h *host) Yield(calls []abi.Call) (*abi.Resume, error) {
	h.callBuf = abi.EncodeCalls(h.callBuf, calls)
	b := receive(hostYield(ptrOf(h.callBuf), uint32(len(h.callBuf))))
	return abi.DecodeResume(b)
}

func (h *host) Write(fd int, p []byte) {
	if len(p) > 0 {
		hostWrite(uint32(fd), ptrOf(p), uint32(len(p)))
	}
}

func (h *host) WatchInterrupt(flag *uint32) {
	hostInterrupt(unsafe.Pointer(flag))
}

func main() {
	// A runaway recursion in Go code (deeply nested JSON, say) must end in a
	// clean crash report, not eat the whole memory limit first.
	debug.SetMaxStack(64 << 20)
	hostTick()
	// Serve returns only when the link to the host fails.
	err := server.Serve(&host{})
	os.Stderr.WriteString("guest: " + err.Error() + "\n")
	os.Exit(1)
}
