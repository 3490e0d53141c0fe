package engine

import "time"

// Test hooks for the tests of package engine_test.

// GuestWasm returns the uncompressed guest module that engines compile.
var GuestWasm = guestWasm

// ImportedFunctions lists the host functions the compiled guest imports, as
// "module.name". It is how tests prove the guest's only ways out.
func (e *Engine) ImportedFunctions() []string {
	var out []string
	for _, f := range e.compiled.ImportedFunctions() {
		mod, name, _ := f.Import()
		out = append(out, mod+"."+name)
	}
	return out
}

// Prepared reports how many interpreters the sandbox's guest has made ahead
// of an execution (prepareLater).
func (sb *Sandbox) Prepared() int64 { return sb.prepared.Load() }

// WithRecycleIdle sets how long a sandbox waits idle before it gives its
// guest's memory back (a couple of seconds by default).
func (c Config) WithRecycleIdle(d time.Duration) Config { c.recycleIdle = d; return c }

// Recycled reports how many times the sandbox replaced its guest to give
// memory back.
func (sb *Sandbox) Recycled() int64 { return sb.recycled.Load() }
