package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// This file writes the set -x trace in bash's format: PS4 expanded, its
// first character repeated once per level of command substitution, eval
// and source, then the command with each word quoted as bash quotes it.

// traceOut is where set -x writes.
func (r *runner) traceOut() io.Writer {
	if r.traceW != nil {
		return r.traceW
	}
	return r.stderr()
}

// ps4 returns the xtrace prefix: PS4 expanded (parameters, command
// substitution, arithmetic), with its first character repeated once more
// per level of indirection, as bash does.
func (r *runner) ps4() string {
	p := "+ "
	if v, _ := r.lookup("PS4"); v != nil {
		p = v.String()
	}
	if strings.ContainsAny(p, "$`\\") && !r.inPS4 {
		// expand's LINENO is the line in the text expanded
		if strings.Contains(p, "LINENO") {
			n := strconv.Itoa(r.lineno)
			p = strings.ReplaceAll(strings.ReplaceAll(p, "${LINENO}", n), "$LINENO", n)
		}
		r.inPS4 = true
		if w, err := expansion.NewParser().Document(strings.NewReader(p)); err == nil {
			if s, err := r.xp().Document(w); err == nil {
				p = s
			}
		}
		r.inPS4 = false
	}
	if level := r.substLevel + r.evalLevel; p != "" && level > 0 {
		_, size := utf8.DecodeRuneInString(p)
		p = strings.Repeat(p[:size], level) + p
	}
	return p
}

// traceText writes one raw xtrace line.
func (r *runner) traceText(s string) {
	if r.inPS4 {
		return
	}
	prefix := r.ps4()
	fmt.Fprintf(r.traceOut(), "%s%s\n", prefix, s)
}

// trace prints a command for set -x.
func (r *runner) trace(args []string) {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = xtraceQuote(a)
	}
	r.traceText(strings.Join(q, " "))
}

// traceAssigns prints the assignments before a command for set -x, once
// they are made.
func (r *runner) traceAssigns(as []*syntax.Assign) {
	for _, a := range as {
		if a.Name == nil {
			continue
		}
		r.traceAssign(a, r.getVar(a.Name.Value))
	}
}

// traceAssign prints one assignment whose value expanded to val: name=val,
// name+=val, name[i]=val or name=(words as written).
func (r *runner) traceAssign(as *syntax.Assign, val string) {
	if as.Name == nil {
		return
	}
	var b strings.Builder
	b.WriteString(as.Name.Value)
	if as.Index != nil {
		b.WriteString("[" + wordSourceNode(as.Index) + "]")
	}
	if as.Append {
		b.WriteByte('+')
	}
	b.WriteByte('=')
	switch {
	case as.Array != nil:
		b.WriteByte('(')
		for i, el := range as.Array.Elems {
			if i > 0 {
				b.WriteByte(' ')
			}
			if el.Index != nil {
				b.WriteString("[" + wordSourceNode(el.Index) + "]=")
			}
			if el.Value != nil {
				b.WriteString(wordSource(el.Value))
			}
		}
		b.WriteByte(')')
	case val != "":
		b.WriteString(xtraceQuote(val))
	}
	r.traceText(b.String())
}

// traceAssignStmt traces an assignment statement about to be made, when
// set -x is on and the statement is traced that way.
func (r *runner) traceAssignStmt(as *syntax.Assign, val string) {
	if r.assignTrace && r.opts.xtrace {
		r.traceAssign(as, val)
	}
}

// traceArith prints an arithmetic command, for loop part or the like as
// "(( text ))", text being its source with the expansions done, as bash
// prints it.
func (r *runner) traceArith(text string) {
	if strings.ContainsAny(text, "$`") {
		if w, err := expansion.NewParser().Document(strings.NewReader(text)); err == nil {
			if s, err := r.xp().Document(w); err == nil {
				text = s
			}
		}
	}
	r.traceText("(( " + text + " ))")
}

// arithCmdText returns the text between (( and )) as written.
func (r *runner) arithCmdText(c *syntax.ArithmCmd) string {
	a, b := int(c.Left.Offset())+2, int(c.Right.Offset())
	src := r.curSrc
	if a <= b && b+2 <= len(src) && src[a-2:a] == "((" && src[b:b+2] == "))" {
		return src[a:b]
	}
	return " " + wordSourceNode(c.X) + " "
}

// loopPartText returns a part of for (( ; ; )) as bash traces it: its
// text as written, with the blanks after it; "1" for an empty part.
func (r *runner) loopPartText(x syntax.ArithmExpr) string {
	if x == nil {
		return "1"
	}
	a, b := int(x.Pos().Offset()), int(x.End().Offset())
	src := r.curSrc
	if a >= b || b > len(src) || src[a:b] != strings.TrimSpace(src[a:b]) {
		return wordSourceNode(x)
	}
	for b < len(src) && (src[b] == ' ' || src[b] == '\t') {
		b++
	}
	return src[a:b]
}

// xtraceQuote quotes a word the way bash's set -x prints it: in single
// quotes when it holds a character special to the shell, as $'...' when
// it holds other control characters, as is otherwise.
func xtraceQuote(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}',
			'*', '[', '?', ']', '^', '$', '`':
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
			}
		case '#':
			if i == 0 {
				return "'" + s + "'"
			}
		}
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return ansiQuote(s)
		}
	}
	return s
}

// ansiQuote quotes s as $'...' with octal escapes for control characters.
func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\a':
			b.WriteString(`\a`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\v':
			b.WriteString(`\v`)
		case c == 0x1b:
			b.WriteString(`\E`)
		case c == '\'' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			b.WriteString(`\` + fmt.Sprintf("%03s", strconv.FormatInt(int64(c), 8)))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// forInText is the trace of one iteration of for NAME in WORDS: the
// words as written.
func forInText(l *syntax.WordIter) string {
	if !l.InPos.IsValid() {
		return "for " + l.Name.Value + ` in "$@"`
	}
	var b strings.Builder
	b.WriteString("for " + l.Name.Value + " in")
	for _, w := range l.Items {
		b.WriteString(" " + wordSource(w))
	}
	return b.String()
}

// traceLet traces let's arguments; it reports false after an expansion
// error.
func (r *runner) traceLet(c *syntax.LetClause) bool {
	args := []string{"let"}
	for _, e := range c.Exprs {
		if w, ok := e.(*syntax.Word); ok {
			s, ok := r.literal(w)
			if !ok {
				return false
			}
			args = append(args, s)
			continue
		}
		args = append(args, wordSourceNode(e))
	}
	r.trace(args)
	return true
}

// traceTest traces one test of [[ ]], with the ! that negates it.
func (r *runner) traceTest(s string) {
	if r.testNot {
		s = "! " + s
		r.testNot = false
	}
	r.traceText("[[ " + s + " ]]")
}

// traceDeclArray traces the compound value of an array that declare,
// local and the like assign: each element expanded in single quotes.
func (r *runner) traceDeclArray(as *syntax.Assign) {
	var b strings.Builder
	b.WriteString(as.Name.Value + "=(")
	for i, el := range as.Array.Elems {
		if i > 0 {
			b.WriteByte(' ')
		}
		if el.Index != nil {
			k := wordSourceNode(el.Index)
			if w, ok := el.Index.(*syntax.Word); ok {
				if s, ok := r.literal(w); ok {
					k = s
				}
			}
			b.WriteString("[" + singleQuote(k) + "]=")
		}
		if el.Value != nil {
			v, _ := r.literal(el.Value)
			b.WriteString(singleQuote(v))
		}
	}
	b.WriteByte(')')
	r.traceText(b.String())
}

// singleQuote quotes s in single quotes.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// traceDeclAssigns traces the assignments of export and readonly, which
// bash prints after the command.
func (r *runner) traceDeclAssigns(items []declItem) {
	for _, it := range items {
		if it.as == nil || it.as.Naked || it.as.Array != nil {
			continue
		}
		v := ""
		if it.as.Value != nil {
			v, _ = r.literal(it.as.Value)
		}
		if v != "" {
			v = xtraceQuote(v)
		}
		r.traceText(it.name + "=" + v)
	}
}
