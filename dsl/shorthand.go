package dsl

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cordonhq/cordon/internal/dslutil"
)

// DefaultMaxCalls is the max_calls that [Shorthand.Capabilities] gives a
// tool without an entry in [Shorthand.MaxCalls]: 100, as many calls per
// sandbox session as cordon allows each tool when no policy is configured
// (engine.DefaultMaxCalls), and amla-sandbox's default (DEFAULT_MAX_CALLS).
const DefaultMaxCalls = 100

// Shorthand is a policy in the compact form of amla-sandbox's
// create_bash_tool, whose users write
//
//	create_bash_tool(tools=[transfer_money, get_weather],
//	    constraints={"transfer_money": {"amount": "<=1000", "currency": ["USD", "EUR"]}},
//	    max_calls={"transfer_money": 10})
//
// The same policy in Go:
//
//	caps, err := dsl.Shorthand{
//		Constraints: map[string]map[string]any{
//			"transfer_money": {"amount": "<=1000", "currency": []string{"USD", "EUR"}},
//		},
//		MaxCalls: map[string]int{"transfer_money": 10},
//	}.Capabilities("transfer_money", "get_weather")
//
// Capabilities turns it into ordinary capabilities, one per registered
// tool: listed tools get their constraints and limits, and the others stay
// callable, unconstrained, DefaultMaxCalls times per session, as when no
// policy is configured. A config file writes it as the top-level maps
// constraints: and max_calls:.
type Shorthand struct {
	// Constraints maps a tool name to the constraints on its params: a
	// parameter path (see Param) to a value form, which
	// ShorthandConstraint reads.
	Constraints map[string]map[string]any
	// MaxCalls maps a tool name to the calls it allows per sandbox
	// session, at least 1. A tool without an entry allows
	// DefaultMaxCalls.
	MaxCalls map[string]int
}

// Capabilities returns one capability per tool, in the order of tools.
// Its method pattern matches the tool's name exactly (glob characters are
// escaped), its constraints are the tool's entries in s.Constraints in the
// order of their parameter paths, and its max_calls is the tool's entry in
// s.MaxCalls, or DefaultMaxCalls. No two of the capabilities match a
// common method, so their order does not change a decision and Lint finds
// nothing to warn about.
//
// It reports every problem (joined with [errors.Join]), each an *Error whose
// Position names the key, as in
//
//	dsl: constraints["transfer_money"]["amount"] "<=abc": value abc is not JSON; write strings in double quotes: "abc"
//
// for a key of s that names none of tools, a value form that
// ShorthandConstraint refuses, a max_calls below 1, and a tool named twice
// in tools or not a valid method.
func (s Shorthand) Capabilities(tools ...string) ([]*Capability, error) {
	var errs []error
	fail := func(position, format string, args ...any) {
		errs = append(errs, &Error{Capability: -1, Position: position, Msg: fmt.Sprintf(format, args...)})
	}
	known := make(map[string]bool, len(tools))
	for _, t := range tools {
		if known[t] {
			fail("", "tool %s is named twice", Quote(t))
		}
		known[t] = true
	}
	for _, t := range sortedKeys(s.Constraints) {
		if !known[t] {
			fail("constraints["+Quote(t)+"]", "%s", noSuchTool(tools))
		}
	}
	for _, t := range sortedKeys(s.MaxCalls) {
		if !known[t] {
			fail("max_calls["+Quote(t)+"]", "%s", noSuchTool(tools))
		} else if n := s.MaxCalls[t]; n < 1 {
			fail("max_calls["+Quote(t)+"]", "must be at least 1, not %d (a tool left out of max_calls may be called %d times)", n, DefaultMaxCalls)
		}
	}
	caps := make([]*Capability, 0, len(tools))
	for _, t := range tools {
		c := Method(literalPattern(t)).MaxCalls(DefaultMaxCalls)
		if n, ok := s.MaxCalls[t]; ok && n >= 1 {
			c.MaxCalls(n)
		}
		params := s.Constraints[t]
		for _, p := range sortedKeys(params) {
			k, err := ShorthandConstraint(p, params[p])
			if err != nil {
				errs = append(errs, joinedAt(err, "constraints["+Quote(t)+"]["+Quote(p)+"]"))
				continue
			}
			c.Where(k)
		}
		caps = append(caps, c)
	}
	if len(errs) == 0 {
		if err := Validate(caps); err != nil {
			return nil, err // a tool name that is not a valid method
		}
		return caps, nil
	}
	return nil, errors.Join(errs...)
}

// noSuchTool says that a key names no tool, and which tools there are.
func noSuchTool(tools []string) string {
	if len(tools) == 0 {
		return "names no tool (there are none)"
	}
	var names []string
	for i, t := range tools {
		if i == maxListed*2 && len(tools) > maxListed*2+1 {
			names = append(names, fmt.Sprintf("%d others", len(tools)-i))
			break
		}
		names = append(names, Quote(t))
	}
	return "names no tool (the tools are " + joinAnd(names) + ")"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// globMeta are the characters that glob syntax gives a meaning outside a
// character class ('!' and '-' have one only inside).
const globMeta = `\*?[]{},`

// literalPattern returns the method pattern that matches name and nothing
// else: name with every glob metacharacter escaped. A valid tool name has
// none, so its pattern is the name itself.
func literalPattern(name string) string {
	if !strings.ContainsAny(name, globMeta) {
		return name
	}
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(globMeta, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// shorthandOps are the operators a string value form may start with.
var shorthandOps = []Op{OpLt, OpLe, OpGt, OpGe, OpEq, OpNe}

// ShorthandConstraint returns the constraint that a value form of
// Shorthand's Constraints puts on the parameter at path param. The forms
// are amla-sandbox's, read strictly:
//
//   - a string that starts with an operator, < <= > >= == or !=, followed
//     by a JSON value (spaces around it are allowed): "<=1000" is
//     param <= 1000, ">0" is param > 0, `>="2026-01-01"` orders strings
//     (see Constraint), `!="admin"` is param != "admin";
//   - a string "startswith:PREFIX": param starts_with PREFIX, the rest of
//     the string as it is ("startswith:/api/");
//   - a list: param in the list (["USD", "EUR"]), which must not be empty;
//   - a number or a boolean: param == the value (42, true);
//   - any other string: param == the string ("USD").
//
// Where amla-sandbox skips a form it cannot read, and so leaves the
// parameter unconstrained, ShorthandConstraint fails: for null, an object,
// an empty list, an operator with no JSON value after it ("<=abc": write
// `<="abc"` for a string), and a string that looks like a form but is not
// one, that is one that starts with < > = or ! ("=<1000", "=5"), or with a
// word for a string test and a colon other than "startswith:"
// ("endswith:.pdf", "StartsWith:/api"). To compare with such a string,
// write == and the string in JSON: `=="<b>"`. The error is an *Error.
func ShorthandConstraint(param string, value any) (Constraint, error) {
	v, err := Normalize(value)
	if err != nil {
		return Constraint{}, constraintError("", "", strings.TrimPrefix(err.Error(), "dsl: "))
	}
	text := dslutil.FormatValue(v)
	var c Constraint
	switch v := v.(type) {
	case string:
		text = v
		if c, err = shorthandString(param, v); err != nil {
			return Constraint{}, constraintError("", text, err.Error())
		}
	case []any:
		if len(v) == 0 {
			return Constraint{}, constraintError("", text, "an empty list allows no value; list the values the parameter may take")
		}
		c = Constraint{Op: OpIn, Param: param, Value: v}
	case json.Number, bool:
		c = Constraint{Op: OpEq, Param: param, Value: v}
	case nil:
		return Constraint{}, constraintError("", text, "null is not a value form: a null parameter fails every comparison (to require that a parameter is absent, write a capability with not_exists)")
	default:
		return Constraint{}, constraintError("", text, `an object is not a value form: write a string with an operator ("<=1000"), "startswith:PREFIX", a list of the allowed values, or a number or boolean it must equal`)
	}
	if err := c.validate("", text); err != nil {
		return Constraint{}, err
	}
	return c, nil
}

// shorthandString reads a string value form.
func shorthandString(param, s string) (Constraint, error) {
	if prefix, ok := strings.CutPrefix(s, "startswith:"); ok {
		return Constraint{Op: OpStartsWith, Param: param, Value: prefix}, nil
	}
	// The operator is the run of operator characters at the start, as
	// in a constraint line, so that "<>5" is not "<" and ">5".
	end := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("<>=!", r) })
	if end < 0 {
		end = len(s)
	}
	if end > 0 {
		op := Op(s[:end])
		if !slices.Contains(shorthandOps, op) {
			msg := fmt.Sprintf("%s is not an operator of the shorthand", Quote(s[:end]))
			if hint, ok := opHints[s[:end]]; ok {
				msg += fmt.Sprintf("; did you mean %s?", hint)
			}
			return Constraint{}, errors.New(msg + ` (write <, <=, >, >=, == or != and a JSON value, as in "<=1000", or =="..." to compare with such a string)`)
		}
		p := &parser{s: s[end:]}
		p.space()
		if p.eof() {
			return Constraint{}, fmt.Errorf("missing value after %s (write %s and a JSON value, as in \"%s1000\")", op, op, op)
		}
		v, err := p.value()
		if err != nil {
			return Constraint{}, err
		}
		p.space()
		if !p.eof() {
			return Constraint{}, fmt.Errorf("unexpected %s after the value", p.rest())
		}
		return Constraint{Op: op, Param: param, Value: v}, nil
	}
	if word, _, ok := strings.Cut(s, ":"); ok {
		switch strings.ReplaceAll(strings.ToLower(word), "_", "") {
		case "startswith", "endswith", "contains":
			return Constraint{}, fmt.Errorf(`%s: is not a form of the shorthand, whose only string test is "startswith:PREFIX" (write other tests as capabilities, or =="..." to compare with such a string)`, word)
		}
	}
	return Constraint{Op: OpEq, Param: param, Value: s}, nil
}
