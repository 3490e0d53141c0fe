package textutils

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// reOpts selects the dialect of a POSIX regular expression.
type reOpts struct {
	ere    bool // extended (grep -E, sed -E) rather than basic syntax
	dotNL  bool // . and negated brackets match a newline (sed's pattern space)
	icase  bool
	sedEsc bool // sed: \n and \t denote newline and tab
}

// regexError is a regular expression error in GNU's words.
type regexError struct{ msg string }

func (e *regexError) Error() string { return e.msg }

func reErr(msg string) error { return &regexError{msg} }

var (
	errBackref     = reErr("back-references are not supported")
	errUnmatchedPa = reErr("Unmatched ( or \\(")
	errUnmatchedCl = reErr("Unmatched ) or \\)")
	errUnmatchedBr = reErr("Unmatched [, [^, [:, [., or [=")
	errTrailing    = reErr("Trailing backslash")
	errUnmatchedCu = reErr("Unmatched \\{")
	errBadInterval = reErr("Invalid content of \\{\\}")
	errBadPreced   = reErr("Invalid preceding regular expression")
	errRangeEnd    = reErr("Invalid range end")
	errClassName   = reErr("Invalid character class name")
	errTooBig      = reErr("Regular expression too big")
)

// maxRepeat is RE2's largest repetition count.
const maxRepeat = 1000

// translator converts one POSIX pattern to RE2 syntax.
type translator struct {
	o     reOpts
	pat   string
	i     int
	out   strings.Builder
	atom  int  // start in out of the last atom, or -1 when none
	quant bool // the last thing written was a quantifier
	start bool // at the start of an expression (after ^, ( or |)
	caret bool // the last thing written was the anchor ^
	depth int
}

// translateRE returns the RE2 form of the POSIX regular expression pat.
func translateRE(pat string, o reOpts) (string, error) {
	t := &translator{o: o, pat: pat, atom: -1, start: true}
	if o.icase {
		t.out.WriteString("(?i)")
	}
	if o.dotNL {
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

// compileRE2 compiles an RE2 pattern with POSIX leftmost-longest matching.
func compileRE2(s string) (*regexp.Regexp, error) { return compileGo(s, true) }

// compileGo compiles an RE2 pattern, leftmost-longest when longest is set
// and leftmost-first (Perl's rule) otherwise.
func compileGo(s string, longest bool) (*regexp.Regexp, error) {
	re, err := regexp.Compile(s)
	if err != nil {
		if strings.Contains(err.Error(), "repeat") || strings.Contains(err.Error(), "too") {
			return nil, errTooBig
		}
		return nil, reErr(err.Error())
	}
	if longest {
		re.Longest()
	}
	return re, nil
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
			t.quantifier("*")
		case c == '.':
			t.begin()
			if t.o.dotNL {
				t.out.WriteString(".")
			} else {
				t.out.WriteString("[^\\n]")
			}
		case c == '^':
			if t.o.ere || t.start && !t.caret {
				t.out.WriteString("^")
				t.atom, t.quant, t.start, t.caret = -1, false, true, true
				if t.o.ere {
					t.start = false
				}
			} else {
				t.literal("^")
			}
		case c == '$':
			if t.o.ere || t.i == len(t.pat) || strings.HasPrefix(t.pat[t.i:], "\\)") || strings.HasPrefix(t.pat[t.i:], "\\|") {
				t.out.WriteString("$")
				t.atom, t.quant, t.start = -1, false, false
			} else {
				t.literal("$")
			}
		case t.o.ere && (c == '+' || c == '?'):
			t.quantifier(string(c))
		case t.o.ere && c == '{':
			err = t.interval(false)
		case t.o.ere && c == '(':
			t.open()
		case t.o.ere && c == ')':
			if t.depth == 0 {
				t.literal(")")
			} else {
				t.close()
			}
		case t.o.ere && c == '|':
			t.alt()
		default:
			t.i--
			r, n := utf8.DecodeRuneInString(t.pat[t.i:])
			t.i += n
			if r == utf8.RuneError && n == 1 {
				t.begin()
				t.out.WriteString(`\x{FFFD}`)
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
	t.atom, t.quant, t.start, t.caret = -1, false, true, false
}

func (t *translator) close() {
	t.out.WriteString(")")
	t.depth--
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

// quantifier writes q after the last atom; with no atom it is a literal.
func (t *translator) quantifier(q string) {
	if t.atom < 0 {
		t.literal(q)
		return
	}
	if t.quant {
		// RE2 rejects a** and a*{2}: wrap the quantified atom in a group.
		s := t.out.String()
		t.out.Reset()
		t.out.WriteString(s[:t.atom] + "(?:" + s[t.atom:] + ")")
	}
	t.out.WriteString(q)
	t.quant, t.start = true, false
}

func (t *translator) escape() error {
	if t.i >= len(t.pat) {
		return errTrailing
	}
	c := t.pat[t.i]
	t.i++
	switch {
	case c >= '1' && c <= '9':
		return errBackref
	case !t.o.ere && c == '(':
		t.open()
	case !t.o.ere && c == ')':
		if t.depth == 0 {
			return errUnmatchedCl
		}
		t.close()
	case !t.o.ere && c == '|':
		t.alt()
	case !t.o.ere && c == '{':
		return t.interval(true)
	case !t.o.ere && (c == '+' || c == '?'):
		t.quantifier(string(c))
	case c == 'w' || c == 'W' || c == 's' || c == 'S':
		t.begin()
		t.out.WriteString(map[byte]string{'w': `[0-9A-Za-z_]`, 'W': `[^0-9A-Za-z_]`, 's': `[\t\n\v\f\r ]`, 'S': `[^\t\n\v\f\r ]`}[c])
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
	case t.o.sedEsc && c == 'n':
		t.literal("\n")
	case t.o.sedEsc && c == 't':
		t.literal("\t")
	case t.o.sedEsc && strings.IndexByte("afvr", c) >= 0:
		t.literal(string("\a\f\v\r"[strings.IndexByte("afvr", c)]))
	case t.o.sedEsc && c == 'c' && t.i < len(t.pat):
		t.literal(string(upper(t.pat[t.i]) ^ 0x40))
		t.i++
	case t.o.sedEsc && (c == 'x' || c == 'd' || c == 'o'):
		// GNU sed substitutes the character, which may then be special.
		if b, n := numEscape(t.pat[t.i:], c); n > 0 {
			t.pat = t.pat[:t.i-2] + string([]byte{b}) + t.pat[t.i+n:]
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
	if !valid {
		if bre {
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
		return errTooBig
	}
	if (hi != "" || !comma) && nhi < nlo {
		return errBadInterval
	}
	if nlo > maxRepeat || nhi > maxRepeat {
		return errTooBig
	}
	q := "{" + strconv.Itoa(nlo)
	if comma {
		q += ","
		if hi != "" {
			q += strconv.Itoa(nhi)
		}
	}
	t.quantifier(q + "}")
	return nil
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
			b.WriteString("[:" + name + ":]")
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
			if hi < lo {
				return errRangeEnd
			}
			b.WriteString(classRune(lo) + "-" + classRune(hi))
			continue
		}
		b.WriteString(classRune(lo))
	}
	if neg && !t.o.dotNL {
		b.WriteString(`\n`)
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
	if t.o.sedEsc && t.pat[t.i] == '\\' && t.i+1 < len(t.pat) && (t.pat[t.i+1] == 'n' || t.pat[t.i+1] == 't') {
		t.i += 2
		if t.pat[t.i-1] == 'n' {
			return '\n', nil
		}
		return '\t', nil
	}
	r, n := utf8.DecodeRuneInString(t.pat[t.i:])
	t.i += n
	return r, nil
}

func classRune(r rune) string {
	if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
		return string(r)
	}
	return `\x{` + strconv.FormatInt(int64(r), 16) + `}`
}

// numEscape decodes the digits of GNU sed's \xHH, \dNNN and \oNNN escapes
// at the start of s; n is the number of digits used (0 when none).
func numEscape(s string, kind byte) (b byte, n int) {
	base, width := 16, 2
	switch kind {
	case 'd':
		base, width = 10, 3
	case 'o':
		base, width = 8, 3
	}
	v := 0
	for n < width && n < len(s) {
		d := strings.IndexByte("0123456789abcdef", s[n]|0x20)
		if d < 0 || d >= base || v*base+d > 255 {
			break
		}
		v = v*base + d
		n++
	}
	return byte(v), n
}
