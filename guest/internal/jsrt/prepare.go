package jsrt

import (
	"sync"

	"github.com/dop251/goja"
)

// Prepare makes, ahead of time, the interpreter that the next execution
// will run in (abi.OpPrepare; the host asks for it while the sandbox is
// idle). A goja runtime builds its Promise constructor and prototype and its
// async function prototype the first time a script needs them, which every
// script that awaits or calls a tool does: that was most of what top-level
// await and a script's first tool call cost over a later one (BENCHMARKS.md,
// "The next execution's interpreter, made ahead"). Prepare builds both.
//
// The runtime is new: it is made after the last execution ended, nothing of
// that execution can reach it, and it runs no code of any script before the
// one it is taken for. Run takes it once; a second Prepare replaces it.
func Prepare() error {
	rt := goja.New()
	rt.Get("Promise") // builds the constructor and its prototype
	if _, err := rt.RunProgram(asyncProto()); err != nil {
		return err
	}
	prepared.Lock()
	prepared.rt = rt
	prepared.Unlock()
	return nil
}

// prepared holds the runtime Prepare made, until Run takes it.
var prepared struct {
	sync.Mutex
	rt *goja.Runtime
}

// newRuntime returns the prepared runtime, if there is one, or a new one.
func newRuntime() *goja.Runtime {
	prepared.Lock()
	rt := prepared.rt
	prepared.rt = nil
	prepared.Unlock()
	if rt == nil {
		rt = goja.New()
	}
	return rt
}

// asyncProto is a program that makes an async function (and drops it),
// which builds the runtime's async function prototype.
var asyncProto = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("prepare.js", "(async function() {})", false)
})
