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
	for _, c := range p.caps {
		if len(c.UnlessTouchedLabels()) > 0 {
			return false // a flow rule reads the counters of labels
		}
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
			reads = readsCounters(r)
			return reads
		})
		// An import of input (import input.calls as c) is a ref too.
		for _, imp := range m.Imports {
			if ref, ok := imp.Path.Value.(ast.Ref); ok && ref.HasPrefix(ast.InputRootRef) {
				reads = reads || readsCounters(ref)
			}
		}
		if reads {
			return true
		}
	}
	return false
}

// readsCounters reports whether a reference into input may read the call
// counters: input.calls, input.capability_calls, the flow history
// (input.session.flow), or a part of input that holds one of them (input,
// input.session, input[x], input.session[x]).
func readsCounters(r ast.Ref) bool {
	if len(r) < 2 {
		return true
	}
	k, ok := r[1].Value.(ast.String)
	switch {
	case !ok:
		return true
	case k == "calls" || k == "capability_calls":
		return true
	case k == "session":
		if len(r) < 3 {
			return true
		}
		k2, ok := r[2].Value.(ast.String)
		return !ok || k2 == "flow"
	}
	return false
}
