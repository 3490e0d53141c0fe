package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// This file runs declare, typeset, local, export and readonly, and
// prints variables as declare -p does.

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
			if it.as != nil && it.as.Value != nil {
				v, _ := r.literal(it.as.Value)
				args = append(args, it.name+"="+v)
			} else {
				args = append(args, it.name)
			}
		}
		r.trace(args)
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

// compoundText returns the value of a declare operand when it is the
// text of a compound assignment, "(...)", given to an array.
func (r *runner) compoundText(v *variable, it declItem) (string, bool, bool) {
	if v.Kind != expand.Indexed && v.Kind != expand.Associative {
		return "", false, false
	}
	var s string
	app := false
	switch {
	case it.as != nil:
		if it.as.Array != nil || it.as.Index != nil || it.as.Value == nil {
			return "", false, false
		}
		lit, ok := r.literal(it.as.Value)
		if !ok {
			return "", false, false
		}
		s, app = lit, it.as.Append
	case strings.IndexByte(it.name, '[') < 0:
		s, app = it.val, strings.HasSuffix(it.name, "+")
	}
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return "", false, false
	}
	return s, app, true
}

// assignCompoundString assigns the compound assignment in the text s,
// "(...)", to the array name.
func (r *runner) assignCompoundString(name, s string, app bool) bool {
	if expansion.TooDeep(s) {
		return false
	}
	f, err := expansion.NewParser().Parse(strings.NewReader("_="+s), "")
	if err != nil || len(f.Stmts) != 1 {
		return r.assignStmt(&syntax.Assign{Name: &syntax.Lit{Value: name}, Value: litWordOf(s), Append: app}, false)
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) != 1 || ce.Assigns[0].Array == nil || len(ce.Args) != 0 {
		return r.assignStmt(&syntax.Assign{Name: &syntax.Lit{Value: name}, Value: litWordOf(s), Append: app}, false)
	}
	return r.assignArray(name, ce.Assigns[0].Array, app, false)
}

// litWordOf returns a word of the single-quoted text s.
func litWordOf(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: s}}}
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

// printFunc prints a function definition.
func (r *runner) printFunc(name string) {
	body := r.funcs[name]
	var b strings.Builder
	syntax.NewPrinter(syntax.Indent(4)).Print(&b, &syntax.FuncDecl{Name: &syntax.Lit{Value: name}, Body: body, Parens: true})
	fmt.Fprintln(r.stdout(), b.String())
}

// printVars lists variables for declare, export -p, readonly -p and set.
func (r *runner) printVars(variant string, on map[byte]bool) int {
	names := map[string]*variable{}
	frames := r.frames
	if variant == "local" {
		frames = frames[len(frames)-1:] // the function's own variables
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
