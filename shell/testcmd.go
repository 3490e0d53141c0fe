package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/internal/ere"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/internal/expansion"
	"github.com/cordonhq/cordon/vfs"
)

// fileTest evaluates a unary file test operator on name.
func (r *runner) fileTest(op string, name string) bool {
	switch name {
	case "/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/zero", "/dev/tty":
		switch op {
		case "-e", "-c", "-r", "-w":
			return true
		}
		return false
	}
	if op == "-t" {
		return false
	}
	if name == "" {
		return false
	}
	if n, ok := devFd(name); ok {
		return r.fdTest(op, n)
	}
	switch op {
	case "-r":
		return r.sh.fs.Access(r.abs(name), vfs.ReadOK) == nil
	case "-w":
		return r.sh.fs.Access(r.abs(name), vfs.WriteOK) == nil
	case "-x":
		return r.sh.fs.Access(r.abs(name), vfs.ExecOK) == nil
	}
	fi, err := r.sh.fs.Stat(r.abs(name))
	if err != nil {
		return false
	}
	switch op {
	case "-e", "-a":
		return true
	case "-f":
		return !fi.IsDir()
	case "-d":
		return fi.IsDir()
	case "-s":
		return fi.Size() > 0
	case "-O", "-G":
		return true
	case "-N":
		return false
	}
	return false
}

// devFd returns N for a name /dev/fd/N.
func devFd(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "/dev/fd/")
	if !ok || rest == "" || len(rest) > 4 || strings.Trim(rest, "0123456789") != "" {
		return 0, false
	}
	n, _ := strconv.Atoi(rest)
	return n, true
}

// fdTest evaluates a file test on /dev/fd/N: the shell's descriptor N.
func (r *runner) fdTest(op string, n int) bool {
	d := r.fds[n]
	if d == nil {
		return false
	}
	switch op {
	case "-e", "-a":
		return true
	case "-r":
		return d.r != nil
	case "-w":
		return d.w != nil
	case "-p":
		return r.isProcSubstFd(n)
	}
	return false
}

// fileCompare implements -nt, -ot and -ef.
func (r *runner) fileCompare(op, a, b string) bool {
	fa, ea := r.sh.fs.Stat(r.abs(a))
	fb, eb := r.sh.fs.Stat(r.abs(b))
	switch op {
	case "-nt":
		if ea != nil {
			return false
		}
		return eb != nil || fa.ModTime().After(fb.ModTime())
	case "-ot":
		if eb != nil {
			return false
		}
		return ea != nil || fa.ModTime().Before(fb.ModTime())
	case "-ef":
		return ea == nil && eb == nil && r.abs(a) == r.abs(b)
	}
	return false
}

var _ fs.FileInfo

// errTestSyntax is a [ / test usage error (status 2).
type errTestSyntax string

// Error returns the message.
func (e errTestSyntax) Error() string { return string(e) }

// isUnaryTestOp reports whether s is a unary operator of test.
func isUnaryTestOp(s string) bool {
	switch s {
	case "-e", "-a", "-f", "-d", "-s", "-r", "-w", "-x", "-b", "-c", "-p", "-S", "-L", "-h", "-k", "-g", "-u", "-G", "-O", "-N", "-t", "-z", "-n", "-v", "-o", "-R":
		return true
	}
	return false
}

// isBinaryTestOp reports whether s is a binary operator of test.
func isBinaryTestOp(s string) bool {
	switch s {
	case "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

// testInt parses an integer operand of test.
func testInt(s string) (int64, error) {
	t := strings.TrimSpace(s)
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, errTestSyntax(s + ": integer expression expected")
	}
	return n, nil
}

// unaryTest evaluates a unary test operator.
func (r *runner) unaryTest(op, arg string) (bool, error) {
	switch op {
	case "-z":
		return arg == "", nil
	case "-n":
		return arg != "", nil
	case "-v":
		return r.varIsSet(arg), nil
	case "-o":
		return r.setOptOn(arg), nil
	case "-R":
		v, _ := r.isNameRef(arg)
		return v != "", nil
	case "-p":
		if n, ok := devFd(arg); ok {
			return r.fdTest(op, n), nil
		}
		return false, nil
	case "-L", "-h", "-b", "-S", "-k", "-g", "-u":
		return false, nil
	case "-c":
		return arg == "/dev/null" || arg == "/dev/zero" || arg == "/dev/tty", nil
	}
	return r.fileTest(op, arg), nil
}

// varIsSet implements -v, including name[index].
func (r *runner) varIsSet(arg string) bool {
	name, idx, hasIdx := strings.Cut(arg, "[")
	if !hasIdx {
		return envView{r}.Get(arg).IsSet()
	}
	idx = strings.TrimSuffix(idx, "]")
	v := envView{r}.Get(name)
	if !v.IsSet() {
		return false
	}
	switch v.Kind {
	case expand.Associative:
		_, ok := v.Map[idx]
		return ok
	case expand.Indexed:
		if idx == "@" || idx == "*" {
			return len(v.List) > 0
		}
		n, err := r.xp().ArithString(idx)
		if err != nil {
			return false
		}
		ix, _ := expansion.ArrayItems(v)
		if n < 0 && len(ix) > 0 {
			n += ix[len(ix)-1] + 1
		}
		for _, k := range ix {
			if k == n {
				return true
			}
		}
		return false
	}
	return idx == "0" || idx == "@" || idx == "*"
}

// binaryTest evaluates a binary test operator; arith makes -eq and friends
// evaluate their operands as arithmetic ([[ ]]).
func (r *runner) binaryTest(op, a, b string, arith bool) (bool, error) {
	switch op {
	case "=", "==":
		return a == b, nil
	case "!=":
		return a != b, nil
	case "<":
		return a < b, nil
	case ">":
		return a > b, nil
	case "-nt", "-ot", "-ef":
		return r.fileCompare(op, a, b), nil
	}
	var x, y int64
	if arith {
		xi, err := r.xp().ArithString(a)
		if err != nil {
			return false, err
		}
		yi, err := r.xp().ArithString(b)
		if err != nil {
			return false, err
		}
		x, y = int64(xi), int64(yi)
	} else {
		var err error
		if x, err = testInt(a); err != nil {
			return false, err
		}
		if y, err = testInt(b); err != nil {
			return false, err
		}
	}
	switch op {
	case "-eq":
		return x == y, nil
	case "-ne":
		return x != y, nil
	case "-lt":
		return x < y, nil
	case "-le":
		return x <= y, nil
	case "-gt":
		return x > y, nil
	case "-ge":
		return x >= y, nil
	}
	return false, errTestSyntax(op + ": binary operator expected")
}

// testParser evaluates the arguments of test / [.
type testParser struct {
	r    *runner
	args []string
	pos  int
}

// peek returns the current argument.
func (p *testParser) peek() (string, bool) {
	if p.pos < len(p.args) {
		return p.args[p.pos], true
	}
	return "", false
}

// orExpr parses expr -o expr.
func (p *testParser) orExpr() (bool, error) {
	v, err := p.andExpr()
	if err != nil {
		return false, err
	}
	for {
		t, ok := p.peek()
		if !ok || t != "-o" {
			return v, nil
		}
		p.pos++
		w, err := p.andExpr()
		if err != nil {
			return false, err
		}
		v = v || w
	}
}

// andExpr parses expr -a expr.
func (p *testParser) andExpr() (bool, error) {
	v, err := p.notExpr()
	if err != nil {
		return false, err
	}
	for {
		t, ok := p.peek()
		if !ok || t != "-a" {
			return v, nil
		}
		p.pos++
		w, err := p.notExpr()
		if err != nil {
			return false, err
		}
		v = v && w
	}
}

// notExpr parses ! expr.
func (p *testParser) notExpr() (bool, error) {
	t, ok := p.peek()
	if ok && t == "!" && p.pos+1 < len(p.args) {
		p.pos++
		v, err := p.notExpr()
		return !v, err
	}
	return p.primary()
}

// primary parses ( expr ), unary and binary tests and single strings.
func (p *testParser) primary() (bool, error) {
	t, ok := p.peek()
	if !ok {
		return false, errTestSyntax("argument expected")
	}
	if t == "(" {
		p.pos++
		v, err := p.orExpr()
		if err != nil {
			return false, err
		}
		if c, ok := p.peek(); !ok || c != ")" {
			return false, errTestSyntax("`)' expected")
		}
		p.pos++
		return v, nil
	}
	if p.pos+2 < len(p.args)+0 && isBinaryTestOp(p.args[p.pos+1]) {
		a, op, b := p.args[p.pos], p.args[p.pos+1], p.args[p.pos+2]
		p.pos += 3
		return p.r.binaryTest(op, a, b, false)
	}
	if isUnaryTestOp(t) && p.pos+1 < len(p.args) {
		p.pos += 2
		return p.r.unaryTest(t, p.args[p.pos-1])
	}
	p.pos++
	return t != "", nil
}

// eval evaluates the arguments with POSIX's rules by argument count.
func (p *testParser) eval() (bool, error) {
	a := p.args
	switch len(a) {
	case 0:
		return false, nil
	case 1:
		return a[0] != "", nil
	case 2:
		if a[0] == "!" {
			return a[1] == "", nil
		}
		if isUnaryTestOp(a[0]) {
			return p.r.unaryTest(a[0], a[1])
		}
		return false, errTestSyntax(a[0] + ": unary operator expected")
	case 3:
		if isBinaryTestOp(a[1]) {
			return p.r.binaryTest(a[1], a[0], a[2], false)
		}
		if a[1] == "-a" || a[1] == "-o" {
			break
		}
		if a[0] == "!" {
			q := &testParser{r: p.r, args: a[1:]}
			v, err := q.eval()
			return !v, err
		}
		if a[0] == "(" && a[2] == ")" {
			return a[1] != "", nil
		}
		return false, errTestSyntax(a[1] + ": binary operator expected")
	case 4:
		if a[0] == "!" {
			q := &testParser{r: p.r, args: a[1:]}
			v, err := q.eval()
			return !v, err
		}
		if a[0] == "(" && a[3] == ")" {
			q := &testParser{r: p.r, args: a[1:3]}
			return q.eval()
		}
	}
	v, err := p.orExpr()
	if err != nil {
		return false, err
	}
	if p.pos < len(p.args) {
		return false, errTestSyntax("too many arguments")
	}
	return v, nil
}

// testBuiltin implements test and [.
func testBuiltin(r *runner, args []string) int {
	name := args[0]
	a := args[1:]
	if name == "[" {
		if len(a) == 0 || a[len(a)-1] != "]" {
			return r.builtinErr(2, "[", "missing `]'")
		}
		a = a[:len(a)-1]
	}
	p := &testParser{r: r, args: a}
	ok, err := p.eval()
	if err != nil {
		r.builtinErr(2, name, "%s", err)
		return 2
	}
	return boolStatus(ok)
}

// testExpr evaluates a [[ ]] expression.
func (r *runner) testExpr(x syntax.TestExpr) (bool, error) {
	switch x := x.(type) {
	case *syntax.Word:
		s, ok := r.literal(x)
		if !ok {
			return false, errReported
		}
		if r.opts.xtrace {
			r.traceTest("-n " + xtraceQuote(s))
		}
		return s != "", nil
	case *syntax.ParenTest:
		r.testNot = false
		return r.testExpr(x.X)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			// bash traces [[ ! a == b ]], not [[ ! ( a == b ) ]]
			r.testNot = !r.testNot
			v, err := r.testExpr(x.X)
			r.testNot = false
			return !v, err
		}
		w, ok := x.X.(*syntax.Word)
		if !ok {
			return false, errors.New("unexpected test operand")
		}
		s, ok := r.literal(w)
		if !ok {
			return false, errReported
		}
		if r.opts.xtrace {
			r.traceTest(x.Op.String() + " " + xtraceQuote(s))
		}
		return r.unaryTest(x.Op.String(), s)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest, syntax.OrTest:
			r.testNot = false
		}
		switch x.Op {
		case syntax.AndTest:
			v, err := r.testExpr(x.X)
			if err != nil || !v {
				return false, err
			}
			return r.testExpr(x.Y)
		case syntax.OrTest:
			v, err := r.testExpr(x.X)
			if err != nil || v {
				return v, err
			}
			return r.testExpr(x.Y)
		}
		lw, _ := x.X.(*syntax.Word)
		rw, _ := x.Y.(*syntax.Word)
		if lw == nil || rw == nil {
			return false, errors.New("unexpected test operand")
		}
		left, ok := r.literal(lw)
		if !ok {
			return false, errReported
		}
		if r.opts.xtrace {
			right := wordSource(rw)
			if x.Op != syntax.TsReMatch && x.Op != syntax.TsMatch && x.Op != syntax.TsMatchShort && x.Op != syntax.TsNoMatch {
				right, _ = r.literal(rw)
				right = xtraceQuote(right)
			} else if pat, ok := r.pattern(rw); ok {
				right = pat
			}
			r.traceTest(xtraceQuote(left) + " " + x.Op.String() + " " + right)
		}
		switch x.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
			pat, ok := r.pattern(rw)
			if !ok {
				return false, errReported
			}
			m := r.match(pat, left, true)
			if x.Op == syntax.TsNoMatch {
				return !m, nil
			}
			return m, nil
		case syntax.TsReMatch:
			return r.regexMatch(left, rw)
		}
		right, ok := r.literal(rw)
		if !ok {
			return false, errReported
		}
		return r.binaryTest(x.Op.String(), left, right, true)
	}
	return false, fmt.Errorf("unsupported test expression %T", x)
}

// regexMatch implements [[ s =~ re ]]: quoted parts of re match literally.
func (r *runner) regexMatch(s string, w *syntax.Word) (bool, error) {
	var b strings.Builder
	for _, part := range w.Parts {
		lit, ok := r.literal(&syntax.Word{Parts: []syntax.WordPart{part}})
		if !ok {
			return false, errReported
		}
		switch part.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			b.WriteString(regexp.QuoteMeta(lit))
		case *syntax.Lit:
			b.WriteString(lit)
		default:
			b.WriteString(lit)
		}
	}
	// bash compiles the pattern with regcomp(REG_EXTENDED): a POSIX ERE,
	// in which "." matches a newline and a repetition of nothing is an
	// error.
	expr, err := ere.Translate(b.String(), ere.Syntax{Extended: true, DotNL: true, StrictRepeat: true, ICase: r.opts.nocasematch})
	if err != nil {
		return false, errReported
	}
	re, err := expansion.CompileRegexp(expr, true)
	if err != nil {
		return false, errReported
	}
	m := re.FindStringSubmatch(s)
	if m == nil {
		r.unsetVar("BASH_REMATCH")
		v := r.varFor("BASH_REMATCH", false)
		v.Variable = expansion.MakeIndexed(nil, nil)
		return false, nil
	}
	idx := make([]int, len(m))
	for i := range idx {
		idx[i] = i
	}
	v := r.varFor("BASH_REMATCH", false)
	v.Variable = expansion.MakeIndexed(idx, m)
	return true, nil
}

var _ = pattern.Regexp
