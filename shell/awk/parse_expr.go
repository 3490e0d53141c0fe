package awk

import "fmt"

func (p *parser) exprList() []expr {
	list := []expr{p.expr()}
	for p.tok.kind == tComma {
		p.next()
		p.optNewlines()
		list = append(list, p.expr())
	}
	return list
}

func isLvalue(e expr) bool {
	switch e.(type) {
	case *varExpr, *indexExpr, *fieldExpr:
		return true
	}
	return false
}

func isAssignOp(k tokKind) bool {
	switch k {
	case tAssign, tAddAssign, tSubAssign, tMulAssign, tDivAssign, tModAssign, tPowAssign:
		return true
	}
	return false
}

// expr parses an expression, including assignments.
func (p *parser) expr() expr {
	p.enter()
	defer p.leave()
	x := p.ternary()
	if isAssignOp(p.tok.kind) && isLvalue(x) {
		op := p.tok.kind
		p.next()
		p.optNewlines()
		return &assignExpr{lhs: x, op: op, rhs: p.expr()}
	}
	return x
}

// rhsAssign parses an assignment to the right operand r of a logical,
// match or comparison operator: "1 && x = 2" is 1 && (x = 2), as in every
// awk's yacc grammar.
func (p *parser) rhsAssign(r expr) expr {
	if isAssignOp(p.tok.kind) && isLvalue(r) {
		op := p.tok.kind
		p.next()
		p.optNewlines()
		return &assignExpr{lhs: r, op: op, rhs: p.expr()}
	}
	return r
}

func (p *parser) ternary() expr {
	c := p.or()
	if p.tok.kind != tQuestion {
		return c
	}
	p.next()
	p.optNewlines()
	y := p.expr()
	p.optNewlines()
	p.expect(tColon)
	p.optNewlines()
	n := p.expr()
	return &condExpr{cond: c, yes: y, no: n}
}

func (p *parser) or() expr {
	l := p.and()
	for p.tok.kind == tOr {
		defer p.leave()
		p.enter()
		p.next()
		p.optNewlines()
		l = &binaryExpr{op: tOr, l: l, r: p.rhsAssign(p.and())}
	}
	return l
}

func (p *parser) and() expr {
	l := p.in()
	for p.tok.kind == tAnd {
		defer p.leave()
		p.enter()
		p.next()
		p.optNewlines()
		l = &binaryExpr{op: tAnd, l: l, r: p.rhsAssign(p.in())}
	}
	return l
}

func (p *parser) in() expr {
	l := p.match()
	for p.tok.kind == tIn {
		defer p.leave()
		p.enter()
		p.next()
		arr := p.arrayRef()
		if m, ok := l.(*multiExpr); ok {
			m.used = true
			l = &inExpr{index: m.list, arr: arr}
		} else {
			l = &inExpr{index: []expr{l}, arr: arr}
		}
	}
	return l
}

func (p *parser) match() expr {
	l := p.comparison()
	for p.tok.kind == tMatch || p.tok.kind == tNoMatch {
		defer p.leave()
		p.enter()
		neg := p.tok.kind == tNoMatch
		p.next()
		l = &matchExpr{l: l, re: p.rhsAssign(p.comparison()), neg: neg}
	}
	return l
}

func (p *parser) comparison() expr {
	l := p.pipeGetline()
	for {
		switch p.tok.kind {
		case tGT:
			if p.noGT {
				return l
			}
		case tLT, tLE, tGE, tEQ, tNE:
		default:
			return l
		}
		op := p.tok.kind
		p.next()
		p.enter()
		defer p.leave()
		l = &binaryExpr{op: op, l: l, r: p.rhsAssign(p.pipeGetline())}
	}
}

func (p *parser) pipeGetline() expr {
	l := p.concat()
	for p.tok.kind == tPipe && p.peek(1) == tGetline {
		defer p.leave()
		p.enter()
		p.next()
		p.next()
		g := &getlineExpr{kind: getlineCmd, src: l}
		if p.tok.kind == tName || p.tok.kind == tDollar {
			g.lhs = p.lvalue()
		}
		// "cmd | getline x y" and "cmd | getline x + 1" apply the
		// operators that follow to the getline's result, as in every
		// awk.
		l = p.concatFrom(p.additiveFrom(p.mulFrom(g)))
	}
	return l
}

// startsConcat reports whether a token of kind k after an operand starts
// another operand that is concatenated to it. '!' does ("$1 !$2" joins $1
// and !$2, as in gawk and onetrueawk); '+' and '-' do not, they are binary
// operators there.
func startsConcat(k tokKind) bool {
	switch k {
	case tNumber, tString, tRegex, tName, tFuncName, tBuiltin, tDollar, tLparen, tIncr, tDecr, tNot:
		return true
	}
	return false
}

func (p *parser) concat() expr {
	return p.concatFrom(p.additive())
}

// concatFrom parses the concatenation that follows the operand l.
func (p *parser) concatFrom(l expr) expr {
	var parts []expr
	for startsConcat(p.tok.kind) {
		if parts == nil {
			parts = []expr{l}
		}
		parts = append(parts, p.additive())
	}
	if parts != nil {
		return &concatExpr{parts: parts}
	}
	return l
}

func (p *parser) additive() expr {
	return p.additiveFrom(p.mul())
}

// additiveFrom parses the additive operators that follow the operand l.
func (p *parser) additiveFrom(l expr) expr {
	for p.tok.kind == tAdd || p.tok.kind == tSub {
		defer p.leave()
		p.enter()
		op := p.tok.kind
		p.next()
		l = &binaryExpr{op: op, l: l, r: p.mul()}
	}
	return l
}

func (p *parser) mul() expr {
	return p.mulFrom(p.unary())
}

// mulFrom parses the multiplicative operators that follow the operand l.
func (p *parser) mulFrom(l expr) expr {
	for p.tok.kind == tMul || p.tok.kind == tDiv || p.tok.kind == tMod {
		defer p.leave()
		p.enter()
		op := p.tok.kind
		p.next()
		l = &binaryExpr{op: op, l: l, r: p.unary()}
	}
	return l
}

func (p *parser) unary() expr {
	switch p.tok.kind {
	case tNot, tSub, tAdd:
		p.enter()
		defer p.leave()
		op := p.tok.kind
		p.next()
		return &unaryExpr{op: op, x: p.unary()}
	}
	return p.pow()
}

func (p *parser) pow() expr {
	base := p.postfix()
	if p.tok.kind == tPow {
		p.enter()
		defer p.leave()
		p.next()
		// The exponent may carry a unary sign and is right-associative.
		var e expr
		switch p.tok.kind {
		case tSub, tAdd, tNot:
			op := p.tok.kind
			p.next()
			e = &unaryExpr{op: op, x: p.powOperand()}
		default:
			e = p.powOperand()
		}
		return &binaryExpr{op: tPow, l: base, r: e}
	}
	return base
}

func (p *parser) powOperand() expr {
	switch p.tok.kind {
	case tSub, tAdd, tNot:
		p.enter()
		defer p.leave()
		op := p.tok.kind
		p.next()
		return &unaryExpr{op: op, x: p.powOperand()}
	}
	return p.pow()
}

func (p *parser) postfix() expr {
	x := p.primary()
	if (p.tok.kind == tIncr || p.tok.kind == tDecr) && isLvalue(x) {
		d := 1.0
		if p.tok.kind == tDecr {
			d = -1
		}
		p.next()
		return &incrExpr{lhs: x, delta: d}
	}
	return x
}

// lvalue parses a variable, an array element or a field.
func (p *parser) lvalue() expr {
	x := p.primary()
	if !isLvalue(x) {
		p.syntaxError()
	}
	return x
}

func (p *parser) primary() expr {
	p.enter()
	defer p.leave()
	t := p.tok
	switch t.kind {
	case tNumber:
		p.next()
		return &numLit{v: num(t.n)}
	case tString:
		p.next()
		return &strLit{v: str(t.s)}
	case tRegex:
		p.next()
		re, err := compileRegex(t.s)
		if err != nil {
			p.failAt(t, "%s /%s/: %v", regexProblem(t.s, err), t.s, err)
		}
		return &regexLit{src: t.s, re: re}
	case tLparen:
		p.next()
		save := p.noGT
		p.noGT = false
		p.optNewlines()
		list := p.exprList()
		p.optNewlines()
		p.noGT = save
		p.expect(tRparen)
		if len(list) > 1 {
			m := &multiExpr{list: list}
			p.multis = append(p.multis, m)
			return m
		}
		return &groupExpr{x: list[0]}
	case tDollar:
		p.next()
		switch p.tok.kind {
		case tIncr, tDecr, tSub, tAdd, tNot:
			op := p.tok.kind
			p.next()
			var x expr
			if op == tIncr || op == tDecr {
				x = p.primary()
			} else {
				// A signed operand takes its postfix operator: "$+i++"
				// is $(+(i++)), as in every awk.
				x = p.dollarSigned()
			}
			if op == tIncr || op == tDecr {
				if !isLvalue(x) {
					p.syntaxError()
				}
				d := 1.0
				if op == tDecr {
					d = -1
				}
				return &fieldExpr{index: &incrExpr{lhs: x, pre: true, delta: d}}
			}
			return &fieldExpr{index: &unaryExpr{op: op, x: x}}
		}
		if p.tok.kind == tDollar {
			// "$$0++" is $(($0)++): the inner field takes the
			// increment, as in every awk.
			return &fieldExpr{index: p.postfix()}
		}
		return &fieldExpr{index: p.primary()}
	case tIncr, tDecr:
		p.next()
		x := p.primary()
		if !isLvalue(x) {
			p.syntaxError()
		}
		d := 1.0
		if t.kind == tDecr {
			d = -1
		}
		return &incrExpr{lhs: x, pre: true, delta: d}
	case tNot, tSub, tAdd:
		p.next()
		return &unaryExpr{op: t.kind, x: p.unary()}
	case tName:
		p.next()
		if p.tok.kind == tLbracket {
			arr := p.arrayNamed(t)
			return &indexExpr{arr: arr, index: p.subscript()}
		}
		v := p.variableAt(t)
		p.markScalar(v, t.line, p.tok.kind >= tAssign && p.tok.kind <= tPowAssign)
		return v
	case tFuncName:
		p.next()
		return p.userCall(t)
	case tBuiltin:
		p.next()
		return p.builtinCall(t)
	case tGetline:
		p.next()
		g := &getlineExpr{kind: getlineMain}
		if p.tok.kind == tName || p.tok.kind == tDollar {
			g.lhs = p.lvalue()
		}
		if p.tok.kind == tLT {
			p.next()
			g.kind = getlineFile
			g.src = p.postfix()
		}
		return g
	}
	p.syntaxError()
	return nil
}

// dollarSigned parses the operand of a sign or '!' after '$': further
// signs, then a primary with its postfix increment or decrement.
func (p *parser) dollarSigned() expr {
	switch p.tok.kind {
	case tSub, tAdd, tNot:
		p.enter()
		defer p.leave()
		op := p.tok.kind
		p.next()
		return &unaryExpr{op: op, x: p.dollarSigned()}
	}
	return p.postfix()
}

// subscript parses [expr, ...].
func (p *parser) subscript() []expr {
	p.expect(tLbracket)
	save := p.noGT
	p.noGT = false
	list := p.exprList()
	p.noGT = save
	p.expect(tRbracket)
	return list
}

// variable resolves a name to a variable slot.
func (p *parser) variable(name string) *varExpr {
	return p.variableAt(token{kind: tName, s: name, line: p.tok.line, col: p.tok.col})
}

func (p *parser) variableAt(t token) *varExpr {
	name := t.s
	if p.cur != nil {
		if i, ok := p.locals[name]; ok {
			return &varExpr{scope: scopeLocal, idx: i, name: name}
		}
	}
	if name == "NF" {
		return &varExpr{scope: scopeNF, name: name}
	}
	if _, ok := p.funcs[name]; ok {
		msg, asArg := p.funcAsValue(t)
		if !asArg {
			p.failAt(t, "%s", msg)
		}
		if p.pending == nil {
			p.pending = p.errorAt(t, "%s", msg)
		}
		// A placeholder: the program is not run.
		return &varExpr{scope: scopeNF, name: name}
	}
	i, ok := p.globals[name]
	if !ok {
		i = len(p.globalNames)
		p.globals[name] = i
		p.globalNames = append(p.globalNames, name)
		p.globalArray = append(p.globalArray, false)
		p.globalScalar = append(p.globalScalar, nil)
	}
	return &varExpr{scope: scopeGlobal, idx: i, name: name}
}

// scalarUse is a use of a global as a scalar: its line, and whether it is
// assigned to there.
type scalarUse struct {
	line   int
	assign bool
}

// markScalar records a use of v as a scalar on line, an assignment to it
// when assign is set.
func (p *parser) markScalar(v *varExpr, line int, assign bool) {
	switch v.scope {
	case scopeLocal:
		p.localUse[v.idx]++
		if assign && p.cur != nil {
			p.cur.assigned[v.idx] = true
		}
	case scopeGlobal:
		p.globalScalar[v.idx] = append(p.globalScalar[v.idx], scalarUse{line, assign})
	}
}

func (p *parser) unmarkScalar(v *varExpr) {
	switch v.scope {
	case scopeLocal:
		p.localUse[v.idx]--
	case scopeGlobal:
		if l := p.globalScalar[v.idx]; len(l) > 0 {
			p.globalScalar[v.idx] = l[:len(l)-1]
		}
	}
}

// arrayRef parses a name used as an array.
func (p *parser) arrayRef() *varExpr {
	if p.tok.kind != tName {
		p.syntaxError()
	}
	t := p.tok
	p.next()
	return p.arrayNamed(t)
}

func (p *parser) arrayNamed(t token) *varExpr {
	v := p.variableAt(t)
	p.markArray(v)
	if v.scope == scopeNF {
		p.failAt(t, "can't use NF as an array")
	}
	return v
}

func (p *parser) markArray(v *varExpr) {
	switch v.scope {
	case scopeLocal:
		p.cur.isArray[v.idx] = true
	case scopeGlobal:
		p.globalArray[v.idx] = true
	}
}

func (p *parser) callArgs() []expr {
	p.expect(tLparen)
	save := p.noGT
	p.noGT = false
	defer func() { p.noGT = save }()
	p.optNewlines()
	var args []expr
	for p.tok.kind != tRparen {
		args = append(args, p.expr())
		p.optNewlines()
		if p.tok.kind == tComma {
			p.next()
			p.optNewlines()
		} else if p.tok.kind != tRparen {
			p.syntaxError()
		}
	}
	p.next()
	return args
}

// funcAsValue is the error for the name of function t used as a value,
// in onetrueawk's words for the way it is used, and whether the name is
// an argument of a call to a user function.
func (p *parser) funcAsValue(t token) (msg string, asArg bool) {
	i := 0
	for i < len(p.toks) && (p.toks[i].line != t.line || p.toks[i].col != t.col) {
		i++
	}
	var prev, next tokKind = tNewline, tEOF
	if i > 0 && i < len(p.toks) {
		prev = p.toks[i-1].kind
	}
	if i+1 < len(p.toks) {
		next = p.toks[i+1].kind
	}
	switch {
	case next == tLbracket:
		return fmt.Sprintf("%s is a function, not an array", t.s), false
	case next >= tAssign && next <= tPowAssign:
		return fmt.Sprintf("can't assign to %s; it's a function.", t.s), false
	case (prev == tLparen || prev == tComma) && (next == tRparen || next == tComma) && p.callee != "":
		// Which argument of the call: the commas back to its "(".
		arg, depth := 1, 0
		for j := i - 1; j >= 0 && depth >= 0; j-- {
			switch k := p.toks[j].kind; {
			case k == tRparen || k == tRbracket:
				depth++
			case k == tLparen || k == tLbracket:
				depth--
			case k == tComma && depth == 0:
				arg++
			}
		}
		if arrayArg(p.callee, arg) {
			return fmt.Sprintf("%s is a function, not an array", t.s), false
		}
		if _, builtin := builtins[p.callee]; !builtin {
			return fmt.Sprintf("can't use function %s as argument in %s", t.s, p.callee), true
		}
	}
	return fmt.Sprintf("can't read value of %s; it's a function.", t.s), false
}

// isRegexLit reports whether e is a regex literal.
func isRegexLit(e expr) bool {
	_, ok := e.(*regexLit)
	return ok
}

// arrayArg reports whether argument n (from 1) of the builtin name is an
// array.
func arrayArg(name string, n int) bool {
	switch name {
	case "split":
		return n == 2
	case "asort", "asorti":
		return n <= 2
	}
	return false
}

func (p *parser) userCall(t token) expr {
	name := t.s
	if p.cur != nil {
		if _, ok := p.locals[name]; ok {
			p.failAt(t, "attempt to use local `%s' as a function", name)
		}
	}
	if i, ok := p.globals[name]; ok && i >= numSpecial {
		p.failAt(t, "attempt to use variable `%s' as a function", name)
	}
	fd := p.funcs[name]
	if fd == nil {
		fd = &funcDef{name: name, line: t.line}
		p.funcs[name] = fd
		p.funcList = append(p.funcList, fd)
	}
	c := &userCall{name: name, fn: fd, line: t.line}
	save := p.callee
	p.callee = name
	c.args = p.callArgs()
	p.callee = save
	for j, a := range c.args {
		if v, ok := a.(*varExpr); ok && v.scope != scopeNF {
			p.unmarkScalar(v)
			p.refs = append(p.refs, argRef{call: c, caller: p.cur, j: j, v: v})
		}
	}
	p.calls = append(p.calls, c)
	return c
}

func (p *parser) builtinCall(t token) expr {
	c := &builtinCall{fn: t.b, name: t.s}
	if p.tok.kind != tLparen {
		if t.b == bLength {
			return c
		}
		p.syntaxError()
	}
	save := p.callee
	p.callee = t.s
	c.args = p.callArgs()
	p.callee = save
	n := len(c.args)
	bad := false
	switch t.b {
	case bLength:
		if n > 1 {
			p.failAt(t, "length: function has too many arguments (%d; it takes at most 1)", n)
		}
		if n == 1 {
			if v, ok := c.args[0].(*varExpr); ok && v.scope != scopeNF {
				// length(x) accepts an array: decided at run time.
				p.unmarkScalar(v)
			}
		}
	case bSubstr:
		bad = n < 2 || n > 3
	case bIndex, bAtan2:
		if n != 2 {
			p.failAt(t, "%s requires two args, not %d", t.s, n)
		}
		if t.b == bIndex && n == 2 && isRegexLit(c.args[1]) {
			// As gawk and onetrueawk: the target is a string, and
			// /re/ would be the number ($0 ~ /re/).
			p.failAt(t, "index() doesn't permit regular expressions")
		}
	case bSplit:
		bad = n < 2 || n > 3
		if !bad {
			v, ok := c.args[1].(*varExpr)
			if !ok || v.scope == scopeNF {
				p.failAt(t, "split: second argument is not an array")
			}
			p.unmarkScalar(v)
			p.markArray(v)
		}
	case bSub, bGsub:
		bad = n < 2 || n > 3
		if n == 3 && !isLvalue(c.args[2]) {
			if _, ok := c.args[2].(*groupExpr); !ok {
				p.failAt(t, "%s third parameter is not a changeable object", t.s)
			}
		}
	case bMatch:
		bad = n != 2
	case bSprintf:
		bad = n < 1
	case bSin, bCos, bExp, bLog, bSqrt, bInt, bTolower, bToupper, bSystem, bClose:
		bad = n != 1
	case bRand, bSystime:
		bad = n != 0
	case bSrand, bFflush:
		bad = n > 1
	case bGensub:
		bad = n < 3 || n > 4
	case bAnd, bOr, bXor:
		bad = n < 2
	case bLshift, bRshift:
		bad = n != 2
	case bCompl, bMktime:
		bad = n != 1
	case bStrftime:
		bad = n > 3
	case bAsort, bAsorti:
		bad = n < 1 || n > 3
		for i := 0; i < n && i < 2; i++ {
			v, ok := c.args[i].(*varExpr)
			if !ok || v.scope == scopeNF {
				p.failAt(t, "%s: argument %d is not an array", t.s, i+1)
			}
			p.unmarkScalar(v)
			p.markArray(v)
		}
	}
	if bad {
		p.failAt(t, "%d is invalid as number of arguments for %s", n, t.s)
	}
	return c
}
