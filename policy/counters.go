package policy

import (
	regolib "github.com/cordonhq/cordon/policy/rego"
	"github.com/open-policy-agent/opa/v1/ast"
)

// CountersUnused reports whether a decision that charged capability i (-1
// for none) read no call counter: capability i has no call limit, and no
// Rego module of the policy's own (neither the shipped library nor the
// compiled capabilities) reads input.calls or input.capability_calls. A
// module that reads input as a whole, or indexes it with a variable, is
// taken to read them. The engine allows such a call, uncounted, when its
// counter store fails (see engine.CounterFreePolicy); every other call is
// then denied.
func (p *Policy) CountersUnused(i int) bool {
	if p == nil {
		return false
	}
	if i >= 0 && (i >= len(p.caps) || p.caps[i].CallLimit() > 0) {
		return false
	}
	p.countersOnce.Do(func() { p.readsCounters = modulesReadCounters(p.modules) })
	return !p.readsCounters
}

// modulesReadCounters reports whether any of the user's modules reads the
// call counters of the input, or might.
func modulesReadCounters(modules map[string]string) bool {
	shipped := regolib.Modules()
	for name, src := range modules {
		if name == CapabilitiesModule {
			continue
		}
		if _, ok := shipped[name]; ok {
			continue
		}
		m, err := ast.ParseModuleWithOpts(name, src, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			return true // the policy compiled it; if not, assume the worst
		}
		reads := false
		ast.WalkRefs(m, func(r ast.Ref) bool {
			if reads || !r.HasPrefix(ast.InputRootRef) {
				return reads
			}
			if len(r) < 2 {
				reads = true // input as a whole
				return true
			}
			switch k := r[1].Value.(type) {
			case ast.String:
				reads = k == "calls" || k == "capability_calls"
			default:
				reads = true // input[x]: any key
			}
			return reads
		})
		// An import of input (import input.calls as c) is a ref too.
		for _, imp := range m.Imports {
			if ref, ok := imp.Path.Value.(ast.Ref); ok && ref.HasPrefix(ast.InputRootRef) {
				if len(ref) < 2 {
					reads = true
				} else if k, ok := ref[1].Value.(ast.String); !ok || k == "calls" || k == "capability_calls" {
					reads = true
				}
			}
		}
		if reads {
			return true
		}
	}
	return false
}
