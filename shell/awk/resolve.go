package awk

import "fmt"

// resolve checks function calls and infers which parameters are arrays.
func (p *parser) resolve() {
	for _, c := range p.calls {
		if !c.fn.defined {
			p.failAt(token{line: c.line, col: -1}, "calling undefined function %s", c.name)
		}
		if len(c.args) > len(c.fn.params) {
			// gawk and onetrueawk warn and run the call, evaluating the
			// extra arguments and ignoring them.
			p.warnings = append(p.warnings, fmt.Sprintf("line %d: warning: function %s called with %d args, uses only %d", c.line, c.name, len(c.args), len(c.fn.params)))
		}
	}
	for name, fd := range p.funcs {
		if i, ok := p.globals[name]; ok && fd.defined {
			if p.globalArray[i] {
				p.failAt(token{line: fd.line, col: -1}, "%s is an array, not a function", name)
			}
			p.failAt(token{line: fd.line, col: -1}, "function name `%s' previously defined as a variable", name)
		}
		if _, ok := builtins[name]; ok {
			p.failAt(token{line: fd.line, col: -1}, "function name `%s' is a builtin", name)
		}
	}
	isArr := func(r argRef) bool {
		switch r.v.scope {
		case scopeLocal:
			return r.caller.isArray[r.v.idx]
		case scopeGlobal:
			return p.globalArray[r.v.idx]
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for _, r := range p.refs {
			callee := r.call.fn
			if r.j >= len(callee.params) {
				continue
			}
			a, b := isArr(r), callee.isArray[r.j]
			if b && !a {
				switch r.v.scope {
				case scopeLocal:
					r.caller.isArray[r.v.idx] = true
				case scopeGlobal:
					p.globalArray[r.v.idx] = true
				}
				changed = true
			} else if a && !b {
				callee.isArray[r.j] = true
				changed = true
			}
		}
	}
	for i, uses := range p.globalScalar {
		if len(uses) > 0 && p.globalArray[i] {
			if uses[0].assign {
				p.failAt(token{line: uses[0].line, col: -1}, "can't assign to %s; it's an array name.", p.globalNames[i])
			}
			p.failAt(token{line: uses[0].line, col: -1}, "can't read value of %s; it's an array name.", p.globalNames[i])
		}
	}
	for _, fd := range p.funcList {
		for i := range fd.params {
			if fd.isArray[i] && fd.isScalar[i] {
				// Name the array passed in, as onetrueawk does at run
				// time, and the parameter it is passed as.
				name := fd.params[i]
				for _, r := range p.refs {
					if r.call.fn == fd && r.j == i && r.v.scope == scopeGlobal {
						name = r.v.name + " (passed as " + name + ")"
						break
					}
				}
				verb := "read value of"
				if fd.assigned[i] {
					verb = "assign to"
				}
				p.failAt(token{line: fd.line, col: -1}, "function %s: can't %s %s; it's an array name.", fd.name, verb, name)
			}
		}
	}
	for _, m := range p.multis {
		if !m.used {
			p.failAt(token{line: 1, col: -1}, "syntax error: (expression, expression) outside print or in")
		}
	}
}
