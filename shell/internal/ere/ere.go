// Package ere translates POSIX regular expressions, in the dialects of
// GNU grep, GNU sed and awk, to Go's RE2 syntax. It is the one translation
// that grep, sed and awk share, so that they agree on every edge case of
// the syntax:
//
//   - an unmatched ")" is a literal in an ERE (a "\)" without "\(" is an
//     error in a BRE);
//   - "{" that does not start a valid interval ("a{", "a{x}", "a{1") is a
//     literal in an ERE, and so is an interval with nothing to repeat;
//   - "*", "+", "?" with nothing to repeat (at the start, after "(", "|"
//     or "^") are literals; stacked repetitions ("a**", "a+*", "a{2}{3}")
//     repeat the repetition;
//   - "]" first in a bracket ("[]a]", "[^]a]") is a member; character
//     classes ("[[:alpha:]]"), equivalence classes and collating symbols of
//     one character are supported; a reversed range is an error;
//   - GNU's \w \W \s \S \b \B \` \' (and awk's \y); "\<" and "\>" are
//     approximated by a word boundary (RE2 has no look-ahead);
//   - back-references are refused (RE2 has none), unless Syntax.Backrefs
//     asks for them, for sed's backtracking matcher (sed.go).
//
// Escapes differ between the tools as they do in GNU's: in grep an escaped
// ordinary character is the character ("\n" is "n"); sed adds \n \t \a \f
// \v \r \cX \dNNN \oNNN \xHH; awk adds the escapes of its strings (\n \t
// \/ \" \ddd \xHH ...), also inside brackets, where it takes "\]" and "\\"
// as escapes while grep and sed take a backslash there literally.
//
// Errors carry GNU's messages ("Unmatched ( or \\(", "Invalid range end").
package ere

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/internal/escape"
)

// Syntax selects the dialect of a pattern.
type Syntax struct {
	// Extended selects ERE syntax (grep -E, sed -E, awk) over BRE.
	Extended bool
	// DotNL makes "." and negated brackets match a newline (sed's pattern
	// space, awk's strings); grep's lines never hold one.
	DotNL bool
	// ICase ignores case.
	ICase bool
	// Sed enables GNU sed's escapes: \n \t \a \f \v \r \cX \dNNN \oNNN
	// \xHH.
	Sed bool
	// AWK enables awk's escapes (those of its string literals) inside and
	// outside brackets, and \y; \1 to \7 are octal escapes, not
	// back-references.
	AWK bool
	// StrictRepeat makes a repetition ("*", "+", "?" or an interval) with
	// nothing to repeat an error, as glibc's regcomp has it (bash's
	// [[ =~ ]]), where grep, sed and awk take it as a literal.
	StrictRepeat bool
	// NotBOL makes "^" match nowhere, as REG_NOTBOL does: for matching
	// text that does not start at the beginning of its input (awk's RS).
	NotBOL bool
	// Backrefs makes \1 to \9 back-references, written as \N for a
	// backtracking matcher (regexp2), where RE2 has none (see HasBackref).
	Backrefs bool
	// NoGNU turns off GNU's regex operators (\+ \? \| \w \W \s \S \b
	// \B \< \> \` \'), which then stand for the character, as with
	// RE_NO_GNU_OPS (sed --posix).
	NoGNU bool
	// Lookaround writes the word anchors with look-around assertions, for
	// a backtracking matcher (see NeedsBacktrack).
	Lookaround bool
	// Bytes selects how bytes that are not UTF-8 are matched (GNU sed's:
	// such a byte matches only itself, never "." or a negated bracket).
	Bytes BytesMode
}

// Error is a regular expression error in GNU's words.
type Error struct{ Msg string }

// Error returns the message, as GNU prints it.
func (e *Error) Error() string { return e.Msg }

func reErr(msg string) error { return &Error{msg} }

// The errors, with GNU's messages.
var (
	ErrBackref     = reErr("back-references are not supported")
	errBackrefNum  = reErr("Invalid back reference")
	errCollation   = reErr("Invalid collation character")
	errUnmatchedPa = reErr("Unmatched ( or \\(")
	errUnmatchedCl = reErr("Unmatched ) or \\)")
	errUnmatchedBr = reErr("Unmatched [, [^, [:, [., or [=")
	errTrailing    = reErr("Trailing backslash")
	errUnmatchedCu = reErr("Unmatched \\{")
	errBadInterval = reErr("Invalid content of \\{\\}")
	errBadPreced   = reErr("Invalid preceding regular expression")
	errRangeEnd    = reErr("Invalid range end")
	errClassName   = reErr("Invalid character class name")
	ErrTooBig      = reErr("Regular expression too big")
)

// Translate returns the RE2 form of the POSIX regular expression pat, to be
// compiled with leftmost-longest matching (Compile).
func Translate(pat string, s Syntax) (string, error) {
	t := &translator{o: s, pat: pat, atom: -1, start: true}
	if s.ICase {
		t.out.WriteString("(?i)")
	}
	if s.DotNL {
		t.out.WriteString("(?s)")
	}
	t.out.WriteString("(?:")
	if err := t.run(); err != nil {
		return "", err
	}
	if t.depth > 0 {
		return "", errUnmatchedPa
	}
	t.out.WriteString(")")
	return t.out.String(), nil
}

// MustTranslate is Translate for patterns known to be valid.
func MustTranslate(pat string, s Syntax) string {
	r, err := Translate(pat, s)
	if err != nil {
		panic(err)
	}
	return r
}

// Compile translates pat and compiles it with POSIX leftmost-longest
// matching.
func Compile(pat string, s Syntax) (*regexp.Regexp, error) {
	r, err := Translate(pat, s)
	if err != nil {
		return nil, err
	}
	return CompileRE2(r, true)
}

// CompileRE2 compiles an RE2 pattern (a translation, possibly combined
// with others), leftmost-longest when longest is set and leftmost-first
// (Perl's rule) otherwise. Errors are *Error values.
func CompileRE2(s string, longest bool) (*regexp.Regexp, error) {
	re, err := regexp.Compile(s)
	if err != nil {
		if strings.Contains(err.Error(), "repeat") || strings.Contains(err.Error(), "too") {
			return nil, ErrTooBig
		}
		return nil, reErr(err.Error())
	}
	if longest {
		re.Longest()
	}
	return re, nil
}

// maxRepeat is RE2's largest repetition count.
const maxRepeat = 1000

// translator converts one POSIX pattern to RE2 syntax.
type translator struct {
	o          Syntax
	groups     []bool // the groups opened so far, true once closed
	openGroups []int  // the numbers of the groups still open
	pat        string
	i          int
	out        strings.Builder
	atom       int  // start in out of the last atom, or -1 when none
	quant      bool // the last thing written was a quantifier
	start      bool // at the start of an expression (after ^, ( or |)
	caret      bool // the last thing written was the anchor ^
	depth      int
	probe      bool // stop at a word anchor (NeedsBacktrack)
}

func (t *translator) run() error {
	for t.i < len(t.pat) {
		c := t.pat[t.i]
		t.i++
		var err error
		switch {
		case c == '\\':
			err = t.escape()
		case c == '[':
			err = t.bracket()
		case c == '*':
			err = t.quantifier("*")
		case c == '.':
			t.begin()
			switch {
			case t.o.Bytes == BytesEscaped && t.o.DotNL:
				t.out.WriteString("[^" + byteRunes + "]")
			case t.o.Bytes == BytesEscaped:
				t.out.WriteString("[^\\n" + byteRunes + "]")
			case t.o.DotNL:
				t.out.WriteString(".")
			default:
				t.out.WriteString("[^\\n]")
			}
		case c == '^':
			if t.o.Extended || t.start && !t.caret {
				if t.o.NotBOL {
					t.out.WriteString(`\b\B`)
				} else {
					t.out.WriteString("^")
				}
				t.atom, t.quant, t.start, t.caret = -1, false, true, true
				if t.o.Extended {
					t.start = false
				}
			} else {
				t.literal("^")
			}
		case c == '$':
			if t.o.Extended || t.i == len(t.pat) || strings.HasPrefix(t.pat[t.i:], "\\)") || strings.HasPrefix(t.pat[t.i:], "\\|") {
				t.out.WriteString("$")
				t.atom, t.quant, t.start = -1, false, false
			} else {
				t.literal("$")
			}
		case t.o.Extended && (c == '+' || c == '?'):
			err = t.quantifier(string(c))
		case t.o.Extended && c == '{':
			err = t.interval(false)
		case t.o.Extended && c == '(':
			t.open()
		case t.o.Extended && c == ')':
			if t.depth == 0 && t.o.Sed {
				return errUnmatchedCl // glibc's regcomp, as sed -E has it
			}
			if t.depth == 0 {
				t.literal(")")
			} else {
				t.close()
			}
		case t.o.Extended && c == '|':
			t.alt()
		default:
			t.i--
			r, n := utf8.DecodeRuneInString(t.pat[t.i:])
			t.i += n
			if r == utf8.RuneError && n == 1 {
				t.byteLiteral(t.pat[t.i-1])
			} else {
				t.literal(string(r))
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// begin marks the start of a new atom.
func (t *translator) begin() {
	t.atom = t.out.Len()
	t.quant, t.start, t.caret = false, false, false
}

func (t *translator) literal(s string) {
	t.begin()
	t.out.WriteString(regexp.QuoteMeta(s))
}

func (t *translator) open() {
	t.out.WriteString("(")
	t.depth++
	t.groups = append(t.groups, false)
	t.openGroups = append(t.openGroups, len(t.groups)-1)
	t.atom, t.quant, t.start, t.caret = -1, false, true, false
}

func (t *translator) close() {
	t.out.WriteString(")")
	t.depth--
	if k := len(t.openGroups) - 1; k >= 0 {
		t.groups[t.openGroups[k]] = true
		t.openGroups = t.openGroups[:k]
	}
	// The whole group is the last atom: find its "(" by scanning back.
	s := t.out.String()
	level := 0
	for k := len(s) - 1; k >= 0; k-- {
		if s[k] == ')' && !escapedAt(s, k) {
			level++
		} else if s[k] == '(' && !escapedAt(s, k) {
			level--
			if level == 0 {
				t.atom = k
				break
			}
		}
	}
	t.quant, t.start = false, false
}

// escapedAt reports whether s[k] is preceded by an odd number of backslashes
// or lies inside a bracket expression written by the translator.
func escapedAt(s string, k int) bool {
	n := 0
	for j := k - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

func (t *translator) alt() {
	t.out.WriteString("|")
	t.atom, t.quant, t.start, t.caret = -1, false, true, false
}

// quantifier writes q after the last atom; with no atom it is a literal
// (an error with StrictRepeat).
func (t *translator) quantifier(q string) error {
	if t.atom < 0 {
		if t.o.StrictRepeat && t.o.Extended {
			return errBadPreced
		}
		t.literal(q)
		return nil
	}
	if t.quant && t.o.Sed && !t.o.Extended && (q == "*" || q[0] == '{') {
		return errBadPreced // glibc's BRE: "*" or "\{\}" repeating a repetition
	}
	if t.quant {
		// RE2 rejects a** and a*{2}: wrap the quantified atom in a group.
		s := t.out.String()
		t.out.Reset()
		t.out.WriteString(s[:t.atom] + "(?:" + s[t.atom:] + ")")
	}
	t.out.WriteString(q)
	t.quant, t.start = true, false
	return nil
}

func (t *translator) escape() error {
	if t.i >= len(t.pat) {
		return errTrailing
	}
	c := t.pat[t.i]
	t.i++
	if t.o.AWK {
		if c == 'y' {
			t.out.WriteString(`\b`)
			t.atom, t.quant = -1, false
			return nil
		}
		if b, n, ok := awkEscape(t.pat[t.i-1:]); ok {
			t.i += n - 1
			t.byteLiteral(b)
			return nil
		}
	}
	switch {
	case t.o.NoGNU && strings.IndexByte("+?|wWsSbB<>`'", c) >= 0:
		t.literal(string(c))
	case c >= '1' && c <= '9':
		if !t.o.Backrefs {
			return ErrBackref
		}
		n := int(c - '0')
		if n > len(t.groups) || !t.groups[n-1] {
			return errBackrefNum
		}
		t.begin()
		t.out.WriteString(`(?:\` + string(c) + `)`)
	case !t.o.Extended && c == '(':
		t.open()
	case !t.o.Extended && c == ')':
		if t.depth == 0 {
			return errUnmatchedCl
		}
		t.close()
	case !t.o.Extended && c == '|':
		t.alt()
	case !t.o.Extended && c == '{':
		return t.interval(true)
	case !t.o.Extended && (c == '+' || c == '?'):
		return t.quantifier(string(c))
	case t.o.Sed && strings.IndexByte("wWsS", c) >= 0:
		t.begin()
		class := unicodeClasses["alnum"] + `_`
		if c == 's' || c == 'S' {
			class = unicodeClasses["space"]
		}
		if c == 'w' || c == 's' {
			t.out.WriteString(`[` + class + `]`)
		} else if t.o.Bytes == BytesEscaped {
			t.out.WriteString(`[^` + class + byteRunes + `]`)
		} else {
			t.out.WriteString(`[^` + class + `]`)
		}
	case c == 'w' || c == 'W' || c == 's' || c == 'S':
		t.begin()
		t.out.WriteString(map[byte]string{'w': `[0-9A-Za-z_]`, 'W': `[^0-9A-Za-z_]`, 's': `[\t\n\v\f\r ]`, 'S': `[^\t\n\v\f\r ]`}[c])
	case (c == 'b' || c == '<' || c == '>' || c == 'B') && t.probe:
		return errWordAnchor
	case (c == 'b' || c == '<' || c == '>' || c == 'B') && t.o.Lookaround:
		t.out.WriteString(map[byte]string{'b': lookB, 'B': lookNotB, '<': lookStart, '>': lookEnd}[c])
		t.atom, t.quant = -1, false
	case c == 'b' || c == '<' || c == '>':
		t.out.WriteString(`\b`)
		t.atom, t.quant = -1, false
	case c == 'B':
		t.out.WriteString(`\B`)
		t.atom, t.quant = -1, false
	case c == '`':
		t.out.WriteString(`\A`)
		t.atom, t.quant = -1, false
	case c == '\'':
		t.out.WriteString(`\z`)
		t.atom, t.quant = -1, false
	case t.o.Sed && c == 'n':
		t.literal("\n")
	case t.o.Sed && c == 't':
		t.literal("\t")
	case t.o.Sed && strings.IndexByte("afvr", c) >= 0:
		t.literal(string("\a\f\v\r"[strings.IndexByte("afvr", c)]))
	case t.o.Sed && c == 'c':
		if t.i >= len(t.pat) {
			return errTrailing
		}
		if t.pat[t.i] == '\\' && t.i+1 < len(t.pat) && t.pat[t.i+1] == '\\' {
			t.i++ // "\c\\" is control-backslash
		}
		t.literal(string(upper(t.pat[t.i]) ^ 0x40))
		t.i++
	case t.o.Sed && (c == 'x' || c == 'd' || c == 'o'):
		// GNU sed substitutes the character, which may then be special.
		if b, n := NumEscape(t.pat[t.i:], c); n > 0 {
			// Escapes that follow and give bytes past ASCII are taken
			// with it, so that "\xc3\xa9" is the character é.
			raw, end := []byte{b}, t.i+n
			for b >= utf8.RuneSelf && end+2 < len(t.pat) && t.pat[end] == '\\' && strings.IndexByte("xdo", t.pat[end+1]) >= 0 {
				b2, n2 := NumEscape(t.pat[end+2:], t.pat[end+1])
				if n2 == 0 || b2 < utf8.RuneSelf {
					break
				}
				raw = append(raw, b2)
				end += 2 + n2
			}
			t.pat = t.pat[:t.i-2] + string(raw) + t.pat[end:]
			t.i -= 2
			return nil
		}
		t.literal(string(c))
	default:
		t.i--
		r, n := utf8.DecodeRuneInString(t.pat[t.i:])
		t.i += n
		t.literal(string(r))
	}
	return nil
}

// byteLiteral writes the byte b as a literal; a byte that is not ASCII
// stands for itself as an invalid UTF-8 byte, which RE2 reads as U+FFFD.
func (t *translator) byteLiteral(b byte) {
	if b < utf8.RuneSelf {
		t.literal(string(rune(b)))
		return
	}
	t.begin()
	switch t.o.Bytes {
	case BytesNone:
		t.out.WriteString(`[^\x00-\x{10FFFF}]`)
	case BytesEscaped:
		t.out.WriteString(`\x{` + strconv.FormatInt(int64(ByteRune(b)), 16) + `}`)
	default:
		t.out.WriteString(`\x{FFFD}`)
	}
}

// awkEscape decodes the awk escape sequence at the start of s (just after
// the backslash) that stands for one byte: \n \t \r \f \v \a \b, \/ \" \\,
// one to three octal digits and \x with one or two hex digits. n is the
// length used; ok is false for other escapes.
func awkEscape(s string) (b byte, n int, ok bool) {
	c := s[0]
	switch c {
	case 'n':
		return '\n', 1, true
	case 't':
		return '\t', 1, true
	case 'r':
		return '\r', 1, true
	case 'f':
		return '\f', 1, true
	case 'v':
		return '\v', 1, true
	case 'a':
		return '\a', 1, true
	case 'b':
		return '\b', 1, true
	case '/', '"', '\\':
		return c, 1, true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := 0
		for n < 3 && n < len(s) && s[n] >= '0' && s[n] <= '7' {
			v = v*8 + int(s[n]-'0')
			n++
		}
		return byte(v), n, true
	case 'x':
		v := 0
		n = 1
		for n < 3 && n < len(s) {
			d := strings.IndexByte("0123456789abcdef", s[n]|0x20)
			if d < 0 || d > 15 || s[n] < '0' {
				break
			}
			v = v*16 + d
			n++
		}
		if n == 1 {
			return 'x', 1, true
		}
		return byte(v), n, true
	case '8', '9':
		return c, 1, true
	}
	return 0, 0, false
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// interval parses a repetition count after "{" (or "\{" when bre).
func (t *translator) interval(bre bool) error {
	closer := "}"
	if bre {
		closer = "\\}"
	}
	end := strings.Index(t.pat[t.i:], closer)
	body := ""
	valid := end >= 0
	if valid {
		body = t.pat[t.i : t.i+end]
		valid = validInterval(body)
	}
	// GNU sed -E (glibc's regcomp) reads "{" in an ERE as a BRE reads
	// "\{": always an interval, or an error.
	strict := bre || t.o.Sed && t.o.Extended
	if !bre && strict && t.atom < 0 {
		return errBadPreced
	}
	if !valid {
		if strict {
			if end < 0 {
				return errUnmatchedCu
			}
			return errBadInterval
		}
		t.literal("{") // ERE: not an interval, a literal brace
		return nil
	}
	if t.atom < 0 {
		if bre && t.start {
			return errBadPreced
		}
		if !bre {
			if t.o.StrictRepeat || strict {
				return errBadPreced
			}
			t.literal("{")
			return nil
		}
	}
	t.i += end + len(closer)
	lo, hi, comma := body, "", false
	if k := strings.IndexByte(body, ','); k >= 0 {
		lo, hi, comma = body[:k], body[k+1:], true
	}
	if lo == "" {
		lo = "0"
	}
	nlo, err1 := strconv.Atoi(lo)
	nhi := nlo
	var err2 error
	if hi != "" {
		nhi, err2 = strconv.Atoi(hi)
	}
	if err1 != nil || err2 != nil || nlo > 32767 || nhi > 32767 {
		return ErrTooBig
	}
	if (hi != "" || !comma) && nhi < nlo {
		return errBadInterval
	}
	if nlo > maxRepeat || nhi > maxRepeat {
		return ErrTooBig
	}
	q := "{" + strconv.Itoa(nlo)
	if comma {
		q += ","
		if hi != "" {
			q += strconv.Itoa(nhi)
		}
	}
	return t.quantifier(q + "}")
}

func validInterval(s string) bool {
	if s == "" || s == "," {
		return false
	}
	commas := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == ',':
			commas++
		case s[i] < '0' || s[i] > '9':
			return false
		}
	}
	return commas <= 1
}

var posixClasses = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true,
	"space": true, "blank": true, "punct": true, "print": true, "graph": true,
	"cntrl": true, "xdigit": true,
}

// bracket translates a bracket expression; t.i is just after "[".
func (t *translator) bracket() error {
	var b strings.Builder
	b.WriteString("[")
	neg := false
	if t.i < len(t.pat) && t.pat[t.i] == '^' {
		neg = true
		t.i++
		b.WriteString("^")
	}
	first := true
	for {
		if t.i >= len(t.pat) {
			return errUnmatchedBr
		}
		c := t.pat[t.i]
		if c == ']' && !first {
			t.i++
			break
		}
		first = false
		if c == '[' && t.i+1 < len(t.pat) && t.pat[t.i+1] == ':' {
			end := strings.Index(t.pat[t.i+2:], ":]")
			if end < 0 {
				return errUnmatchedBr
			}
			name := t.pat[t.i+2 : t.i+2+end]
			if !posixClasses[name] {
				return errClassName
			}
			if t.o.Sed {
				b.WriteString(unicodeClasses[name])
			} else {
				b.WriteString("[:" + name + ":]")
			}
			t.i += 2 + end + 2
			continue
		}
		lo, err := t.bracketChar()
		if err != nil {
			return err
		}
		if t.i+1 < len(t.pat) && t.pat[t.i] == '-' && t.pat[t.i+1] != ']' {
			t.i++
			hi, err := t.bracketChar()
			if err != nil {
				return err
			}
			if t.o.Sed && (lo >= utf8.RuneSelf || hi >= utf8.RuneSelf) {
				// glibc's ranges in a UTF-8 locale take no multibyte end.
				return errCollation
			}
			if hi < lo {
				return errRangeEnd
			}
			b.WriteString(classRune(lo) + "-" + classRune(hi))
			continue
		}
		b.WriteString(classRune(lo))
	}
	if neg && !t.o.DotNL {
		b.WriteString(`\n`)
	}
	if neg && t.o.Bytes == BytesEscaped {
		b.WriteString(byteRunes)
	}
	b.WriteString("]")
	t.begin()
	t.out.WriteString(b.String())
	return nil
}

// bracketChar reads one character of a bracket expression, including the
// collating forms [.c.] and [=c=].
func (t *translator) bracketChar() (rune, error) {
	if t.pat[t.i] == '[' && t.i+1 < len(t.pat) && (t.pat[t.i+1] == '.' || t.pat[t.i+1] == '=') {
		d := t.pat[t.i+1]
		end := strings.Index(t.pat[t.i+2:], string(d)+"]")
		if end < 0 {
			return 0, errUnmatchedBr
		}
		s := t.pat[t.i+2 : t.i+2+end]
		r, n := utf8.DecodeRuneInString(s)
		if n != len(s) || n == 0 {
			return 0, reErr("Invalid collation character")
		}
		t.i += 2 + end + 2
		return r, nil
	}
	if t.o.AWK && t.pat[t.i] == '\\' && t.i+1 < len(t.pat) {
		// awk: a backslash in a bracket is an escape ("[\]]", "[\\]", "[\t]").
		if b, n, ok := awkEscape(t.pat[t.i+1:]); ok {
			t.i += 1 + n
			if b >= utf8.RuneSelf {
				return utf8.RuneError, nil
			}
			return rune(b), nil
		}
		r, n := utf8.DecodeRuneInString(t.pat[t.i+1:])
		t.i += 1 + n
		return r, nil
	}
	if t.o.Sed && t.pat[t.i] == '\\' && t.i+1 < len(t.pat) && (t.pat[t.i+1] == 'n' || t.pat[t.i+1] == 't') {
		t.i += 2
		if t.pat[t.i-1] == 'n' {
			return '\n', nil
		}
		return '\t', nil
	}
	r, n := utf8.DecodeRuneInString(t.pat[t.i:])
	t.i += n
	if r == utf8.RuneError && n == 1 && t.o.Bytes != BytesFFFD {
		return ByteRune(t.pat[t.i-1]), nil
	}
	return r, nil
}

func classRune(r rune) string {
	if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
		return string(r)
	}
	return `\x{` + strconv.FormatInt(int64(r), 16) + `}`
}

// NumEscape decodes the digits of GNU sed's \xHH, \dNNN and \oNNN escapes
// at the start of s; n is the number of digits used (0 when none). It is
// escape.SedNumber, which sed's text and replacements use too.
func NumEscape(s string, kind byte) (b byte, n int) { return escape.SedNumber(s, kind) }
