package awk

import (
	"fmt"
	"regexp"
)

// Slots of the special variables among the globals.
const (
	gNR = iota
	gFNR
	gFS
	gOFS
	gORS
	gRS
	gSUBSEP
	gCONVFMT
	gOFMT
	gRSTART
	gRLENGTH
	gFILENAME
	gENVIRON
	gARGC
	gARGV
	numSpecial
)

var specialNames = [numSpecial]string{"NR", "FNR", "FS", "OFS", "ORS", "RS", "SUBSEP", "CONVFMT", "OFMT", "RSTART", "RLENGTH", "FILENAME", "ENVIRON", "ARGC", "ARGV"}

// maxNesting bounds the parser's recursion, so that a hostile program
// cannot exhaust the stack.
const maxNesting = 1000

// Program is a compiled AWK program. It is immutable once compiled and may
// be run several times, also concurrently.
type Program struct {
	begins      [][]stmt
	items       []item
	ends        [][]stmt
	funcs       []*funcDef
	globalNames []string
	globalArray []bool
	nranges     int
}

type argRef struct {
	call   *userCall
	caller *funcDef
	j      int
	v      *varExpr
}

type parser struct {
	src  string
	toks []token
	pos  int
	tok  token

	globals      map[string]int
	globalNames  []string
	globalArray  []bool
	globalScalar []int

	funcs    map[string]*funcDef
	funcList []*funcDef
	cur      *funcDef
	locals   map[string]int
	localUse []int // scalar uses of the current function's locals

	noGT       bool
	depth      int
	loopDepth  int
	inBeginEnd bool

	calls   []*userCall
	refs    []argRef
	multis  []*multiExpr
	nranges int
}

// Compile parses an AWK program. Errors are *SyntaxError values.
func Compile(src string) (prog *Program, err error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks, globals: map[string]int{}, funcs: map[string]*funcDef{}}
	for i, name := range specialNames {
		p.globals[name] = i
		p.globalNames = append(p.globalNames, name)
		p.globalArray = append(p.globalArray, i == gENVIRON || i == gARGV)
		p.globalScalar = append(p.globalScalar, 0)
	}
	p.tok = toks[0]
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				// A bug: report it rather than crash the shell.
				se = &SyntaxError{Line: p.tok.line, Msg: fmt.Sprintf("internal error: %v", r), Col: -1}
			}
			prog, err = nil, se
		}
	}()
	prog = p.program()
	p.resolve()
	prog.globalNames = p.globalNames
	prog.globalArray = p.globalArray
	prog.funcs = p.funcList
	prog.nranges = p.nranges
	return prog, nil
}

// fail aborts parsing with a syntax error at the current token.
func (p *parser) fail(format string, args ...any) {
	p.failAt(p.tok, format, args...)
}

func (p *parser) failAt(t token, format string, args ...any) {
	start := 0
	line := 1
	for i := 0; i < len(p.src) && line < t.line; i++ {
		if p.src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	se := &SyntaxError{Line: t.line, Msg: fmt.Sprintf(format, args...), Col: t.col}
	if t.col >= 0 {
		se.Text = lineText(p.src, start)
	}
	panic(se)
}

func (p *parser) syntaxError() {
	var near string
	switch p.tok.kind {
	case tEOF:
		near = "end of file"
	case tNewline:
		near = "end of line"
	case tString:
		near = fmt.Sprintf("%q", p.tok.s)
	case tRegex:
		near = "/" + p.tok.s + "/"
	default:
		near = p.tok.s
	}
	p.fail("syntax error at or near %s", near)
}

func (p *parser) next() {
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	p.tok = p.toks[p.pos]
}

func (p *parser) peek(n int) tokKind {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n].kind
	}
	return tEOF
}

func (p *parser) expect(k tokKind) {
	if p.tok.kind != k {
		p.syntaxError()
	}
	p.next()
}

func (p *parser) optNewlines() {
	for p.tok.kind == tNewline {
		p.next()
	}
}

func (p *parser) skipTerms() {
	for p.tok.kind == tNewline || p.tok.kind == tSemi {
		p.next()
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxNesting {
		p.fail("program nested too deeply")
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) program() *Program {
	prog := &Program{}
	p.skipTerms()
	for p.tok.kind != tEOF {
		switch p.tok.kind {
		case tBEGIN:
			p.next()
			p.inBeginEnd = true
			prog.begins = append(prog.begins, p.action())
			p.inBeginEnd = false
		case tEND:
			p.next()
			p.inBeginEnd = true
			prog.ends = append(prog.ends, p.action())
			p.inBeginEnd = false
		case tFunction:
			p.function()
		default:
			it := item{rangeIdx: -1}
			if p.tok.kind != tLbrace {
				it.pattern = p.expr()
				if p.tok.kind == tComma {
					p.next()
					p.optNewlines()
					it.pattern2 = p.expr()
					it.rangeIdx = p.nranges
					p.nranges++
				}
			}
			if p.tok.kind == tLbrace {
				it.body = p.action()
			} else {
				it.noAction = true
				if p.tok.kind != tNewline && p.tok.kind != tSemi && p.tok.kind != tEOF {
					p.syntaxError()
				}
			}
			prog.items = append(prog.items, it)
		}
		p.skipTerms()
	}
	return prog
}

// action parses { statements }.
func (p *parser) action() []stmt {
	if p.tok.kind != tLbrace {
		p.syntaxError()
	}
	return p.block().list
}

func (p *parser) block() *blockStmt {
	p.enter()
	defer p.leave()
	p.expect(tLbrace)
	b := &blockStmt{}
	p.skipTerms()
	for p.tok.kind != tRbrace {
		if p.tok.kind == tEOF {
			p.syntaxError()
		}
		b.list = append(b.list, p.stmt())
		p.skipTerms()
	}
	p.next()
	return b
}

func (p *parser) function() {
	p.next()
	nameTok := p.tok
	if p.tok.kind != tName && p.tok.kind != tFuncName {
		p.syntaxError()
	}
	name := p.tok.s
	p.next()
	fd := p.funcs[name]
	if fd == nil {
		fd = &funcDef{name: name}
		p.funcs[name] = fd
		p.funcList = append(p.funcList, fd)
	}
	if fd.defined {
		p.failAt(nameTok, "function `%s' redefined", name)
	}
	fd.defined = true
	fd.line = nameTok.line
	p.expect(tLparen)
	p.locals = map[string]int{}
	for p.tok.kind != tRparen {
		if p.tok.kind != tName {
			p.syntaxError()
		}
		if _, dup := p.locals[p.tok.s]; dup {
			p.fail("function `%s': duplicate parameter `%s'", name, p.tok.s)
		}
		if p.tok.s == name {
			p.fail("function `%s': cannot use function name as parameter name", name)
		}
		p.locals[p.tok.s] = len(fd.params)
		fd.params = append(fd.params, p.tok.s)
		p.next()
		if p.tok.kind == tComma {
			p.next()
			p.optNewlines()
		} else if p.tok.kind != tRparen {
			p.syntaxError()
		}
	}
	p.next()
	fd.isArray = make([]bool, len(fd.params))
	fd.isScalar = make([]bool, len(fd.params))
	p.localUse = make([]int, len(fd.params))
	p.cur = fd
	p.optNewlines()
	fd.body = p.action()
	for i, n := range p.localUse {
		fd.isScalar[i] = n > 0
	}
	p.cur = nil
	p.locals = nil
}

// endSimple consumes the terminator of a simple statement.
func (p *parser) endSimple() {
	switch p.tok.kind {
	case tSemi, tNewline:
		p.next()
		p.optNewlines()
	case tRbrace, tEOF:
	default:
		p.syntaxError()
	}
}

func (p *parser) stmt() stmt {
	p.enter()
	defer p.leave()
	switch p.tok.kind {
	case tLbrace:
		return p.block()
	case tSemi:
		p.next()
		return &blockStmt{}
	case tIf:
		p.next()
		p.expect(tLparen)
		s := &ifStmt{cond: p.expr()}
		p.expect(tRparen)
		p.optNewlines()
		s.then = p.bodyStmt()
		save := p.pos
		p.skipTerms()
		if p.tok.kind == tElse {
			p.next()
			p.optNewlines()
			s.els = p.bodyStmt()
		} else {
			p.pos = save
			p.tok = p.toks[p.pos]
		}
		return s
	case tWhile:
		p.next()
		p.expect(tLparen)
		s := &whileStmt{cond: p.expr()}
		p.expect(tRparen)
		if p.tok.kind == tSemi {
			p.next()
			s.body = &blockStmt{}
			return s
		}
		p.optNewlines()
		s.body = p.loopBody()
		return s
	case tDo:
		p.next()
		p.optNewlines()
		s := &doStmt{body: p.loopBody()}
		p.skipTerms()
		p.expect(tWhile)
		p.expect(tLparen)
		s.cond = p.expr()
		p.expect(tRparen)
		p.endSimple()
		return s
	case tFor:
		return p.forStmt()
	}
	s := p.simpleStmt()
	p.endSimple()
	return s
}

// bodyStmt parses the body of an if or else: a statement, or an empty one.
func (p *parser) bodyStmt() stmt {
	if p.tok.kind == tSemi {
		p.next()
		return &blockStmt{}
	}
	return p.stmt()
}

func (p *parser) loopBody() stmt {
	p.loopDepth++
	defer func() { p.loopDepth-- }()
	return p.bodyStmt()
}

func (p *parser) forStmt() stmt {
	p.next()
	p.expect(tLparen)
	if p.tok.kind == tName && p.peek(1) == tIn && p.peek(2) == tName && p.peek(3) == tRparen {
		v := p.variable(p.tok.s)
		p.markScalar(v)
		p.next()
		p.next()
		arr := p.arrayRef()
		p.expect(tRparen)
		p.optNewlines()
		return &forInStmt{v: v, arr: arr, body: p.loopBody()}
	}
	s := &forStmt{}
	if p.tok.kind != tSemi {
		s.init = p.simpleStmt()
	}
	p.expect(tSemi)
	p.optNewlines()
	if p.tok.kind != tSemi {
		s.cond = p.expr()
	}
	p.expect(tSemi)
	p.optNewlines()
	if p.tok.kind != tRparen {
		s.post = p.simpleStmt()
	}
	p.expect(tRparen)
	if p.tok.kind == tSemi {
		p.next()
		s.body = &blockStmt{}
		return s
	}
	p.optNewlines()
	s.body = p.loopBody()
	return s
}

func (p *parser) simpleStmt() stmt {
	switch p.tok.kind {
	case tPrint, tPrintf:
		return p.printStmt()
	case tNext, tNextfile:
		k := p.tok.kind
		if p.inBeginEnd {
			p.fail("%s used in BEGIN or END action", p.tok.s)
		}
		p.next()
		if k == tNext {
			return &nextStmt{}
		}
		return &nextfileStmt{}
	case tBreak, tContinue:
		k := p.tok.kind
		if p.loopDepth == 0 {
			p.fail("%s is not allowed outside a loop", p.tok.s)
		}
		p.next()
		if k == tBreak {
			return &breakStmt{}
		}
		return &continueStmt{}
	case tExit:
		p.next()
		s := &exitStmt{}
		if !p.atStmtEnd() {
			s.x = p.expr()
		}
		return s
	case tReturn:
		if p.cur == nil {
			p.fail("return used outside function context")
		}
		p.next()
		s := &returnStmt{}
		if !p.atStmtEnd() {
			s.x = p.expr()
		}
		return s
	case tDelete:
		p.next()
		arr := p.arrayRef()
		s := &deleteStmt{arr: arr}
		if p.tok.kind == tLbracket {
			s.index = p.subscript()
		}
		return s
	}
	return &exprStmt{x: p.expr()}
}

func (p *parser) atStmtEnd() bool {
	switch p.tok.kind {
	case tSemi, tNewline, tRbrace, tEOF:
		return true
	}
	return false
}

func (p *parser) printStmt() stmt {
	s := &printStmt{printf: p.tok.kind == tPrintf}
	p.next()
	switch p.tok.kind {
	case tSemi, tNewline, tRbrace, tEOF, tGT, tAppend, tPipe:
	default:
		save := p.noGT
		p.noGT = true
		s.args = p.exprList()
		p.noGT = save
		if len(s.args) == 1 {
			if m, ok := s.args[0].(*multiExpr); ok {
				m.used = true
				s.args = m.list
			}
		}
	}
	if s.printf && len(s.args) == 0 {
		p.syntaxError()
	}
	switch p.tok.kind {
	case tGT, tAppend, tPipe:
		s.redir = p.tok.kind
		p.next()
		save := p.noGT
		p.noGT = true
		s.dest = p.concat()
		p.noGT = save
	}
	return s
}

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
		l = &binaryExpr{op: tOr, l: l, r: p.and()}
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
		l = &binaryExpr{op: tAnd, l: l, r: p.in()}
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
		l = &matchExpr{l: l, re: p.comparison(), neg: neg}
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
		l = &binaryExpr{op: op, l: l, r: p.pipeGetline()}
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
		l = g
	}
	return l
}

func startsConcat(k tokKind) bool {
	switch k {
	case tNumber, tString, tRegex, tName, tFuncName, tBuiltin, tDollar, tLparen, tIncr, tDecr:
		return true
	}
	return false
}

func (p *parser) concat() expr {
	l := p.additive()
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
	l := p.mul()
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
	l := p.unary()
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
			p.failAt(t, "regular expression /%s/: %v", t.s, err)
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
			x := p.primary()
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
		p.markScalar(v)
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
		p.failAt(t, "function `%s' called with space between name and `(',\nor used as a variable or an array", name)
	}
	i, ok := p.globals[name]
	if !ok {
		i = len(p.globalNames)
		p.globals[name] = i
		p.globalNames = append(p.globalNames, name)
		p.globalArray = append(p.globalArray, false)
		p.globalScalar = append(p.globalScalar, 0)
	}
	return &varExpr{scope: scopeGlobal, idx: i, name: name}
}

func (p *parser) markScalar(v *varExpr) {
	switch v.scope {
	case scopeLocal:
		p.localUse[v.idx]++
	case scopeGlobal:
		p.globalScalar[v.idx]++
	}
}

func (p *parser) unmarkScalar(v *varExpr) {
	switch v.scope {
	case scopeLocal:
		p.localUse[v.idx]--
	case scopeGlobal:
		p.globalScalar[v.idx]--
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
	c.args = p.callArgs()
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
	c.args = p.callArgs()
	n := len(c.args)
	bad := false
	switch t.b {
	case bLength:
		bad = n > 1
		if n == 1 {
			if v, ok := c.args[0].(*varExpr); ok && v.scope != scopeNF {
				// length(x) accepts an array: decided at run time.
				p.unmarkScalar(v)
			}
		}
	case bSubstr:
		bad = n < 2 || n > 3
	case bIndex, bAtan2:
		bad = n != 2
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
	case bRand:
		bad = n != 0
	case bSrand, bFflush:
		bad = n > 1
	}
	if bad {
		p.failAt(t, "%d is invalid as number of arguments for %s", n, t.s)
	}
	return c
}

// resolve checks function calls and infers which parameters are arrays.
func (p *parser) resolve() {
	for _, c := range p.calls {
		if !c.fn.defined {
			p.failAt(token{line: c.line, col: -1}, "function `%s' never defined", c.name)
		}
		if len(c.args) > len(c.fn.params) {
			p.failAt(token{line: c.line, col: -1}, "function `%s' called with more arguments than declared", c.name)
		}
	}
	for name, fd := range p.funcs {
		if _, ok := p.globals[name]; ok && fd.defined {
			p.failAt(token{line: fd.line, col: -1}, "function name `%s' previously defined as a variable", name)
		}
		if _, ok := builtins[name]; ok {
			p.failAt(token{line: fd.line, col: -1}, "function name `%s' is a builtin", name)
		}
	}
	isArr := func(r argRef) bool {
		switch r.v.scope {
		case scopeLocal:
			return r.caller.isArray[r.v.idx]
		case scopeGlobal:
			return p.globalArray[r.v.idx]
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for _, r := range p.refs {
			callee := r.call.fn
			if r.j >= len(callee.params) {
				continue
			}
			a, b := isArr(r), callee.isArray[r.j]
			if b && !a {
				switch r.v.scope {
				case scopeLocal:
					r.caller.isArray[r.v.idx] = true
				case scopeGlobal:
					p.globalArray[r.v.idx] = true
				}
				changed = true
			} else if a && !b {
				callee.isArray[r.j] = true
				changed = true
			}
		}
	}
	for i, n := range p.globalScalar {
		if n > 0 && p.globalArray[i] {
			p.failAt(token{line: 1, col: -1}, "can't use array %s in scalar context", p.globalNames[i])
		}
	}
	for _, fd := range p.funcList {
		for i := range fd.params {
			if fd.isArray[i] && fd.isScalar[i] {
				p.failAt(token{line: fd.line, col: -1}, "function `%s': can't use array %s in scalar context", fd.name, fd.params[i])
			}
		}
	}
	for _, m := range p.multis {
		if !m.used {
			p.failAt(token{line: 1, col: -1}, "syntax error: (expression, expression) outside print or in")
		}
	}
}

// compileRegex is the regexp compiler used for literals and dynamic regexes.
func compileRegex(src string) (*regexp.Regexp, error) {
	t, err := translateERE(src)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(t)
	if err != nil {
		return nil, err
	}
	re.Longest()
	return re, nil
}
