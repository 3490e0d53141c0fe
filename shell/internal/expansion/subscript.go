package expansion

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// This file evaluates the arithmetic inside words before expand sees
// them: the subscripts of ${a[i]} and the offsets of ${x:o:l}, and the
// subscripts of associative arrays, which are text.

// preArith returns a copy of w where every $((...)) (outside command
// substitutions) was evaluated by the shell's own arithmetic and replaced
// by its value, so that expand sees only literals.
func (ex *Expander) preArith(w *syntax.Word) (*syntax.Word, error) {
	if w == nil || !hasArithExp(w) {
		return w, nil
	}
	parts, err := ex.preArithParts(w.Parts)
	if err != nil {
		return nil, err
	}
	return &syntax.Word{Parts: parts}, nil
}

// hasArithExp reports whether n holds ${...} subscripts or slices that
// preArith must evaluate (outside command substitutions).
func hasArithExp(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Word:
		if plainParts(n.Parts) {
			return false
		}
	case *syntax.DblQuoted:
		if plainParts(n.Parts) {
			return false
		}
	}
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Slice != nil || (n.Index != nil && !isAtStar(n.Index)) {
				found = true
			}
		case *syntax.CmdSubst:
			return false
		}
		return !found
	})
	return found
}

// preArithParts is preArith for a list of word parts.
func (ex *Expander) preArithParts(parts []syntax.WordPart) ([]syntax.WordPart, error) {
	out := make([]syntax.WordPart, len(parts))
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.DblQuoted:
			if !hasArithExp(p) {
				out[i] = p
				continue
			}
			inner, err := ex.preArithParts(p.Parts)
			if err != nil {
				return nil, err
			}
			c := *p
			c.Parts = inner
			out[i] = &c
		case *syntax.ParamExp:
			if !hasArithExp(p) {
				out[i] = p
				continue
			}
			c := *p
			if p.Index != nil && !isAtStar(p.Index) && p.Param != nil && !p.Excl {
				if idx, ok, err := ex.preIndex(p.Param.Value, p.Index); err != nil {
					return nil, err
				} else if ok {
					c.Index = idx
				}
			}
			if p.Slice != nil {
				sl := *p.Slice
				var off int
				for k, e := range []*syntax.ArithmExpr{&sl.Offset, &sl.Length} {
					if *e == nil {
						continue
					}
					n, err := ex.Arith(*e)
					if err != nil {
						if p.Param != nil {
							err = prefixError(err, p.Param.Value)
						}
						return nil, err
					}
					if k == 0 {
						off = n
					} else if n < 0 && ex.sliceEndBeforeStart(p, off, n) {
						return nil, fmt.Errorf("%d: substring expression < 0", n)
					}
					*e = litWord(strconv.Itoa(n))
				}
				c.Slice = &sl
			}
			if p.Repl != nil {
				rp := *p.Repl
				var err error
				if rp.Orig, err = ex.preArith(rp.Orig); err != nil {
					return nil, err
				}
				if rp.With, err = ex.preArith(rp.With); err != nil {
					return nil, err
				}
				c.Repl = &rp
			}
			out[i] = &c
		default:
			out[i] = p
		}
	}
	return out, nil
}

// sliceEndBeforeStart reports whether ${x:off:n}, with n negative (an
// offset from the end), ends before it starts, which bash refuses; it
// always does for arrays and the positional parameters.
func (ex *Expander) sliceEndBeforeStart(p *syntax.ParamExp, off, n int) bool {
	if isMulti(p) || p.Param == nil {
		return true
	}
	if p.Index != nil || p.Excl {
		return false
	}
	size := utf8.RuneCountInString(ex.getVar(p.Param.Value))
	if off < 0 {
		off += size
		if off < 0 {
			return false // bash expands to nothing
		}
	}
	return size+n < off
}

// isAtStar reports whether a subscript is @ or *.
func isAtStar(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	l := w.Lit()
	return l == "@" || l == "*"
}

// litWord returns a word holding the literal s.
func litWord(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

// preIndex evaluates the subscript of ${name[index]} for an indexed array
// (negative subscripts count from the end).
func (ex *Expander) preIndex(name string, index syntax.ArithmExpr) (syntax.ArithmExpr, bool, error) {
	vr := ex.env.Get(name)
	if vr.Kind == expand.Associative {
		return nil, false, nil
	}
	n, err := ex.Arith(index)
	if err != nil {
		return nil, false, exitError(err)
	}
	if n < 0 {
		idx, _ := ArrayItems(vr)
		max := -1
		if len(idx) > 0 {
			max = idx[len(idx)-1]
		}
		n += max + 1
		if n < 0 {
			ex.env.Errorf("%s: bad array subscript", name)
			n = max + 1
		}
	}
	return litWord(strconv.Itoa(n)), true, nil
}

// AssocKey evaluates the subscript of an associative array, which the
// parser read as arithmetic: its text, with its words expanded, is the key
// (a[$x+1] is "5+1" when x is 5). Spaces between operators are not kept:
// the tree does not record them.
func (ex *Expander) AssocKey(x syntax.ArithmExpr) (string, error) {
	if _, isWord := x.(*syntax.Word); !isWord {
		// an expression of literals (m[a + b]): its text as written,
		// spaces too, when the source is known
		src := ex.env.Source()
		if start, end, ok := sourceSpan(src, x); ok {
			if !strings.ContainsAny(src[start:end], "$`'\"\\") {
				return src[start:end], nil
			}
			words := expansionWords(x, nil)
			vals := make(map[*syntax.Word]string, len(words))
			for _, w := range words {
				s, err := ex.Literal(w)
				if err != nil {
					return "", err
				}
				vals[w] = s
			}
			var b strings.Builder
			if spliceSource(&b, src, x, words, vals) {
				return strings.TrimRight(b.String(), " \t\n"), nil
			}
		}
	}
	var b strings.Builder
	if err := ex.arithKeyText(&b, x); err != nil {
		return "", err
	}
	return b.String(), nil
}

// arithKeyText writes the text of a subscript for AssocKey.
func (ex *Expander) arithKeyText(b *strings.Builder, x syntax.ArithmExpr) error {
	switch x := x.(type) {
	case *syntax.Word:
		s, err := ex.Literal(x)
		b.WriteString(s)
		return err
	case *syntax.BinaryArithm:
		if err := ex.arithKeyText(b, x.X); err != nil {
			return err
		}
		b.WriteString(x.Op.String())
		return ex.arithKeyText(b, x.Y)
	case *syntax.UnaryArithm:
		if x.Post {
			if err := ex.arithKeyText(b, x.X); err != nil {
				return err
			}
			b.WriteString(x.Op.String())
			return nil
		}
		b.WriteString(x.Op.String())
		return ex.arithKeyText(b, x.X)
	case *syntax.ParenArithm:
		b.WriteByte('(')
		if err := ex.arithKeyText(b, x.X); err != nil {
			return err
		}
		b.WriteByte(')')
		return nil
	}
	return ErrReported
}
