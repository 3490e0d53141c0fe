package policy

import (
	"sort"
	"strings"

	regolib "github.com/cordonhq/cordon/policy/rego"
	"github.com/open-policy-agent/opa/v1/ast"
)

// AnnotationPermit is a rule of a policy's Rego that grants calls on what
// a tool's MCP annotations say ([Policy.AnnotationPermits]).
type AnnotationPermit struct {
	// File is the module's name (its path, for a module loaded from a
	// file), and Row the rule's line in it.
	File string
	Row  int
	// Rule is the rule's name: "permit" or "allow".
	Rule string
}

// AnnotationPermits returns the rules of the policy's own Rego modules
// (not the shipped library, not the compiled capabilities) that grant
// calls on input.tool.annotations: the rules of package cordon.authz named
// permit or allow that read input.tool.annotations (or input.tool as a
// whole), directly or through another rule or function that does, in any
// module. It is a heuristic, by name: a rule counts when its text refers to
// such a rule, whatever the values involved, and a read through a
// variable of another rule's value (x := input.tool; x.annotations) counts
// as a read of input.tool. Rules are in file order.
//
// What those rules read is a server's own claim only when the config
// trusts the server's annotations or pins them (mcptools.Upstream); for
// other servers the policy sees MCP's defaults, and a permit on
// readOnlyHint never fires for their tools. `cordon policy lint` warns
// about each such rule when some configured server is not trusted.
func (p *Policy) AnnotationPermits() []AnnotationPermit {
	if p == nil {
		return nil
	}
	shipped := regolib.Modules()
	type rule struct {
		key    string // data.pkg.name
		rule   *ast.Rule
		file   string
		own    bool // in a module of the user's
		direct bool
		deps   []string
	}
	var rules []*rule
	for name, src := range p.modules {
		m, err := ast.ParseModuleWithOpts(name, src, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			continue // the policy compiled it: this cannot happen
		}
		pkg := m.Package.Path.String()
		imports := map[string]ast.Ref{}
		for _, imp := range m.Imports {
			ref, ok := imp.Path.Value.(ast.Ref)
			if !ok || len(ref) == 0 {
				continue
			}
			alias := string(imp.Alias)
			if alias == "" {
				last := ref[len(ref)-1].Value
				s, ok := last.(ast.String)
				if !ok {
					continue
				}
				alias = string(s)
			}
			imports[alias] = ref
		}
		local := map[string]bool{}
		for _, r := range m.Rules {
			local[headName(r)] = true
		}
		for _, r := range m.Rules {
			rl := &rule{key: pkg + "." + headName(r), rule: r, file: name, own: shipped[name] == "" && name != CapabilitiesModule}
			ast.WalkTerms(r, func(t *ast.Term) bool {
				var ref ast.Ref
				switch v := t.Value.(type) {
				case ast.Ref:
					ref = v
				case ast.Var:
					ref = ast.Ref{t} // a rule or import named alone
				default:
					return false
				}
				head, ok := ref[0].Value.(ast.Var)
				if !ok {
					return false
				}
				switch {
				case head.Equal(ast.InputRootDocument.Value):
					if readsAnnotations(ref) {
						rl.direct = true
					}
				case head.Equal(ast.DefaultRootDocument.Value):
					rl.deps = append(rl.deps, refPath(ref))
				case imports[string(head)] != nil:
					full := append(imports[string(head)].Copy(), ref[1:]...)
					if full[0].Value.Compare(ast.InputRootDocument.Value) == 0 {
						if readsAnnotations(full) {
							rl.direct = true
						}
						break
					}
					rl.deps = append(rl.deps, refPath(full))
				case local[string(head)]:
					rl.deps = append(rl.deps, pkg+"."+string(head))
				}
				return false
			})
			rules = append(rules, rl)
		}
	}
	// A rule is tainted when it reads the annotations or refers to a
	// tainted rule other than those of its own name; a name is tainted
	// when one of its rules is.
	tainted := map[string]bool{}
	ruleTainted := make([]bool, len(rules))
	for i, r := range rules {
		if r.direct {
			ruleTainted[i], tainted[r.key] = true, true
		}
	}
	for changed := true; changed; {
		changed = false
		for i, r := range rules {
			if ruleTainted[i] {
				continue
			}
			for _, d := range r.deps {
				if d != r.key && dependsOnTainted(d, tainted) {
					ruleTainted[i], tainted[r.key] = true, true
					changed = true
					break
				}
			}
		}
	}
	var out []AnnotationPermit
	for i, r := range rules {
		name := headName(r.rule)
		if r.own && ruleTainted[i] && strings.HasPrefix(r.key, "data.cordon.authz.") && (name == "permit" || name == "allow") {
			out = append(out, AnnotationPermit{File: r.file, Row: r.rule.Location.Row, Rule: name})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Row < out[j].Row
	})
	return out
}

// headName is the first segment of a rule's name.
func headName(r *ast.Rule) string {
	if r.Head.Name != "" {
		return string(r.Head.Name)
	}
	ref := r.Head.Ref()
	if len(ref) == 0 {
		return ""
	}
	switch v := ref[0].Value.(type) {
	case ast.Var:
		return string(v)
	case ast.String:
		return string(v)
	}
	return ""
}

// readsAnnotations reports whether ref, rooted at input, reads
// input.tool.annotations, or input.tool as a whole or at a key not known
// in advance.
func readsAnnotations(ref ast.Ref) bool {
	if len(ref) < 2 || !isString(ref[1], "tool") {
		return false
	}
	if len(ref) == 2 {
		return true
	}
	if _, ok := ref[2].Value.(ast.String); !ok {
		return true // input.tool[x]
	}
	return isString(ref[2], "annotations")
}

func isString(t *ast.Term, s string) bool {
	v, ok := t.Value.(ast.String)
	return ok && string(v) == s
}

// refPath is the ground prefix of a data reference as a dotted path
// (data.cordon.authz.read_only).
func refPath(ref ast.Ref) string {
	var parts []string
	for i, t := range ref {
		switch v := t.Value.(type) {
		case ast.Var:
			if i > 0 {
				return strings.Join(parts, ".")
			}
			parts = append(parts, string(v))
		case ast.String:
			parts = append(parts, string(v))
		default:
			return strings.Join(parts, ".")
		}
	}
	return strings.Join(parts, ".")
}

// dependsOnTainted reports whether the data path d is, or is inside or
// above, a tainted rule.
func dependsOnTainted(d string, tainted map[string]bool) bool {
	for k := range tainted {
		if d == k || strings.HasPrefix(d, k+".") || strings.HasPrefix(k, d+".") {
			return true
		}
	}
	return false
}
