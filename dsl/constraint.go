package dsl

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/cordonhq/cordon/internal/dslutil"
)

// Op is the operator of a constraint.
type Op string

// The operators. Each comparison applies to the parameter at a path; AnyOf
// and AllOf group other constraints.
const (
	OpLt         Op = "<"           // the parameter is below the value: two numbers, or two strings in code point order
	OpLe         Op = "<="          // the parameter is at most the value: two numbers, or two strings in code point order
	OpGt         Op = ">"           // the parameter is above the value: two numbers, or two strings in code point order
	OpGe         Op = ">="          // the parameter is at least the value: two numbers, or two strings in code point order
	OpEq         Op = "=="          // the parameter equals the value (numbers by value)
	OpNe         Op = "!="          // the parameter is present, not null, and differs from the value
	OpIn         Op = "in"          // the parameter equals one element of the value, an array
	OpNotIn      Op = "not_in"      // the parameter is present, not null, and equals no element of the array
	OpStartsWith Op = "starts_with" // the parameter is a string starting with the value, a string
	OpEndsWith   Op = "ends_with"   // the parameter is a string ending with the value, a string
	OpContains   Op = "contains"    // the parameter is a string containing the value (a string), or an array with an element equal to the value
	OpExists     Op = "exists"      // the parameter is present and not null
	OpNotExists  Op = "not_exists"  // the parameter is absent or null
	OpAnyOf      Op = "any_of"      // at least one member holds
	OpAllOf      Op = "all_of"      // every member holds
)

var comparisons = []Op{OpLt, OpLe, OpGt, OpGe, OpEq, OpNe, OpIn, OpNotIn, OpStartsWith, OpEndsWith, OpContains, OpExists, OpNotExists}

// Operators returns the comparison operators, in the order the
// documentation gives them (groups not included).
func Operators() []Op { return slices.Clone(comparisons) }

// IsGroup reports whether op is OpAnyOf or OpAllOf.
func (op Op) IsGroup() bool { return op == OpAnyOf || op == OpAllOf }

func (op Op) known() bool {
	return slices.Contains(comparisons, op) || op.IsGroup()
}

// Constraint is a condition on the params of a tool call: a comparison
// (Op, Param, Value) or a group (Op is OpAnyOf or OpAllOf, with Members).
// Build constraints with Param, AnyOf and AllOf, or parse them with
// ParseConstraint; a Constraint is a plain value that can also be written
// as a literal, and Validate says whether it makes sense.
//
// Every constraint fails closed: a missing or null parameter fails every
// comparison except exists and not_exists, and so does a parameter of the
// wrong type (a string compared with < 5, a number with < "m" or with
// starts_with).
//
// The orderings < <= > >= compare a number parameter with a number value,
// by value, and a string parameter with a string value, by Unicode code
// point (which is the order of their UTF-8 bytes, and the order Rego
// uses): "2026-01-01" < "2026-02-01", "Z" < "a", "a" < "ab".
type Constraint struct {
	// Op is the operator.
	Op Op
	// Param is the path of the parameter, segments separated by "/"
	// ("body/user/email"); a segment of digits indexes an array
	// ("items/0"). It is "" for a group.
	Param string
	// Value is the normalized JSON value (see Normalize) the parameter is
	// compared with: a number or a string for < <= > >=, a string for
	// starts_with and ends_with, an array for in and not_in, nil for
	// exists, not_exists and groups.
	Value any
	// Members are the constraints of a group.
	Members []Constraint

	err error // a problem met while building, reported by Validate
}

// ParamRef names a parameter; its methods build the constraints on it.
type ParamRef struct{ path string }

// Param returns a reference to the parameter at path: segments separated
// by "/", where a segment of digits indexes an array ("items/0").
func Param(path string) ParamRef { return ParamRef{path: path} }

func (p ParamRef) cmp(op Op, v any) Constraint {
	c := Constraint{Op: op, Param: p.path}
	n, err := Normalize(v)
	if err != nil {
		c.err = err
		return c
	}
	c.Value = n
	return c
}

func (p ParamRef) list(op Op, vs []any) Constraint {
	if len(vs) == 1 && vs[0] != nil {
		if k := reflect.TypeOf(vs[0]).Kind(); k == reflect.Slice || k == reflect.Array {
			return p.cmp(op, vs[0])
		}
	}
	if vs == nil {
		vs = []any{}
	}
	return p.cmp(op, vs)
}

// Lt returns the constraint "the parameter is below v": v is a number and
// the parameter a smaller number, or v is a string and the parameter a
// string before it in code point order (see Constraint).
func (p ParamRef) Lt(v any) Constraint { return p.cmp(OpLt, v) }

// Le returns the constraint "the parameter is at most v", a number at
// most the number v or a string at most the string v (see Lt).
func (p ParamRef) Le(v any) Constraint { return p.cmp(OpLe, v) }

// Gt returns the constraint "the parameter is above v", a number above the
// number v or a string after the string v (see Lt).
func (p ParamRef) Gt(v any) Constraint { return p.cmp(OpGt, v) }

// Ge returns the constraint "the parameter is at least v", a number at
// least the number v or a string at least the string v (see Lt):
// Param("created_at").Ge("2026-01-01").
func (p ParamRef) Ge(v any) Constraint { return p.cmp(OpGe, v) }

// Eq returns the constraint "the parameter equals v". JSON values are
// compared exactly, except that numbers compare by value (1 equals 1.0).
func (p ParamRef) Eq(v any) Constraint { return p.cmp(OpEq, v) }

// Ne returns the constraint "the parameter is present, not null, and does
// not equal v".
func (p ParamRef) Ne(v any) Constraint { return p.cmp(OpNe, v) }

// In returns the constraint "the parameter equals one of vs". A single
// argument that is a slice or an array is taken as the list itself:
// In("USD", "EUR") and In([]string{"USD", "EUR"}) are the same.
func (p ParamRef) In(vs ...any) Constraint { return p.list(OpIn, vs) }

// NotIn returns the constraint "the parameter is present, not null, and
// equals none of vs". A single slice argument is taken as the list, as
// for In.
func (p ParamRef) NotIn(vs ...any) Constraint { return p.list(OpNotIn, vs) }

// StartsWith returns the constraint "the parameter is a string that starts
// with prefix".
func (p ParamRef) StartsWith(prefix string) Constraint { return p.cmp(OpStartsWith, prefix) }

// EndsWith returns the constraint "the parameter is a string that ends
// with suffix".
func (p ParamRef) EndsWith(suffix string) Constraint { return p.cmp(OpEndsWith, suffix) }

// Contains returns the constraint "the parameter is a string that contains
// v (which must then be a string), or an array with an element equal to
// v".
func (p ParamRef) Contains(v any) Constraint { return p.cmp(OpContains, v) }

// Exists returns the constraint "the parameter is present and not null".
func (p ParamRef) Exists() Constraint { return Constraint{Op: OpExists, Param: p.path} }

// NotExists returns the constraint "the parameter is absent or null".
func (p ParamRef) NotExists() Constraint { return Constraint{Op: OpNotExists, Param: p.path} }

// AnyOf returns a group that holds when at least one of cs holds.
func AnyOf(cs ...Constraint) Constraint {
	return Constraint{Op: OpAnyOf, Members: append([]Constraint(nil), cs...)}
}

// AllOf returns a group that holds when every one of cs holds.
func AllOf(cs ...Constraint) Constraint {
	return Constraint{Op: OpAllOf, Members: append([]Constraint(nil), cs...)}
}

// String returns the canonical text form of the constraint, which
// ParseConstraint reads back: "amount <= 10000", `currency in ["USD",
// "EUR"]`, "body/user/id exists", and for groups
// `any_of(amount < 1000, all_of(amount >= 1000, currency == "usd"))`. A
// parameter path that is not plain (it holds spaces, quotes, parentheses,
// brackets, braces, commas or characters that do not print) is written as
// a JSON string. The text never contains a line break.
func (c Constraint) String() string {
	var b strings.Builder
	c.write(&b)
	return b.String()
}

func (c Constraint) write(b *strings.Builder) {
	if c.Op.IsGroup() {
		b.WriteString(string(c.Op))
		b.WriteByte('(')
		for i, m := range c.Members {
			if i > 0 {
				b.WriteString(", ")
			}
			m.write(b)
		}
		b.WriteByte(')')
		return
	}
	b.WriteString(dslutil.FormatParam(c.Param))
	b.WriteByte(' ')
	op := string(c.Op)
	if op == "" || !c.Op.known() {
		op = Quote(op) // never re-parses as a valid operator
	}
	b.WriteString(op)
	if c.Op != OpExists && c.Op != OpNotExists {
		b.WriteByte(' ')
		b.WriteString(dslutil.FormatValue(c.Value))
	}
}

// Params returns the parameter paths the constraint reads, each once, in
// the order they first appear.
func (c Constraint) Params() []string {
	var out []string
	var walk func(c Constraint)
	walk = func(c Constraint) {
		if c.Op.IsGroup() {
			for _, m := range c.Members {
				walk(m)
			}
			return
		}
		for _, p := range out {
			if p == c.Param {
				return
			}
		}
		out = append(out, c.Param)
	}
	walk(c)
	return out
}

// Validate reports what is wrong with the constraint, or nil. The error
// is an *Error (errors.Is(err, ErrInvalid) holds).
func (c Constraint) Validate() error {
	return c.validate("", c.String())
}

func (c Constraint) validate(position, text string) error {
	fail := func(format string, args ...any) error {
		return constraintError(position, text, fmt.Sprintf(format, args...))
	}
	if c.err != nil {
		return fail("%s", strings.TrimPrefix(c.err.Error(), "dsl: "))
	}
	if !c.Op.known() {
		if c.Op == "" {
			return fail("no operator")
		}
		return fail("unknown operator %s", Quote(string(c.Op)))
	}
	if c.Op.IsGroup() {
		if c.Param != "" || c.Value != nil {
			return fail("%s takes members, not a parameter or a value", c.Op)
		}
		if len(c.Members) == 0 {
			return fail("%s needs at least one constraint", c.Op)
		}
		var errs []error
		for i, m := range c.Members {
			pos := fmt.Sprintf("%s item %d", c.Op, i)
			if position != "" {
				pos = position + ", " + pos
			}
			if err := m.validate(pos, m.String()); err != nil {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}
	if len(c.Members) > 0 {
		return fail("%s takes no members", c.Op)
	}
	if _, err := dslutil.SplitParam(c.Param); err != nil {
		return fail("%s", strings.TrimPrefix(err.Error(), "dsl: "))
	}
	v, err := Normalize(c.Value)
	if err != nil {
		return fail("%s", strings.TrimPrefix(err.Error(), "dsl: "))
	}
	if !reflect.DeepEqual(v, c.Value) {
		return fail("value %s is not normalized (build constraints with Param, or use Normalize)", dslutil.FormatValue(v))
	}
	switch c.Op {
	case OpExists, OpNotExists:
		if c.Value != nil {
			return fail("%s takes no value", c.Op)
		}
	case OpLt, OpLe, OpGt, OpGe:
		switch v.(type) {
		case json.Number, string:
		default:
			return fail("%s needs a number or a string, not %s", c.Op, dslutil.FormatValue(v))
		}
	case OpStartsWith, OpEndsWith:
		if _, ok := v.(string); !ok {
			return fail("%s needs a string, not %s", c.Op, dslutil.FormatValue(v))
		}
	case OpIn, OpNotIn:
		if _, ok := v.([]any); !ok {
			return fail("%s needs a JSON array, not %s", c.Op, dslutil.FormatValue(v))
		}
	case OpEq:
		if v == nil {
			return fail("== null never holds (a null parameter fails every comparison); use not_exists")
		}
	case OpNe:
		if v == nil {
			return fail("!= null: use exists")
		}
	}
	return nil
}
