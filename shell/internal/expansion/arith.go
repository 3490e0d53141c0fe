package expansion

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// arithError is an arithmetic evaluation error.
type arithError struct {
	msg   string
	raw   string // for a bad number, the message without the number
	fatal bool   // the shell must exit (nounset)
	exit  bool   // the shell must exit (an error in a subscript)
	done  bool   // msg has the expression and the error token already
	// Where the error token starts (an offset in the parsed text), when
	// hasTok; when tokAfter, it is the first token after tokPos, or the
	// one at lastTok if none follows.
	tokPos, lastTok  int
	hasTok, tokAfter bool
	// numEnd, when not 0, is where a bad number ends: bash quotes the
	// expression up to it, and the number as the error token. fallback is
	// the message to give when the expression's text is not known.
	numEnd   int
	fallback string
}

// Error returns the message.
func (e *arithError) Error() string { return e.msg }

// Arith evaluates an arithmetic expression, as $((...)) and ((...)) do;
// assignments in it change the Env.
func (ex *Expander) Arith(x syntax.ArithmExpr) (int, error) {
	ev := &arithEval{ex: ex, level: 1}
	if words := expansionWords(x, nil); len(words) > 0 {
		// expand them once; then evaluate the text if one is more than
		// a number or a name
		ev.vals = make(map[*syntax.Word]string, len(words))
		text := false
		for _, w := range words {
			s, err := ex.lit(w)
			if err != nil {
				return 0, err
			}
			ev.vals[w] = s
			text = text || !simpleOperand(s)
		}
		if text {
			var b strings.Builder
			if !spliceSource(&b, ex.env.Source(), x, words, ev.vals) {
				b.Reset()
				arithSource(&b, x, ev.vals)
			}
			ev.vals = nil
			ev.level = 0
			n, err := ev.evalString(b.String())
			return int(n), err
		}
	}
	n, err := ev.eval(x)
	if err != nil {
		src := ex.env.Source()
		if start, end, ok := sourceSpan(src, x); ok {
			err = arithMessage(err, src, 0, start, end)
		} else {
			err = unlocated(err)
		}
	}
	return int(n), err
}

// arithEval evaluates one arithmetic expression (depth counts recursion
// through variables holding expressions).
type arithEval struct {
	ex    *Expander
	level int // how many expressions are being evaluated one inside the other
	// vals holds the values of the operand words with expansions, once
	// expanded (see expansionWords).
	vals map[*syntax.Word]string
}

// ArithString parses and evaluates the arithmetic expression in s, as
// let, declare -i and the operands of [[ -eq ]] do.
func (ex *Expander) ArithString(s string) (int, error) {
	ev := &arithEval{ex: ex}
	n, err := ev.evalString(s)
	return int(n), err
}

// evalString evaluates the arithmetic expression in s.
func (ev *arithEval) evalString(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, nil
	}
	if n, ok, err := parseArithNumber(t); ok || err != nil {
		return n, err
	}
	ev.level++
	defer func() { ev.level-- }()
	if ev.level >= maxArithLevel {
		return 0, &arithError{msg: t + ": expression recursion level exceeded (error token is \"" + t + "\")", done: true}
	}
	if syntax.ValidName(t) {
		return ev.varValue(t)
	}
	lead := len(s) - len(strings.TrimLeft(s, " \t\n"))
	if TooDeep(s) {
		return 0, &arithError{msg: t + ": expression nesting too deep", done: true}
	}
	s = splitIncDec(s)
	p := NewParser()
	w, err := p.Document(strings.NewReader("$((" + s + "))"))
	if err != nil || len(w.Parts) != 1 {
		if msg, pos, bad := arithSyntax(s); bad {
			return 0, &arithError{msg: s[lead:] + ": " + msg + ` (error token is "` + s[pos:] + `")`, done: true}
		}
		return 0, &arithError{msg: fmt.Sprintf("%s: syntax error in expression (error token is \"%s\")", t, t), done: true}
	}
	ae, ok := w.Parts[0].(*syntax.ArithmExp)
	if !ok || ae.X == nil {
		return 0, &arithError{msg: fmt.Sprintf("%s: syntax error in expression", t), done: true}
	}
	n, err := ev.eval(ae.X)
	if err != nil {
		err = arithMessage(err, s, 3, lead, len(s))
	}
	return n, err
}

// parseArithNumber parses a bash integer constant (decimal, 0x hex,
// leading-0 octal, base#digits). ok is false when s does not start with a
// digit.
func parseArithNumber(s string) (n int64, ok bool, err error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false, nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#' || c == '@' || c == '_') {
			return 0, false, nil
		}
	}
	bad := func() (int64, bool, error) {
		return 0, true, &arithError{msg: fmt.Sprintf("%s: value too great for base (error token is \"%s\")", s, s), done: true, raw: "value too great for base"}
	}
	invalid := func() (int64, bool, error) {
		return 0, true, &arithError{msg: fmt.Sprintf("%s: invalid arithmetic operator (error token is \"%s\")", s, s), done: true, raw: "invalid arithmetic operator"}
	}
	base := int64(10)
	digits := s
	if b, d, found := strings.Cut(s, "#"); found {
		bn, err := strconv.Atoi(b)
		if err != nil || bn < 2 || bn > 64 {
			return 0, true, &arithError{msg: fmt.Sprintf("%s: invalid arithmetic base (error token is \"%s\")", s, s), done: true, raw: "invalid arithmetic base"}
		}
		base, digits = int64(bn), d
		if digits == "" {
			return 0, true, &arithError{msg: fmt.Sprintf("%s: invalid integer constant (error token is \"%s\")", s, s), done: true, raw: "invalid integer constant"}
		}
	} else if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		base, digits = 16, s[2:] // 0x alone is 0
	} else if len(s) > 1 && s[0] == '0' {
		base, digits = 8, s[1:]
	}
	var v int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		var d int64
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			if base <= 36 {
				d = int64(c-'A') + 10
			} else {
				d = int64(c-'A') + 36
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return invalid()
		}
		if d >= base {
			return bad()
		}
		v = v*base + d
	}
	return v, true, nil
}

// varValue evaluates a variable's value as an arithmetic operand.
func (ev *arithEval) varValue(name string) (int64, error) {
	vr := ev.ex.env.Get(name)
	if !vr.IsSet() {
		if ev.ex.env.Options().NoUnset {
			return 0, &arithError{msg: name + ": unbound variable", fatal: true}
		}
		return 0, nil
	}
	s := vr.String()
	switch vr.Kind {
	case expand.Indexed:
		s = ""
		if len(vr.List) > 0 && (vr.Indexes == nil || vr.Indexes[0] == 0) {
			s = vr.List[0]
		}
	case expand.Associative:
		s = vr.Map["0"]
	}
	return ev.evalString(s)
}

// lvalue describes an assignable operand: a name with an optional index.
type lvalue struct {
	name  string
	index syntax.ArithmExpr
}

// lvalueOf returns the variable an assignment operator applies to.
func (ev *arithEval) lvalueOf(x syntax.ArithmExpr) (*lvalue, error) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return nil, &arithError{msg: "attempted assignment to non-variable"}
	}
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if syntax.ValidName(p.Value) {
				return &lvalue{name: p.Value}, nil
			}
		case *syntax.ParamExp:
			if p.Short && !p.Dollar.IsValid() && p.Param != nil {
				return &lvalue{name: p.Param.Value, index: p.Index}, nil
			}
		}
	}
	s, err := ev.ex.lit(w)
	if err != nil {
		return nil, err
	}
	if syntax.ValidName(s) {
		return &lvalue{name: s}, nil
	}
	return nil, &arithError{msg: fmt.Sprintf("%s: attempted assignment to non-variable", s)}
}

// getLvalue returns the numeric value of an lvalue.
func (ev *arithEval) getLvalue(lv *lvalue) (int64, error) {
	if lv.index == nil {
		return ev.varValue(lv.name)
	}
	s, set, err := ev.element(lv.name, lv.index)
	if err != nil {
		return 0, err
	}
	if !set && ev.ex.env.Options().NoUnset {
		return 0, &arithError{msg: lv.name + ": unbound variable", fatal: true}
	}
	return ev.evalString(s)
}

// element returns an array element by subscript.
func (ev *arithEval) element(name string, index syntax.ArithmExpr) (string, bool, error) {
	vr := ev.ex.env.Get(name)
	if vr.Kind == expand.Associative {
		key, err := ev.ex.AssocKey(index)
		if err != nil {
			return "", false, err
		}
		v, ok := vr.Map[key]
		return v, ok, nil
	}
	n, err := ev.eval(index)
	if err != nil {
		return "", false, err
	}
	idx, vals := ArrayItems(vr)
	if n < 0 {
		if len(idx) > 0 {
			n += int64(idx[len(idx)-1]) + 1
		}
		if n < 0 {
			ev.ex.env.Errorf("%s: bad array subscript", name)
			return "", false, nil
		}
	}
	i := sort.SearchInts(idx, int(n))
	if i < len(idx) && idx[i] == int(n) {
		return vals[i], true, nil
	}
	return "", false, nil
}

// setLvalue assigns a number to an lvalue.
func (ev *arithEval) setLvalue(lv *lvalue, v int64) error {
	env := ev.ex.env
	s := strconv.FormatInt(v, 10)
	if lv.index == nil {
		return env.Set(lv.name, vstr(s))
	}
	vr := env.Get(lv.name)
	if vr.ReadOnly {
		vr.Set = true
		return env.Set(lv.name, vr) // the shell's readonly error
	}
	if vr.Kind == expand.Associative {
		key, err := ev.ex.AssocKey(lv.index)
		if err != nil {
			return err
		}
		AssocSet(&vr, key, s)
		return env.Set(lv.name, vr)
	}
	n, err := ev.eval(lv.index)
	if err != nil {
		return err
	}
	vr = env.Get(lv.name)
	idx, vals := ArrayItems(vr)
	if n < 0 {
		if len(idx) == 0 {
			return &arithError{msg: fmt.Sprintf("%s[%d]: bad array subscript", lv.name, n)}
		}
		n += int64(idx[len(idx)-1]) + 1
		if n < 0 {
			return &arithError{msg: fmt.Sprintf("%s[%d]: bad array subscript", lv.name, n)}
		}
	}
	idx, vals = SetItem(idx, vals, int(n), s)
	return env.Set(lv.name, MakeIndexed(idx, vals))
}

// word evaluates an operand: a number, a name, a[i] or an expansion.
func (ev *arithEval) word(w *syntax.Word) (int64, error) {
	if s, ok := ev.vals[w]; ok {
		return ev.evalString(s)
	}
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if syntax.ValidName(p.Value) {
				return ev.varValue(p.Value)
			}
			if n, ok, err := parseArithNumber(p.Value); ok || err != nil {
				var ae *arithError
				if errors.As(err, &ae) && ae.raw != "" {
					return 0, &arithError{msg: ae.raw, hasTok: true, tokPos: int(w.Pos().Offset()),
						numEnd: int(w.End().Offset()), fallback: ae.msg}
				}
				return n, err
			}
		case *syntax.ParamExp:
			if p.Short && !p.Dollar.IsValid() && p.Param != nil && p.Index != nil {
				return ev.getLvalue(&lvalue{name: p.Param.Value, index: p.Index})
			}
		case *syntax.DblQuoted:
			// double quotes are removed: "1" + 1 is 2, "" is 0
			s, err := ev.ex.lit(w)
			if err != nil {
				return 0, err
			}
			return ev.evalString(s)
		case *syntax.SglQuoted:
			s, err := ev.ex.lit(w)
			if err != nil {
				return 0, err
			}
			return 0, &arithError{msg: fmt.Sprintf("%s: syntax error: operand expected (error token is \"%s\")", s, s), done: true}
		}
	}
	s, err := ev.ex.lit(w)
	if err != nil {
		return 0, err
	}
	return ev.evalString(s)
}

// eval evaluates an expression node.
func (ev *arithEval) eval(x syntax.ArithmExpr) (int64, error) {
	if err := ev.ex.env.Err(); err != nil {
		return 0, err
	}
	switch x := x.(type) {
	case nil:
		return 0, nil
	case *syntax.Word:
		return ev.word(x)
	case *syntax.ParenArithm:
		return ev.eval(x.X)
	case *syntax.UnaryArithm:
		switch x.Op {
		case syntax.Inc, syntax.Dec:
			lv, err := ev.lvalueOf(x.X)
			if err != nil {
				return 0, err
			}
			old, err := ev.getLvalue(lv)
			if err != nil {
				return 0, err
			}
			nv := old + 1
			if x.Op == syntax.Dec {
				nv = old - 1
			}
			if err := ev.setLvalue(lv, nv); err != nil {
				return 0, err
			}
			if x.Post {
				return old, nil
			}
			return nv, nil
		}
		v, err := ev.eval(x.X)
		if err != nil {
			return 0, err
		}
		switch x.Op {
		case syntax.Not:
			return b2i(v == 0), nil
		case syntax.BitNegation:
			return ^v, nil
		case syntax.Plus:
			return v, nil
		case syntax.Minus:
			return -v, nil
		}
		return 0, &arithError{msg: "unsupported unary operator " + x.Op.String()}
	case *syntax.BinaryArithm:
		return ev.binary(x)
	}
	return 0, &arithError{msg: fmt.Sprintf("unsupported arithmetic expression %T", x)}
}

// b2i converts a truth value to 1 or 0.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// binary evaluates binary operators, assignments, ?: and comma.
func (ev *arithEval) binary(x *syntax.BinaryArithm) (int64, error) {
	switch x.Op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
		syntax.ShrAssgn, syntax.PowAssgn:
		lv, err := ev.lvalueOf(x.X)
		if err != nil {
			return 0, err
		}
		rv, err := ev.eval(x.Y)
		if err != nil {
			return 0, err
		}
		nv := rv
		if x.Op != syntax.Assgn {
			old, err := ev.getLvalue(lv)
			if err != nil {
				return 0, err
			}
			op := map[syntax.BinAritOperator]syntax.BinAritOperator{
				syntax.AddAssgn: syntax.Add, syntax.SubAssgn: syntax.Sub, syntax.MulAssgn: syntax.Mul,
				syntax.QuoAssgn: syntax.Quo, syntax.RemAssgn: syntax.Rem, syntax.AndAssgn: syntax.And,
				syntax.OrAssgn: syntax.Or, syntax.XorAssgn: syntax.Xor, syntax.ShlAssgn: syntax.Shl,
				syntax.ShrAssgn: syntax.Shr, syntax.PowAssgn: syntax.Pow,
			}[x.Op]
			nv, err = arithOp(op, old, rv)
			if err != nil {
				return 0, locateOpError(err, x)
			}
		}
		if err := ev.setLvalue(lv, nv); err != nil {
			return 0, err
		}
		return nv, nil
	case syntax.TernQuest:
		c, err := ev.eval(x.X)
		if err != nil {
			return 0, err
		}
		colon, ok := x.Y.(*syntax.BinaryArithm)
		if !ok || colon.Op != syntax.TernColon {
			return 0, &arithError{msg: "`:' expected for conditional expression"}
		}
		if c != 0 {
			return ev.eval(colon.X)
		}
		return ev.eval(colon.Y)
	case syntax.AndArit:
		l, err := ev.eval(x.X)
		if err != nil || l == 0 {
			return 0, err
		}
		rv, err := ev.eval(x.Y)
		return b2i(rv != 0), err
	case syntax.OrArit:
		l, err := ev.eval(x.X)
		if err != nil {
			return 0, err
		}
		if l != 0 {
			return 1, nil
		}
		rv, err := ev.eval(x.Y)
		return b2i(rv != 0), err
	case syntax.Comma:
		if _, err := ev.eval(x.X); err != nil {
			return 0, err
		}
		return ev.eval(x.Y)
	}
	l, err := ev.eval(x.X)
	if err != nil {
		return 0, err
	}
	rv, err := ev.eval(x.Y)
	if err != nil {
		return 0, err
	}
	n, err := arithOp(x.Op, l, rv)
	if err != nil {
		return 0, locateOpError(err, x)
	}
	return n, nil
}

// locateOpError gives an error of the operator of x its error token:
// the divisor for a division by 0, the token after the exponent for a
// negative one.
func locateOpError(err error, x *syntax.BinaryArithm) error {
	switch err {
	case errDivZero:
		return withToken(errDivZero.msg, int(x.Y.Pos().Offset()))
	case errNegExp:
		e := withToken(errNegExp.msg, int(x.Y.End().Offset()))
		e.tokAfter, e.lastTok = true, lastTokenPos(x.Y)
		return e
	}
	return err
}

var (
	errDivZero = &arithError{msg: "division by 0"}
	errNegExp  = &arithError{msg: "exponent less than 0"}
)

// arithOp applies a binary operator with bash's 64-bit semantics.
func arithOp(op syntax.BinAritOperator, l, r int64) (int64, error) {
	switch op {
	case syntax.Add:
		return l + r, nil
	case syntax.Sub:
		return l - r, nil
	case syntax.Mul:
		return l * r, nil
	case syntax.Quo:
		if r == 0 {
			return 0, errDivZero
		}
		if r == -1 {
			return -l, nil
		}
		return l / r, nil
	case syntax.Rem:
		if r == 0 {
			return 0, errDivZero
		}
		if r == -1 {
			return 0, nil
		}
		return l % r, nil
	case syntax.Pow:
		if r < 0 {
			return 0, errNegExp
		}
		res := int64(1)
		base := l
		for e := r; e > 0; e >>= 1 {
			if e&1 == 1 {
				res *= base
			}
			base *= base
		}
		return res, nil
	case syntax.Eql:
		return b2i(l == r), nil
	case syntax.Neq:
		return b2i(l != r), nil
	case syntax.Lss:
		return b2i(l < r), nil
	case syntax.Gtr:
		return b2i(l > r), nil
	case syntax.Leq:
		return b2i(l <= r), nil
	case syntax.Geq:
		return b2i(l >= r), nil
	case syntax.And:
		return l & r, nil
	case syntax.Or:
		return l | r, nil
	case syntax.Xor:
		return l ^ r, nil
	case syntax.Shl:
		return l << (uint64(r) & 63), nil
	case syntax.Shr:
		return l >> (uint64(r) & 63), nil
	case syntax.XorBool:
		return b2i((l != 0) != (r != 0)), nil
	}
	return 0, &arithError{msg: "unsupported arithmetic operator " + op.String()}
}

// isArithFatal reports whether an arithmetic error must stop the shell.
func isArithFatal(err error) bool {
	var ae *arithError
	return errors.As(err, &ae) && (ae.fatal || ae.exit)
}

// exitError returns err, an error of the arithmetic of a subscript, as
// one that makes the shell exit, as bash does.
func exitError(err error) error {
	var ae *arithError
	if errors.As(err, &ae) && !ae.fatal {
		c := *ae
		c.exit = true
		return &c
	}
	return err
}

// prefixError returns err, an arithmetic error, with its message after
// "prefix: ".
func prefixError(err error, prefix string) error {
	var ae *arithError
	if errors.As(err, &ae) && !ae.fatal {
		c := *ae
		c.msg = prefix + ": " + c.msg
		return &c
	}
	return err
}
