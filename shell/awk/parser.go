package awk

import (
	"fmt"
	"strconv"
	"strings"
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
	gERRNO
	gPROCINFO
	numSpecial
)

var specialNames = [numSpecial]string{"NR", "FNR", "FS", "OFS", "ORS", "RS", "SUBSEP", "CONVFMT", "OFMT", "RSTART", "RLENGTH", "FILENAME", "ENVIRON", "ARGC", "ARGV", "ERRNO", "PROCINFO"}

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
	warnings    []string
}

// Warnings returns the compiler's warnings, such as a call with more
// arguments than the function declares, in gawk's words.
func (p *Program) Warnings() []string { return p.warnings }

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

	globals     map[string]int
	globalNames []string
	globalArray []bool
	// globalScalar holds, for each global, its uses as a scalar.
	globalScalar [][]scalarUse

	funcs    map[string]*funcDef
	funcList []*funcDef
	cur      *funcDef
	locals   map[string]int
	localUse []int // scalar uses of the current function's locals

	noGT      bool
	depth     int
	loopDepth int
	callee    string // the function whose arguments are being parsed
	// pending is the error of a function's name passed as an argument to
	// a user function: it is raised after the calls are checked, so that
	// their warnings come first, as in onetrueawk.
	pending    *SyntaxError
	inBeginEnd string // "BEGIN" or "END" while parsing that action

	calls    []*userCall
	warnings []string
	refs     []argRef
	multis   []*multiExpr
	nranges  int
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
		p.globalArray = append(p.globalArray, i == gENVIRON || i == gARGV || i == gPROCINFO)
		p.globalScalar = append(p.globalScalar, nil)
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
	if p.pending != nil {
		p.pending.warnings = p.warnings
		panic(p.pending)
	}
	prog.globalNames = p.globalNames
	prog.globalArray = p.globalArray
	prog.funcs = p.funcList
	prog.nranges = p.nranges
	prog.warnings = p.warnings
	return prog, nil
}

// fail aborts parsing with a syntax error at the current token.
func (p *parser) fail(format string, args ...any) {
	p.failAt(p.tok, format, args...)
}

func (p *parser) failAt(t token, format string, args ...any) {
	panic(p.errorAt(t, format, args...))
}

// errorAt is the syntax error at token t.
func (p *parser) errorAt(t token, format string, args ...any) *SyntaxError {
	start := 0
	line := 1
	for i := 0; i < len(p.src) && line < t.line; i++ {
		if p.src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	se := &SyntaxError{Line: t.line, Msg: fmt.Sprintf(format, args...), Col: t.col, Text: lineText(p.src, start)}
	if t.col >= 0 {
		se.end = t.col + max(len(tokenText(t)), 1)
	}
	// The depth of braces before the token tells a statement's error
	// ("illegal statement") from one outside any action ("bailing out").
	depth := 0
	for _, u := range p.toks {
		if u.line > t.line || (u.line == t.line && u.col >= t.col && t.col >= 0) || u.kind == tEOF {
			break
		}
		switch u.kind {
		case tLbrace:
			depth++
		case tRbrace:
			depth--
		}
	}
	se.inAction = depth > 0 && t.col >= 0
	se.notes = bracketNotes(p.toks)
	return se
}

// tokenText is the text of a token as written, for the context display.
func tokenText(t token) string {
	switch t.kind {
	case tString:
		return strconv.Quote(t.s)
	case tRegex:
		return "/" + t.s + "/"
	case tEOF, tNewline:
		return ""
	}
	return t.s
}

// bracketNotes lists the brackets of the program that are unbalanced, as
// "extra )" or "2 missing }'s", braces first.
func bracketNotes(toks []token) []string {
	var notes []string
	for _, pair := range [][2]tokKind{{tLbrace, tRbrace}, {tLbracket, tRbracket}, {tLparen, tRparen}} {
		n := 0
		for _, t := range toks {
			switch t.kind {
			case pair[0]:
				n++
			case pair[1]:
				n--
			}
		}
		closer := map[tokKind]string{tRbrace: "}", tRbracket: "]", tRparen: ")"}[pair[1]]
		word := "missing"
		if n < 0 {
			word, n = "extra", -n
		}
		switch {
		case n == 1:
			notes = append(notes, word+" "+closer)
		case n > 1:
			notes = append(notes, fmt.Sprintf("%d %s %s's", n, word, closer))
		}
	}
	return notes
}

func (p *parser) syntaxError() {
	var near string
	switch p.tok.kind {
	case tFunction:
		if p.cur != nil {
			p.fail("illegal nested function")
		}
		near = p.tok.s
	case tEOF:
		p.fail("syntax error: unexpected end of input")
	case tNewline:
		p.fail("syntax error: unexpected end of line")
	case tString:
		near = p.tok.s
		if strings.ContainsAny(near, "\n\r") {
			near = fmt.Sprintf("%q", near)
		}
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
			p.inBeginEnd = "BEGIN"
			prog.begins = append(prog.begins, p.action())
			p.inBeginEnd = ""
		case tEND:
			p.next()
			p.inBeginEnd = "END"
			prog.ends = append(prog.ends, p.action())
			p.inBeginEnd = ""
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
	line := 0
	p.skipTerms()
	for p.tok.kind != tRbrace {
		if p.tok.kind == tEOF {
			p.syntaxError()
		}
		if p.tok.line != line {
			line = p.tok.line
			b.list = append(b.list, &lineStmt{line})
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
		p.failAt(nameTok, "you can't define function %s more than once", name)
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
			p.fail("duplicate argument %s in function %s", p.tok.s, name)
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
	fd.assigned = make([]bool, len(fd.params))
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
		p.markScalar(v, p.tok.line, true)
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
		if p.inBeginEnd != "" {
			p.fail("illegal break, continue, next or nextfile from %s", p.inBeginEnd)
		}
		p.next()
		if k == tNext {
			return &nextStmt{}
		}
		return &nextfileStmt{}
	case tBreak, tContinue:
		k := p.tok.kind
		if p.loopDepth == 0 {
			p.fail("%s illegal outside of loops", p.tok.s)
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
			p.fail("return not in function")
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
