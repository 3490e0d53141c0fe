package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/cordonhq/cordon/dsl"
	"github.com/open-policy-agent/opa/v1/ast"
)

// native decides in Go for a policy made only of compiled capabilities and
// the shipped library: no user modules, data or bundles. Its decisions are
// those of data.cordon.authz.decision for the same input, reasons included
// (TestNativeAgreesWithRego and FuzzNativeAgreesWithRego compare the two),
// at a small fraction of the cost of a Rego evaluation. Any policy with a
// Rego module of the user's is evaluated by OPA.
type native struct {
	caps     []*dsl.Capability
	checkers []*dsl.Checker
}

func newNative(caps []*dsl.Capability) (*native, error) {
	n := &native{caps: caps}
	for _, c := range caps {
		k, err := c.Checker()
		if err != nil {
			return nil, err
		}
		n.checkers = append(n.checkers, k)
	}
	return n, nil
}

// decodeParams decodes a call's params as the Rego path sees them: an
// object, {} when empty, numbers kept as their JSON text.
func decodeParams(b []byte) (any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}, nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected text after the params")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("params are %s, not an object", jsonKind(v))
	}
	if err := checkNumbers(v, 0); err != nil {
		return nil, err
	}
	return v, nil
}

// checkNumbers refuses what OPA's input reader refuses: numbers with an
// out-of-range exponent, so that both evaluators deny such params alike.
func checkNumbers(v any, depth int) error {
	if depth > maxParamDepth {
		return fmt.Errorf("params are nested more than %d levels deep", maxParamDepth)
	}
	switch v := v.(type) {
	case json.Number:
		_, err := ast.NumberChecked(string(v))
		return err
	case []any:
		for _, e := range v {
			if err := checkNumbers(e, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, e := range v {
			if err := checkNumbers(e, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// decide mirrors policy/rego/authz.rego for a policy without user rules:
// permit is the set of capabilities that allow the call up to the gate (the
// first asking capability with max_calls whose constraints hold), deny
// explains why none does, and ask comes from the charged capability's ask
// flag.
func (n *native) decide(in *Input, params any) Decision {
	charged, gate := -1, -1
	matched := false
	var violations []string
	for i, k := range n.checkers {
		if !k.Match(in.Method) {
			continue
		}
		matched = true
		ok, reasons := k.Allows(params, in.CapabilityCalls[i])
		if ok && gate < 0 {
			charged = i
			break // the first allowing capability is charged; violations are not needed
		}
		if !ok && gate < 0 && n.caps[i].Asks() && n.caps[i].CallLimit() > 0 && k.Holds(params) {
			// An asking capability that would take the call but is used
			// up: no later capability may allow it (the library's gate).
			gate = i
		}
		for _, r := range reasons {
			violations = append(violations, fmt.Sprintf("capability #%d %s: %s", i, dsl.Quote(n.caps[i].Label()), r))
		}
	}
	if charged >= 0 {
		c := n.caps[charged]
		if c.Asks() {
			return Decision{Ask: true, Capability: charged, Reasons: []string{fmt.Sprintf("capability #%d %q requires approval", charged, c.Pattern())}}
		}
		return Decision{Allow: true, Capability: charged}
	}
	var reasons []string
	switch {
	case gate >= 0:
		c := n.caps[gate]
		violations = append(violations, fmt.Sprintf("capability #%d %q requires approval and its max_calls %d is used up", gate, c.Pattern(), c.CallLimit()))
		sort.Strings(violations)
		reasons = dedupSorted(violations)
	case !matched:
		reasons = []string{fmt.Sprintf("no capability allows method %q", in.Method)}
	case len(violations) == 0:
		reasons = []string{fmt.Sprintf("no capability allows this call to %q", in.Method)}
	default:
		sort.Strings(violations)
		reasons = dedupSorted(violations)
	}
	return Decision{Capability: -1, Reasons: reasons}
}

func dedupSorted(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
