package policy

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cordonhq/cordon/policy/authz"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// split decides a policy with Rego of the user's in two parts: OPA
// evaluates only the user's rules (what they add to permit, deny and ask
// in package cordon.authz), and the shipped library and the compiled
// capabilities are decided in Go by an [authz.CapabilityPolicy], which is
// held to give what OPA gives for them. The library's rules cost several
// times a user rule through OPA, and what they compute depends on the
// input and the capabilities alone, so this is the library partially
// evaluated ahead of the call. RATIONALE.md ("Policy decisions", "With user Rego, OPA
// evaluates only the user's rules") says why it is exact, and when a
// policy is not split.
//
// A policy is split only when the user's modules cannot see the library:
// they define no rule at or under a path of the library (other than rules
// that add to permit, deny and ask) and read none (no reference into
// data.cordon.capabilities, to a library rule, or to a document that
// holds one, such as data.cordon.authz or data), and no data document
// lives under data.cordon. The library's own rules then depend only on the
// input and the capabilities, and the user's on the input and data.
type split struct {
	native *authz.CapabilityPolicy
	// fields are the fields of the input that the user's rules read, the
	// only ones the queries below are given.
	fields inputFields
	// One query for each state of the library's own deny: the library
	// never denies (a capability is charged), always denies (no capability
	// is charged and an asking capability gates the call), or denies unless
	// the user's rules permit. Each evaluates the user's permit and deny,
	// and ask only when the whole program would: when nothing denies the
	// call. A query is nil when there is nothing of the user's to
	// evaluate.
	never, always, unlessPermit *rego.PreparedEvalQuery
}

// extensionSets are the sets of package cordon.authz that user rules add to.
var extensionSets = [...]string{"permit", "deny", "ask"}

// newSplit prepares the split form of a policy, or returns nil when the
// policy cannot be split. c is the compiler of the whole policy, after
// compiling; library names the modules that are not the user's.
//
// opts are the options of the whole program without its query and
// modules: the store, which the split shares, the schemas and the
// built-ins.
func newSplit(ctx context.Context, c *ast.Compiler, modules map[string]string, library map[string]bool, data map[string]any, opts []func(*rego.Rego), native *authz.CapabilityPolicy) *split {
	if c == nil || native == nil {
		return nil
	}
	if _, ok := data["cordon"]; ok {
		return nil
	}
	libPaths := []ast.Ref{ast.MustParseRef("data.cordon.capabilities")}
	for name := range library {
		m := c.Modules[name]
		if m == nil {
			return nil
		}
		for _, r := range m.Rules {
			libPaths = append(libPaths, r.Ref().GroundPrefix())
		}
	}
	overlaps := func(r ast.Ref) bool {
		for _, l := range libPaths {
			if r.HasPrefix(l) || l.HasPrefix(r) {
				return true
			}
		}
		return false
	}
	extPath := map[string]string{}
	for _, s := range extensionSets {
		extPath[ast.MustParseRef("data.cordon.authz."+s).String()] = s
	}
	s := &split{native: native}
	defined := map[string]bool{}
	userOpts := append([]func(*rego.Rego){}, opts...)
	for name, src := range modules {
		if library[name] {
			continue
		}
		m := c.Modules[name]
		if m == nil {
			return nil
		}
		for _, r := range m.Rules {
			p := r.Ref().GroundPrefix()
			if !overlaps(p) {
				continue
			}
			set, ok := extPath[p.String()]
			if !ok || r.Head.RuleKind() != ast.MultiValue || len(r.Head.Args) > 0 {
				return nil
			}
			defined[set] = true
		}
		readsLibrary := false
		for _, rule := range m.Rules { // not the package clause, which names a path
			ast.WalkRefs(rule, func(r ast.Ref) bool {
				if r.HasPrefix(ast.DefaultRootRef) && overlaps(r.GroundPrefix()) {
					readsLibrary = true
				}
				if r.HasPrefix(ast.InputRootRef) {
					s.fields |= readsInput(r)
				}
				return readsLibrary
			})
		}
		if readsLibrary {
			return nil
		}
		userOpts = append(userOpts, rego.Module(name, src))
	}
	// permit and deny are evaluated always, as the library's deny rules
	// read both; ask is evaluated when nothing denies the call.
	var pd []string
	for _, name := range []string{"permit", "deny"} {
		if defined[name] {
			pd = append(pd, fmt.Sprintf("%s := data.cordon.authz.%s", name, name))
		}
	}
	query := func(askIf ...string) string {
		q := slices.Clone(pd)
		if defined["ask"] && askIf != nil {
			var cond []string
			for _, c := range askIf {
				switch {
				case c == "permitted" && !defined["permit"]:
					askIf = nil // nothing permits: the library denies
				case c == "permitted":
					cond = append(cond, "count(permit) > 0")
				case defined["deny"]:
					cond = append(cond, "count(deny) == 0")
				}
			}
			switch {
			case askIf == nil:
			case len(cond) == 0:
				q = append(q, "ask := data.cordon.authz.ask")
			default:
				q = append(q, fmt.Sprintf("ask := {x | %s; some x in data.cordon.authz.ask}", strings.Join(cond, "; ")))
			}
		}
		return strings.Join(q, "; ")
	}
	var userC *ast.Compiler
	for _, q := range []struct {
		text string
		pq   **rego.PreparedEvalQuery
	}{
		{query("undenied"), &s.never},
		{query(), &s.always},
		{query("permitted", "undenied"), &s.unlessPermit},
	} {
		if q.text == "" {
			continue // nothing of the user's to evaluate in this state
		}
		o := append([]func(*rego.Rego){rego.Query(q.text)}, userOpts...)
		if userC != nil {
			// The modules are compiled once; later queries share them.
			o = append([]func(*rego.Rego){rego.Query(q.text), rego.Compiler(userC)}, opts...)
		} else {
			o = append(o, rego.CompilerHook(func(c *ast.Compiler) { userC = c }))
		}
		pq, err := rego.New(o...).PrepareForEval(ctx)
		if err != nil {
			return nil // the whole program decides
		}
		*q.pq = &pq
	}
	return s
}

// decide decides one call, or returns ok false when the call must be
// decided by the whole program: when a deny or ask rule of the user's
// gives a reason that is not a string (the whole program then reports a
// malformed decision, in its own words).
func (s *split) decide(ctx context.Context, in *authz.Input) (d authz.Decision, ok bool, err error) {
	e, d, err := s.native.Evaluate(in)
	if err != nil {
		return d, false, nil // the whole program says why, in its words
	}
	pq := s.never
	switch {
	case e.Denies(true):
		pq = s.always
	case e.Denies(false):
		pq = s.unlessPermit
	}
	if pq == nil {
		return e.Decide(authz.Extension{}), true, nil
	}
	input, err := s.fields.value(in)
	if err != nil {
		return authz.Decision{}, false, nil // the whole program says why
	}
	rs, err := pq.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		return authz.Decision{}, true, err
	}
	if len(rs) != 1 {
		return authz.Decision{}, false, nil
	}
	b := rs[0].Bindings
	permit, ok1 := b["permit"].([]any)
	ok1 = ok1 || b["permit"] == nil
	deny, ok2 := stringSet(b["deny"])
	ask, ok3 := stringSet(b["ask"])
	if !ok1 || !ok2 || !ok3 {
		return authz.Decision{}, false, nil
	}
	return e.Decide(authz.Extension{Permit: len(permit) > 0, Deny: deny, Ask: ask}), true, nil
}

// stringSet returns the strings of a set that OPA returned, or false when
// it holds anything else.
func stringSet(v any) ([]string, bool) {
	if v == nil {
		return nil, true // not evaluated: empty
	}
	a, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(a))
	for _, e := range a {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// readsInput returns the fields of the input that a reference into it may
// read: all of them for input as a whole or input[x].
func readsInput(r ast.Ref) inputFields {
	if len(r) < 2 {
		return allFields
	}
	k, ok := r[1].Value.(ast.String)
	if !ok {
		return allFields
	}
	return inputField(string(k))
}
