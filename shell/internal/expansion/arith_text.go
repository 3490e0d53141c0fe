package expansion

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bash expands the parameters, command substitutions and quotes of an
// arithmetic expression as text, then parses the result: with x='2+3',
// $(( $x * 2 )) is 2+3*2, 8. The tree has such operands as words; when
// one expands to more than a number or a name, the expression is printed
// back with the values in their place and evaluated as text.

// expansionWords returns the operand words of x that hold expansions or
// quotes (not those inside subscripts).
func expansionWords(x syntax.ArithmExpr, out []*syntax.Word) []*syntax.Word {
	switch x := x.(type) {
	case *syntax.Word:
		for _, p := range x.Parts {
			switch p := p.(type) {
			case *syntax.ParamExp:
				if !p.Short || p.Dollar.IsValid() {
					return append(out, x)
				}
			case *syntax.CmdSubst, *syntax.DblQuoted, *syntax.ArithmExp:
				return append(out, x)
			}
		}
	case *syntax.BinaryArithm:
		out = expansionWords(x.X, out)
		return expansionWords(x.Y, out)
	case *syntax.UnaryArithm:
		return expansionWords(x.X, out)
	case *syntax.ParenArithm:
		return expansionWords(x.X, out)
	}
	return out
}

// simpleOperand reports whether s, the value of an operand, reads the same
// alone and as part of the text: a number or a name.
func simpleOperand(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) && s[i] != '#' && s[i] != '@' {
			return false
		}
	}
	return true
}

// arithSource prints x back as text, with the values vals for its words
// that have them.
func arithSource(b *strings.Builder, x syntax.ArithmExpr, vals map[*syntax.Word]string) {
	switch x := x.(type) {
	case *syntax.Word:
		if v, ok := vals[x]; ok {
			b.WriteString(v)
			return
		}
		syntax.NewPrinter(syntax.Minify(true)).Print(b, x)
	case *syntax.BinaryArithm:
		arithSource(b, x.X, vals)
		b.WriteByte(' ')
		b.WriteString(x.Op.String())
		b.WriteByte(' ')
		arithSource(b, x.Y, vals)
	case *syntax.UnaryArithm:
		if x.Post {
			arithSource(b, x.X, vals)
			b.WriteString(x.Op.String())
			return
		}
		b.WriteString(x.Op.String())
		arithSource(b, x.X, vals)
	case *syntax.ParenArithm:
		b.WriteByte('(')
		arithSource(b, x.X, vals)
		b.WriteByte(')')
	}
}

// spliceSource writes the source text of x, from src, with the values vals
// in place of the words (in order of position); false when src does not
// hold x.
func spliceSource(b *strings.Builder, src string, x syntax.ArithmExpr, words []*syntax.Word, vals map[*syntax.Word]string) bool {
	start, end, ok := sourceSpan(src, x)
	if !ok {
		return false
	}
	for end < len(src) && (src[end] == ' ' || src[end] == '\t' || src[end] == '\n') {
		end++
	}
	at := start
	for _, w := range words {
		ws, we := int(w.Pos().Offset()), int(w.End().Offset())
		if ws < at || we > end || ws > we {
			return false
		}
		b.WriteString(src[at:ws])
		b.WriteString(vals[w])
		at = we
	}
	b.WriteString(src[at:end])
	return true
}

// splitIncDec returns s with each ++ and -- that bash reads as two signs
// (3--5 is 3 - -5) written as two: bash takes them for an increment only
// after an operand or right before a name.
func splitIncDec(s string) string {
	if !strings.Contains(s, "++") && !strings.Contains(s, "--") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		b.WriteByte(c)
		if (c != '+' && c != '-') || i+1 >= len(s) || s[i+1] != c {
			continue
		}
		j := i - 1
		for j >= 0 && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
			j--
		}
		k := j
		for k >= 0 && isWordByte(s[k]) {
			k--
		}
		// after a name (not a number) or a subscript: a postfix operator
		post := j >= 0 && (s[j] == ']' || k < j && !(s[k+1] >= '0' && s[k+1] <= '9'))
		pre := i+2 < len(s) && (s[i+2] == '_' || s[i+2] >= 'a' && s[i+2] <= 'z' || s[i+2] >= 'A' && s[i+2] <= 'Z')
		if !post && !pre {
			b.WriteByte(' ')
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}
