package expansion

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// unsetElement returns the error of set -u for ${name[index]} when that
// element is not set ("a[5]: unbound variable", the subscript as
// written), or nil. Subscripts that change variables are not evaluated a
// second time: they are let through.
func (ex *Expander) unsetElement(p *syntax.ParamExp) error {
	if p.Index == nil || isAtStar(p.Index) || p.Exp != nil || p.Length || p.Excl || p.Repl != nil ||
		p.Slice != nil || p.Names != 0 || !ex.env.Options().NoUnset {
		return nil
	}
	var b strings.Builder
	syntax.NewPrinter().Print(&b, p.Index)
	text := b.String()
	if strings.ContainsAny(text, "=`") || strings.Contains(text, "++") || strings.Contains(text, "--") ||
		strings.Contains(text, "$(") {
		return nil
	}
	set := false
	switch vr := ex.env.Get(p.Param.Value); {
	case !vr.IsSet():
	case vr.Kind == expand.Associative:
		k, err := ex.AssocKey(p.Index)
		if err != nil {
			return err
		}
		_, set = vr.Map[k]
	default:
		n, err := ex.Arith(p.Index)
		if err != nil {
			return err
		}
		switch {
		case n < 0:
			set = true // bash reports a bad subscript instead
		case vr.Kind == expand.Indexed:
			idx, _ := ArrayItems(vr)
			_, set = slices.BinarySearch(idx, n)
		default:
			set = n == 0
		}
	}
	if set {
		return nil
	}
	name := &syntax.ParamExp{Param: &syntax.Lit{Value: p.Param.Value + "[" + text + "]"}}
	return expand.UnsetParameterError{Node: name, Message: "unbound variable"}
}
