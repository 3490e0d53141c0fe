package jq

import "github.com/itchyny/gojq"

// jqInspect walks the parsed program q in source order, as go/ast.Inspect
// does: it calls f for every *gojq.Query, *gojq.Term, *gojq.String and
// *gojq.ObjectKeyVal it reaches (never for a nil one), before their parts,
// and walks the parts only when f returns true. The parts are all that a
// node holds: function definitions and arguments, index and slice bounds,
// object keys and values, string interpolations, the branches of if and
// try, reduce and foreach with their patterns, label bodies and suffixes.
func jqInspect(q *gojq.Query, f func(node any) bool) {
	w := jqWalker{f}
	w.query(q)
}

// jqWalker holds jqInspect's callback.
type jqWalker struct {
	f func(node any) bool
}

func (w jqWalker) query(q *gojq.Query) {
	if q == nil || !w.f(q) {
		return
	}
	for _, d := range q.FuncDefs {
		w.query(d.Body)
	}
	w.term(q.Term)
	w.query(q.Left)
	w.query(q.Right)
	for _, p := range q.Patterns {
		w.pattern(p)
	}
}

func (w jqWalker) str(s *gojq.String) {
	if s == nil || !w.f(s) {
		return
	}
	for _, x := range s.Queries {
		w.query(x)
	}
}

func (w jqWalker) index(x *gojq.Index) {
	if x != nil {
		w.str(x.Str)
		w.query(x.Start)
		w.query(x.End)
	}
}

func (w jqWalker) pattern(p *gojq.Pattern) {
	if p == nil {
		return
	}
	for _, x := range p.Array {
		w.pattern(x)
	}
	for _, o := range p.Object {
		w.str(o.KeyString)
		w.query(o.KeyQuery)
		w.pattern(o.Val)
	}
}

func (w jqWalker) term(t *gojq.Term) {
	if t == nil || !w.f(t) {
		return
	}
	w.index(t.Index)
	if t.Func != nil {
		for _, a := range t.Func.Args {
			w.query(a)
		}
	}
	if t.Object != nil {
		for _, kv := range t.Object.KeyVals {
			if kv == nil || !w.f(kv) {
				continue
			}
			w.str(kv.KeyString)
			w.query(kv.KeyQuery)
			w.query(kv.Val)
		}
	}
	if t.Array != nil {
		w.query(t.Array.Query)
	}
	if t.Unary != nil {
		w.term(t.Unary.Term)
	}
	w.str(t.Str)
	if t.If != nil {
		w.query(t.If.Cond)
		w.query(t.If.Then)
		for _, e := range t.If.Elif {
			w.query(e.Cond)
			w.query(e.Then)
		}
		w.query(t.If.Else)
	}
	if t.Try != nil {
		w.query(t.Try.Body)
		w.query(t.Try.Catch)
	}
	if x := t.Reduce; x != nil {
		w.query(x.Query)
		for _, p := range x.Patterns {
			w.pattern(p)
		}
		w.query(x.Start)
		w.query(x.Update)
	}
	if x := t.Foreach; x != nil {
		w.query(x.Query)
		for _, p := range x.Patterns {
			w.pattern(p)
		}
		w.query(x.Start)
		w.query(x.Update)
		w.query(x.Extract)
	}
	if t.Label != nil {
		w.query(t.Label.Body)
	}
	w.query(t.Query)
	for _, s := range t.SuffixList {
		w.index(s.Index)
	}
}
