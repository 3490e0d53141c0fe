package awk

import (
	"fmt"
	"strings"

	"github.com/cordonhq/cordon/shell/internal/escape"
)

// tokKind is the kind of a lexical token.
type tokKind int

const (
	tEOF tokKind = iota
	tNewline
	tLbrace
	tRbrace
	tLparen
	tRparen
	tLbracket
	tRbracket
	tSemi
	tComma
	tAdd
	tSub
	tMul
	tDiv
	tMod
	tPow
	tNot
	tGT
	tLT
	tGE
	tLE
	tEQ
	tNE
	tMatch
	tNoMatch
	tAnd
	tOr
	tQuestion
	tColon
	tAssign
	tAddAssign
	tSubAssign
	tMulAssign
	tDivAssign
	tModAssign
	tPowAssign
	tIncr
	tDecr
	tDollar
	tAppend
	tPipe
	tNumber
	tString
	tRegex
	tName
	tFuncName
	tBuiltin
	tBEGIN
	tEND
	tFunction
	tGetline
	tIf
	tElse
	tWhile
	tFor
	tDo
	tBreak
	tContinue
	tNext
	tNextfile
	tExit
	tReturn
	tDelete
	tIn
	tPrint
	tPrintf
)

var keywords = map[string]tokKind{
	"BEGIN": tBEGIN, "END": tEND, "function": tFunction, "func": tFunction,
	"getline": tGetline, "if": tIf, "else": tElse, "while": tWhile, "for": tFor,
	"do": tDo, "break": tBreak, "continue": tContinue, "next": tNext,
	"nextfile": tNextfile, "exit": tExit, "return": tReturn, "delete": tDelete,
	"in": tIn, "print": tPrint, "printf": tPrintf,
}

// Builtin function identifiers.
const (
	bLength = iota
	bSubstr
	bIndex
	bSplit
	bSub
	bGsub
	bMatch
	bSprintf
	bSin
	bCos
	bAtan2
	bExp
	bLog
	bSqrt
	bInt
	bRand
	bSrand
	bTolower
	bToupper
	bSystem
	bClose
	bFflush
	bGensub
	bAnd
	bOr
	bXor
	bLshift
	bRshift
	bCompl
	bStrftime
	bSystime
	bMktime
	bAsort
	bAsorti
)

var builtins = map[string]int{
	"length": bLength, "substr": bSubstr, "index": bIndex, "split": bSplit,
	"sub": bSub, "gsub": bGsub, "match": bMatch, "sprintf": bSprintf,
	"sin": bSin, "cos": bCos, "atan2": bAtan2, "exp": bExp, "log": bLog,
	"sqrt": bSqrt, "int": bInt, "rand": bRand, "srand": bSrand,
	"tolower": bTolower, "toupper": bToupper, "system": bSystem,
	"close": bClose, "fflush": bFflush,
	// gawk's
	"gensub": bGensub, "and": bAnd, "or": bOr, "xor": bXor, "lshift": bLshift,
	"rshift": bRshift, "compl": bCompl, "strftime": bStrftime, "systime": bSystime,
	"mktime": bMktime, "asort": bAsort, "asorti": bAsorti,
}

// token is one lexical token.
type token struct {
	kind tokKind
	s    string  // text: name, string value, regex source, operator
	n    float64 // tNumber's value
	b    int     // tBuiltin's function
	line int
	col  int // byte offset of the token in its line
}

// SyntaxError is a compile-time error in an AWK program.
type SyntaxError struct {
	File string // the -f program file of the error; "" for a command-line program
	Line int    // 1-based line of the error, in File when File is set
	Msg  string // the message, e.g. "syntax error at or near }"
	Text string // the source line, for the context display
	Col  int    // byte offset of the error in Text; -1 for the whole line

	end      int      // byte offset in Text where the offending token ends
	inAction bool     // the error is inside a braced action
	notes    []string // unbalanced brackets, as "extra )" or "missing }"
	warnings []string // the compiler's warnings before the error
}

// Error returns the message in mawk's style, "line 1: syntax error at or
// near }", or "prog.awk: line 1: ..." for an error in a program file.
func (e *SyntaxError) Error() string {
	return e.where() + fmt.Sprintf(": %s", e.Msg)
}

// where is the location of the error: "line 1" or "prog.awk: line 1".
func (e *SyntaxError) where() string {
	if e.File != "" {
		return fmt.Sprintf("%s: line %d", e.File, e.Line)
	}
	return fmt.Sprintf("line %d", e.Line)
}

type lexer struct {
	src       string
	pos       int
	line      int
	lineStart int
	last      tokKind // kind of the previous token, for regex detection
	toks      []token
}

// lex splits src into tokens.
func lex(src string) ([]token, error) {
	lx := &lexer{src: src, line: 1, last: tNewline}
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		lx.toks = append(lx.toks, t)
		lx.last = t.kind
		if t.kind == tEOF {
			return lx.toks, nil
		}
	}
}

func (lx *lexer) errorf(format string, args ...any) error {
	col := lx.pos - lx.lineStart
	depth := 0
	for _, t := range lx.toks {
		switch t.kind {
		case tLbrace:
			depth++
		case tRbrace:
			depth--
		}
	}
	return &SyntaxError{Line: lx.line, Msg: fmt.Sprintf(format, args...), Text: lineText(lx.src, lx.lineStart), Col: col, end: col + 1, inAction: depth > 0, notes: bracketNotes(lx.toks)}
}

// lineText returns the source line starting at offset start.
func lineText(src string, start int) string {
	if start > len(src) {
		return ""
	}
	s := src[start:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// regexAllowed reports whether a '/' after a token of kind k starts a
// regular expression rather than a division.
func regexAllowed(k tokKind) bool {
	switch k {
	case tName, tNumber, tString, tRparen, tRbracket, tBuiltin, tIncr, tDecr, tDollar, tRegex, tFuncName:
		return false
	}
	return true
}

func (lx *lexer) next() (token, error) {
	src := lx.src
	// Skip blanks, comments and line continuations.
	for lx.pos < len(src) {
		c := src[lx.pos]
		if c == ' ' || c == '\t' || c == '\r' {
			lx.pos++
		} else if c == '\\' && lx.pos+1 < len(src) && src[lx.pos+1] == '\n' {
			lx.pos += 2
			lx.line++
			lx.lineStart = lx.pos
		} else if c == '\\' && lx.pos+2 < len(src) && src[lx.pos+1] == '\r' && src[lx.pos+2] == '\n' {
			lx.pos += 3
			lx.line++
			lx.lineStart = lx.pos
		} else if c == '#' {
			for lx.pos < len(src) && src[lx.pos] != '\n' {
				lx.pos++
			}
		} else {
			break
		}
	}
	t := token{line: lx.line, col: lx.pos - lx.lineStart}
	if lx.pos >= len(src) {
		t.kind = tEOF
		return t, nil
	}
	c := src[lx.pos]
	start := lx.pos
	lx.pos++
	two := func(next byte, k2, k1 tokKind) tokKind {
		if lx.pos < len(src) && src[lx.pos] == next {
			lx.pos++
			return k2
		}
		return k1
	}
	switch c {
	case '\n':
		t.kind = tNewline
		lx.line++
		lx.lineStart = lx.pos
	case '{':
		t.kind = tLbrace
	case '}':
		t.kind = tRbrace
	case '(':
		t.kind = tLparen
	case ')':
		t.kind = tRparen
	case '[':
		t.kind = tLbracket
	case ']':
		t.kind = tRbracket
	case ';':
		t.kind = tSemi
	case ',':
		t.kind = tComma
	case '?':
		t.kind = tQuestion
	case ':':
		t.kind = tColon
	case '$':
		t.kind = tDollar
	case '~':
		t.kind = tMatch
	case '+':
		if lx.pos < len(src) && src[lx.pos] == '+' {
			lx.pos++
			t.kind = tIncr
		} else {
			t.kind = two('=', tAddAssign, tAdd)
		}
	case '-':
		if lx.pos < len(src) && src[lx.pos] == '-' {
			lx.pos++
			t.kind = tDecr
		} else {
			t.kind = two('=', tSubAssign, tSub)
		}
	case '*':
		if lx.pos < len(src) && src[lx.pos] == '*' {
			lx.pos++
			t.kind = two('=', tPowAssign, tPow)
		} else {
			t.kind = two('=', tMulAssign, tMul)
		}
	case '%':
		t.kind = two('=', tModAssign, tMod)
	case '^':
		t.kind = two('=', tPowAssign, tPow)
	case '=':
		t.kind = two('=', tEQ, tAssign)
	case '!':
		if lx.pos < len(src) && src[lx.pos] == '~' {
			lx.pos++
			t.kind = tNoMatch
		} else {
			t.kind = two('=', tNE, tNot)
		}
	case '<':
		t.kind = two('=', tLE, tLT)
	case '>':
		if lx.pos < len(src) && src[lx.pos] == '>' {
			lx.pos++
			t.kind = tAppend
		} else {
			t.kind = two('=', tGE, tGT)
		}
	case '&':
		if lx.pos < len(src) && src[lx.pos] == '&' {
			lx.pos++
			t.kind = tAnd
		} else {
			lx.pos--
			return t, lx.errorf("syntax error at or near &")
		}
	case '|':
		t.kind = two('|', tOr, tPipe)
	case '"':
		s, err := lx.lexString()
		if err != nil {
			return t, err
		}
		t.kind, t.s = tString, s
	case '/':
		if regexAllowed(lx.last) {
			s, err := lx.lexRegex()
			if err != nil {
				return t, err
			}
			t.kind, t.s = tRegex, s
		} else {
			t.kind = two('=', tDivAssign, tDiv)
		}
	default:
		switch {
		case c >= '0' && c <= '9' || c == '.' && lx.pos < len(src) && src[lx.pos] >= '0' && src[lx.pos] <= '9':
			n := numPrefix(src, start)
			lx.pos = start + n
			t.kind, t.n, t.s = tNumber, parseNum(src[start:lx.pos]), src[start:lx.pos]
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			for lx.pos < len(src) && isNameByte(src[lx.pos]) {
				lx.pos++
			}
			name := src[start:lx.pos]
			t.s = name
			if k, ok := keywords[name]; ok {
				t.kind = k
			} else if b, ok := builtins[name]; ok {
				t.kind, t.b = tBuiltin, b
			} else if lx.pos < len(src) && src[lx.pos] == '(' {
				t.kind = tFuncName
			} else {
				t.kind = tName
			}
		default:
			lx.pos--
			return t, lx.errorf("syntax error at or near %s", string(c))
		}
	}
	if t.s == "" && t.kind != tString && t.kind != tRegex {
		t.s = src[start:lx.pos]
	}
	return t, nil
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// lexString reads a string literal after its opening quote and processes
// its escape sequences.
func (lx *lexer) lexString() (string, error) {
	src := lx.src
	var b strings.Builder
	for {
		if lx.pos >= len(src) || src[lx.pos] == '\n' {
			return "", lx.errorf("non-terminated string \"%s...", truncate(b.String(), 10))
		}
		c := src[lx.pos]
		lx.pos++
		if c == '"' {
			return b.String(), nil
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if lx.pos >= len(src) {
			b.WriteByte('\\')
			continue
		}
		d := src[lx.pos]
		if d == '\n' {
			lx.pos++
			lx.line++
			lx.lineStart = lx.pos
			continue
		}
		n := unescape(src[lx.pos:], &b)
		lx.pos += n
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// unescape decodes the escape sequence at the start of s (just after a
// backslash) into b and returns how many bytes it used.
func unescape(s string, b *strings.Builder) int {
	var buf [2]byte
	out, next, _ := escape.Append(escape.AWK, buf[:0], `\`+s[:min(len(s), 3)], 0)
	b.Write(out)
	return next - 1
}

// lexRegex reads a regex literal after its opening slash. It keeps escape
// sequences for the regex translator except "\/", which becomes "/".
func (lx *lexer) lexRegex() (string, error) {
	src := lx.src
	var b strings.Builder
	inBracket := false
	for {
		if lx.pos >= len(src) || src[lx.pos] == '\n' {
			if inBracket {
				return "", lx.errorf("nonterminated character class in regular expression /%s...", truncate(b.String(), 10))
			}
			return "", lx.errorf("non-terminated regular expression /%s...", truncate(b.String(), 10))
		}
		c := src[lx.pos]
		lx.pos++
		switch {
		case c == '\\' && lx.pos < len(src):
			d := src[lx.pos]
			lx.pos++
			if d == '/' {
				b.WriteByte('/')
			} else if d == '\n' {
				lx.line++
				lx.lineStart = lx.pos
			} else {
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		case c == '[' && !inBracket:
			inBracket = true
			b.WriteByte(c)
			// A ']' right after '[' or '[^' is a literal member.
			if lx.pos < len(src) && src[lx.pos] == '^' {
				b.WriteByte('^')
				lx.pos++
			}
			if lx.pos < len(src) && src[lx.pos] == ']' {
				b.WriteByte(']')
				lx.pos++
			}
		case c == '[' && inBracket && lx.pos < len(src) && (src[lx.pos] == ':' || src[lx.pos] == '.' || src[lx.pos] == '='):
			// A character class such as [:alpha:] inside a bracket.
			end := strings.Index(src[lx.pos+1:], string(src[lx.pos])+"]")
			if end < 0 || strings.IndexByte(src[lx.pos:lx.pos+1+end], '\n') >= 0 {
				b.WriteByte(c)
				continue
			}
			b.WriteString(src[lx.pos-1 : lx.pos+1+end+2])
			lx.pos += 1 + end + 2
		case c == ']' && inBracket:
			inBracket = false
			b.WriteByte(c)
		case c == '/' && !inBracket:
			return b.String(), nil
		default:
			b.WriteByte(c)
		}
	}
}
