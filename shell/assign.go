package shell

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// assignStmt runs one assignment word (name=value, name+=value,
// name[i]=value, name=(...)). It reports false after printing an error.
func (r *runner) assignStmt(as *syntax.Assign, local bool) bool {
	if as.Name == nil {
		return true
	}
	name := as.Name.Value
	if v, _ := r.lookupQuiet(name); v != nil && v.readonly {
		r.errf("%s: readonly variable", name)
		r.status = 1
		r.aborting = true
		return false
	}
	switch {
	case as.Array != nil:
		return r.assignArray(name, as.Array, as.Append, local)
	case as.Index != nil:
		val, ok := r.assignValue(as.Value)
		if !ok {
			return false
		}
		return r.assignIndex(name, as.Index, val, as.Append, local)
	}
	val, ok := r.assignValue(as.Value)
	if !ok {
		return false
	}
	if as.Append {
		v, _ := r.lookup(name)
		switch {
		case v != nil && v.integer:
			old, _ := r.xp().ArithString(v.String())
			add, err := r.xp().ArithString(val)
			if err != nil {
				r.errf("%s", err)
				return false
			}
			val = strconv.Itoa(old + add)
			if err := r.assign(name, vstr(val), local); err != nil {
				r.errf("%s", err)
				return false
			}
			return true
		case v != nil && v.Kind == expand.Indexed && v.Set:
			idx, vals := expansion.ArrayItems(v.Variable)
			cur := ""
			if len(idx) > 0 && idx[0] == 0 {
				cur = vals[0]
			}
			idx, vals = expansion.SetItem(idx, vals, 0, cur+val)
			v.Variable = expansion.MakeIndexed(idx, vals)
			return true
		case v != nil && v.Kind == expand.Associative && v.Set:
			expansion.AssocSet(&v.Variable, "0", v.Map["0"]+val)
			return true
		}
		val = r.getVar(name) + val
	}
	if err := r.assign(name, vstr(val), local); err != nil {
		if err != errReported {
			r.errf("%s", err)
		}
		r.status = 1
		r.aborting = true
		return false
	}
	return true
}

// varFor returns the variable to modify for name, creating it (unset) in
// the innermost scope that has it, the current scope when local, or the
// global scope.
func (r *runner) varFor(name string, local bool) *variable {
	v, fi := r.lookupRaw(name)
	if !local && v != nil && v.Kind == expand.NameRef && v.Set && v.Str != "" {
		if t, ok := r.resolveRef(name); ok && !t.hasSub {
			name = t.name
			v, fi = r.lookupRaw(name)
		}
	}
	if v != nil && (!local || fi == len(r.frames)-1) {
		return v
	}
	nv := &variable{}
	if local {
		r.frames[len(r.frames)-1].vars[name] = nv
	} else {
		r.frames[0].vars[name] = nv
	}
	return nv
}

// indexOf evaluates an indexed-array subscript (negative counts from the end).
func (r *runner) indexOf(v *variable, x syntax.ArithmExpr) (int, error) {
	n, err := r.xp().Arith(x)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		idx, _ := expansion.ArrayItems(v.Variable)
		max := -1
		if len(idx) > 0 {
			max = idx[len(idx)-1]
		}
		n += max + 1
		if n < 0 {
			return 0, errBadSubscript(n - max - 1)
		}
	}
	return n, nil
}

// caseOf applies the case attribute of v (declare -l, -u) to a value.
func caseOf(v *variable, s string) string {
	switch {
	case v.lower:
		return strings.ToLower(s)
	case v.upper:
		return strings.ToUpper(s)
	}
	return s
}

// errBadSubscript is a negative index before the first element.
type errBadSubscript int

// Error returns bash's message.
func (e errBadSubscript) Error() string { return fmt.Sprintf("[%d]: bad array subscript", int(e)) }

// assocKey evaluates an associative-array subscript; an error is
// reported and gives false.
func (r *runner) assocKey(x syntax.ArithmExpr) (string, bool) {
	k, err := r.xp().AssocKey(x)
	if err != nil {
		r.expandErr(err)
		return "", false
	}
	return k, true
}

// assignIndex assigns name[x]=val (or +=).
func (r *runner) assignIndex(name string, x syntax.ArithmExpr, val string, app, local bool) bool {
	v := r.varFor(name, local)
	if v.readonly {
		r.errf("%s: readonly variable", name)
		return false
	}
	if v.Kind == expand.Associative {
		key, ok := r.assocKey(x)
		if !ok {
			return false
		}
		if key == "" {
			r.errf("%s[%s]: bad array subscript", name, expansion.IndexText(x))
			r.status = 1
			r.aborting = true
			return false
		}
		if app {
			val = v.Map[key] + val
		}
		expansion.AssocSet(&v.Variable, key, caseOf(v, val))
		return true
	}
	n, err := r.indexOf(v, x)
	if err != nil {
		if _, bad := err.(errBadSubscript); bad {
			r.errf("%s[%s]: bad array subscript", name, expansion.IndexText(x))
		} else {
			// an arithmetic error in a subscript: bash exits
			r.errf("%s", err)
			r.exiting = true
		}
		r.status = 1
		r.aborting = true
		return false
	}
	idx, vals := expansion.ArrayItems(v.Variable)
	if app {
		i := sort.SearchInts(idx, n)
		if i < len(idx) && idx[i] == n {
			val = vals[i] + val
		}
	}
	if v.integer {
		k, err := r.xp().ArithString(val)
		if err != nil {
			r.errf("%s", err)
			return false
		}
		val = strconv.Itoa(k)
	}
	val = caseOf(v, val)
	idx, vals = expansion.SetItem(idx, vals, n, val)
	v.Variable = expansion.MakeIndexed(idx, vals)
	return true
}

// assignArray assigns name=(...) (or +=).
func (r *runner) assignArray(name string, arr *syntax.ArrayExpr, app, local bool) bool {
	v := r.varFor(name, local)
	if v.readonly {
		r.errf("%s: readonly variable", name)
		return false
	}
	if v.Kind == expand.Associative {
		nv := expand.Variable{Set: true, Kind: expand.Associative, Map: map[string]string{}}
		if app && v.Map != nil {
			nv.Map, nv.List = v.Map, v.List
		}
		if len(arr.Elems) > 0 && arr.Elems[0].Index == nil {
			// bash 5.1+: assoc=(key1 value1 key2 value2 ...)
			var words []string
			for _, el := range arr.Elems {
				if el.Value == nil {
					continue
				}
				fs, ok := r.fields(el.Value)
				if !ok {
					return false
				}
				words = append(words, fs...)
			}
			for i := 0; i < len(words); i += 2 {
				val := ""
				if i+1 < len(words) {
					val = words[i+1]
				}
				expansion.AssocSet(&nv, words[i], caseOf(v, val))
			}
			v.Variable = nv
			return true
		}
		for _, el := range arr.Elems {
			val, ok := r.literal(el.Value)
			if !ok {
				return false
			}
			if el.Index == nil {
				r.errf("%s: %s: must use subscript when assigning associative array", name, val)
				continue
			}
			key, ok := r.assocKey(el.Index)
			if !ok {
				return false
			}
			expansion.AssocSet(&nv, key, caseOf(v, val))
		}
		v.Variable = nv
		return true
	}
	if app && v.Set && v.Kind == expand.Indexed && v.Indexes == nil && !v.integer {
		// fast path: appending plain elements to a dense array
		plain := true
		for _, el := range arr.Elems {
			plain = plain && el.Index == nil
		}
		if plain {
			for _, el := range arr.Elems {
				if el.Value == nil {
					continue
				}
				fs, ok := r.fields(el.Value)
				if !ok {
					return false
				}
				v.List = append(v.List, fs...)
			}
			return true
		}
	}
	var idx []int
	var vals []string
	next := 0
	if app {
		idx, vals = expansion.ArrayItems(v.Variable)
		if len(idx) > 0 {
			next = idx[len(idx)-1] + 1
		}
	}
	for _, el := range arr.Elems {
		if el.Index != nil {
			val, ok := r.literal(el.Value)
			if !ok {
				return false
			}
			n, err := r.xp().Arith(el.Index)
			if err != nil {
				r.errf("%s", err)
				return false
			}
			idx, vals = expansion.SetItem(idx, vals, n, val)
			next = n + 1
			continue
		}
		if el.Value == nil {
			continue
		}
		fs, ok := r.fields(el.Value)
		if !ok {
			return false
		}
		for _, f := range fs {
			if v.integer {
				k, _ := r.xp().ArithString(f)
				f = strconv.Itoa(k)
			}
			f = caseOf(v, f)
			idx, vals = expansion.SetItem(idx, vals, next, f)
			next++
		}
	}
	v.Variable = expansion.MakeIndexed(idx, vals)
	if r.opts.allexport {
		v.exported = true
	}
	return true
}

// assignIndexString assigns name[index]=val with index given as text.
func (r *runner) assignIndexString(name, index, val string, app bool) bool {
	if expansion.TooDeep(index) {
		return false
	}
	p := expansion.NewParser()
	w, err := p.Document(strings.NewReader(index))
	if err != nil {
		return false
	}
	return r.assignIndex(name, w, val, app, false)
}
