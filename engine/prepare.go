package engine

import (
	"github.com/cordonhq/cordon/internal/abi"
)

// prepareLater has the guest make the interpreter of the sandbox's next
// JavaScript execution while the sandbox is idle ([abi.OpPrepare]), so that
// the next script starts in a runtime whose Promise and async machinery
// exist already instead of building them on its own clock (RATIONALE.md, "The
// next execution's interpreter, made ahead").
//
// It never waits: the goroutine it starts takes the sandbox's turn only if
// nothing holds it, so an execution, a file operation or a recycle that comes
// first goes ahead, and its script makes its runtime itself as before. An
// execution that comes while the guest prepares waits for that (a few tens
// of microseconds of guest time). A guest that is about to be replaced is
// not asked.
func (sb *Sandbox) prepareLater() {
	if sb.shouldRecycle() || sb.Err() != nil {
		return
	}
	go func() {
		if !sb.tryAcquire() {
			return
		}
		defer sb.release()
		// A failure is the guest's and shows at the next request, which
		// finds the sandbox broken (sb.request breaks it on a protocol
		// error or a crash); a script makes its runtime itself otherwise.
		if _, err := sb.request(&abi.Request{Op: abi.OpPrepare}); err == nil {
			sb.prepared.Add(1)
		}
	}()
}
