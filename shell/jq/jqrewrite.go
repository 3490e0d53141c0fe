package jq

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
)

// A program is rewritten before gojq compiles it, so that it runs with jq
// 1.7's semantics where gojq's differ:
//
//   - arithmetic (+ - * / % and unary minus) calls Go functions that
//     compute in doubles, keep key order and word errors as jq does;
//   - the assignment operators call _assign and _modify from the prelude
//     (update-assignments as jq defines them: rhs as $v | lhs |= . op $v);
//   - .[] iterates an object in key order (gojq sorts the keys): on an
//     object it becomes .[_cordon_keys[]], which keeps paths working;
//   - .name checks first that its input can be indexed with a string, so
//     that the error names the key ("Cannot index number with "name"");
//   - an object construction records its key order;
//   - a number literal that gojq would print differently (1.000, 1E1000)
//     keeps its literal value;
//   - try ... catch hands the handler jq's message for gojq's errors;
//   - $__loc__ gets its line, and $ENV and env the environment in order.

// jqRewriteOptions tunes the rewriting.
type jqRewriteOptions struct {
	// source is the program text, for the lines of $__loc__.
	source string
	// userDefs are the functions that the program defines (name/arity):
	// calls to them are left alone.
	userDefs map[string]bool
	// keyGuards checks every .name before indexing, for its error
	// message. Without it, only those in the body of a try with a catch
	// are checked (the message of the others is found on failure by a
	// second run with the checks: see jqRunner.diagnose), as the check
	// slows indexing down by a third.
	keyGuards bool
}

// jqUserDefs returns the names (name/arity) of the functions q defines.
func jqUserDefs(q *gojq.Query) map[string]bool {
	defs := map[string]bool{}
	var query func(q *gojq.Query)
	query = func(q *gojq.Query) {
		if q == nil {
			return
		}
		for _, d := range q.FuncDefs {
			defs[d.Name+"/"+strconv.Itoa(len(d.Args))] = true
			query(d.Body)
		}
		query(q.Left)
		query(q.Right)
		if q.Term != nil {
			query(q.Term.Query)
		}
	}
	query(q)
	return defs
}

// rewriteQuery rewrites q in place.
func rewriteQuery(q *gojq.Query, o jqRewriteOptions) {
	r := &jqRewriter{o: o}
	if o.source != "" {
		r.locLines = jqLocLines(o.source)
	}
	r.query(q)
}

// jqRewriter holds the state of one rewriting.
type jqRewriter struct {
	o        jqRewriteOptions
	tryDepth int   // > 0 in the body of a try with a catch
	locLines []int // the lines of the $__loc__ tokens, in order
	locs     int   // the $__loc__ tokens rewritten so far
}

// jqLocLines returns the line of each "$__loc__" in src.
func jqLocLines(src string) []int {
	var lines []int
	line := 1
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\n':
			line++
		case strings.HasPrefix(src[i:], "$__loc__"):
			lines = append(lines, line)
		}
	}
	return lines
}

// Helpers that build AST nodes.

func jqFuncTerm(name string, args ...*gojq.Query) *gojq.Term {
	return &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: name, Args: args}}
}

func jqFuncQuery(name string, args ...*gojq.Query) *gojq.Query {
	return &gojq.Query{Term: jqFuncTerm(name, args...)}
}

func jqStringQuery(s string) *gojq.Query {
	return &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeString, Str: &gojq.String{Str: s}}}
}

func jqIdentity() *gojq.Query {
	return &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIdentity}}
}

func jqPipe(l, r *gojq.Query) *gojq.Query {
	return &gojq.Query{Left: l, Op: gojq.OpPipe, Right: r}
}

// jqArithFuncs maps the arithmetic operators to their Go functions.
var jqArithFuncs = map[gojq.Operator]string{
	gojq.OpAdd: "_cordon_add", gojq.OpSub: "_cordon_sub", gojq.OpMul: "_cordon_mul",
	gojq.OpDiv: "_cordon_div", gojq.OpMod: "_cordon_mod",
	gojq.OpUpdateAdd: "_cordon_add", gojq.OpUpdateSub: "_cordon_sub", gojq.OpUpdateMul: "_cordon_mul",
	gojq.OpUpdateDiv: "_cordon_div", gojq.OpUpdateMod: "_cordon_mod",
}

func (r *jqRewriter) query(q *gojq.Query) {
	if q == nil {
		return
	}
	if r.constPathUpdate(q) {
		return
	}
	for _, d := range q.FuncDefs {
		r.query(d.Body)
	}
	r.term(q.Term)
	r.query(q.Left)
	r.query(q.Right)
	for _, p := range q.Patterns {
		r.pattern(p)
	}
	switch q.Op {
	case gojq.OpAdd, gojq.OpSub, gojq.OpMul, gojq.OpDiv, gojq.OpMod:
		*q = gojq.Query{FuncDefs: q.FuncDefs, Term: jqFuncTerm(jqArithFuncs[q.Op], q.Left, q.Right)}
	case gojq.OpAssign:
		*q = gojq.Query{FuncDefs: q.FuncDefs, Term: jqFuncTerm("_assign", q.Left, q.Right)}
	case gojq.OpModify:
		*q = gojq.Query{FuncDefs: q.FuncDefs, Term: jqFuncTerm("_modify", q.Left, q.Right)}
	case gojq.OpUpdateAdd, gojq.OpUpdateSub, gojq.OpUpdateMul, gojq.OpUpdateDiv, gojq.OpUpdateMod, gojq.OpUpdateAlt:
		// rhs as $v | lhs |= . op $v
		v := jqFuncQuery("$__cordon_v")
		var update *gojq.Query
		if q.Op == gojq.OpUpdateAlt {
			update = &gojq.Query{Left: jqIdentity(), Op: gojq.OpAlt, Right: v}
		} else {
			update = jqFuncQuery(jqArithFuncs[q.Op], jqIdentity(), v)
		}
		*q = gojq.Query{
			FuncDefs: q.FuncDefs,
			Left:     q.Right,
			Op:       gojq.OpPipe,
			Patterns: []*gojq.Pattern{{Name: "$__cordon_v"}},
			Right:    jqFuncQuery("_modify", q.Left, update),
		}
	}
}

func (r *jqRewriter) str(s *gojq.String) {
	if s != nil {
		for _, q := range s.Queries {
			r.query(q)
		}
	}
}

func (r *jqRewriter) index(x *gojq.Index) {
	if x != nil {
		r.str(x.Str)
		r.query(x.Start)
		r.query(x.End)
	}
}

func (r *jqRewriter) pattern(p *gojq.Pattern) {
	if p == nil {
		return
	}
	for _, x := range p.Array {
		r.pattern(x)
	}
	for _, o := range p.Object {
		r.str(o.KeyString)
		r.query(o.KeyQuery)
		r.pattern(o.Val)
	}
}

func (r *jqRewriter) term(t *gojq.Term) {
	if t == nil {
		return
	}
	if t.Type == gojq.TermTypeFunc && t.Func.Name == "del" && len(t.Func.Args) == 1 && !r.o.userDefs["del/1"] {
		if p, ok := jqConstPath(t.Func.Args[0]); ok {
			// del(.a.b): delpaths([["a","b"]]).
			t.Func = &gojq.Func{Name: "_cordon_del", Args: []*gojq.Query{jqConstArray([]any{p})}}
			r.suffixes(t)
			return
		}
	}
	// The children first.
	r.index(t.Index)
	if t.Func != nil {
		for _, a := range t.Func.Args {
			r.query(a)
		}
	}
	if t.Object != nil {
		for _, kv := range t.Object.KeyVals {
			r.str(kv.KeyString)
			r.query(kv.KeyQuery)
			r.query(kv.Val)
		}
	}
	if t.Array != nil {
		r.query(t.Array.Query)
	}
	if t.Unary != nil {
		r.term(t.Unary.Term)
	}
	r.str(t.Str)
	if t.If != nil {
		r.query(t.If.Cond)
		r.query(t.If.Then)
		for _, e := range t.If.Elif {
			r.query(e.Cond)
			r.query(e.Then)
		}
		r.query(t.If.Else)
	}
	if t.Try != nil {
		if t.Try.Catch != nil {
			r.tryDepth++
		}
		r.query(t.Try.Body)
		if t.Try.Catch != nil {
			r.tryDepth--
		}
		r.query(t.Try.Catch)
	}
	if t.Reduce != nil {
		r.query(t.Reduce.Query)
		for _, p := range t.Reduce.Patterns {
			r.pattern(p)
		}
		r.query(t.Reduce.Start)
		r.query(t.Reduce.Update)
	}
	if t.Foreach != nil {
		r.query(t.Foreach.Query)
		for _, p := range t.Foreach.Patterns {
			r.pattern(p)
		}
		r.query(t.Foreach.Start)
		r.query(t.Foreach.Update)
		r.query(t.Foreach.Extract)
	}
	if t.Label != nil {
		r.query(t.Label.Body)
	}
	r.query(t.Query)
	for _, s := range t.SuffixList {
		r.index(s.Index)
	}

	// Then the term itself.
	switch t.Type {
	case gojq.TermTypeNumber:
		if jqLiteralNeedsKeeping(t.Number) {
			*t = gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: "_cordon_lit", Args: []*gojq.Query{jqStringQuery(t.Number)}}, SuffixList: t.SuffixList}
		}
	case gojq.TermTypeUnary:
		if t.Unary.Op == gojq.OpSub {
			*t = gojq.Term{Type: gojq.TermTypeQuery, Query: jqPipe(&gojq.Query{Term: t.Unary.Term}, jqFuncQuery("_cordon_neg")), SuffixList: t.SuffixList}
		}
	case gojq.TermTypeObject:
		wrapObject(t)
	case gojq.TermTypeTry:
		if t.Try.Catch != nil {
			t.Try.Catch = jqPipe(jqFuncQuery("_cordon_errmsg"), t.Try.Catch)
		}
	case gojq.TermTypeFunc:
		switch {
		case t.Func.Name == "$__loc__":
			line := 1
			if r.locs < len(r.locLines) {
				line = r.locLines[r.locs]
			}
			r.locs++
			loc := &gojq.Term{Type: gojq.TermTypeObject, Object: &gojq.Object{KeyVals: []*gojq.ObjectKeyVal{
				{Key: "file", Val: jqStringQuery("<top-level>")},
				{Key: "line", Val: &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeNumber, Number: strconv.Itoa(line)}}},
			}}}
			wrapObject(loc)
			loc.SuffixList = t.SuffixList
			*t = *loc
		case t.Func.Name == "$ENV" || t.Func.Name == "env" && len(t.Func.Args) == 0 && !r.o.userDefs["env/0"]:
			t.Func = &gojq.Func{Name: "_cordon_env"}
		}
	}
	r.suffixes(t)
}

// suffixes rewrites the suffixes of t that need it (.[], and indexing
// with a constant or a variable, which is checked first) into a pipeline
// of single steps, each ? applying to the step before it as in gojq. An
// index computed from the input ((.a[.b]) is computed from the term's
// input, which the pipeline keeps in $__cordon_dot.
func (r *jqRewriter) suffixes(t *gojq.Term) {
	suffixes := t.SuffixList
	if t.Type == gojq.TermTypeIndex {
		suffixes = append([]*gojq.Suffix{{Index: t.Index}}, suffixes...)
	}
	needed := false
	for _, s := range suffixes {
		if s.Iter || r.guardKey(s.Index) != nil {
			needed = true
			break
		}
	}
	if !needed {
		return
	}
	var steps []*gojq.Query
	changed := false
	if t.Type != gojq.TermTypeIndex {
		base := *t
		base.SuffixList = nil
		steps = append(steps, &gojq.Query{Term: &base})
		changed = true
	} else {
		steps = append(steps, jqIdentity())
	}
	rebind := false
	for _, s := range suffixes {
		switch {
		case s.Optional:
			last := steps[len(steps)-1]
			steps[len(steps)-1] = &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeTry, Try: &gojq.Try{Body: last}}}
		case s.Iter:
			steps = append(steps, jqIterQuery())
			changed = true
		case s.Index != nil:
			x := s.Index
			if changed && jqIndexUsesInput(x) {
				x = jqRebindIndex(x)
				rebind = true
			}
			step := &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIdentity, SuffixList: []*gojq.Suffix{{Index: x}}}}
			if key := r.guardKey(s.Index); key != nil {
				step = jqPipe(jqFuncQuery("_cordon_idx", key), step)
			}
			steps = append(steps, step)
			changed = true
		}
	}
	q := steps[0]
	for _, s := range steps[1:] {
		q = jqPipe(q, s)
	}
	if rebind {
		q = &gojq.Query{Left: jqIdentity(), Op: gojq.OpPipe, Patterns: []*gojq.Pattern{{Name: "$__cordon_dot"}}, Right: q}
	}
	*t = gojq.Term{Type: gojq.TermTypeQuery, Query: q}
}

// guardKey returns the key query of an index to check first, if any.
func (r *jqRewriter) guardKey(x *gojq.Index) *gojq.Query {
	if jqConstKey(x) != nil && !r.o.keyGuards && r.tryDepth == 0 {
		return nil
	}
	return jqIndexGuardKey(x)
}

// jqIndexGuardKey returns the key query of an index worth checking first:
// a constant string or number, or a variable.
func jqIndexGuardKey(x *gojq.Index) *gojq.Query {
	if x == nil || x.IsSlice {
		return nil
	}
	if key := jqConstKey(x); key != nil {
		return jqStringQuery(*key)
	}
	if x.Start == nil || x.End != nil || x.Start.FuncDefs != nil || x.Start.Term == nil || x.Start.Term.SuffixList != nil {
		return nil
	}
	t := x.Start.Term
	switch {
	case t.Type == gojq.TermTypeNumber:
		return x.Start
	case t.Type == gojq.TermTypeFunc && strings.HasPrefix(t.Func.Name, "$") && t.Func.Name != "$__loc__" && t.Func.Name != "$ENV":
		return x.Start
	case t.Type == gojq.TermTypeFunc && t.Func.Name == "_cordon_lit":
		return x.Start
	case t.Type == gojq.TermTypeQuery && t.Query.Op == gojq.OpPipe && t.Query.Left.Term != nil &&
		t.Query.Left.Term.Type == gojq.TermTypeNumber && t.Query.Right.Term != nil &&
		t.Query.Right.Term.Type == gojq.TermTypeFunc && t.Query.Right.Term.Func.Name == "_cordon_neg":
		// A negative number: (1 | _cordon_neg).
		return x.Start
	}
	return nil
}

// jqIndexUsesInput reports whether an index computes its key from the
// input.
func jqIndexUsesInput(x *gojq.Index) bool {
	for _, q := range []*gojq.Query{x.Start, x.End} {
		if q != nil {
			if _, ok := jqConstValue(q); !ok && jqIndexGuardKey(&gojq.Index{Start: q}) == nil {
				return true
			}
		}
	}
	return x.Str != nil && x.Str.Queries != nil
}

// jqRebindIndex returns x with its key computed from $__cordon_dot.
func jqRebindIndex(x *gojq.Index) *gojq.Index {
	y := *x
	dot := func(q *gojq.Query) *gojq.Query {
		if q == nil {
			return nil
		}
		return jqPipe(jqFuncQuery("$__cordon_dot"), q)
	}
	y.Start, y.End = dot(x.Start), dot(x.End)
	if x.Str != nil && x.Str.Queries != nil {
		y.Str = nil
		y.Start = jqPipe(jqFuncQuery("$__cordon_dot"), &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeString, Str: x.Str}})
	}
	return &y
}

// jqIterQuery returns the rewriting of .[]: on an object, the values in
// key order.
func jqIterQuery() *gojq.Query {
	keys := &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: "_cordon_keys"}, SuffixList: []*gojq.Suffix{{Iter: true}}}
	return &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIf, If: &gojq.If{
		Cond: jqFuncQuery("_cordon_isobj"),
		Then: &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIdentity, SuffixList: []*gojq.Suffix{{Index: &gojq.Index{Start: &gojq.Query{Term: keys}}}}}},
		Else: &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIdentity, SuffixList: []*gojq.Suffix{{Iter: true}}}},
	}}}
}

// jqLiteralNeedsKeeping reports whether gojq's value for a number literal
// of the program would print differently from the literal in jq 1.7.
func jqLiteralNeedsKeeping(lit string) bool {
	v, ok := canonicalNumber(lit)
	if !ok {
		return false
	}
	n, isLit := v.(json.Number)
	if !isLit {
		_, isFloat := v.(float64)
		return isFloat // out of decNumber's range: an infinity or zero
	}
	// gojq parses a literal with a point or an exponent as a double, and
	// other integers as *big.Int.
	if !strings.ContainsAny(lit, ".eE") {
		if b, ok := new(big.Int).SetString(lit, 10); ok {
			return b.String() != string(n)
		}
		return true
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !math.IsInf(f, 0) {
		return true
	}
	return formatJQNumber(f) != string(n)
}

// jqConstKey returns the key of .name, ."name" and .["name"].
func jqConstKey(x *gojq.Index) *string {
	switch {
	case x == nil || x.IsSlice:
		return nil
	case x.Name != "":
		return &x.Name
	case x.Str != nil && x.Str.Queries == nil:
		return &x.Str.Str
	case x.Start != nil && x.End == nil && x.Start.Term != nil && x.Start.Term.Type == gojq.TermTypeString &&
		x.Start.Term.Str.Queries == nil && x.Start.Term.SuffixList == nil && x.Start.FuncDefs == nil:
		return &x.Start.Term.Str.Str
	}
	return nil
}

// constPathUpdate rewrites an assignment to a constant path (.a.b = v,
// .a |= f, .a += v) into setpath and getpath, which is what _assign and
// _modify do for such a path, without their general machinery.
func (r *jqRewriter) constPathUpdate(q *gojq.Query) bool {
	switch q.Op {
	case gojq.OpAssign, gojq.OpModify, gojq.OpUpdateAdd, gojq.OpUpdateSub, gojq.OpUpdateMul,
		gojq.OpUpdateDiv, gojq.OpUpdateMod, gojq.OpUpdateAlt:
	default:
		return false
	}
	p, ok := jqConstPath(q.Left)
	if !ok {
		return false
	}
	for _, d := range q.FuncDefs {
		r.query(d.Body)
	}
	r.query(q.Right)
	path := jqConstArray(p)
	null := &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeNull}}
	get := jqFuncQuery("_cordon_getpath", path, null)
	set := func(v *gojq.Query) *gojq.Query { return jqFuncQuery("_cordon_setpath", path, v, null) }
	v := jqFuncQuery("$__cordon_v")
	bind := func(val, body *gojq.Query) *gojq.Query {
		return &gojq.Query{Left: val, Op: gojq.OpPipe, Patterns: []*gojq.Pattern{{Name: "$__cordon_v"}}, Right: body}
	}
	var out *gojq.Query
	switch q.Op {
	case gojq.OpAssign:
		// rhs as $v | setpath(p; $v)
		out = bind(q.Right, set(v))
	case gojq.OpModify:
		// . as $x | label $out | ((getpath(p) | f) as $v | setpath(p; $v)
		// | ., break $out), delpaths([p])
		x := jqFuncQuery("$__cordon_x")
		first := jqPipe(bind(jqPipe(x, jqPipe(get, q.Right)), jqPipe(x, set(v))),
			&gojq.Query{Left: jqIdentity(), Op: gojq.OpComma, Right: &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeBreak, Break: "$__cordon_out"}}})
		del := jqPipe(x, jqFuncQuery("_cordon_delpaths", jqConstArray([]any{p}), null))
		out = &gojq.Query{Left: jqIdentity(), Op: gojq.OpPipe, Patterns: []*gojq.Pattern{{Name: "$__cordon_x"}},
			Right: &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeLabel, Label: &gojq.Label{Ident: "$__cordon_out",
				Body: &gojq.Query{Left: first, Op: gojq.OpComma, Right: del}}}}}
	case gojq.OpUpdateAlt:
		// rhs as $v | setpath(p; getpath(p) // $v)
		out = bind(q.Right, set(&gojq.Query{Left: get, Op: gojq.OpAlt, Right: v}))
	default:
		// rhs as $v | setpath(p; getpath(p) op $v)
		out = bind(q.Right, set(jqFuncQuery(jqArithFuncs[q.Op], get, v)))
	}
	*q = gojq.Query{FuncDefs: q.FuncDefs, Term: &gojq.Term{Type: gojq.TermTypeQuery, Query: out}}
	return true
}

// jqConstPath returns the path of a path expression made of constant
// keys and slices only (.a.b[0], .["x"][1:2]).
func jqConstPath(q *gojq.Query) ([]any, bool) {
	if q == nil || q.Term == nil || q.FuncDefs != nil {
		return nil, false
	}
	t := q.Term
	var suffixes []*gojq.Suffix
	switch t.Type {
	case gojq.TermTypeIndex:
		suffixes = append([]*gojq.Suffix{{Index: t.Index}}, t.SuffixList...)
	case gojq.TermTypeIdentity:
		suffixes = t.SuffixList
	default:
		return nil, false
	}
	if len(suffixes) == 0 {
		return nil, false
	}
	path := make([]any, 0, len(suffixes))
	for _, s := range suffixes {
		if s.Index == nil {
			return nil, false
		}
		x := s.Index
		if key := jqConstKey(x); key != nil {
			path = append(path, *key)
			continue
		}
		num := func(q *gojq.Query) (any, bool) {
			if q == nil {
				return nil, true
			}
			v, ok := jqConstValue(q)
			if ok && jqIsNumber(v) {
				return v, true
			}
			return nil, false
		}
		if x.IsSlice {
			start, ok1 := num(x.Start)
			end, ok2 := num(x.End)
			if !ok1 || !ok2 {
				return nil, false
			}
			path = append(path, map[string]any{"start": start, "end": end})
			continue
		}
		if x.Start == nil || x.End != nil {
			return nil, false
		}
		n, ok := num(x.Start)
		if !ok || n == nil {
			return nil, false
		}
		path = append(path, n)
	}
	return path, true
}

// jqConstArray returns a query that makes the constant array of values.
func jqConstArray(vals []any) *gojq.Query {
	var q *gojq.Query
	for _, v := range vals {
		e := jqConstQuery(v)
		if q == nil {
			q = e
		} else {
			q = &gojq.Query{Left: q, Op: gojq.OpComma, Right: e}
		}
	}
	return &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeArray, Array: &gojq.Array{Query: q}}}
}

// jqConstQuery returns a query that makes the constant value v (a path
// element: a string, a number or a slice).
func jqConstQuery(v any) *gojq.Query {
	switch v := v.(type) {
	case nil:
		return &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeNull}}
	case string:
		return jqStringQuery(v)
	case []any:
		return jqConstArray(v)
	case map[string]any:
		obj := &gojq.Object{}
		for _, k := range []string{"start", "end"} {
			obj.KeyVals = append(obj.KeyVals, &gojq.ObjectKeyVal{Key: k, Val: jqConstQuery(v[k])})
		}
		return &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeObject, Object: obj}}
	}
	return &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: "_cordon_lit", Args: []*gojq.Query{jqStringQuery(jqCompactOrdered(v, nil))}}}}
}
