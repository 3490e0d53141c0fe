package dsl

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is matched ([errors.Is]) by every error this package reports
// about a capability, a constraint or a method pattern.
var ErrInvalid = errors.New("dsl: invalid capability")

// Error is a problem with a capability or one of its constraints: which
// capability, which constraint and what is wrong. Use [errors.As] to get it
// from an error returned by this package; errors.Is(err, ErrInvalid) is
// true for every Error.
type Error struct {
	// Capability is the index of the capability in its list, counting
	// from 0, or -1 when the capability stands alone ([Capability.Validate]).
	Capability int
	// Method is the method pattern of the capability, or "" when the
	// problem is not about a capability (ParseConstraint).
	Method string
	// Position says which constraint is wrong, counting from 0: for
	// example "constraint 1", or "constraint 3, any_of item 0" for a
	// member of a group. It is "" when the problem is not about a
	// constraint.
	Position string
	// Constraint is the text of the wrong constraint as it was written (a
	// constraint line, or the JSON of a malformed item), or its canonical
	// text form for a constraint built in Go. It is "" when the problem is
	// not about a constraint.
	Constraint string
	// Msg says what is wrong.
	Msg string
}

// Error returns the message, for example
//
//	dsl: capability 2 ("stripe/*"): constraint 1 "amount <== 5": unknown operator "<=="
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("dsl: ")
	switch {
	case e.Capability >= 0 && e.Method != "":
		fmt.Fprintf(&b, "capability %d (%q): ", e.Capability, e.Method)
	case e.Capability >= 0:
		fmt.Fprintf(&b, "capability %d: ", e.Capability)
	case e.Method != "":
		fmt.Fprintf(&b, "capability %q: ", e.Method)
	}
	switch {
	case e.Position != "" && e.Constraint != "":
		fmt.Fprintf(&b, "%s %q: ", e.Position, e.Constraint)
	case e.Position != "":
		b.WriteString(e.Position + ": ")
	case e.Constraint != "":
		fmt.Fprintf(&b, "constraint %q: ", e.Constraint)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Is reports whether target is ErrInvalid, so that errors.Is(err,
// ErrInvalid) holds for every Error.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// constraintError is the error of a constraint, without the capability.
func constraintError(position, text, msg string) *Error {
	return &Error{Capability: -1, Position: position, Constraint: text, Msg: msg}
}

// eachError calls f for every *Error in err, which may be joined.
func eachError(err error, f func(*Error)) error {
	if e, ok := err.(*Error); ok {
		f(e)
	} else if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, err := range j.Unwrap() {
			eachError(err, f)
		}
	}
	return err
}

// atCapability sets the capability of every *Error in err (which may be
// joined) that does not have one yet, and returns err.
func atCapability(err error, index int, method string) error {
	return eachError(err, func(e *Error) {
		if e.Capability < 0 {
			e.Capability = index
		}
		if e.Method == "" {
			e.Method = method
		}
	})
}
