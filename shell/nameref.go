package shell

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// This file follows namerefs (declare -n): a variable whose value names
// another variable, or an element of an array (a[1]), through which it is
// read, assigned and unset.

// maxNameRef is how many namerefs bash follows before it calls the chain
// circular (NAMEREF_MAX).
const maxNameRef = 8

// errCircular is returned when assigning through a circular nameref; its
// warning has been printed.
var errCircular = errReported

// refTarget is where a chain of namerefs ends.
type refTarget struct {
	name   string // the variable (the last nameref itself when it has no value)
	sub    string // the subscript of an array element target (a[1])
	hasSub bool
}

// resolveRef follows the namerefs from name. It returns name itself when
// name is not a nameref. ok is false for a circular chain, after bash's
// warning.
func (r *runner) resolveRef(name string) (refTarget, bool) {
	orig := name
	for range maxNameRef + 1 {
		v, _ := r.lookupRaw(name)
		if v == nil || v.Kind != expand.NameRef || !v.Set || v.Str == "" {
			return refTarget{name: name}, true
		}
		t := v.Str
		if base, sub, ok := strings.Cut(t, "["); ok && strings.HasSuffix(sub, "]") {
			return refTarget{name: base, sub: sub[:len(sub)-1], hasSub: true}, true
		}
		name = t
	}
	r.errf("warning: %s: circular name reference", orig)
	return refTarget{}, false
}

// lookupQuiet is lookup without the warning for a circular nameref.
func (r *runner) lookupQuiet(name string) (*variable, int) {
	for range maxNameRef + 1 {
		v, i := r.lookupRaw(name)
		if v == nil || v.Kind != expand.NameRef || !v.Set || v.Str == "" {
			return v, i
		}
		if strings.Contains(v.Str, "[") {
			return nil, -1
		}
		name = v.Str
	}
	return nil, -1
}

// isNameRef reports whether name is itself a nameref, and its value.
func (r *runner) isNameRef(name string) (string, bool) {
	v, _ := r.lookupRaw(name)
	if v == nil || v.Kind != expand.NameRef {
		return "", false
	}
	return v.Str, true
}

// validRefTarget reports whether s can be the value of a nameref: a
// variable name or an array element name[subscript].
func validRefTarget(s string) bool {
	if base, sub, ok := strings.Cut(s, "["); ok {
		return syntax.ValidName(base) && strings.HasSuffix(sub, "]") && len(sub) > 1
	}
	return syntax.ValidName(s)
}

// setRefValue makes the nameref v name target, as assigning to a nameref
// without a value does, and as a for loop over a nameref does.
func (r *runner) setRefValue(name string, v *variable, target string) error {
	if !validRefTarget(target) {
		return errNotIdent(target)
	}
	if target == name {
		return errSelfRef(name)
	}
	v.Str, v.Set = target, true
	return nil
}

// errNotIdent is bash's "`x': not a valid identifier".
type errNotIdent string

// Error returns bash's message.
func (e errNotIdent) Error() string { return "`" + string(e) + "': not a valid identifier" }

// errSelfRef is bash's error for a nameref naming itself.
type errSelfRef string

// Error returns bash's message.
func (e errSelfRef) Error() string {
	return string(e) + ": nameref variable self references not allowed"
}

// elementValue returns the element sub of the array name as a string
// variable (unset when it does not exist), for a nameref to a[sub].
func (r *runner) elementValue(name, sub string) expand.Variable {
	v, _ := r.lookupRaw(name)
	if v == nil || !v.Set {
		return expand.Variable{}
	}
	switch v.Kind {
	case expand.Associative:
		key := sub
		if k, ok := r.expandString(sub); ok {
			key = k
		}
		if s, ok := v.Map[key]; ok {
			return vstr(s)
		}
		return expand.Variable{}
	case expand.Indexed, expand.String:
		n, err := r.xp().ArithString(sub)
		if err != nil {
			return expand.Variable{}
		}
		if v.Kind == expand.String {
			if n == 0 {
				return vstr(v.Str)
			}
			return expand.Variable{}
		}
		if s, ok := elementAt(v, n); ok {
			return vstr(s)
		}
	}
	return expand.Variable{}
}

// elementAt returns element n of an indexed array (negative n counts from
// the end).
func elementAt(v *variable, n int) (string, bool) {
	idx, vals := expansion.ArrayItems(v.Variable)
	if n < 0 && len(idx) > 0 {
		n += idx[len(idx)-1] + 1
	}
	i := sort.SearchInts(idx, n)
	if i < len(idx) && idx[i] == n {
		return vals[i], true
	}
	return "", false
}

// declareRef runs declare -n for one operand: it makes name a nameref,
// in the current function's scope when local.
func (r *runner) declareRef(variant, name string, it declItem, local bool, on map[byte]bool) bool {
	target := it.val
	hasValue := it.set
	if it.as != nil && it.as.Value != nil {
		t, ok := r.literal(it.as.Value)
		if !ok {
			return false
		}
		target, hasValue = t, true
	}
	frame := r.frames[0]
	if local {
		frame = r.frames[len(r.frames)-1]
	}
	old := frame.vars[name]
	if old != nil && (old.Kind == expand.Indexed || old.Kind == expand.Associative) {
		r.builtinErr(1, variant, "%s: reference variable cannot be an array", name)
		return false
	}
	if old != nil && old.readonly {
		r.builtinErr(1, variant, "%s: readonly variable", name)
		return false
	}
	if !hasValue && old != nil {
		if old.Set {
			target, hasValue = old.Str, true
		}
	}
	if hasValue {
		if !validRefTarget(target) {
			r.builtinErr(1, variant, "`%s': invalid variable name for name reference", target)
			return false
		}
		if target == name {
			r.builtinErr(1, variant, "%s: nameref variable self references not allowed", name)
			return false
		}
	}
	nv := &variable{Variable: expand.Variable{Set: hasValue, Kind: expand.NameRef, Str: target}}
	if old != nil {
		nv.exported = old.exported
	}
	nv.readonly = on['r']
	frame.vars[name] = nv
	return true
}
