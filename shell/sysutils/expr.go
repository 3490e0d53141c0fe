package sysutils

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/ere"
)

// Exit statuses of expr.
const (
	exprTrue    = 0 // the result is neither empty nor 0
	exprFalse   = 1 // the result is empty or 0
	exprInvalid = 2 // a syntax error or a bad operand
	exprError   = 3 // any other error
)

// maxExprDigits bounds the size of an integer result, so that a product
// of huge operands cannot exhaust memory.
const maxExprDigits = 1 << 20

// value is an expr value: an integer (when i is not nil) or a string.
type value struct {
	i *big.Int
	s string
}

func intValue(i *big.Int) value { return value{i: i} }
func strValue(s string) value   { return value{s: s} }

// String formats the value as expr prints it.
func (v value) String() string {
	if v.i != nil {
		return v.i.String()
	}
	return v.s
}

// null reports whether v is empty or zero (GNU's null: "", "0", "-0",
// "00", ...).
func (v value) null() bool {
	if v.i != nil {
		return v.i.Sign() == 0
	}
	s := v.s
	if s == "" {
		return true
	}
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	return strings.Trim(s, "0") == ""
}

// looksLikeInteger reports whether s is an optional '-' and digits.
func looksLikeInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// toInt returns v as an integer, or false when it is not one.
func (v value) toInt() (*big.Int, bool) {
	if v.i != nil {
		return v.i, true
	}
	if !looksLikeInteger(v.s) {
		return nil, false
	}
	i, ok := new(big.Int).SetString(v.s, 10)
	return i, ok
}

// exprError is an error with its exit status.
type exprErr struct {
	status int
	msg    string
}

func (e *exprErr) Error() string { return e.msg }

func syntaxError(format string, args ...any) error {
	return &exprErr{exprInvalid, "syntax error: " + fmt.Sprintf(format, args...)}
}

// exprParser evaluates expr's arguments by recursive descent, as GNU's
// eval functions do (evaluate false skips side conditions such as
// division by zero in a branch that is not taken).
type exprParser struct {
	args []string
	pos  int
}

func (p *exprParser) next(tok string) bool {
	if p.pos < len(p.args) && p.args[p.pos] == tok {
		p.pos++
		return true
	}
	return false
}

// cmdExpr implements expr EXPRESSION with GNU's grammar: | & < <= = == !=
// >= > + - * / % : (an anchored BRE match), match, substr, index, length,
// "+ TOKEN" and parentheses. Integers are of any size, as with GNU expr
// built with GMP (results are bounded to a million digits). The exit
// status is 0 when the result is neither empty nor 0, 1 when it is, 2 for
// an invalid expression and 3 for other errors.
func cmdExpr(env *command.Env) int {
	args := env.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintf(env.Stderr, "expr: missing operand\nTry 'expr --help' for more information.\n")
		return exprInvalid
	}
	p := &exprParser{args: args}
	v, err := p.or(true)
	if err == nil && p.pos < len(p.args) {
		err = syntaxError("unexpected argument %s", quote(p.args[p.pos]))
	}
	if err != nil {
		var ee *exprErr
		if errors.As(err, &ee) {
			fmt.Fprintf(env.Stderr, "expr: %s\n", ee.msg)
			return ee.status
		}
		fmt.Fprintf(env.Stderr, "expr: %s\n", err)
		return exprError
	}
	if _, err := fmt.Fprintln(env.Stdout, v.String()); err != nil {
		return exprError
	}
	if v.null() {
		return exprFalse
	}
	return exprTrue
}

// quote quotes an argument in messages as GNU does in a UTF-8 locale.
func quote(s string) string { return "‘" + s + "’" }

func (p *exprParser) or(evaluate bool) (value, error) {
	l, err := p.and(evaluate)
	if err != nil {
		return l, err
	}
	for p.next("|") {
		r, err := p.and(evaluate && l.null())
		if err != nil {
			return r, err
		}
		if l.null() {
			l = r
			if l.null() {
				l = intValue(big.NewInt(0))
			}
		}
	}
	return l, nil
}

func (p *exprParser) and(evaluate bool) (value, error) {
	l, err := p.compare(evaluate)
	if err != nil {
		return l, err
	}
	for p.next("&") {
		r, err := p.compare(evaluate && !l.null())
		if err != nil {
			return r, err
		}
		if l.null() || r.null() {
			l = intValue(big.NewInt(0))
		}
	}
	return l, nil
}

func (p *exprParser) compare(evaluate bool) (value, error) {
	l, err := p.sum(evaluate)
	if err != nil {
		return l, err
	}
	for {
		var op string
		for _, o := range []string{"<", "<=", "=", "==", "!=", ">=", ">"} {
			if p.next(o) {
				op = o
				break
			}
		}
		if op == "" {
			return l, nil
		}
		r, err := p.sum(evaluate)
		if err != nil {
			return r, err
		}
		var c int
		li, lok := l.toInt()
		ri, rok := r.toInt()
		if lok && rok {
			c = li.Cmp(ri)
		} else {
			c = strings.Compare(l.String(), r.String())
		}
		var t bool
		switch op {
		case "<":
			t = c < 0
		case "<=":
			t = c <= 0
		case "=", "==":
			t = c == 0
		case "!=":
			t = c != 0
		case ">=":
			t = c >= 0
		case ">":
			t = c > 0
		}
		n := int64(0)
		if t {
			n = 1
		}
		l = intValue(big.NewInt(n))
	}
}

func (p *exprParser) sum(evaluate bool) (value, error) {
	return p.arith(evaluate, "+-", p.product, func(op byte, z, li, ri *big.Int) *exprErr {
		if op == '+' {
			z.Add(li, ri)
		} else {
			z.Sub(li, ri)
		}
		return nil
	})
}

func (p *exprParser) product(evaluate bool) (value, error) {
	return p.arith(evaluate, "*/%", p.match, func(op byte, z, li, ri *big.Int) *exprErr {
		switch op {
		case '*':
			if li.BitLen()+ri.BitLen() > maxExprDigits*4 {
				return &exprErr{exprError, "result too large"}
			}
			z.Mul(li, ri)
		case '/', '%':
			if ri.Sign() == 0 {
				return &exprErr{exprInvalid, "division by zero"}
			}
			if op == '/' {
				z.Quo(li, ri)
			} else {
				z.Rem(li, ri)
			}
		}
		return nil
	})
}

// arith parses a left-associative chain of operands (parsed by operand)
// joined by the one-character operators of ops, and when evaluate is set
// computes it with apply, which sets z to li op ri or returns an error.
func (p *exprParser) arith(evaluate bool, ops string, operand func(bool) (value, error), apply func(op byte, z, li, ri *big.Int) *exprErr) (value, error) {
	l, err := operand(evaluate)
	if err != nil {
		return l, err
	}
	for {
		var op byte
		for i := range len(ops) {
			if p.next(ops[i : i+1]) {
				op = ops[i]
				break
			}
		}
		if op == 0 {
			return l, nil
		}
		r, err := operand(evaluate)
		if err != nil {
			return r, err
		}
		if !evaluate {
			continue
		}
		li, lok := l.toInt()
		ri, rok := r.toInt()
		if !lok || !rok {
			return l, &exprErr{exprInvalid, "non-integer argument"}
		}
		z := new(big.Int)
		if err := apply(op, z, li, ri); err != nil {
			return l, err
		}
		l = intValue(z)
	}
}

func (p *exprParser) match(evaluate bool) (value, error) {
	l, err := p.unary(evaluate)
	if err != nil {
		return l, err
	}
	for p.next(":") {
		r, err := p.unary(evaluate)
		if err != nil {
			return r, err
		}
		if evaluate {
			l, err = regexMatch(l.String(), r.String())
			if err != nil {
				return l, err
			}
		}
	}
	return l, nil
}

// regexMatch implements STRING : REGEX, the regular expression being a
// POSIX basic one anchored at the start: the first group's text when the
// expression has groups, else the number of characters matched.
func regexMatch(s, pat string) (value, error) {
	tr, err := ere.Translate(pat, ere.Syntax{})
	if err != nil {
		return value{}, &exprErr{exprInvalid, err.Error()}
	}
	re, err := ere.CompileRE2(`\A(?:`+tr+`)`, true)
	if err != nil {
		return value{}, &exprErr{exprInvalid, err.Error()}
	}
	m := re.FindStringSubmatchIndex(s)
	if re.NumSubexp() > 0 {
		if m == nil || m[2] < 0 {
			return strValue(""), nil
		}
		return strValue(s[m[2]:m[3]]), nil
	}
	if m == nil {
		return intValue(big.NewInt(0)), nil
	}
	return intValue(big.NewInt(int64(utf8.RuneCountInString(s[:m[1]])))), nil
}

func (p *exprParser) unary(evaluate bool) (value, error) {
	switch {
	case p.next("+"):
		if p.pos >= len(p.args) {
			return value{}, syntaxError("missing argument after %s", quote(p.args[p.pos-1]))
		}
		p.pos++
		return strValue(p.args[p.pos-1]), nil
	case p.next("length"):
		s, err := p.unary(evaluate)
		if err != nil {
			return s, err
		}
		return intValue(big.NewInt(int64(utf8.RuneCountInString(s.String())))), nil
	case p.next("match"):
		s, err := p.unary(evaluate)
		if err != nil {
			return s, err
		}
		re, err := p.unary(evaluate)
		if err != nil {
			return re, err
		}
		if !evaluate {
			return strValue(""), nil
		}
		return regexMatch(s.String(), re.String())
	case p.next("index"):
		s, err := p.unary(evaluate)
		if err != nil {
			return s, err
		}
		chars, err := p.unary(evaluate)
		if err != nil {
			return chars, err
		}
		n := 0
		for i, r := range []rune(s.String()) {
			if strings.ContainsRune(chars.String(), r) {
				n = i + 1
				break
			}
		}
		return intValue(big.NewInt(int64(n))), nil
	case p.next("substr"):
		s, err := p.unary(evaluate)
		if err != nil {
			return s, err
		}
		pos, err := p.unary(evaluate)
		if err != nil {
			return pos, err
		}
		n, err := p.unary(evaluate)
		if err != nil {
			return n, err
		}
		return substr(s.String(), pos, n), nil
	}
	return p.primary(evaluate)
}

// substr returns LEN characters of s from position POS (1-based), or ""
// when either is not a positive integer or POS is past the end.
func substr(s string, posV, lenV value) value {
	runes := []rune(s)
	pos, ok1 := posV.toInt()
	n, ok2 := lenV.toInt()
	if !ok1 || !ok2 || pos.Sign() <= 0 || n.Sign() <= 0 || !pos.IsInt64() {
		return strValue("")
	}
	p := pos.Int64()
	if p > int64(len(runes)) {
		return strValue("")
	}
	end := int64(len(runes))
	if n.IsInt64() && p-1+n.Int64() < end {
		end = p - 1 + n.Int64()
	}
	return strValue(string(runes[p-1 : end]))
}

func (p *exprParser) primary(evaluate bool) (value, error) {
	if p.pos >= len(p.args) {
		return value{}, syntaxError("missing argument after %s", quote(p.args[p.pos-1]))
	}
	if p.next("(") {
		if p.pos >= len(p.args) {
			return value{}, syntaxError("missing argument after %s", quote(p.args[p.pos-1]))
		}
		v, err := p.or(evaluate)
		if err != nil {
			return v, err
		}
		if p.pos >= len(p.args) {
			return v, syntaxError("expecting ')' after %s", quote(p.args[p.pos-1]))
		}
		if !p.next(")") {
			return v, syntaxError("expecting ')' instead of %s", quote(p.args[p.pos]))
		}
		return v, nil
	}
	if p.args[p.pos] == ")" {
		return value{}, syntaxError("unexpected ')'")
	}
	p.pos++
	return strValue(p.args[p.pos-1]), nil
}
