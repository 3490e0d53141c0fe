package expansion

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file gives arithmetic errors bash's form:
//
//	EXPRESSION: MESSAGE (error token is "REST")
//
// where EXPRESSION is the text of the expression (without its leading
// blanks) and REST the text from the token where bash stopped to the end.

// maxArithLevel is how many expressions bash evaluates one inside the
// other (a variable's value is an expression) before it gives up
// (MAX_EXPR_RECURSION_LEVEL).
const maxArithLevel = 1024

// withToken returns a copy of the error e that bash reports with an error
// token starting at pos (an offset in the parsed text).
func withToken(msg string, pos int) *arithError {
	return &arithError{msg: msg, tokPos: pos, hasTok: true}
}

// arithMessage gives err, an error of the expression x whose text in src
// starts at src offset start (minus base, the offset of src in the text
// the parser read), bash's form. An error that has it already, or that
// cannot be located, is returned as is.
func arithMessage(err error, src string, base, start, end int) error {
	var ae *arithError
	if !errors.As(err, &ae) || ae.done || ae.fatal {
		return err
	}
	if start < 0 || end > len(src) || start > end {
		return unlocated(err)
	}
	for end < len(src) && (src[end] == ' ' || src[end] == '\t' || src[end] == '\n') {
		end++
	}
	if ae.numEnd != 0 {
		// a bad number: the expression up to it, and the number
		p, e := ae.tokPos-base, ae.numEnd-base
		if p < start || e > end || p > e {
			return unlocated(err)
		}
		return &arithError{msg: src[start:e] + ": " + ae.msg + ` (error token is "` + src[p:e] + `")`, done: true}
	}
	expr := src[start:end]
	tok := expr
	if ae.hasTok {
		p := ae.tokPos - base
		if p < start || p > end {
			return unlocated(err)
		}
		if ae.tokAfter {
			for p < end && (src[p] == ' ' || src[p] == '\t' || src[p] == '\n') {
				p++
			}
			if p == end {
				p = ae.lastTok - base
				if p < start || p > end {
					return unlocated(err)
				}
			}
		}
		tok = src[p:end]
	}
	return &arithError{msg: expr + ": " + ae.msg + ` (error token is "` + tok + `")`, done: true}
}

// unlocated returns err, whose expression's text is not known, with the
// message it has without it.
func unlocated(err error) error {
	var ae *arithError
	if errors.As(err, &ae) && ae.fallback != "" {
		return &arithError{msg: ae.fallback, done: true}
	}
	return err
}

// sourceSpan returns where the expression x is in src, the source text
// the shell parsed it from, after checking that src holds it there; ok is
// false when it does not (x came from other text).
func sourceSpan(src string, x syntax.ArithmExpr) (start, end int, ok bool) {
	if src == "" || x == nil {
		return 0, 0, false
	}
	start, end = int(x.Pos().Offset()), int(x.End().Offset())
	if start < 0 || end > len(src) || start >= end {
		return 0, 0, false
	}
	// the first and last tokens must be where the tree says
	first, last := x, x
	for {
		switch n := first.(type) {
		case *syntax.BinaryArithm:
			first = n.X
			continue
		case *syntax.UnaryArithm:
			if n.Post {
				first = n.X
				continue
			}
		}
		break
	}
	for {
		switch n := last.(type) {
		case *syntax.BinaryArithm:
			last = n.Y
			continue
		case *syntax.UnaryArithm:
			if !n.Post {
				last = n.X
				continue
			}
		}
		break
	}
	if w, isWord := first.(*syntax.Word); isWord {
		if l, isLit := w.Parts[0].(*syntax.Lit); isLit && !strings.HasPrefix(src[start:], l.Value) {
			return 0, 0, false
		}
	}
	if w, isWord := last.(*syntax.Word); isWord {
		if l, isLit := w.Parts[len(w.Parts)-1].(*syntax.Lit); isLit && !strings.HasSuffix(src[:end], l.Value) {
			return 0, 0, false
		}
	}
	return start, end, true
}

// lastTokenPos returns the offset of the last token of x.
func lastTokenPos(x syntax.ArithmExpr) int {
	for {
		switch n := x.(type) {
		case *syntax.BinaryArithm:
			x = n.Y
			continue
		case *syntax.UnaryArithm:
			if n.Post {
				return int(n.OpPos.Offset())
			}
			x = n.X
			continue
		case *syntax.ParenArithm:
			return int(n.Rparen.Offset())
		}
		return int(x.Pos().Offset())
	}
}

// arithTok is a token of an arithmetic expression for arithSyntax.
type arithTok struct {
	s   string // "" at the end
	pos int
	num bool // a number or a name
}

// arithOps are bash's operators, longest first.
var arithOps = []string{"**=", "<<=", ">>=", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "**",
	"+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "^", "|", "?", ":", ",", "(", ")"}

// arithSyntax finds the syntax error of the arithmetic expression s the
// way bash's parser reports it: the message and the offset in s of the
// error token. ok is false when it finds none.
func arithSyntax(s string) (msg string, pos int, ok bool) {
	p := &arithParser{s: s}
	p.next()
	defer func() {
		if e, isErr := recover().(arithSyntaxErr); isErr {
			msg, pos, ok = e.msg, e.pos, true
		}
	}()
	p.expr()
	if p.tok.s != "" {
		p.fail("syntax error in expression")
	}
	return "", 0, false
}

// arithSyntaxErr is the panic arithParser stops with.
type arithSyntaxErr struct {
	msg string
	pos int
}

// arithParser is a recursive-descent parser with bash's precedence that
// only looks for errors. Its depth is bounded by TooDeep on the text.
type arithParser struct {
	s         string
	i         int
	tok, prev arithTok
	depth     int
}

func (p *arithParser) fail(msg string) {
	pos := p.tok.pos
	if p.tok.s == "" {
		pos = p.prev.pos
	}
	panic(arithSyntaxErr{msg, pos})
}

func (p *arithParser) next() {
	p.prev = p.tok
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n') {
		p.i++
	}
	if p.i >= len(p.s) {
		p.tok = arithTok{pos: p.i}
		return
	}
	start := p.i
	c := p.s[p.i]
	if isWordByte(c) {
		for p.i < len(p.s) && (isWordByte(p.s[p.i]) || p.s[p.i] == '#' || p.s[p.i] == '@') {
			p.i++
		}
		if p.i < len(p.s) && p.s[p.i] == '[' {
			depth := 0
			for p.i < len(p.s) {
				if p.s[p.i] == '[' {
					depth++
				} else if p.s[p.i] == ']' {
					depth--
					if depth == 0 {
						p.i++
						break
					}
				}
				p.i++
			}
		}
		p.tok = arithTok{s: p.s[start:p.i], pos: start, num: true}
		return
	}
	switch c {
	case '$', '"', '`':
		// an expansion, which the parser reads whole: an operand
		p.i = skipExpansion(p.s, p.i)
		p.tok = arithTok{s: p.s[start:p.i], pos: start, num: true}
		return
	case '\'':
		// single quotes are not removed: not an operand
		p.i++
		p.tok = arithTok{s: "'", pos: start}
		return
	}
	for _, op := range arithOps {
		if strings.HasPrefix(p.s[p.i:], op) {
			p.i += len(op)
			p.tok = arithTok{s: op, pos: start}
			return
		}
	}
	p.tok = arithTok{s: p.s[start : start+1], pos: start}
	panic(arithSyntaxErr{"syntax error: invalid arithmetic operator", start})
}

// skipExpansion returns the end of the expansion or quoted string that
// starts at s[i] ($x, ${...}, $(...), "...", `...`).
func skipExpansion(s string, i int) int {
	open, close := byte(0), byte(0)
	switch {
	case s[i] == '"' || s[i] == '`':
		for j := i + 1; j < len(s); j++ {
			if s[j] == '\\' {
				j++
			} else if s[j] == s[i] {
				return j + 1
			}
		}
		return len(s)
	case i+1 < len(s) && s[i+1] == '{':
		open, close = '{', '}'
	case i+1 < len(s) && s[i+1] == '(':
		open, close = '(', ')'
	default:
		j := i + 1
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if j == i+1 && j < len(s) {
			j++ // $?, $#, $@
		}
		return j
	}
	depth := 0
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func (p *arithParser) is(ops ...string) bool {
	if p.tok.num {
		return false
	}
	for _, op := range ops {
		if p.tok.s == op {
			return true
		}
	}
	return false
}

func (p *arithParser) expr() {
	p.assign()
	for p.is(",") {
		p.next()
		p.assign()
	}
}

func (p *arithParser) assign() {
	lhs := p.tok
	p.cond()
	if p.is("=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "**=") {
		if !lhs.num || lhs.s[0] >= '0' && lhs.s[0] <= '9' || p.prev != lhs {
			p.fail("attempted assignment to non-variable")
		}
		p.next()
		p.assign()
	}
}

func (p *arithParser) cond() {
	p.binary(0)
	if p.is("?") {
		p.next()
		p.expr()
		if !p.is(":") {
			p.fail("`:' expected for conditional expression")
		}
		p.next()
		if p.tok.s == "" {
			p.fail("expression expected")
		}
		p.cond()
	}
}

// arithLevels are the binary operators from the loosest to the tightest.
var arithLevels = [][]string{{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="},
	{"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

func (p *arithParser) binary(level int) {
	if level == len(arithLevels) {
		p.power()
		return
	}
	p.binary(level + 1)
	for p.is(arithLevels[level]...) {
		p.next()
		p.binary(level + 1)
	}
}

func (p *arithParser) power() {
	p.unary()
	if p.is("**") {
		p.next()
		p.power()
	}
}

func (p *arithParser) unary() {
	p.depth++
	if p.depth > maxNesting {
		p.fail("expression nesting too deep")
	}
	defer func() { p.depth-- }()
	if p.is("!", "~", "-", "+", "++", "--") {
		p.next()
		p.unary()
		return
	}
	p.primary()
	if p.is("++", "--") && p.prev.num {
		p.next()
	}
}

func (p *arithParser) primary() {
	switch {
	case p.tok.num:
		p.next()
	case p.is("("):
		p.next()
		p.expr()
		if !p.is(")") {
			p.fail("missing `)'")
		}
		p.next()
	default:
		p.fail("syntax error: operand expected")
	}
}
