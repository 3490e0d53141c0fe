package textutils

// The arguments of sed's s and y commands: delimited strings, regexes and
// replacements.

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/internal/ere"
	"github.com/cordonhq/cordon/shell/internal/escape"
)

// delimited reads up to the unescaped delimiter and consumes it. In a
// regex (re true), "\delim" becomes delim and "\n" stays an escape; a
// newline is allowed only escaped in replacements.
func (p *sedParser) delimited(delim byte, re bool) (string, bool) {
	var b strings.Builder
	for {
		c, ok := p.get()
		if !ok {
			return "", false
		}
		if c == '\n' {
			// As GNU: an unescaped newline ends the command unterminated,
			// located before the newline.
			p.pos--
			return "", false
		}
		if re && c == '[' {
			// Copy a bracket expression verbatim: the delimiter is
			// literal inside, and one that does not end leaves the
			// command unterminated.
			end := bracketEnd(p.src, p.pos-1)
			if end < 0 || strings.IndexByte(p.src[p.pos-1:end], '\n') >= 0 {
				if k := strings.IndexByte(p.src[p.pos:], '\n'); k >= 0 {
					p.pos += k
				} else {
					p.pos = len(p.src)
				}
				return "", false
			}
			b.WriteString(p.src[p.pos-1 : end])
			p.pos = end
			continue
		}
		if c == delim {
			return b.String(), true
		}
		if c == '\\' {
			d, ok := p.get()
			if !ok {
				return "", false
			}
			switch {
			case d == delim && !re && d == '&':
				// With & as the delimiter, \& in the replacement is a
				// literal &, as in GNU sed.
				b.WriteString(`\&`)
			case d == delim:
				b.WriteByte(d)
			case d == '\n' && p.isSep(p.pos-1):
				// A command does not go on into the next -e.
				p.pos--
				return "", false
			case d == '\n' && !re:
				b.WriteString("\n")
			default:
				b.WriteByte('\\')
				b.WriteByte(d)
			}
			continue
		}
		b.WriteByte(c)
	}
}

// bracketEnd returns the offset just after the bracket expression starting
// at s[i] == '[', or -1.
func bracketEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for j < len(s) {
		switch {
		case s[j] == ']':
			return j + 1
		case s[j] == '[' && j+1 < len(s) && (s[j+1] == ':' || s[j+1] == '.' || s[j+1] == '='):
			end := strings.Index(s[j+2:], string(s[j+1])+"]")
			if end < 0 {
				return -1
			}
			j += 2 + end + 2
		default:
			j++
		}
	}
	return -1
}

func (p *sedParser) compile(body, flags string) (*sedRegex, error) {
	if body == "" {
		if flags != "" {
			return nil, p.fail("no previous regular expression")
		}
		p.script.needsRE = true
		return nil, nil
	}
	multi := strings.ContainsAny(flags, "Mm")
	// With M, "." and negated brackets stop at a newline (REG_NEWLINE).
	syn := ere.Syntax{Extended: p.d.ere, DotNL: !multi, Sed: true, NoGNU: p.d.posix, StrictRepeat: p.d.ere, ICase: strings.ContainsAny(flags, "Ii")}
	swap := multi && p.d.nul
	if swap {
		// With -z, the lines of M end at NUL: the regex matches a copy
		// of the pattern space where NUL and newline trade places.
		body = swapNLPattern(body)
	}
	re, err := compileSedRegex(body, syn, multi)
	if re != nil {
		re.swapNL = swap
	}
	if err != nil {
		return nil, p.fail(err.Error())
	}
	return re, nil
}

func (p *sedParser) substitute(c *sedCmd) error {
	delim, ok := p.get()
	if !ok {
		return p.fail("unterminated `s' command")
	}
	if delim >= 0x80 {
		return p.fail("delimiter character is not a single-byte character")
	}
	pat, ok := p.delimited(delim, true)
	if !ok {
		return p.fail("unterminated `s' command")
	}
	rep, ok := p.delimited(delim, false)
	if !ok {
		return p.fail("unterminated `s' command")
	}
	flags := ""
	for !p.eof() {
		f := p.peek()
		switch {
		case f == 'g':
			if c.global {
				p.pos++
				return p.fail("multiple `g' options to `s' command")
			}
			c.global = true
		case f == 'p':
			if c.print > 0 {
				p.pos++
				return p.fail("multiple `p' options to `s' command")
			}
			c.print++
		case p.d.posix && strings.IndexByte("iImMe", f) >= 0:
			p.pos++
			return p.fail("unknown option to `s'")
		case f == 'i' || f == 'I':
			flags += "I"
		case f == 'm' || f == 'M':
			flags += "M"
		case f == 'e':
			if p.d.sandbox {
				p.pos++
				return p.fail("e/r/w commands disabled in sandbox mode")
			}
			c.eval = true
		case f >= '0' && f <= '9':
			if c.nth > 0 {
				p.pos++
				return p.fail("multiple number options to `s' command")
			}
			n, _ := p.number()
			if n == 0 {
				return p.fail("number option to `s' command may not be zero")
			}
			c.nth = int(min(n, 1<<30))
			continue
		case f == 'w':
			p.pos++
			if p.d.sandbox {
				return p.fail("e/r/w commands disabled in sandbox mode")
			}
			name, err := p.fileArg()
			if err != nil {
				return err
			}
			c.wfile = name
			p.script.wfiles = append(p.script.wfiles, name)
			return p.finishS(c, pat, rep, flags)
		case f == ' ' || f == '\t':
			// GNU skips blanks between the flags.
		case f == ';' || f == '\n' || f == '}' || f == '#':
			return p.finishS(c, pat, rep, flags)
		case f == '\r' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
			// GNU takes a CRLF line end after the flags.
			p.pos++
			return p.finishS(c, pat, rep, flags)
		default:
			p.pos++
			return p.fail("unknown option to `s'")
		}
		p.pos++
	}
	return p.finishS(c, pat, rep, flags)
}

func (p *sedParser) finishS(c *sedCmd, pat, rep, flags string) error {
	if escape.RecursiveCtrl(pat) || escape.RecursiveCtrl(rep) {
		return p.fail("recursive escaping after \\c not allowed")
	}
	re, err := p.compile(pat, flags)
	if err != nil {
		return err
	}
	c.re = re
	groups := 9
	if re != nil {
		groups = re.NumSubexp()
	}
	c.repl, err = parseRepl(rep, groups, p.d.posix)
	if err != nil {
		return p.fail(err.Error())
	}
	return nil
}

// parseRepl parses the replacement of s.
func parseRepl(s string, groups int, posix bool) ([]sedRepl, error) {
	var out []sedRepl
	var lit strings.Builder
	conv := ""
	flush := func() {
		if lit.Len() > 0 || conv != "" {
			out = append(out, sedRepl{lit: lit.String(), group: -1, conv: conv})
			lit.Reset()
			conv = ""
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '&' {
			flush()
			out = append(out, sedRepl{group: 0})
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			lit.WriteByte(c)
			continue
		}
		i++
		d := s[i]
		switch {
		case d >= '0' && d <= '9':
			n := int(d - '0')
			if n > groups {
				return nil, fmt.Errorf("invalid reference \\%d on `s' command's RHS", n)
			}
			flush()
			out = append(out, sedRepl{group: n})
		case posix && strings.IndexByte("ULulE", d) >= 0:
			lit.WriteByte(d)
		case d == 'U' || d == 'L' || d == 'u' || d == 'l' || d == 'E':
			if lit.Len() > 0 {
				flush()
			}
			conv += string(d)
		default:
			var buf [1]byte
			b, next, _ := escape.Append(escape.SedReplacement, buf[:0], s, i-1)
			lit.Write(b)
			i = next - 1
		}
	}
	flush()
	return out, nil
}

func (p *sedParser) translit(c *sedCmd) error {
	delim, ok := p.get()
	if !ok {
		return p.fail("unterminated `y' command")
	}
	if delim >= 0x80 {
		return p.fail("delimiter character is not a single-byte character")
	}
	src, ok1 := p.delimited(delim, false)
	dst, ok2 := "", false
	if ok1 {
		dst, ok2 = p.delimited(delim, false)
	}
	if !ok1 || !ok2 {
		return p.fail("unterminated `y' command")
	}
	if escape.RecursiveCtrl(src) || escape.RecursiveCtrl(dst) {
		return p.fail("recursive escaping after \\c not allowed")
	}
	a, b := yUnescape(src), yUnescape(dst)
	if len(a) != len(b) {
		return p.fail("strings for `y' command are different lengths")
	}
	c.ymap = map[rune]rune{}
	for i := range a {
		if _, dup := c.ymap[a[i]]; !dup {
			c.ymap[a[i]] = b[i]
		}
	}
	return nil
}

// yUnescape decodes the escapes of a string of y (escape.SedY).
func yUnescape(s string) []rune {
	d, _ := escape.Decode(escape.SedY, s)
	out := make([]rune, 0, len(d))
	for i := 0; i < len(d); {
		r, n := utf8.DecodeRuneInString(d[i:])
		if r == utf8.RuneError && n <= 1 {
			r, n = ere.ByteRune(d[i]), 1
		}
		out = append(out, r)
		i += n
	}
	return out
}

// swapNLPattern rewrites a pattern for input where NUL and newline have
// traded places (the M flag with -z): a newline of the pattern, written
// or as \n, becomes NUL, and a NUL a newline.
func swapNLPattern(pat string) string {
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		switch {
		case pat[i] == '\n':
			b.WriteString(`\o000`)
		case pat[i] == 0:
			b.WriteString(`\n`)
		case pat[i] == '\\' && i+1 < len(pat) && pat[i+1] == 'n':
			b.WriteString(`\o000`)
			i++
		case pat[i] == '\\' && i+1 < len(pat):
			b.WriteString(pat[i : i+2])
			i++
		default:
			b.WriteByte(pat[i])
		}
	}
	return b.String()
}
