package engine

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
