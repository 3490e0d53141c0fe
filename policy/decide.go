package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"sort"
	"strconv"

	"github.com/cordonhq/cordon/internal/canon"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// Decide evaluates the policy for one call: the input and the decision are
// those of package authz, the contract a Policy shares with
// [authz.CapabilityPolicy] (a Policy is an engine.Policy). It never allows
// on failure: when evaluation fails, the decision denies and err says why
// (the reason in the decision says so too). A policy made only of
// capabilities decides through an [authz.CapabilityPolicy], whose errors
// this wraps.
func (p *Policy) Decide(ctx context.Context, in *authz.Input) (authz.Decision, error) {
	// Both evaluators read the canonical form of the params, so that they
	// and the handler agree on every key and number (see internal/canon).
	// The engine hands over canonical params already (ParamsCanonical);
	// this makes a direct caller of Decide just as safe.
	if !in.ParamsCanonical {
		canonical, err := canon.Params(in.Params)
		if err != nil {
			return denied(err.Error()), fmt.Errorf("policy: input: %w", err)
		}
		cp := *in
		cp.Params, cp.ParamsCanonical = canonical, true
		in = &cp
	}
	if p.native != nil {
		d, err := p.native.Decide(ctx, in)
		if err != nil {
			err = fmt.Errorf("policy: %w", err)
		}
		return d, err
	}
	if p.split != nil {
		d, ok, err := p.split.decide(ctx, in)
		if err != nil {
			return denied("the policy failed to evaluate"), fmt.Errorf("policy: evaluate %s: %w", in.Method, err)
		}
		if ok {
			return d, nil
		}
	}
	v, err := inputValue(in)
	if err != nil {
		return denied("the call's params are not a JSON object"), fmt.Errorf("policy: input: %w", err)
	}
	rs, err := p.query.Eval(ctx, rego.EvalParsedInput(v))
	if err != nil {
		return denied("the policy failed to evaluate"), fmt.Errorf("policy: evaluate %s: %w", in.Method, err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return denied("the policy returned no decision"), fmt.Errorf("policy: %s: decision is undefined", in.Method)
	}
	d, err := parseDecision(rs[0].Expressions[0].Value)
	if err != nil {
		return denied("the policy returned a malformed decision"), fmt.Errorf("policy: %s: %w", in.Method, err)
	}
	return d, nil
}

func denied(reason string) authz.Decision {
	return authz.Decision{Reasons: []string{reason}, Capability: -1}
}

func parseDecision(raw any) (authz.Decision, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return authz.Decision{}, fmt.Errorf("decision is %T, not an object", raw)
	}
	d := authz.Decision{Capability: -1}
	if d.Allow, ok = m["allow"].(bool); !ok {
		return authz.Decision{}, fmt.Errorf("decision.allow is not a boolean")
	}
	if d.Ask, ok = m["ask"].(bool); !ok {
		return authz.Decision{}, fmt.Errorf("decision.ask is not a boolean")
	}
	if d.Allow && d.Ask {
		return authz.Decision{}, fmt.Errorf("decision both allows and asks")
	}
	rs, ok := m["reasons"].([]any)
	if !ok {
		return authz.Decision{}, fmt.Errorf("decision.reasons is not an array")
	}
	for _, r := range rs {
		s, ok := r.(string)
		if !ok {
			return authz.Decision{}, fmt.Errorf("decision.reasons holds a %T", r)
		}
		d.Reasons = append(d.Reasons, s)
	}
	if c, present := m["capability"]; present {
		n, ok := c.(json.Number)
		if !ok {
			return authz.Decision{}, fmt.Errorf("decision.capability is not a number")
		}
		i, err := strconv.Atoi(string(n))
		if err != nil {
			return authz.Decision{}, fmt.Errorf("decision.capability %s is not an integer", n)
		}
		d.Capability = i
	}
	if !d.Allow && !d.Ask && len(d.Reasons) == 0 {
		d.Reasons = []string{"denied by policy"}
	}
	return d, nil
}

// The keys of the input document, made once: OPA never changes a term of
// its input, so every input shares them.
var (
	keyMethod          = ast.StringTerm("method")
	keyParams          = ast.StringTerm("params")
	keyCalls           = ast.StringTerm("calls")
	keyCapabilityCalls = ast.StringTerm("capability_calls")
	keySession         = ast.StringTerm("session")
	keyID              = ast.StringTerm("id")
	keyLabels          = ast.StringTerm("labels")
	keyPrincipal       = ast.StringTerm("principal")
	keyFlow            = ast.StringTerm("flow")
	keyLanguage        = ast.StringTerm("language")
	keyTool            = ast.StringTerm("tool")
	keyServer          = ast.StringTerm("server")
	keyAnnotations     = ast.StringTerm("annotations")
)

// inputFields is a set of the input document's top-level keys.
type inputFields uint8

const (
	fieldMethod inputFields = 1 << iota
	fieldParams
	fieldCalls
	fieldCapabilityCalls
	fieldSession
	fieldLanguage
	fieldTool
	allFields inputFields = 1<<iota - 1
)

// inputField returns the field of the top-level key name, or 0 for a key
// the input does not have.
func inputField(name string) inputFields {
	switch name {
	case "method":
		return fieldMethod
	case "params":
		return fieldParams
	case "calls":
		return fieldCalls
	case "capability_calls":
		return fieldCapabilityCalls
	case "session":
		return fieldSession
	case "language":
		return fieldLanguage
	case "tool":
		return fieldTool
	}
	return 0
}

// inputValue builds the input as an [ast.Value] without a JSON round trip of
// the whole document.
func inputValue(in *authz.Input) (ast.Value, error) { return allFields.value(in) }

// value builds the part of the input that holds the fields of f: a policy
// whose rules read only some fields is given only those, which it cannot
// tell from the whole input.
func (f inputFields) value(in *authz.Input) (ast.Value, error) {
	obj := ast.NewObjectWithCapacity(bits.OnesCount8(uint8(f)))
	if f&fieldMethod != 0 {
		obj.Insert(keyMethod, ast.InternedTerm(in.Method))
	}
	if f&fieldParams != 0 {
		params, err := paramsTerm(in.Params)
		if err != nil {
			return nil, err
		}
		obj.Insert(keyParams, params)
	}
	if f&fieldCalls != 0 {
		obj.Insert(keyCalls, callsTerm(in.Calls))
	}
	if f&fieldCapabilityCalls != 0 {
		obj.Insert(keyCapabilityCalls, capabilityCallsTerm(in.CapabilityCalls))
	}
	if f&fieldSession != 0 {
		obj.Insert(keySession, sessionTerm(&in.Session))
	}
	if f&fieldLanguage != 0 {
		obj.Insert(keyLanguage, ast.InternedTerm(in.Language))
	}
	if f&fieldTool != 0 && in.Tool != nil {
		obj.Insert(keyTool, toolTerm(in.Tool))
	}
	return obj, nil
}

// paramsTerm reads a call's params: an object, {} when empty.
func paramsTerm(b []byte) (*ast.Term, error) {
	params := ast.InternedEmptyObject
	if len(bytes.TrimSpace(b)) > 0 {
		v, err := paramsValue(b)
		if err != nil {
			return nil, err
		}
		if _, ok := v.(ast.Object); !ok {
			return nil, fmt.Errorf("params are %s, not an object", ast.ValueName(v))
		}
		params = ast.NewTerm(v)
	}
	return params, nil
}

func callsTerm(m map[string]int) *ast.Term {
	if len(m) == 0 {
		return ast.InternedEmptyObject
	}
	obj := ast.NewObjectWithCapacity(len(m))
	for _, k := range sortedIntKeys(m) {
		obj.Insert(ast.StringTerm(k), ast.InternedTerm(m[k]))
	}
	return ast.NewTerm(obj)
}

func capabilityCallsTerm(m map[int]int) *ast.Term {
	if len(m) == 0 {
		return ast.InternedEmptyObject
	}
	obj := ast.NewObjectWithCapacity(len(m))
	for i, n := range m {
		obj.Insert(ast.InternedIntegerString(i), ast.InternedTerm(n))
	}
	return ast.NewTerm(obj)
}

func sessionTerm(s *authz.Session) *ast.Term {
	labels := ast.InternedEmptyObject
	if len(s.Labels) > 0 {
		obj := ast.NewObjectWithCapacity(len(s.Labels))
		for k, v := range s.Labels {
			obj.Insert(ast.StringTerm(k), ast.StringTerm(v))
		}
		labels = ast.NewTerm(obj)
	}
	flow := ast.InternedEmptyObject
	if len(s.Flow.Labels) > 0 {
		obj := ast.NewObjectWithCapacity(len(s.Flow.Labels))
		for k, n := range s.Flow.Labels {
			obj.Insert(ast.StringTerm(k), ast.InternedTerm(n))
		}
		flow = ast.NewTerm(obj)
	}
	return ast.ObjectTerm(
		[2]*ast.Term{keyID, ast.InternedTerm(s.ID)},
		[2]*ast.Term{keyLabels, labels},
		[2]*ast.Term{keyPrincipal, ast.InternedTerm(s.Principal)},
		[2]*ast.Term{keyFlow, ast.ObjectTerm([2]*ast.Term{keyLabels, flow})},
	)
}

func toolTerm(t *authz.ToolInfo) *ast.Term {
	ann := ast.InternedEmptyObject
	if len(t.Annotations) > 0 {
		o := ast.NewObjectWithCapacity(len(t.Annotations))
		for k, v := range t.Annotations {
			o.Insert(ast.StringTerm(k), ast.InternedTerm(v))
		}
		ann = ast.NewTerm(o)
	}
	tool := ast.NewObject(
		[2]*ast.Term{keyServer, ast.InternedTerm(t.Server)},
		[2]*ast.Term{keyAnnotations, ann},
	)
	if len(t.Labels) > 0 {
		labels := make([]*ast.Term, len(t.Labels))
		for i, l := range t.Labels {
			labels[i] = ast.InternedTerm(l)
		}
		tool.Insert(keyLabels, ast.ArrayTerm(labels...))
	}
	return ast.NewTerm(tool)
}

func sortedIntKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// InputValue returns the Rego input document of one call (what a policy
// reads as input) as an OPA value, built the way Decide builds it: the
// params in canonical form, then method, calls, capability_calls,
// session, language and tool. Packages that evaluate or log decisions
// outside a Policy (package fleet's decision log) use it so that their
// input is exactly the one decided on.
func InputValue(in *authz.Input) (ast.Value, error) {
	if !in.ParamsCanonical {
		canonical, err := canon.Params(in.Params)
		if err != nil {
			return nil, fmt.Errorf("policy: input: %w", err)
		}
		cp := *in
		cp.Params, cp.ParamsCanonical = canonical, true
		in = &cp
	}
	v, err := inputValue(in)
	if err != nil {
		return nil, fmt.Errorf("policy: input: %w", err)
	}
	return v, nil
}
