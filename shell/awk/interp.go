package awk

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"unsafe"

	"github.com/cordonhq/cordon/shell/command"
)

// maxCallDepth bounds user function recursion.
const maxCallDepth = 1000

// maxFields bounds the field index that may be assigned (and NF), so that
// "$1e9 = 1" cannot allocate gigabytes at once.
const maxFields = 1 << 20

// RuntimeError is a fatal error while running an AWK program.
type RuntimeError struct {
	// Msg is the message without the "awk: " prefix, for example
	// "division by zero".
	Msg string
	// Line is the line of the program's source where the statement that
	// failed starts; 0 when not known.
	Line int
}

// Error returns the message, for example "division by zero".
func (e *RuntimeError) Error() string { return e.Msg }

// ctxError carries a canceled context out of the interpreter.
type ctxError struct{ err error }

// ctl is how a statement ended.
type ctl uint8

const (
	ctlNone ctl = iota
	ctlBreak
	ctlContinue
	ctlNext
	ctlNextFile
	ctlExit
	ctlReturn
)

// ctlSignal carries next, nextfile and exit out of a function call.
type ctlSignal struct{ c ctl }

// cell holds a variable: a scalar or an array.
type cell struct {
	v   value
	arr *array
}

// splitMode is how fields are split.
type splitMode uint8

const (
	splitBlank splitMode = iota // FS == " ": runs of blanks, trimmed
	splitByte                   // a single character
	splitRegex                  // a regex
	splitChars                  // FS == "": every character
)

type splitter struct {
	mode splitMode
	c    byte
	re   *regexp.Regexp
}

type interp struct {
	line  int             // the source line of the statement running, for errors
	weird map[string]bool // printf conversions warned of

	safe bool // -safe: no commands, no output redirection, no ENVIRON

	// catBuf backs the longest string the last long concatenation made
	// (see concat).
	catBuf []byte

	prog    *Program
	ctx     context.Context
	env     *command.Env
	globals []cell
	frame   []cell
	depth   int

	record string
	recVal value
	fields []value
	nf     int
	// nfVal is the value last assigned to NF, which NF returns (as a
	// string like "3.14x", if that was assigned) while the record keeps
	// that number of fields; nfSet reports whether it is valid.
	nfVal value
	nfSet bool
	// stdin is awk's standard input, shared with the commands it runs.
	stdin     io.Reader
	splitDone bool
	recDirty  bool
	recSplit  splitter

	fsSplit splitter
	rs      recordSep
	convfmt string
	ofmt    string
	ofs     string
	ors     string
	subsep  string

	out      *bufio.Writer
	outputs  map[string]*output
	outOrder []string
	inputs   map[string]*recReader

	mainR     *recReader
	argIndex  int
	sawFile   bool
	stdinDone bool

	rangeActive []bool
	regexCache  map[string]*regexp.Regexp
	rng         *rand.Rand
	seed        float64
	exitCode    int
	retVal      value
	pbuf        []byte
	errOut      *bufio.Writer
}

// fatal aborts the program with a runtime error.
func fatal(format string, args ...any) {
	panic(&RuntimeError{Msg: fmt.Sprintf(format, args...)})
}

// poll stops the program when the context is canceled.
func (in *interp) poll() {
	if err := command.Err(in.ctx); err != nil {
		panic(ctxError{err})
	}
}

func (in *interp) specialAssigned(idx int) {
	v := in.globals[idx].v
	switch idx {
	case gFS:
		in.fsSplit = in.makeSplitter(in.toStr(v))
	case gRS:
		in.rs = in.makeRS(in.toStr(v))
		in.fsSplit = in.makeSplitter(in.toStr(in.globals[gFS].v))
	case gOFS:
		if in.recDirty {
			// $0 is rebuilt with the OFS of the time its fields changed.
			in.rebuild()
		}
		in.ofs = in.toStr(v)
	case gORS:
		in.ors = in.toStr(v)
	case gSUBSEP:
		in.subsep = in.toStr(v)
	case gCONVFMT:
		in.convfmt = in.toStr(v)
	case gOFMT:
		in.ofmt = in.toStr(v)
	}
}

// toStr converts a value to a string, numbers with CONVFMT.
func (in *interp) toStr(v value) string {
	switch v.k {
	case kNum:
		return in.numStr(v.n, in.convfmt)
	case kUninit:
		return ""
	}
	return v.s
}

// toOutStr converts a value for output, numbers with OFMT.
func (in *interp) toOutStr(v value) string {
	if v.k == kNum {
		return in.numStr(v.n, in.ofmt)
	}
	return in.toStr(v)
}

func (in *interp) numStr(n float64, format string) string {
	if isIntegral(n) {
		return formatInt(n)
	}
	if s, ok := specialFloat(n); ok {
		return s
	}
	if format == "%.6g" {
		return strconv.FormatFloat(n, 'g', 6, 64)
	}
	return in.sprintf(format, []value{num(n)})
}

// compare compares two values by POSIX rules.
func (in *interp) compare(l, r value) int {
	if l.isNum() && r.isNum() {
		a, b := l.toNum(), r.toNum()
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		case a == b:
			return 0
		}
		// NaN: unordered, compare as "not equal".
		return 2
	}
	return strings.Compare(in.toStr(l), in.toStr(r))
}

// key builds an array subscript.
func (in *interp) key(index []expr) string {
	if len(index) == 1 {
		return in.toStr(in.eval(index[0]))
	}
	var b strings.Builder
	for i, e := range index {
		if i > 0 {
			b.WriteString(in.subsep)
		}
		b.WriteString(in.toStr(in.eval(e)))
	}
	return b.String()
}

func (in *interp) cellOf(v *varExpr) *cell {
	if v.scope == scopeLocal {
		return &in.frame[v.idx]
	}
	return &in.globals[v.idx]
}

func (in *interp) arrayOf(v *varExpr) *array {
	c := in.cellOf(v)
	if c.arr == nil {
		if c.v.k != kUninit {
			fatal("can't use scalar %s as array", v.name)
		}
		c.arr = newArray()
	}
	return c.arr
}

func (in *interp) getVar(v *varExpr) value {
	switch v.scope {
	case scopeNF:
		nf := in.getNF()
		if in.nfSet && int(in.nfVal.toNum()) == nf {
			return in.nfVal
		}
		return num(float64(nf))
	case scopeLocal:
		c := &in.frame[v.idx]
		if c.arr != nil {
			fatal("can't use array %s in scalar context", v.name)
		}
		return c.v
	}
	c := &in.globals[v.idx]
	if c.arr != nil {
		fatal("can't use array %s in scalar context", v.name)
	}
	return c.v
}

func (in *interp) setVar(v *varExpr, val value) {
	switch v.scope {
	case scopeNF:
		in.setNF(val.toNum())
		in.nfVal, in.nfSet = val, true
		return
	case scopeLocal:
		c := &in.frame[v.idx]
		if c.arr != nil {
			fatal("can't assign to %s; it's an array name.", v.name)
		}
		c.v = val
		return
	}
	c := &in.globals[v.idx]
	if c.arr != nil {
		fatal("can't assign to %s; it's an array name.", v.name)
	}
	c.v = val
	if v.idx < numSpecial {
		in.specialAssigned(v.idx)
	}
}

// place is a resolved lvalue.
type place struct {
	v     *varExpr
	arr   *array
	key   string
	field int
	kind  uint8 // 0 var, 1 element, 2 field
}

func (in *interp) place(e expr) place {
	switch e := e.(type) {
	case *varExpr:
		return place{v: e}
	case *indexExpr:
		k := in.key(e.index)
		return place{kind: 1, arr: in.arrayOf(e.arr), key: k}
	case *fieldExpr:
		return place{kind: 2, field: fieldIndex(in.eval(e.index).toNum())}
	case *groupExpr:
		return in.place(e.x)
	}
	fatal("assignment to non-lvalue")
	return place{}
}

func (in *interp) load(p place) value {
	switch p.kind {
	case 1:
		return p.arr.get(p.key)
	case 2:
		return in.getField(p.field)
	}
	return in.getVar(p.v)
}

func (in *interp) store(p place, v value) {
	switch p.kind {
	case 1:
		p.arr.set(p.key, v)
	case 2:
		in.setField(p.field, v)
	default:
		in.setVar(p.v, v)
	}
}

func (in *interp) eval(e expr) value {
	switch e := e.(type) {
	case *numLit:
		return e.v
	case *strLit:
		return e.v
	case *varExpr:
		return in.getVar(e)
	case *fieldExpr:
		return in.getField(fieldIndex(in.eval(e.index).toNum()))
	case *indexExpr:
		k := in.key(e.index)
		return in.arrayOf(e.arr).get(k)
	case *assignExpr:
		return in.assign(e)
	case *condExpr:
		if in.eval(e.cond).toBool() {
			return in.eval(e.yes)
		}
		return in.eval(e.no)
	case *binaryExpr:
		return in.binary(e)
	case *unaryExpr:
		x := in.eval(e.x)
		switch e.op {
		case tNot:
			return boolNum(!x.toBool())
		case tSub:
			return num(-x.toNum())
		}
		return num(x.toNum())
	case *incrExpr:
		p := in.place(e.lhs)
		old := in.load(p).toNum()
		in.store(p, num(old+e.delta))
		if e.pre {
			return num(old + e.delta)
		}
		return num(old)
	case *matchExpr:
		s := in.toStr(in.eval(e.l))
		m := in.regexOf(e.re).MatchString(s)
		return boolNum(m != e.neg)
	case *inExpr:
		k := in.key(e.index)
		return boolNum(in.arrayOf(e.arr).has(k))
	case *concatExpr:
		return str(in.concat(e.parts))
	case *groupExpr:
		return in.eval(e.x)
	case *regexLit:
		return boolNum(e.re.MatchString(in.getRecord()))
	case *builtinCall:
		return in.builtin(e)
	case *userCall:
		return in.callUser(e)
	case *getlineExpr:
		return in.getline(e)
	}
	fatal("invalid expression")
	return value{}
}

// regexOf returns the regex an expression denotes: a literal, or the
// string value of anything else.
func (in *interp) regexOf(e expr) *regexp.Regexp {
	if r, ok := e.(*regexLit); ok {
		return r.re
	}
	return in.regex(in.toStr(in.eval(e)))
}

// assign evaluates the right-hand side before the target's subscript or
// field index, as gawk does.
func (in *interp) assign(e *assignExpr) value {
	r := in.eval(e.rhs)
	p := in.place(e.lhs)
	if e.op != tAssign {
		r = num(arith(e.op, in.load(p).toNum(), r.toNum()))
	}
	in.store(p, r)
	return r
}

func arith(op tokKind, a, b float64) float64 {
	switch op {
	case tAdd, tAddAssign:
		return a + b
	case tSub, tSubAssign:
		return a - b
	case tMul, tMulAssign:
		return a * b
	case tDiv, tDivAssign:
		if b == 0 && op == tDivAssign {
			fatal("division by zero in /=")
		} else if b == 0 {
			fatal("division by zero")
		}
		return a / b
	case tMod, tModAssign:
		if b == 0 && op == tModAssign {
			fatal("division by zero in %%=")
		} else if b == 0 {
			fatal("division by zero in mod")
		}
		return math.Mod(a, b)
	case tPow, tPowAssign:
		return pow(a, b)
	}
	return 0
}

// pow computes a^b, exactly for small integer exponents.
func pow(a, b float64) float64 {
	if b == math.Trunc(b) && b >= 0 && b <= 1024 {
		r := 1.0
		x := a
		n := int(b)
		for n > 0 {
			if n&1 == 1 {
				r *= x
			}
			x *= x
			n >>= 1
		}
		return r
	}
	return math.Pow(a, b)
}

func (in *interp) binary(e *binaryExpr) value {
	switch e.op {
	case tAnd:
		return boolNum(in.eval(e.l).toBool() && in.eval(e.r).toBool())
	case tOr:
		return boolNum(in.eval(e.l).toBool() || in.eval(e.r).toBool())
	case tLT, tLE, tGT, tGE, tEQ, tNE:
		c := in.compare(in.eval(e.l), in.eval(e.r))
		var b bool
		switch e.op {
		case tLT:
			b = c == -1
		case tLE:
			b = c == -1 || c == 0
		case tGT:
			b = c == 1
		case tGE:
			b = c == 1 || c == 0
		case tEQ:
			b = c == 0
		case tNE:
			b = c != 0
		}
		return boolNum(b)
	}
	l := in.eval(e.l).toNum()
	r := in.eval(e.r).toNum()
	return num(arith(e.op, l, r))
}

func (in *interp) callUser(c *userCall) value {
	in.poll()
	fd := c.fn
	if in.depth >= maxCallDepth {
		fatal("function call nesting too deep (more than %d levels) in %s", maxCallDepth, fd.name)
	}
	frame := make([]cell, len(fd.params))
	for j, a := range c.args {
		if j >= len(fd.params) {
			// An extra argument: evaluated for its effects, then dropped.
			if v, ok := a.(*varExpr); !ok || v.scope == scopeNF || in.cellOf(v).arr == nil {
				in.eval(a)
			}
			continue
		}
		v, bare := a.(*varExpr)
		if bare && v.scope != scopeNF {
			cl := in.cellOf(v)
			if fd.isArray[j] || cl.arr != nil {
				frame[j].arr = in.arrayOf(v)
				continue
			}
		} else if fd.isArray[j] {
			fatal("function %s: attempt to use scalar parameter %s as an array", fd.name, fd.params[j])
		}
		frame[j].v = in.eval(a)
	}
	saved := in.frame
	in.frame = frame
	in.depth++
	r := in.execList(fd.body)
	in.depth--
	in.frame = saved
	switch r {
	case ctlReturn:
		v := in.retVal
		in.retVal = value{}
		return v
	case ctlNext, ctlNextFile, ctlExit:
		panic(ctlSignal{r})
	}
	return value{}
}

// concatAppendMin is the length from which a concatenation appends to
// catBuf instead of building a string of exactly the right size.
const concatAppendMin = 256

// concat evaluates juxtaposed expressions and joins their values.
//
// Scripts accumulate with s = s x, which copied all of s each time: the
// copying grows with the square of the result's length. A long result is
// therefore made in catBuf, with room to spare, and when the next
// concatenation starts with exactly that string (same bytes in memory,
// same length), it appends after it. That is safe because a Go string is
// never changed here: every string handed out is a prefix of catBuf at most
// as long as catBuf, and appending writes only past catBuf's length. Any
// other first operand, including a shorter prefix of catBuf (substr, or a
// copy of an older value), starts a new buffer. All the operands are
// evaluated before the check, as evaluating them can itself extend
// catBuf.
func (in *interp) concat(parts []expr) string {
	first := in.toStr(in.eval(parts[0]))
	if len(first) < concatAppendMin {
		var b strings.Builder
		b.WriteString(first)
		for _, p := range parts[1:] {
			b.WriteString(in.toStr(in.eval(p)))
		}
		return b.String()
	}
	rest := make([]string, len(parts)-1)
	n := len(first)
	for i, p := range parts[1:] {
		rest[i] = in.toStr(in.eval(p))
		n += len(rest[i])
	}
	buf := in.catBuf
	if len(buf) == 0 || len(buf) != len(first) || &buf[0] != unsafe.StringData(first) {
		buf = make([]byte, len(first), n+min(n, 16<<20))
		copy(buf, first)
	}
	for _, s := range rest {
		buf = append(buf, s...)
	}
	in.catBuf = buf
	return unsafe.String(&buf[0], len(buf))
}
