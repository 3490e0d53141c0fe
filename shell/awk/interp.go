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

	"github.com/cordonhq/cordon/shell/command"
)

// maxCallDepth bounds user function recursion.
const maxCallDepth = 1000

// maxFields bounds the field index that may be assigned (and NF), so that
// "$1e9 = 1" cannot allocate gigabytes at once.
const maxFields = 1 << 20

// RuntimeError is a fatal error while running an AWK program.
type RuntimeError struct{ Msg string }

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
	prog    *Program
	ctx     context.Context
	env     *command.Env
	globals []cell
	frame   []cell
	depth   int

	record    string
	recVal    value
	fields    []value
	nf        int
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
	if err := in.ctx.Err(); err != nil {
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

func (in *interp) makeRS(s string) recordSep {
	switch len(s) {
	case 0:
		return recordSep{mode: rsPara}
	case 1:
		return recordSep{mode: rsByte, c: s[0]}
	}
	return recordSep{mode: rsRegex, re: in.regex(s)}
}

func (in *interp) makeSplitter(fs string) splitter {
	para := in.rs.mode == rsPara
	switch {
	case fs == " ":
		return splitter{mode: splitBlank}
	case fs == "":
		return splitter{mode: splitChars}
	case len(fs) == 1 && fs != "\\":
		if para && fs != "\n" {
			return splitter{mode: splitRegex, re: in.regex("[" + quoteClassChars(fs) + "\n]")}
		}
		return splitter{mode: splitByte, c: fs[0]}
	}
	if para {
		return splitter{mode: splitRegex, re: in.regex("(" + fs + ")|\n")}
	}
	return splitter{mode: splitRegex, re: in.regex(fs)}
}

// regex compiles a dynamic regex, with a cache.
func (in *interp) regex(src string) *regexp.Regexp {
	if re, ok := in.regexCache[src]; ok {
		return re
	}
	re, err := compileRegex(src)
	if err != nil {
		fatal("regular expression %q: %v", src, err)
	}
	if len(in.regexCache) >= 500 {
		clear(in.regexCache)
	}
	in.regexCache[src] = re
	return re
}

// split splits s into fields, appending to dst.
func splitFields(s string, sp splitter, dst []value) []value {
	switch sp.mode {
	case splitBlank:
		i := 0
		for {
			for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
				i++
			}
			if i >= len(s) {
				return dst
			}
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
				j++
			}
			dst = append(dst, value{k: kUnchecked, s: s[i:j]})
			i = j
		}
	case splitByte:
		if s == "" {
			return dst
		}
		for {
			j := strings.IndexByte(s, sp.c)
			if j < 0 {
				return append(dst, value{k: kUnchecked, s: s})
			}
			dst = append(dst, value{k: kUnchecked, s: s[:j]})
			s = s[j+1:]
		}
	case splitChars:
		for i := 0; i < len(s); {
			n := runeLen(s[i:])
			dst = append(dst, value{k: kUnchecked, s: s[i : i+n]})
			i += n
		}
		return dst
	}
	if s == "" {
		return dst
	}
	prev := 0
	for _, loc := range sp.re.FindAllStringIndex(s, -1) {
		if loc[1] == loc[0] {
			continue
		}
		dst = append(dst, value{k: kUnchecked, s: s[prev:loc[0]]})
		prev = loc[1]
	}
	return append(dst, value{k: kUnchecked, s: s[prev:]})
}

// setRecord sets $0 from input or an assignment.
func (in *interp) setRecord(s string) {
	in.record = s
	in.recVal = value{k: kUnchecked, s: s}
	in.splitDone = false
	in.recDirty = false
	in.recSplit = in.fsSplit
}

func (in *interp) ensureSplit() {
	if !in.splitDone {
		in.fields = splitFields(in.record, in.recSplit, in.fields[:0])
		in.nf = len(in.fields)
		in.splitDone = true
	}
}

func (in *interp) getRecord() string {
	if in.recDirty {
		in.rebuild()
	}
	return in.record
}

func (in *interp) rebuild() {
	var b strings.Builder
	for i := 0; i < in.nf; i++ {
		if i > 0 {
			b.WriteString(in.ofs)
		}
		b.WriteString(in.toStr(in.fields[i]))
	}
	in.record = b.String()
	in.recVal = value{k: kUnchecked, s: in.record}
	in.recDirty = false
}

func (in *interp) getField(i int) value {
	if i == 0 {
		if in.recDirty {
			in.rebuild()
		}
		if in.recVal.k == kUnchecked {
			in.recVal = in.recVal.classify()
		}
		return in.recVal
	}
	in.ensureSplit()
	if i > in.nf {
		return value{}
	}
	v := in.fields[i-1]
	if v.k == kUnchecked {
		v = v.classify()
		in.fields[i-1] = v
	}
	return v
}

func fieldIndex(n float64) int {
	if n < 0 || math.IsNaN(n) {
		fatal("trying to access out of range field %s", formatInt(math.Trunc(n)))
	}
	if n > maxFields*1024 {
		return maxFields * 1024
	}
	return int(n)
}

func (in *interp) setField(i int, v value) {
	if i == 0 {
		in.setRecord(in.toStr(v))
		return
	}
	if i > maxFields {
		fatal("field index %d too large", i)
	}
	in.ensureSplit()
	for in.nf < i {
		in.fields = append(in.fields[:in.nf], value{})
		in.nf++
	}
	in.fields[i-1] = v
	in.recDirty = true
}

func (in *interp) getNF() int {
	in.ensureSplit()
	return in.nf
}

func (in *interp) setNF(n float64) {
	in.ensureSplit()
	if n < 0 || math.IsNaN(n) {
		fatal("NF set to negative value")
	}
	if n > maxFields {
		fatal("NF value %s too large", formatInt(math.Trunc(n)))
	}
	nf := int(n)
	for in.nf < nf {
		in.fields = append(in.fields[:in.nf], value{})
		in.nf++
	}
	in.nf = nf
	in.fields = in.fields[:nf]
	in.recDirty = true
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
		return num(float64(in.getNF()))
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
		var b strings.Builder
		for _, p := range e.parts {
			b.WriteString(in.toStr(in.eval(p)))
		}
		return str(b.String())
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
		if b == 0 {
			fatal("division by zero")
		}
		return a / b
	case tMod, tModAssign:
		if b == 0 {
			fatal("division by zero in %%")
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

// execList runs statements until one ends abnormally.
func (in *interp) execList(list []stmt) ctl {
	for _, s := range list {
		if c := in.exec(s); c != ctlNone {
			return c
		}
	}
	return ctlNone
}

func (in *interp) exec(s stmt) ctl {
	switch s := s.(type) {
	case *exprStmt:
		in.eval(s.x)
	case *printStmt:
		in.print(s)
	case *blockStmt:
		return in.execList(s.list)
	case *ifStmt:
		if in.eval(s.cond).toBool() {
			return in.exec(s.then)
		} else if s.els != nil {
			return in.exec(s.els)
		}
	case *whileStmt:
		for {
			in.poll()
			if !in.eval(s.cond).toBool() {
				break
			}
			c := in.exec(s.body)
			if c == ctlBreak {
				break
			}
			if c != ctlNone && c != ctlContinue {
				return c
			}
		}
	case *doStmt:
		for {
			in.poll()
			c := in.exec(s.body)
			if c == ctlBreak {
				break
			}
			if c != ctlNone && c != ctlContinue {
				return c
			}
			if !in.eval(s.cond).toBool() {
				break
			}
		}
	case *forStmt:
		if s.init != nil {
			in.exec(s.init)
		}
		for {
			in.poll()
			if s.cond != nil && !in.eval(s.cond).toBool() {
				break
			}
			c := in.exec(s.body)
			if c == ctlBreak {
				break
			}
			if c != ctlNone && c != ctlContinue {
				return c
			}
			if s.post != nil {
				in.exec(s.post)
			}
		}
	case *forInStmt:
		arr := in.arrayOf(s.arr)
		for _, k := range arr.keys() {
			in.poll()
			if !arr.has(k) {
				continue
			}
			in.setVar(s.v, input(k))
			c := in.exec(s.body)
			if c == ctlBreak {
				break
			}
			if c != ctlNone && c != ctlContinue {
				return c
			}
		}
	case *deleteStmt:
		arr := in.arrayOf(s.arr)
		if s.index == nil {
			arr.clear()
		} else {
			arr.delete(in.key(s.index))
		}
	case *nextStmt:
		return ctlNext
	case *nextfileStmt:
		return ctlNextFile
	case *breakStmt:
		return ctlBreak
	case *continueStmt:
		return ctlContinue
	case *exitStmt:
		if s.x != nil {
			in.exitCode = int(in.eval(s.x).toNum()) & 0xff
		}
		return ctlExit
	case *returnStmt:
		if s.x != nil {
			v := in.eval(s.x)
			in.retVal = v
		} else {
			in.retVal = value{}
		}
		return ctlReturn
	default:
		fatal("invalid statement")
	}
	return ctlNone
}

// runBlock runs a BEGIN or END action or a function-free rule body and
// turns control signals raised inside functions into control codes.
func (in *interp) runBlock(list []stmt) (c ctl) {
	defer func() {
		if r := recover(); r != nil {
			if sig, ok := r.(ctlSignal); ok {
				in.frame = nil
				in.depth = 0
				c = sig.c
				return
			}
			panic(r)
		}
	}()
	return in.execList(list)
}

// runItems runs the main rules on the current record.
func (in *interp) runItems() (c ctl) {
	defer func() {
		if r := recover(); r != nil {
			if sig, ok := r.(ctlSignal); ok {
				in.frame = nil
				in.depth = 0
				c = sig.c
				return
			}
			panic(r)
		}
	}()
	items := in.prog.items
	for i := range items {
		it := &items[i]
		matched := true
		switch {
		case it.pattern2 != nil:
			if in.rangeActive[it.rangeIdx] {
				if in.eval(it.pattern2).toBool() {
					in.rangeActive[it.rangeIdx] = false
				}
			} else if in.eval(it.pattern).toBool() {
				in.rangeActive[it.rangeIdx] = !in.eval(it.pattern2).toBool()
			} else {
				matched = false
			}
		case it.pattern != nil:
			matched = in.eval(it.pattern).toBool()
		}
		if !matched {
			continue
		}
		if it.noAction {
			in.pbuf = append(append(in.pbuf[:0], in.getRecord()...), in.ors...)
			in.write(in.out, in.pbuf)
			continue
		}
		switch c := in.execList(it.body); c {
		case ctlNext:
			return ctlNone
		case ctlNextFile, ctlExit:
			return c
		}
	}
	return ctlNone
}

// write writes to an output stream and aborts on failure.
func (in *interp) write(w io.Writer, p []byte) {
	if _, err := w.Write(p); err != nil {
		panic(&writeError{err})
	}
}

type writeError struct{ err error }
