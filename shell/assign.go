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
	if v, _ := r.lookup(name); v != nil && v.readonly {
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
			v.Map["0"] += val
			return true
		}
		val = r.getVar(name) + val
	}
	if err := r.assign(name, vstr(val), local); err != nil {
		r.errf("%s", err)
		r.status = 1
		return false
	}
	return true
}

// varFor returns the variable to modify for name, creating it (unset) in
// the innermost scope that has it, the current scope when local, or the
// global scope.
func (r *runner) varFor(name string, local bool) *variable {
	v, fi := r.lookup(name)
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
			return 0, fmt.Errorf("[%d]: bad array subscript", n-max-1)
		}
	}
	return n, nil
}

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
		if v.Map == nil {
			v.Map = map[string]string{}
		}
		if app {
			val = v.Map[key] + val
		}
		v.Map[key] = val
		v.Set = true
		return true
	}
	n, err := r.indexOf(v, x)
	if err != nil {
		r.errf("%s: %s", name, err)
		r.status = 1
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
		m := map[string]string{}
		if app && v.Map != nil {
			m = v.Map
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
				m[words[i]] = val
			}
			v.Variable = expand.Variable{Set: true, Kind: expand.Associative, Map: m}
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
			m[key] = val
		}
		v.Variable = expand.Variable{Set: true, Kind: expand.Associative, Map: m}
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
			v, _ := r.lookup(it.name)
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
			target := it.val
			if it.as != nil && it.as.Value != nil {
				t, ok := r.literal(it.as.Value)
				if !ok {
					return 1
				}
				target = t
			}
			nv := &variable{Variable: expand.Variable{Set: target != "", Kind: expand.NameRef, Str: target}}
			if local {
				r.frames[len(r.frames)-1].vars[name] = nv
			} else {
				r.frames[0].vars[name] = nv
			}
			continue
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
		if on['a'] && v.Kind != expand.Indexed {
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
		if on['A'] && v.Kind != expand.Associative {
			if v.Kind == expand.Indexed && v.Set {
				r.builtinErr(1, variant, "%s: cannot convert indexed to associative array", name)
				status = 1
				continue
			}
			if v.Set {
				v.Variable = expand.Variable{Set: true, Kind: expand.Associative, Map: map[string]string{"0": v.Str}}
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
			if it.as != nil {
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
		switch v.Kind {
		case expand.Indexed:
			b.WriteString("=(")
			idx, vals := expansion.ArrayItems(v.Variable)
			for i := range idx {
				if i > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "[%d]=%s", idx[i], dquote(vals[i]))
			}
			b.WriteString(")")
		case expand.Associative:
			b.WriteString("=(")
			for _, k := range sortedKeys(v.Map) {
				fmt.Fprintf(&b, "[%s]=%s ", assocKeyQuote(k), dquote(v.Map[k]))
			}
			b.WriteString(")")
		default:
			b.WriteString("=" + dquote(v.Str))
		}
	}
	fmt.Fprintln(r.stdout(), b.String())
}

// assocKeyQuote quotes an associative-array key for declare -p.
func assocKeyQuote(k string) string {
	if k != "" && !strings.ContainsAny(k, " \t\n\"'\\$`;&|<>()*?[]") {
		return k
	}
	return dquote(k)
}

// dquote quotes s in double quotes as declare -p does.
func dquote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		if c == '"' || c == '\\' || c == '$' || c == '`' {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String()
}
