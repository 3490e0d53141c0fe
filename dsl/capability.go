package dsl

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cordonhq/cordon/internal/dslutil"
)

// Capability grants calls to the tools whose method matches a pattern,
// when every constraint on the params holds, up to a number of calls.
// Build one with Method and its builder methods, which return the
// capability so that calls chain:
//
//	cap := dsl.Method("stripe/charges/*").
//		Where(dsl.Param("amount").Le(10000), dsl.Param("currency").In("USD", "EUR")).
//		MaxCalls(100)
//
// Builder methods never fail: problems are collected and reported by
// Validate. A Capability is not safe for concurrent modification; once
// built it may be read from many goroutines.
type Capability struct {
	method      string
	constraints []Constraint
	maxCalls    int
	name        string
	ask         bool
	description string
	untouched   []string

	problems []error // from builder methods
}

// Method returns a capability for the tools whose method matches pattern,
// a gobwas/glob pattern with '/' as the separator. In a method pattern,
// "*" matches within one segment, and "**" as a whole segment matches
// zero or more segments anywhere: "stripe/**" matches "stripe" and
// "stripe/a/b", "**/create" matches "create", "a/**/b" matches "a/b" and
// "a/x/y/b". Validate refuses an empty pattern, invalid UTF-8, characters
// that do not print, an empty segment, "**" inside a segment ("a**"),
// more than four "**" segments (each doubles the globs the pattern
// expands to), and glob syntax errors.
func Method(pattern string) *Capability {
	return &Capability{method: pattern}
}

// Where adds constraints, all of which must hold for a call to be allowed.
func (c *Capability) Where(cs ...Constraint) *Capability {
	c.constraints = append(c.constraints, cs...)
	return c
}

// MaxCalls limits the calls the capability allows, per sandbox session. 0,
// the default, means no limit; a negative n is reported by Validate.
func (c *Capability) MaxCalls(n int) *Capability {
	if n < 0 {
		c.problems = append(c.problems, fmt.Errorf("max_calls must not be negative, got %d", n))
		n = 0
	}
	c.maxCalls = n
	return c
}

// Named sets a label for the capability, used in reasons and audits.
func (c *Capability) Named(name string) *Capability {
	c.name = name
	return c
}

// Ask marks the capability as one whose calls need a human's approval
// before they run.
func (c *Capability) Ask() *Capability {
	c.ask = true
	return c
}

// UnlessTouched makes the capability apply only while no call of a tool
// with one of labels has been allowed in the call counters' scope (the
// session by default; see package counters): a flow rule. The engine
// labels tools (engine.Tool.Labels) and counts, per label, the calls it
// allowed (input.session.flow.labels). After a call to a tool labelled
// "private", a capability with UnlessTouched("private") allows nothing,
// so that a later capability decides: one that allows only some hosts,
// say, or one that asks. Labels are letters, digits and "_ - . :", at
// most 64 bytes each.
func (c *Capability) UnlessTouched(labels ...string) *Capability {
	for _, l := range labels {
		if err := CheckLabel(l); err != nil {
			c.problems = append(c.problems, fmt.Errorf("unless_touched: %w", err))
			continue
		}
		if !slices.Contains(c.untouched, l) {
			c.untouched = append(c.untouched, l)
		}
	}
	return c
}

// UnlessTouchedLabels returns the labels of UnlessTouched, in the order
// given, without repeats. The slice must not be modified.
func (c *Capability) UnlessTouchedLabels() []string { return c.untouched }

// MaxLabelLen is the longest tool label, in bytes.
const MaxLabelLen = 64

// CheckLabel reports whether label is a valid tool label: one to
// MaxLabelLen letters, digits and "_ - . :".
func CheckLabel(label string) error {
	if label == "" || len(label) > MaxLabelLen {
		return fmt.Errorf("label %s must have 1 to %d bytes", Quote(label), MaxLabelLen)
	}
	for _, r := range label {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' || r == ':') {
			return fmt.Errorf("label %s may hold only letters, digits, \"_\", \"-\", \".\" and \":\"", Quote(label))
		}
	}
	return nil
}

// Describe sets a description of the capability for reviewers.
func (c *Capability) Describe(text string) *Capability {
	c.description = text
	return c
}

// Pattern returns the method pattern.
func (c *Capability) Pattern() string { return c.method }

// Constraints returns the constraints, which must all hold. The slice must
// not be modified.
func (c *Capability) Constraints() []Constraint { return c.constraints }

// CallLimit returns the maximum number of calls, or 0 for no limit.
func (c *Capability) CallLimit() int { return c.maxCalls }

// Name returns the label, or "".
func (c *Capability) Name() string { return c.name }

// Asks reports whether calls allowed by the capability need a human's
// approval.
func (c *Capability) Asks() bool { return c.ask }

// Description returns the description, or "".
func (c *Capability) Description() string { return c.description }

// Label returns the name if there is one, else the method pattern: how
// reasons refer to the capability.
func (c *Capability) Label() string {
	if c.name != "" {
		return c.name
	}
	return c.method
}

// Validate reports every problem with the capability (joined with
// [errors.Join]), or nil: the method pattern, each constraint, and the
// builder calls. Each problem is an *Error, so errors.Is(err, ErrInvalid)
// holds and [errors.As] finds the first one.
func (c *Capability) Validate() error {
	return c.validate(-1)
}

func (c *Capability) validate(index int) error {
	if c == nil {
		return atCapability(&Error{Capability: -1, Msg: "capability is nil"}, index, "")
	}
	var errs []error
	if _, err := dslutil.ExpandPattern(c.method); err != nil {
		errs = append(errs, &Error{Capability: -1, Msg: strings.TrimPrefix(err.Error(), "dsl: ")})
	}
	for _, p := range c.problems {
		errs = append(errs, &Error{Capability: -1, Msg: p.Error()})
	}
	for i, k := range c.constraints {
		if err := k.validate(fmt.Sprintf("constraint %d", i), k.String()); err != nil {
			errs = append(errs, err)
		}
	}
	return atCapability(errors.Join(errs...), index, c.method)
}

// Validate checks a list of capabilities and reports every problem, each
// naming the index of its capability (see Error), or nil.
func Validate(caps []*Capability) error {
	var errs []error
	for i, c := range caps {
		if err := c.validate(i); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
