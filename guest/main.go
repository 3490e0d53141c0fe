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
// The ABI, all lengths in bytes and all pointers into this module's memory:
//
//	next(ptr, len) -> n      answer the last request with the bytes at ptr,
//	                         block until the next request; n is its length
//	yield(ptr, len) -> n     hand the host a batch of tool calls, block
//	                         until it answers; n is the answer's length
//	recv(ptr)                copy the pending request or answer to ptr
//	write(fd, ptr, len)      script output: fd 1 stdout, 2 stderr
//	interrupt(ptr)           the address of the interpreter's interrupt flag
//	                         (0: none); the host stores 1 there to stop it
//	tick()                   called by the instrumented code every few
//	                         thousand loop iterations (internal/wasmtick):
//	                         the host's preemption point and hard stop
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
