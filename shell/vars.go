package shell

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// variable is a shell variable with the attributes expand does not know.
type variable struct {
	expand.Variable
	exported bool
	readonly bool
	integer  bool
	lower    bool
	upper    bool
}

// frame is one scope: the global one or a function call's locals.
type frame struct {
	vars map[string]*variable
}

// newFrame returns an empty scope.
func newFrame() *frame { return &frame{vars: map[string]*variable{}} }

// clone returns a deep copy of f. Its variables are made in one block: a
// subshell (every pipeline stage is one) copies every variable.
func (f *frame) clone() *frame {
	nf := &frame{vars: make(map[string]*variable, len(f.vars))}
	block := make([]variable, len(f.vars))
	i := 0
	for k, v := range f.vars {
		v.cloneInto(&block[i])
		nf.vars[k] = &block[i]
		i++
	}
	return nf
}

// vstr returns a set string variable.
func vstr(s string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.String, Str: s}
}

// cloneInto makes c a deep copy of v.
func (v *variable) cloneInto(c *variable) {
	*c = *v
	c.List = slices.Clone(v.List)
	c.Indexes = slices.Clone(v.Indexes)
	if v.Map != nil {
		c.Map = maps.Clone(v.Map)
	}
}

// lookup finds the innermost variable named name, and its frame index.
// It follows namerefs (declare -n).
func (r *runner) lookup(name string) (*variable, int) {
	v, i := r.lookupRaw(name)
	if v == nil || v.Kind != expand.NameRef || !v.Set || v.Str == "" {
		return v, i
	}
	t, ok := r.resolveRef(name)
	if !ok || t.hasSub {
		return nil, -1
	}
	return r.lookupRaw(t.name)
}

// lookupRaw finds the innermost variable named name without following
// namerefs.
func (r *runner) lookupRaw(name string) (*variable, int) {
	for i := len(r.frames) - 1; i >= 0; i-- {
		if v, ok := r.frames[i].vars[name]; ok {
			return v, i
		}
	}
	return nil, -1
}

// getVar returns the string value of a variable ("" when unset).
func (r *runner) getVar(name string) string {
	return envView{r}.Get(name).String()
}

// isSetVar reports whether a variable is set.
func (r *runner) isSetVar(name string) bool {
	return envView{r}.Get(name).IsSet()
}

// errReadonly is returned when assigning to a readonly variable.
type errReadonly string

// Error returns bash's message.
func (e errReadonly) Error() string { return string(e) + ": readonly variable" }

// setGlobal sets a string variable in the scope where it lives.
func (r *runner) setGlobal(name, value string, export bool) error {
	if err := r.assign(name, vstr(value), false); err != nil {
		return err
	}
	if export {
		v, _ := r.lookup(name)
		v.exported = true
	}
	return nil
}

// assign sets the value of a variable in the innermost scope that has it
// (or the global scope), keeping its attributes. local forces the
// innermost scope.
func (r *runner) assign(name string, val expand.Variable, local bool) error {
	switch name {
	case "RANDOM":
		n, _ := strconv.Atoi(val.String())
		r.sh.rand.Store(uint32(n))
		return nil
	}
	v, fi := r.lookupRaw(name)
	if !local && v != nil && v.Kind == expand.NameRef && v.Set && v.Str != "" {
		t, ok := r.resolveRef(name)
		if !ok {
			return errCircular
		}
		if t.hasSub {
			if !r.assignIndexString(t.name, t.sub, val.String(), false) {
				return errReported
			}
			return nil
		}
		name = t.name
		v, fi = r.lookupRaw(name)
	}
	if v != nil && v.Kind == expand.NameRef && !local {
		// a nameref without a value: the value names its target
		return r.setRefValue(name, v, val.String())
	}
	if local && fi != len(r.frames)-1 {
		nv := &variable{}
		if v != nil && v.integer {
			nv.integer = true
		}
		v = nv
		r.frames[len(r.frames)-1].vars[name] = v
	} else if v == nil {
		v = &variable{}
		r.frames[0].vars[name] = v
	} else if v.readonly {
		return errReadonly(name)
	}
	if val.Kind == expand.String {
		s := val.Str
		if v.integer {
			n, err := r.xp().ArithString(s)
			if err != nil {
				return err
			}
			s = strconv.Itoa(n)
		}
		if v.lower {
			s = strings.ToLower(s)
		} else if v.upper {
			s = strings.ToUpper(s)
		}
		val.Str = s
	}
	if v.Kind == expand.Indexed && val.Kind == expand.String {
		// a=x on an array sets element 0.
		idx, vals := expansion.ArrayItems(v.Variable)
		idx, vals = expansion.SetItem(idx, vals, 0, val.Str)
		v.Variable = expansion.MakeIndexed(idx, vals)
	} else if v.Kind == expand.Associative && val.Kind == expand.String {
		expansion.AssocSet(&v.Variable, "0", val.Str)
	} else {
		v.Variable = expand.Variable{Set: true, Kind: val.Kind, Str: val.Str, List: val.List, Map: val.Map, Indexes: val.Indexes}
		if val.Kind == expand.Unknown {
			v.Kind = expand.String
		}
	}
	if r.opts.allexport {
		v.exported = true
	}
	if name == "GLOBIGNORE" && v.Str != "" {
		r.opts.dotglob = true // as in bash; unsetting GLOBIGNORE turns it off
	}
	return nil
}

// unsetVar removes a variable from the innermost scope that has it.
func (r *runner) unsetVar(name string) error {
	t, ok := r.resolveRef(name)
	switch {
	case !ok:
		// bash unsets the nameref itself
	case t.hasSub:
		r.unsetIndex(t.name, t.sub)
		return nil
	default:
		name = t.name
	}
	return r.unsetRaw(name)
}

// unsetRaw removes a variable (a nameref itself, not its target) from the
// innermost scope that has it.
func (r *runner) unsetRaw(name string) error {
	v, fi := r.lookupRaw(name)
	if v == nil {
		return nil
	}
	if v.readonly {
		return fmt.Errorf("%s: cannot unset: readonly variable", name)
	}
	if name == "GLOBIGNORE" {
		r.opts.dotglob = false
	}
	if fi > 0 && fi == len(r.frames)-1 {
		// Unsetting a local of the current function leaves it local and
		// unset (bash without localvar_unset).
		r.frames[fi].vars[name] = &variable{}
		return nil
	}
	delete(r.frames[fi].vars, name)
	return nil
}

// envView adapts a runner to expand.WriteEnviron.
type envView struct{ r *runner }

// Get returns a variable, including the special parameters.
func (e envView) Get(name string) expand.Variable {
	r := e.r
	switch name {
	case "#":
		return vstr(strconv.Itoa(len(r.params)))
	case "@", "*":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: slices.Clone(r.params)}
	case "?":
		return vstr(strconv.Itoa(r.status))
	case "$", "BASHPID":
		return vstr(strconv.Itoa(shellPID))
	case "!":
		if r.lastBg == 0 {
			return expand.Variable{}
		}
		return vstr(strconv.Itoa(r.lastBg))
	case "-":
		return vstr(r.optFlags())
	case "0":
		return vstr(r.name)
	case "SHELLOPTS":
		return expand.Variable{Set: true, Kind: expand.String, Str: r.shellOpts(), ReadOnly: true}
	case "BASHOPTS":
		return expand.Variable{Set: true, Kind: expand.String, Str: r.bashOpts(), ReadOnly: true}
	case "SRANDOM":
		return vstr(strconv.FormatUint(uint64(r.sh.srandom()), 10))
	case "RANDOM":
		n := r.sh.rand.Load()*1103515245 + 12345
		r.sh.rand.Store(n)
		return vstr(strconv.Itoa(int(n>>16) & 0x7fff))
	case "LINENO":
		return vstr(strconv.Itoa(r.lineno))
	case "FUNCNAME", "BASH_SOURCE", "BASH_LINENO":
		return r.callStackVar(name)
	case "PIPESTATUS":
		l := make([]string, len(r.pipestatus))
		for i, s := range r.pipestatus {
			l[i] = strconv.Itoa(s)
		}
		return expand.Variable{Set: true, Kind: expand.Indexed, List: l}
	case "_":
		return vstr(r.lastArg)
	case "BASH_SUBSHELL":
		return vstr(strconv.Itoa(r.subLevel))
	case "DIRSTACK":
		return r.dirStackVar()
	case "SECONDS":
		return vstr("0")
	case "EPOCHSECONDS":
		return vstr(strconv.FormatInt(r.sh.now().Unix(), 10))
	}
	if name != "" && name[0] >= '1' && name[0] <= '9' {
		if n, err := strconv.Atoi(name); err == nil {
			if n <= len(r.params) {
				return vstr(r.params[n-1])
			}
			return expand.Variable{}
		}
	}
	v, _ := r.lookupRaw(name)
	if v != nil && v.Kind == expand.NameRef && v.Set && v.Str != "" {
		t, ok := r.resolveRef(name)
		if !ok {
			return expand.Variable{}
		}
		if t.hasSub {
			return r.elementValue(t.name, t.sub)
		}
		v, _ = r.lookupRaw(t.name)
	}
	if v != nil {
		out := v.Variable
		out.Exported = v.exported
		out.ReadOnly = v.readonly
		return out
	}
	return expand.Variable{}
}

// Set sets or unsets a variable (used by expand for ${x=...}).
func (e envView) Set(name string, vr expand.Variable) error {
	if !vr.IsSet() {
		return e.r.unsetVar(name)
	}
	if vr.Kind == expand.KeepValue {
		return nil
	}
	return e.r.assign(name, vr, false)
}

// Each calls fn for every set variable, innermost scope first.
func (e envView) Each(fn func(string, expand.Variable) bool) {
	seen := map[string]bool{}
	for i := len(e.r.frames) - 1; i >= 0; i-- {
		for _, k := range sortedKeys(e.r.frames[i].vars) {
			if seen[k] {
				continue
			}
			seen[k] = true
			v := e.r.frames[i].vars[k]
			if !v.Set {
				continue
			}
			if !fn(k, v.Variable) {
				return
			}
		}
	}
}

// replaceEnviron makes environ ("NAME=value" pairs) the exported
// variables, as env does for the command it runs: every other exported
// variable is unset.
func (r *runner) replaceEnviron(environ []string) {
	for _, kv := range r.environ() {
		name, _, _ := strings.Cut(kv, "=")
		for i := range r.frames {
			if v := r.frames[i].vars[name]; v != nil && v.exported {
				delete(r.frames[i].vars, name)
			}
		}
	}
	for _, kv := range environ {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		v := &variable{exported: true}
		v.Set, v.Kind, v.Str = true, expand.String, val
		r.frames[0].vars[name] = v
	}
}

// environ returns the exported variables as sorted "NAME=value" pairs.
func (r *runner) environ() []string {
	m := map[string]string{}
	for i := 0; i < len(r.frames); i++ {
		for k, v := range r.frames[i].vars {
			if v.exported && v.Set && v.Kind == expand.String {
				m[k] = v.Str
			} else {
				delete(m, k)
			}
		}
	}
	out := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, k+"="+m[k])
	}
	return out
}

// exportedVar returns the value of an exported variable.
func (r *runner) exportedVar(name string) (string, bool) {
	v, _ := r.lookup(name)
	if v == nil || !v.exported || !v.Set {
		return "", false
	}
	return v.String(), true
}

// attrFlags returns the attribute letters of ${x@a}.
func attrFlags(v *variable) string {
	f := ""
	switch v.Kind {
	case expand.Indexed:
		f += "a"
	case expand.Associative:
		f += "A"
	}
	if v.integer {
		f += "i"
	}
	if v.Kind == expand.NameRef {
		f += "n"
	}
	if v.readonly {
		f += "r"
	}
	if v.exported {
		f += "x"
	}
	if v.lower {
		f += "l"
	}
	if v.upper {
		f += "u"
	}
	return f
}
