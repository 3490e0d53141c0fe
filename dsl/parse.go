package dsl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cordonhq/cordon/internal/dslutil"
)

// ParseConstraint parses the text form of a constraint, as the config
// file writes it: "PARAM OP VALUE", where OP is one of
//
//	< <= > >= == != in not_in starts_with ends_with contains exists not_exists
//
// and VALUE is a JSON value, absent for exists and not_exists:
//
//	amount <= 10000
//	currency in ["USD", "EUR"]
//	email ends_with "@example.com"
//	body/user/id exists
//
// PARAM is a parameter path (see Param), written as a JSON string when it
// holds spaces or other special characters. The groups that
// [Constraint.String] writes, "any_of(C, ...)" and "all_of(C, ...)", parse
// too. The constraint is validated; the error is an *Error that quotes the
// line.
func ParseConstraint(line string) (Constraint, error) {
	p := &parser{s: line}
	p.space()
	c, err := p.constraint(0)
	if err == nil {
		p.space()
		if !p.eof() {
			err = fmt.Errorf("unexpected %s after the constraint", p.rest())
		}
	}
	if err == nil {
		if verr := c.validate("", line); verr != nil {
			return Constraint{}, verr
		}
		return c, nil
	}
	return Constraint{}, constraintError("", line, err.Error())
}

// maxDepth bounds the nesting of groups in a constraint line.
const maxDepth = 32

type parser struct {
	s   string
	pos int
}

func (p *parser) eof() bool { return p.pos >= len(p.s) }

func (p *parser) space() {
	for !p.eof() {
		r, n := utf8.DecodeRuneInString(p.s[p.pos:])
		if !unicode.IsSpace(r) {
			return
		}
		p.pos += n
	}
}

// rest describes the unparsed text for an error message.
func (p *parser) rest() string {
	r := p.s[p.pos:]
	if len(r) > 20 {
		r = r[:20] + "..."
	}
	return Quote(r)
}

func (p *parser) constraint(depth int) (Constraint, error) {
	for _, op := range []Op{OpAnyOf, OpAllOf} {
		if strings.HasPrefix(p.s[p.pos:], string(op)+"(") {
			if depth >= maxDepth {
				return Constraint{}, fmt.Errorf("groups nested more than %d deep", maxDepth)
			}
			p.pos += len(op) + 1
			return p.group(op, depth)
		}
	}
	param, err := p.param()
	if err != nil {
		return Constraint{}, err
	}
	p.space()
	start := p.pos
	for !p.eof() && isOpChar(p.s[p.pos]) {
		p.pos++
	}
	tok := p.s[start:p.pos]
	if tok == "" {
		if p.eof() {
			return Constraint{}, fmt.Errorf("missing operator after %s (write PARAM OP VALUE, e.g. amount <= 100)", Quote(param))
		}
		return Constraint{}, fmt.Errorf("expected an operator after %s, found %s", Quote(param), p.rest())
	}
	op := Op(tok)
	if !slices.Contains(comparisons, op) {
		msg := fmt.Sprintf("unknown operator %s", Quote(tok))
		if hint, ok := opHints[strings.ToLower(tok)]; ok {
			msg += fmt.Sprintf(" (did you mean %s?)", hint)
		}
		return Constraint{}, errors.New(msg)
	}
	c := Constraint{Op: op, Param: param}
	p.space()
	if op == OpExists || op == OpNotExists {
		if !p.eof() && p.s[p.pos] != ',' && p.s[p.pos] != ')' {
			return Constraint{}, fmt.Errorf("%s takes no value, found %s", op, p.rest())
		}
		return c, nil
	}
	if p.eof() {
		return Constraint{}, fmt.Errorf("missing value after %s", op)
	}
	v, err := p.value()
	if err != nil {
		return Constraint{}, err
	}
	c.Value = v
	return c, nil
}

var opHints = map[string]string{
	"=": "==", "===": "==", "=<": "<=", "=>": ">=", "<>": "!=", "!==": "!=",
	"not": "not_in", "notin": "not_in", "startswith": "starts_with", "endswith": "ends_with",
	"in": "in (lower case)", "not_in": "not_in (lower case)", "exists": "exists (lower case)",
	"contains": "contains (lower case)", "starts_with": "starts_with (lower case)",
	"ends_with": "ends_with (lower case)", "not_exists": "not_exists (lower case)",
	"exist": "exists", "not_exist": "not_exists", "missing": "not_exists",
}

func isOpChar(c byte) bool {
	return c == '<' || c == '>' || c == '=' || c == '!' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func (p *parser) param() (string, error) {
	if p.eof() {
		return "", errors.New("empty constraint (write PARAM OP VALUE, e.g. amount <= 100)")
	}
	if p.s[p.pos] == '"' {
		v, err := p.value()
		if err != nil {
			return "", fmt.Errorf("parameter: %v", err)
		}
		s, ok := v.(string)
		if !ok {
			return "", errors.New("parameter: not a string")
		}
		return s, nil
	}
	start := p.pos
	for !p.eof() {
		r, n := utf8.DecodeRuneInString(p.s[p.pos:])
		if unicode.IsSpace(r) {
			break
		}
		p.pos += n
	}
	param := p.s[start:p.pos]
	if p.pos == start {
		return "", errors.New("missing parameter")
	}
	if p.eof() {
		for _, op := range []string{"<=", ">=", "==", "!=", "<", ">"} {
			if i := strings.Index(param, op); i > 0 {
				return "", fmt.Errorf("put spaces around the operator: %s %s %s", param[:i], op, param[i+len(op):])
			}
		}
	}
	return param, nil
}

// value decodes one JSON value at the current position.
func (p *parser) value() (any, error) {
	rest := p.s[p.pos:]
	dec := json.NewDecoder(strings.NewReader(rest))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		word := rest
		if i := strings.IndexFunc(word, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",)]}", r) }); i >= 0 {
			word = word[:i]
		}
		if word != "" && strings.IndexFunc(word, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' && r != '@'
		}) < 0 {
			return nil, fmt.Errorf("value %s is not JSON; write strings in double quotes: %s", word, Quote(word))
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, errors.New("value is not JSON: unexpected end")
		}
		return nil, fmt.Errorf("value is not JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	p.pos += int(dec.InputOffset())
	return v, nil
}

func (p *parser) group(op Op, depth int) (Constraint, error) {
	g := Constraint{Op: op, Members: []Constraint{}}
	p.space()
	if !p.eof() && p.s[p.pos] == ')' {
		p.pos++
		return g, nil // reported by validate
	}
	for {
		p.space()
		m, err := p.constraint(depth + 1)
		if err != nil {
			return Constraint{}, fmt.Errorf("%s item %d: %v", op, len(g.Members), err)
		}
		g.Members = append(g.Members, m)
		p.space()
		if p.eof() {
			return Constraint{}, fmt.Errorf("%s( is not closed with )", op)
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case ')':
			p.pos++
			return g, nil
		default:
			return Constraint{}, fmt.Errorf("%s item %d: expected , or ) but found %s", op, len(g.Members)-1, p.rest())
		}
	}
}

// ParseCapabilities reads the capabilities list of a config file, in its
// JSON form (convert YAML to JSON first). Each item is an object:
//
//	{"method": "stripe/charges/*",     required: the method pattern
//	 "max_calls": 100,                 optional: 0 or absent means no limit
//	 "constraints": [                  optional: all must hold
//	   "amount <= 10000",              a constraint line (ParseConstraint)
//	   {"any_of": [...]},              a group of such items
//	   {"all_of": [...]}],
//	 "name": "charges",                optional: a label
//	 "ask": true,                      optional: calls need approval
//	 "unless_touched": ["private"],    optional: only until a call to a
//	                                   tool with one of these labels
//	                                   (Capability.UnlessTouched)
//	 "description": "..."}             optional
//
// Unknown keys are rejected. null reads as no capabilities. Every problem
// is reported (joined with [errors.Join]), each an *Error that names the
// capability, the constraint and what is wrong, as in
//
//	dsl: capability 2 ("stripe/*"): constraint 1 "amount <== 5": unknown operator "<=="
func ParseCapabilities(raw []byte) ([]*Capability, error) {
	top := bytes.TrimSpace(raw)
	if len(top) == 0 || string(top) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(top, &items); err != nil {
		return nil, &Error{Capability: -1, Msg: "capabilities must be a list of objects: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	var caps []*Capability
	var errs []error
	for i, item := range items {
		c, err := parseCapability(item)
		if err != nil {
			method := ""
			if c != nil {
				method = c.method
			}
			errs = append(errs, atCapability(err, i, method))
			continue
		}
		caps = append(caps, c)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return caps, nil
}

var capabilityKeys = []string{"method", "max_calls", "constraints", "name", "ask", "unless_touched", "description"}

func parseCapability(item json.RawMessage) (*Capability, error) {
	fail := func(msg string, args ...any) error {
		return &Error{Capability: -1, Msg: fmt.Sprintf(msg, args...)}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(item, &obj); err != nil || obj == nil {
		return nil, fail("must be an object with a method, not %s", shorten(string(item)))
	}
	c := &Capability{}
	var errs []error
	if m, ok := obj["method"]; !ok {
		errs = append(errs, fail("method is missing"))
	} else if err := json.Unmarshal(m, &c.method); err != nil {
		errs = append(errs, fail("method must be a string, not %s", shorten(string(m))))
	} else if _, err := dslutil.ExpandPattern(c.method); err != nil {
		errs = append(errs, fail("%s", strings.TrimPrefix(err.Error(), "dsl: ")))
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := obj[k]
		switch k {
		case "method":
		case "max_calls":
			i, err := strconv.ParseInt(string(v), 10, 64)
			switch {
			case string(v) == "null":
			case err != nil && errors.Is(err, strconv.ErrRange):
				errs = append(errs, fail("max_calls %s is too large", shorten(string(v))))
			case err != nil:
				errs = append(errs, fail("max_calls must be a whole number, not %s", shorten(string(v))))
			case i < 0:
				errs = append(errs, fail("max_calls must not be negative, got %d", i))
			case i > 1<<31-1:
				errs = append(errs, fail("max_calls %d is too large", i))
			default:
				c.maxCalls = int(i)
			}
		case "constraints":
			var list []json.RawMessage
			if err := json.Unmarshal(v, &list); err != nil {
				errs = append(errs, fail("constraints must be a list, not %s", shorten(string(v))))
				continue
			}
			for j, raw := range list {
				k, err := parseConstraintItem(raw, fmt.Sprintf("constraint %d", j), 0)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				c.constraints = append(c.constraints, k)
			}
		case "name", "description":
			var s *string
			if err := json.Unmarshal(v, &s); err != nil {
				errs = append(errs, fail("%s must be a string, not %s", k, shorten(string(v))))
			} else if s != nil && k == "name" {
				c.name = *s
			} else if s != nil {
				c.description = *s
			}
		case "unless_touched":
			var labels []string
			if err := json.Unmarshal(v, &labels); err != nil {
				errs = append(errs, fail("unless_touched must be a list of labels, not %s", shorten(string(v))))
				continue
			}
			for _, l := range labels {
				if err := CheckLabel(l); err != nil {
					errs = append(errs, fail("unless_touched: %v", err))
				} else if !slices.Contains(c.untouched, l) {
					c.untouched = append(c.untouched, l)
				}
			}
		case "ask":
			var b *bool
			if err := json.Unmarshal(v, &b); err != nil {
				errs = append(errs, fail("ask must be true or false, not %s", shorten(string(v))))
			} else if b != nil {
				c.ask = *b
			}
		default:
			errs = append(errs, fail("unknown key %s (known keys: %s)", Quote(k), strings.Join(capabilityKeys, ", ")))
		}
	}
	return c, errors.Join(errs...)
}

// parseConstraintItem reads one item of a constraints list: a line, or an
// object {"any_of": [...]} or {"all_of": [...]}.
func parseConstraintItem(raw json.RawMessage, position string, depth int) (Constraint, error) {
	var line *string
	if err := json.Unmarshal(raw, &line); err == nil && line != nil {
		c, err := ParseConstraint(*line)
		if err != nil {
			return Constraint{}, joinedAt(err, position)
		}
		return c, nil
	}
	text := shorten(string(compactJSON(raw)))
	fail := func(msg string, args ...any) error {
		return constraintError(position, text, fmt.Sprintf(msg, args...))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || len(obj) != 1 {
		return Constraint{}, fail(`must be a constraint line like "amount <= 100", or {any_of: [...]} or {all_of: [...]}`)
	}
	if depth >= maxDepth {
		return Constraint{}, fail("groups nested more than %d deep", maxDepth)
	}
	for k, v := range obj {
		op := Op(k)
		if !op.IsGroup() {
			return Constraint{}, fail("unknown group %s (use any_of or all_of)", Quote(k))
		}
		var list []json.RawMessage
		if err := json.Unmarshal(v, &list); err != nil {
			return Constraint{}, fail("%s must be a list of constraints", op)
		}
		if len(list) == 0 {
			return Constraint{}, fail("%s needs at least one constraint", op)
		}
		g := Constraint{Op: op, Members: []Constraint{}}
		var errs []error
		for i, item := range list {
			m, err := parseConstraintItem(item, fmt.Sprintf("%s, %s item %d", position, op, i), depth+1)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			g.Members = append(g.Members, m)
		}
		if len(errs) > 0 {
			return Constraint{}, errors.Join(errs...)
		}
		return g, nil
	}
	panic("unreachable")
}

// joinedAt prefixes the position of every *Error in err with position.
func joinedAt(err error, position string) error {
	return eachError(err, func(e *Error) {
		if e.Position == "" {
			e.Position = position
		} else {
			e.Position = position + ", " + e.Position
		}
	})
}

func compactJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

func shorten(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
