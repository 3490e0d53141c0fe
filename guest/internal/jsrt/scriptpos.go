package jsrt

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dop251/goja"
	jsast "github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/go-sourcemap/sourcemap"
)

// A script is compiled inside a wrapper (scriptPrefix ... scriptSuffix),
// which starts on the script's first line so that line numbers match. That
// leaves two places where goja's positions are the wrapper's, not the
// script's: columns on the first line are wrapperShift bytes too far, and
// an error at the end of the script lands in the suffix, a line below the
// last. This file puts both back: a source map on the compiled file for
// the first line (which goja applies to every position it reports: stack
// frames, Error.stack, compile errors), and syntaxError for parse errors.

// wrapperShift is how far the prefix moves the script's first line.
const wrapperShift = len(scriptPrefix)

// maxMappedColumns bounds the columns of the first line that the source
// map covers (one entry each): past it, a one-line script of that size
// shows columns wrapperShift too far.
const maxMappedColumns = 8192

// firstLineMap returns a source map that moves the positions on the
// script's first line back by wrapperShift, or nil when there is nothing
// to map or the name would not survive it: goja names a mapped position by
// resolving the map's source against the file name as a URL
// (file.ResolveSourcemapURL), which changes a name with characters a URL
// escapes ("<", a space). Such names keep the wrapper's columns on line 1.
//
// A map depends only on the name and how many columns it covers, and
// goja only reads it, so maps are shared: one per name and size (32
// columns times a power of four), which covers every shorter first line
// too. Parsing one of 128 columns costs about as much as compiling a short
// script.
func firstLineMap(filename, code string) *sourcemap.Consumer {
	n := strings.IndexByte(code, '\n')
	if n < 0 {
		n = len(code)
	}
	if n == 0 {
		return nil
	}
	cols := 32
	for cols < n && cols < maxMappedColumns {
		cols *= 4
	}
	cols = min(cols, maxMappedColumns)
	key := lineMapKey{filename, cols}
	lineMaps.mu.Lock()
	defer lineMaps.mu.Unlock()
	if m, ok := lineMaps.m[key]; ok {
		return m
	}
	m := newFirstLineMap(filename, cols)
	if lineMaps.m == nil || len(lineMaps.m) >= maxLineMaps {
		lineMaps.m = map[lineMapKey]*sourcemap.Consumer{}
	}
	lineMaps.m[key] = m // nil too: the name cannot be mapped
	return m
}

// maxLineMaps bounds the shared maps (firstLineMap); past it they are all
// dropped, to be made again as needed.
const maxLineMaps = 16

type lineMapKey struct {
	name string
	cols int
}

var lineMaps struct {
	mu sync.Mutex
	m  map[lineMapKey]*sourcemap.Consumer
}

// newFirstLineMap makes firstLineMap's map of cols columns.
func newFirstLineMap(filename string, cols int) *sourcemap.Consumer {
	source := ""
	for _, s := range []string{path.Base(filename), filename} {
		if u := file.ResolveSourcemapURL(filename, s); u != nil && u.String() == filename {
			source = s
			break
		}
	}
	if source == "" {
		return nil
	}
	// Each segment maps one column of generated line 1 (goja counts
	// columns from 1) to the same line of the script: the first from
	// wrapperShift+1 to 1, each next one a column further on both sides.
	var b strings.Builder
	b.Grow(64 + len(source) + 5*cols)
	b.WriteString(`{"version":3,"sources":[`)
	b.WriteString(strconv.Quote(source)) // JSON reads it: a name has no control characters
	b.WriteString(`],"names":[],"mappings":"`)
	b.WriteString(vlq(wrapperShift + 1))
	b.WriteString("AA") // source 0, line 1
	b.WriteString(vlq(1))
	for i := 1; i < cols; i++ {
		b.WriteString(",CAAC")
	}
	b.WriteString(`"}`)
	m, err := sourcemap.Parse("", []byte(b.String()))
	if err != nil {
		return nil
	}
	return m
}

// vlq is n in the source map's base64 VLQ.
func vlq(n int) string {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	v := n << 1 // the sign bit: n >= 0
	var b []byte
	for {
		d := v & 31
		v >>= 5
		if v > 0 {
			d |= 32
		}
		b = append(b, digits[d])
		if v == 0 {
			return string(b)
		}
	}
}

// syntaxError is a script that does not compile, at a position in the
// script (line and column from 1; line 0 when unknown).
type syntaxError struct {
	name      string
	line, col int
	text      string // the line, as written
	msg       string
}

func (e *syntaxError) Error() string { return e.summary() }

// summary is the one-line form: "SyntaxError: Unexpected token ; (a.js:2:11)".
func (e *syntaxError) summary() string {
	if e.line == 0 {
		return "SyntaxError: " + e.msg + " (" + e.name + ")"
	}
	return fmt.Sprintf("SyntaxError: %s (%s:%d:%d)", e.msg, e.name, e.line, e.col)
}

// report is what stderr shows, as Node does: where, the line, a caret
// under the column, and the error.
//
//	a.js:2
//	const b = ;
//	          ^
//
//	SyntaxError: Unexpected token ;
func (e *syntaxError) report() string {
	if e.line == 0 {
		return e.summary()
	}
	line, col := clipLine(e.text, e.col)
	var caret strings.Builder
	for _, r := range line[:col] {
		if r == '\t' {
			caret.WriteByte('\t')
		} else {
			caret.WriteByte(' ')
		}
	}
	caret.WriteByte('^')
	return fmt.Sprintf("%s:%d\n%s\n%s\n\nSyntaxError: %s", e.name, e.line, line, caret.String(), e.msg)
}

// clipLine returns at most about 160 characters of line around the byte
// column col (from 1), and the caret's byte offset in what it returns.
func clipLine(line string, col int) (string, int) {
	const side = 80
	at := min(max(col-1, 0), len(line))
	for at > 0 && at < len(line) && !utf8.RuneStart(line[at]) {
		at--
	}
	start, end := at, at
	for i := 0; i < side && start > 0; i++ {
		_, n := utf8.DecodeLastRuneInString(line[:start])
		start -= n
	}
	for i := 0; i < side && end < len(line); i++ {
		_, n := utf8.DecodeRuneInString(line[end:])
		end += n
	}
	out, caret := line[start:end], at-start
	if start > 0 {
		out, caret = "..."+out, caret+3
	}
	if end < len(line) {
		out += "..."
	}
	return out, caret
}

// scriptSyntaxError turns an error of compiling src, the wrapped code,
// into one at the script's own position, or returns err when it is not
// about the script's syntax.
func scriptSyntaxError(filename, code, src string, err error) error {
	var list parser.ErrorList
	var ce *goja.CompilerSyntaxError
	switch {
	case errors.As(err, &list) && len(list) > 0:
		// The parser's positions are the wrapped code's.
		p := list[0].Position
		return atScriptPosition(filename, code, p.Line, p.Column, list[0].Message)
	case errors.As(err, &ce) && ce.File != nil && ce.Offset >= 0 && ce.Offset <= len(src):
		line, col := rawPosition(src, ce.Offset)
		return atScriptPosition(filename, code, line, col, ce.Message)
	}
	return err
}

// rawPosition is the line and column (from 1) of a byte offset in src.
func rawPosition(src string, offset int) (line, col int) {
	before := src[:offset]
	return strings.Count(before, "\n") + 1, offset - (strings.LastIndexByte(before, '\n') + 1) + 1
}

// atScriptPosition makes the syntax error msg at line and col of the
// wrapped code an error at the script's own position. A position past the
// script's end (in the suffix) means that the script ended too early.
func atScriptPosition(filename, code string, line, col int, msg string) *syntaxError {
	lines := strings.Split(code, "\n")
	if line == 1 {
		col -= wrapperShift
	}
	last := len(lines)
	if line < 1 || line > last || line == last && col > len(lines[last-1])+1 {
		line, col, msg = last, len(lines[last-1])+1, "Unexpected end of input"
	}
	return &syntaxError{name: filename, line: line, col: max(col, 1), text: strings.TrimSuffix(lines[line-1], "\r"), msg: msg}
}

// wrapperEscape is the error of a script that closes the wrapper early:
// the brace that closes it is the script's own.
func wrapperEscape(filename, code, src string, prog *jsast.Program) *syntaxError {
	const msg = "Unexpected token '}'"
	if len(prog.Body) > 0 {
		if st, ok := prog.Body[0].(*jsast.ExpressionStatement); ok {
			if fn := leftmostFunction(st.Expression); fn != nil && fn.Body != nil {
				if off := int(fn.Body.RightBrace) - 1; off >= 0 && off < len(src) {
					line, col := rawPosition(src, off)
					return atScriptPosition(filename, code, line, col, msg)
				}
			}
		}
	}
	return &syntaxError{name: filename, msg: msg}
}

// leftmostFunction returns the function literal an expression starts with:
// the wrapper's, when a script closed it early and wrote more after it.
func leftmostFunction(e jsast.Expression) *jsast.FunctionLiteral {
	for depth := 0; depth < 64 && e != nil; depth++ {
		switch x := e.(type) {
		case *jsast.FunctionLiteral:
			return x
		case *jsast.SequenceExpression:
			if len(x.Sequence) == 0 {
				return nil
			}
			e = x.Sequence[0]
		case *jsast.CallExpression:
			e = x.Callee
		case *jsast.BinaryExpression:
			e = x.Left
		case *jsast.AssignExpression:
			e = x.Left
		case *jsast.DotExpression:
			e = x.Left
		case *jsast.BracketExpression:
			e = x.Left
		case *jsast.ConditionalExpression:
			e = x.Test
		default:
			return nil
		}
	}
	return nil
}
