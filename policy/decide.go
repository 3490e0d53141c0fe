package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// inputValue builds the input as an [ast.Value] without a JSON round trip of
// the whole document.
func inputValue(in *authz.Input) (ast.Value, error) {
	params := ast.NewObject()
	if len(bytes.TrimSpace(in.Params)) > 0 {
		v, err := paramsValue(in.Params)
		if err != nil {
			return nil, err
		}
		obj, ok := v.(ast.Object)
		if !ok {
			return nil, fmt.Errorf("params are %s, not an object", ast.ValueName(v))
		}
		params = obj
	}
	calls := ast.NewObject()
	for _, k := range sortedIntKeys(in.Calls) {
		calls.Insert(ast.StringTerm(k), ast.IntNumberTerm(in.Calls[k]))
	}
	capCalls := ast.NewObject()
	for i, n := range in.CapabilityCalls {
		capCalls.Insert(ast.StringTerm(strconv.Itoa(i)), ast.IntNumberTerm(n))
	}
	labels := ast.NewObject()
	for k, v := range in.Session.Labels {
		labels.Insert(ast.StringTerm(k), ast.StringTerm(v))
	}
	flow := ast.NewObject()
	for k, n := range in.Session.Flow.Labels {
		flow.Insert(ast.StringTerm(k), ast.IntNumberTerm(n))
	}
	obj := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("method"), ast.StringTerm(in.Method)},
		[2]*ast.Term{ast.StringTerm("params"), ast.NewTerm(params)},
		[2]*ast.Term{ast.StringTerm("calls"), ast.NewTerm(calls)},
		[2]*ast.Term{ast.StringTerm("capability_calls"), ast.NewTerm(capCalls)},
		[2]*ast.Term{ast.StringTerm("session"), ast.ObjectTerm(
			[2]*ast.Term{ast.StringTerm("id"), ast.StringTerm(in.Session.ID)},
			[2]*ast.Term{ast.StringTerm("labels"), ast.NewTerm(labels)},
			[2]*ast.Term{ast.StringTerm("principal"), ast.StringTerm(in.Session.Principal)},
			[2]*ast.Term{ast.StringTerm("flow"), ast.ObjectTerm(
				[2]*ast.Term{ast.StringTerm("labels"), ast.NewTerm(flow)},
			)},
		)},
		[2]*ast.Term{ast.StringTerm("language"), ast.StringTerm(in.Language)},
	)
	if in.Tool != nil {
		ann := ast.NewObject()
		for k, v := range in.Tool.Annotations {
			ann.Insert(ast.StringTerm(k), ast.BooleanTerm(v))
		}
		tool := ast.NewObject(
			[2]*ast.Term{ast.StringTerm("server"), ast.StringTerm(in.Tool.Server)},
			[2]*ast.Term{ast.StringTerm("annotations"), ast.NewTerm(ann)},
		)
		if len(in.Tool.Labels) > 0 {
			labels := make([]*ast.Term, len(in.Tool.Labels))
			for i, l := range in.Tool.Labels {
				labels[i] = ast.StringTerm(l)
			}
			tool.Insert(ast.StringTerm("labels"), ast.ArrayTerm(labels...))
		}
		obj.Insert(ast.StringTerm("tool"), ast.NewTerm(tool))
	}
	return obj, nil
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
