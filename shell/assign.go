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
		r.traceAssignStmt(as, "")
		return r.assignArray(name, as.Array, as.Append, local)
	case as.Index != nil:
		val, ok := r.assignValue(as.Value)
		if !ok {
			return false
		}
		r.traceAssignStmt(as, val)
		return r.assignIndex(name, as.Index, val, as.Append, local)
	}
	val, ok := r.assignValue(as.Value)
	if !ok {
		return false
	}
	r.traceAssignStmt(as, val)
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
	if name == "DIRSTACK" {
		return r.assignDirStack(x, val)
	}
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

// declItem is one operand of declare and friends.
type declItem struct {
	as   *syntax.Assign // from the syntax tree, or nil
	name string
	val  string
	set  bool
}

// declClause runs declare, typeset, local, export, readonly.
func (r *runner) declClause(c *syntax.DeclClause) {
	variant := c.Variant.Value
	var flags []string
	var items []declItem
	for _, as := range c.Args {
		if as.Naked && as.Name == nil {
			fs, ok := r.fields(as.Value)
			if !ok {
				return
			}
			for _, f := range fs {
				if len(items) == 0 && len(f) > 0 && (f[0] == '-' || f[0] == '+') {
					flags = append(flags, f)
					continue
				}
				name, val, set := strings.Cut(f, "=")
				items = append(items, declItem{name: name, val: val, set: set})
			}
			continue
		}
		if as.Name == nil {
			continue
		}
		items = append(items, declItem{as: as, name: as.Name.Value})
	}
	if r.opts.xtrace {
		args := []string{variant}
		args = append(args, flags...)
		for _, it := range items {
			switch {
			case it.as != nil && it.as.Array != nil:
				// bash traces name=('v'...) or name=(['k']='v'...),
				// then declares the name
				r.traceDeclArray(it.as)
				args = append(args, it.name)
			case it.as != nil && !it.as.Naked:
				v := ""
				if it.as.Value != nil {
					v, _ = r.literal(it.as.Value)
				}
				args = append(args, it.name+"="+v)
			default:
				args = append(args, it.name)
			}
		}
		r.trace(args)
		if variant == "export" || variant == "readonly" {
			r.traceDeclAssigns(items)
		}
	}
	r.status = r.declare(variant, flags, items)
}

// declareBuiltin runs declare and friends called with plain arguments.
func declareBuiltin(r *runner, args []string) int {
	var flags []string
	var items []declItem
	for _, a := range args[1:] {
		if len(items) == 0 && len(a) > 0 && (a[0] == '-' || a[0] == '+') {
			flags = append(flags, a)
			continue
		}
		name, val, set := strings.Cut(a, "=")
		items = append(items, declItem{name: name, val: val, set: set})
	}
	return r.declare(args[0], flags, items)
}

// declare implements declare, typeset, local, export and readonly.
func (r *runner) declare(variant string, flagArgs []string, items []declItem) int {
	on := map[byte]bool{}
	off := map[byte]bool{}
	for _, f := range flagArgs {
		if f == "--" || f == "-" {
			continue
		}
		for i := 1; i < len(f); i++ {
			c := f[i]
			if !strings.ContainsRune("aAirxgpfFlunt", rune(c)) {
				r.builtinErr(2, variant, "%s: invalid option", f[:2])
				fmt.Fprintf(r.stderr(), "%s: usage: %s [-aAfFgilnrtux] [-p] [name[=value] ...]\n", variant, variant)
				return 2
			}
			if f[0] == '-' {
				on[c] = true
			} else {
				off[c] = true
			}
		}
	}
	switch variant {
	case "export":
		if !off['n'] && !on['n'] {
			on['x'] = true
		}
		if on['n'] {
			delete(on, 'n')
			off['x'] = true
		}
	case "readonly":
		on['r'] = true
	case "nameref":
		on['n'] = true
	}
	inFunc := len(r.funcNames) > 0
	local := false
	switch variant {
	case "local":
		if !inFunc {
			return r.builtinErr(1, "local", "can only be used in a function")
		}
		local = true
	case "declare", "typeset":
		local = inFunc && !on['g']
	}
	if variant == "export" && on['f'] {
		// export -f: child shells (sh, bash, scripts) get the function.
		st := 0
		for _, it := range items {
			if _, ok := r.funcs[it.name]; !ok {
				r.builtinErr(1, variant, "%s: not a function", it.name)
				st = 1
				continue
			}
			if r.exportedFuncs == nil {
				r.exportedFuncs = map[string]bool{}
			}
			r.exportedFuncs[it.name] = !off['f']
		}
		return st
	}
	if on['f'] || on['F'] {
		return r.declareFuncs(items, on['F'])
	}
	if len(items) == 0 || (on['p'] && len(items) == 0) {
		return r.printVars(variant, on)
	}
	if on['p'] {
		st := 0
		for _, it := range items {
			v, _ := r.lookupRaw(it.name)
			if v == nil {
				r.builtinErr(1, variant, "%s: not found", it.name)
				st = 1
				continue
			}
			r.printDecl(it.name, v)
		}
		return st
	}
	status := 0
	for _, it := range items {
		name := it.name
		if it.as == nil {
			if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
				name = name[:i]
			}
			if !syntax.ValidName(strings.TrimSuffix(name, "+")) {
				r.builtinErr(1, variant, "`%s': not a valid identifier", it.name)
				status = 1
				continue
			}
		}
		if on['n'] {
			if !r.declareRef(variant, name, it, local, on) {
				status = 1
			}
			continue
		}
		if off['n'] {
			if v, _ := r.lookupRaw(name); v != nil && v.Kind == expand.NameRef {
				v.Kind = expand.String
			}
		}
		if off['a'] || off['A'] {
			if v, _ := r.lookup(name); v != nil && (v.Kind == expand.Indexed || v.Kind == expand.Associative) {
				r.builtinErr(1, variant, "%s: cannot destroy array variables in this way", name)
				status = 1
				continue
			}
		}
		if raw, fi := r.lookupRaw(name); raw != nil && raw.Kind == expand.NameRef && !off['n'] && (!local || fi == len(r.frames)-1) {
			// declare and export through a nameref act on its target
			t, ok := r.resolveRef(name)
			if !ok {
				status = 1
				continue
			}
			if !t.hasSub {
				name = t.name
			}
		}
		v, fi := r.lookup(name)
		if v == nil || (local && fi != len(r.frames)-1) {
			nv := &variable{}
			if v != nil && (variant == "local" || variant == "declare" || variant == "typeset") && (it.set || (it.as != nil && !it.as.Naked)) {
				// local x=... starts fresh
			} else if v != nil && local {
				// "local x" without value: unset local (bash keeps it unset)
			}
			if local {
				r.frames[len(r.frames)-1].vars[name] = nv
			} else if v == nil {
				r.frames[0].vars[name] = nv
			} else {
				nv = v
			}
			v = nv
		}
		hasValue := it.set || (it.as != nil && !it.as.Naked)
		if v.readonly && (hasValue || off['r']) {
			r.builtinErr(1, variant, "%s: readonly variable", name)
			status = 1
			continue
		}
		// readonly -a NAME without a value does not make an array
		arrayAttr := hasValue || variant != "readonly"
		if on['a'] && v.Kind != expand.Indexed && arrayAttr {
			if v.Kind == expand.Associative {
				r.builtinErr(1, variant, "%s: cannot convert associative to indexed array", name)
				status = 1
				continue
			}
			if v.Set {
				v.Variable = expansion.MakeIndexed([]int{0}, []string{v.Str})
			} else {
				v.Variable = expand.Variable{Kind: expand.Indexed}
			}
		}
		if on['A'] && v.Kind != expand.Associative && arrayAttr {
			if v.Kind == expand.Indexed && v.Set {
				r.builtinErr(1, variant, "%s: cannot convert indexed to associative array", name)
				status = 1
				continue
			}
			if v.Set {
				v.Variable = expand.Variable{Set: true, Kind: expand.Associative, Map: map[string]string{"0": v.Str}, List: []string{"0"}}
			} else {
				v.Variable = expand.Variable{Kind: expand.Associative, Map: map[string]string{}}
			}
		}
		if on['i'] {
			v.integer = true
		}
		if off['i'] {
			v.integer = false
		}
		if on['l'] {
			v.lower, v.upper = true, false
		}
		if on['u'] {
			v.upper, v.lower = true, false
		}
		if hasValue {
			ok := true
			if s, app, isCompound := r.compoundText(v, it); isCompound {
				// declare -a a="(1 2)": the text is a compound assignment
				ok = r.assignCompoundString(name, s, app)
			} else if it.as != nil {
				ok = r.assignStmt(it.as, false)
			} else {
				val := it.val
				app := strings.HasSuffix(it.name, "+")
				if app {
					name = strings.TrimSuffix(name, "+")
				}
				if i := strings.IndexByte(it.name, '['); i > 0 {
					ok = r.assignIndexString(name, it.name[i+1:len(it.name)-1], val, app)
				} else {
					if app {
						val = r.getVar(name) + val
					}
					if err := r.assign(name, vstr(val), false); err != nil {
						r.errf("%s", err)
						ok = false
					}
				}
			}
			if !ok {
				status = 1
				continue
			}
		}
		if on['x'] {
			v.exported = true
		}
		if off['x'] {
			v.exported = false
		}
		if on['r'] {
			v.readonly = true
		}
	}
	return status
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

// declareFuncs implements declare -f and -F.
func (r *runner) declareFuncs(items []declItem, namesOnly bool) int {
	if len(items) == 0 {
		for _, k := range sortedKeys(r.funcs) {
			if namesOnly {
				fmt.Fprintf(r.stdout(), "declare -f %s\n", k)
			} else {
				r.printFunc(k)
			}
		}
		return 0
	}
	st := 0
	for _, it := range items {
		if _, ok := r.funcs[it.name]; !ok {
			st = 1
			continue
		}
		if namesOnly {
			fmt.Fprintln(r.stdout(), it.name)
		} else {
			r.printFunc(it.name)
		}
	}
	return st
}

// printVars lists variables for declare, export -p, readonly -p and set.
func (r *runner) printVars(variant string, on map[byte]bool) int {
	names := map[string]*variable{}
	frames := r.frames
	if variant == "local" && len(frames) > 1 {
		frames = frames[len(frames)-1:] // local -p: the function's own
	}
	for _, f := range frames {
		for k, v := range f.vars {
			names[k] = v
		}
	}
	for _, k := range sortedKeys(names) {
		v := names[k]
		switch {
		case variant == "export" || on['x']:
			if !v.exported {
				continue
			}
		case variant == "readonly" || on['r']:
			if !v.readonly {
				continue
			}
		case on['a']:
			if v.Kind != expand.Indexed {
				continue
			}
		case on['A']:
			if v.Kind != expand.Associative {
				continue
			}
		}
		if on['p'] || variant != "declare" && variant != "typeset" {
			r.printDecl(k, v)
		} else if v.Set && v.Kind == expand.String {
			fmt.Fprintf(r.stdout(), "%s=%s\n", k, shQuote(v.Str))
		} else if v.Set {
			r.printDecl(k, v)
		}
	}
	return 0
}

// printDecl prints a variable the way declare -p does.
func (r *runner) printDecl(name string, v *variable) {
	flags := attrFlags(v)
	if flags == "" {
		flags = "-"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "declare -%s %s", flags, name)
	if v.Set {
		b.WriteString(expansion.DeclBody(v.Variable))
	}
	fmt.Fprintln(r.stdout(), b.String())
}
