package dsl

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cordonhq/cordon/internal/dslutil"
)

// Allows reports whether the capability allows a call of method with
// params, when capCalls calls were already charged to it, and if not, why:
// one reason per constraint that does not hold (each distinct reason
// once), and one when max_calls is used up, as in "amount <= 10000 does not hold (amount is 20000)" or
// "max_calls 5 used up". When the method does not match the pattern (or
// the capability is invalid) it returns false and a reason that says so.
//
// Allows is the reference semantics of a capability, written in Go; the
// Rego that package policy/compile generates agrees with it, and its
// violations are these reasons prefixed with the capability. In short:
//
//   - the method must match the pattern (see MatchMethod);
//   - params are normalized as encoding/json makes them; a missing or null
//     parameter fails every constraint except exists and not_exists;
//   - < <= > >= need a parameter of the value's type: numbers compare by
//     value, strings by code point (the order of their UTF-8 bytes);
//     starts_with and ends_with need a string parameter; contains needs a
//     string (and a string value) or an array;
//   - == compares JSON values exactly, numbers by value (1 == 1.0);
//     != and not_in need the parameter present and not null;
//   - any_of holds when one member holds, all_of when all hold;
//   - with max_calls n > 0, capCalls must be below n (a negative capCalls
//     is not a count and fails).
func (c *Capability) Allows(method string, params map[string]any, capCalls int) (bool, []string) {
	ch, err := c.Checker()
	if err != nil {
		return false, []string{err.Error()}
	}
	if !ch.Match(method) {
		return false, []string{fmt.Sprintf("method %s does not match %s", Quote(method), Quote(c.method))}
	}
	var p any = map[string]any{}
	if params != nil {
		if p, err = Normalize(params); err != nil {
			return false, []string{"params are not JSON: " + strings.TrimPrefix(err.Error(), "dsl: ")}
		}
	}
	return ch.Allows(p, capCalls)
}

// Checker is a validated capability with its method pattern compiled, for
// checking many calls. It is safe for concurrent use.
type Checker struct {
	c *Capability
	m methodMatcher
}

// Checker validates the capability and compiles its pattern.
func (c *Capability) Checker() (*Checker, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m, err := compileMethod(c.method)
	if err != nil {
		return nil, err
	}
	return &Checker{c: c, m: m}, nil
}

// Match reports whether method matches the capability's pattern.
func (k *Checker) Match(method string) bool { return k.m.match(method) }

// Allows is [Capability.Allows] for a method that matches, with params
// already normalized (as encoding/json decodes a JSON object with
// UseNumber).
func (k *Checker) Allows(params any, capCalls int) (bool, []string) {
	c := k.c
	var reasons []string
	for _, x := range c.constraints {
		if !x.holds(params) {
			if r := x.violation(params); !slices.Contains(reasons, r) {
				reasons = append(reasons, r)
			}
		}
	}
	if c.maxCalls > 0 {
		switch {
		case capCalls < 0:
			reasons = append(reasons, fmt.Sprintf("max_calls %d cannot be checked (input.capability_calls is missing or invalid)", c.maxCalls))
		case capCalls >= c.maxCalls:
			reasons = append(reasons, fmt.Sprintf("max_calls %d used up", c.maxCalls))
		}
	}
	return len(reasons) == 0, reasons
}

// Untouched reports whether the capability's flow rule lets it apply
// ([Capability.UnlessTouched]) when flow counts the allowed calls to tools
// of each label, and if not, why: one reason per label of the rule that
// was touched (a count that is not 0), as in
// `unless_touched: a call to a tool labelled "private" was allowed`.
func (k *Checker) Untouched(flow map[string]int) (bool, []string) {
	var reasons []string
	for _, l := range k.c.untouched {
		if flow[l] != 0 {
			reasons = append(reasons, TouchedReason(l))
		}
	}
	return len(reasons) == 0, reasons
}

// TouchedReason is the reason a capability whose UnlessTouched names
// label gives once a call to a tool with that label was allowed.
func TouchedReason(label string) string {
	return fmt.Sprintf("unless_touched: a call to a tool labelled %s was allowed", Quote(label))
}

// Holds reports whether every constraint of the capability holds for
// params (normalized as for Allows), whatever its max_calls.
func (k *Checker) Holds(params any) bool {
	for _, x := range k.c.constraints {
		if !x.holds(params) {
			return false
		}
	}
	return true
}

// violation returns the reason the constraint gives when it does not hold
// for params (a normalized JSON object): its text, "does not hold", and
// the value of each parameter it reads, as in
// "amount <= 10000 does not hold (amount is 20000)" or
// "... (amount is missing)". Values are written as JSON, shortened to
// 64 characters.
func (c Constraint) violation(params any) string {
	var parts []string
	for _, path := range c.Params() {
		parts = append(parts, path+" is "+dslutil.DescribeValue(lookup(params, path)))
	}
	return fmt.Sprintf("%s does not hold (%s)", c, strings.Join(parts, ", "))
}

// lookup returns the value at a parameter path in normalized params.
func lookup(params any, path string) (any, bool) {
	segs, err := dslutil.SplitParam(path)
	if err != nil {
		return nil, false
	}
	cur := params
	for _, s := range segs {
		switch s := s.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[s]; !ok {
				return nil, false
			}
		case int:
			a, ok := cur.([]any)
			if !ok || s >= len(a) {
				return nil, false
			}
			cur = a[s]
		}
	}
	return cur, true
}

// holds evaluates a valid constraint on normalized params.
func (c Constraint) holds(params any) bool {
	switch c.Op {
	case OpAnyOf:
		for _, m := range c.Members {
			if m.holds(params) {
				return true
			}
		}
		return false
	case OpAllOf:
		for _, m := range c.Members {
			if !m.holds(params) {
				return false
			}
		}
		return true
	}
	v, found := lookup(params, c.Param)
	present := found && v != nil
	switch c.Op {
	case OpExists:
		return present
	case OpNotExists:
		return !present
	}
	if !present {
		return false
	}
	switch c.Op {
	case OpLt, OpLe, OpGt, OpGe:
		r, ok := order(v, c.Value)
		if !ok {
			return false
		}
		switch c.Op {
		case OpLt:
			return r < 0
		case OpLe:
			return r <= 0
		case OpGt:
			return r > 0
		default:
			return r >= 0
		}
	case OpEq:
		return jsonEqual(v, c.Value)
	case OpNe:
		return !jsonEqual(v, c.Value)
	case OpIn, OpNotIn:
		in := false
		for _, e := range c.Value.([]any) {
			if jsonEqual(v, e) {
				in = true
				break
			}
		}
		return in == (c.Op == OpIn)
	case OpStartsWith, OpEndsWith:
		s, ok := v.(string)
		if !ok {
			return false
		}
		if c.Op == OpStartsWith {
			return strings.HasPrefix(s, c.Value.(string))
		}
		return strings.HasSuffix(s, c.Value.(string))
	case OpContains:
		switch v := v.(type) {
		case string:
			sub, ok := c.Value.(string)
			return ok && strings.Contains(v, sub)
		case []any:
			for _, e := range v {
				if jsonEqual(e, c.Value) {
					return true
				}
			}
		}
		return false
	}
	return false
}

// order compares a parameter with the value of an ordering: two numbers
// by value, two strings by code point, which for valid UTF-8 is the order
// of their bytes (as Rego compares them). ok is false when the two are not
// both numbers or both strings.
func order(param, value any) (r int, ok bool) {
	switch value := value.(type) {
	case json.Number:
		if n, ok := param.(json.Number); ok {
			return compareNumbers(n, value), true
		}
	case string:
		if s, ok := param.(string); ok {
			return strings.Compare(s, value), true
		}
	}
	return 0, false
}
