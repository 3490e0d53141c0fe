// Package escape decodes backslash escapes for the whole shell: echo -e,
// printf's format and its %b argument, $'...' strings, stat --printf, tr's
// operands, sed's text, replacements and y strings, awk's strings, find's
// -printf format and curl's --write-out.
// Each reads escapes its own way (which letters it knows, how many octal
// digits it takes and whether a leading 0 counts, whether \x, \u and \c
// exist, and what an unknown escape becomes), so the decoder is
// parametrised by a Context that names the reader and holds its rules.
package escape

import "unicode/utf8"

// Context names the reader of an escape; it selects the rules.
type Context int

// The contexts. The comment of each lists its rules; every context decodes
// "\" at the end of the text as a backslash.
const (
	// Echo is echo -e: \a \b \e \E \f \n \r \t \v \\, \0NNN (up to three
	// octal digits after the 0), \xHH, \uHHHH, \UHHHHHHHH; \c stops the
	// output; \1 to \7 and unknown escapes keep their backslash.
	Echo Context = iota
	// PrintfArg is printf's %b argument: as Echo, and \NNN (one to three
	// octal digits) also without a leading 0.
	PrintfArg
	// PrintfFormat is printf's format: as PrintfArg, with \" \' \? as the
	// characters, \NNN taking one to three digits with the 0 among them,
	// and \c an unknown escape.
	PrintfFormat
	// ANSIC is bash's $'...': as PrintfFormat, and \cX is the control
	// character X&0x1f ("\c" at the end stays as it is). The caller ends
	// the string at the first NUL, as bash does.
	ANSIC
	// Stat is stat --printf: \a \b \f \n \r \t \v \\ \" and \NNN; unknown
	// escapes keep their backslash.
	Stat
	// Tr is tr's operands: \a \b \f \n \r \t \v and \NNN (at most three
	// octal digits, and only while the value stays below 256); any other
	// escaped character stands for itself.
	Tr
	// SedText is the text of sed's a, i and c: \a \f \n \r \t \v, \cX
	// (upper-case X xor 0x40, unless X is a newline), \dNNN \oNNN \xHH;
	// any other escaped character stands for itself.
	SedText
	// SedReplacement is the replacement of sed's s (after the caller has
	// taken \1..\9, & and the case conversions): as SedText, with \cX for
	// any X.
	SedReplacement
	// SedY is the strings of sed's y: as SedReplacement; any other escaped
	// character (the delimiter, a backslash) stands for itself.
	SedY
	// AWK is awk's string literals and -v assignments: \a \b \f \n \r \t
	// \v \\ \" \/, \NNN (one to three octal digits) and \xHH ("\x" without
	// a digit stays as it is); any other escaped character stands for
	// itself.
	AWK
	// Find is find's -printf format: \a \b \f \n \r \t \v \\ and \NNN
	// (one to three octal digits, \0 alone is NUL); \c stops the format's
	// output; an unknown escape keeps its backslash (find warns of it once,
	// see Known).
	Find
	// CurlWriteOut is curl's --write-out format: \n \r \t; any other
	// escape, \\ included, is printed as it is, backslash and all.
	CurlWriteOut
	numContexts
)

// octal is how a context reads octal escapes.
type octal uint8

const (
	octalNone     octal = iota
	octalZero           // \0NNN only; \1..\7 keep their backslash (echo -e)
	octalBoth           // \0NNN and \NNN (printf %b)
	octalC              // \NNN, one to three digits, 0 included
	octalBelow256       // \NNN while the value stays below 256 (tr)
)

// ctrl is how a context reads \c.
type ctrl uint8

const (
	ctrlNone      ctrl = iota // an unknown escape
	ctrlStop                  // stop all output (echo -e, %b)
	ctrlMask                  // \cX is X&0x1f ($'...')
	ctrlSed                   // \cX is upper(X)^0x40, but not before a newline
	ctrlSedAlways             // \cX is upper(X)^0x40
)

// rules are the rules of one context.
type rules struct {
	letters string // the single-letter escapes it knows
	octal   octal
	hex     bool // \xH and \xHH; "\x" without a digit stays
	unicode bool // \uHHHH and \UHHHHHHHH
	ctrl    ctrl
	sedNum  bool // GNU sed's \dNNN \oNNN \xHH ("\x" without a digit is "x")
	keep    bool // an unknown escape keeps its backslash
}

var table = [numContexts]rules{
	Echo:           {letters: `abeEfnrtv\`, octal: octalZero, hex: true, unicode: true, ctrl: ctrlStop, keep: true},
	PrintfArg:      {letters: `abeEfnrtv\`, octal: octalBoth, hex: true, unicode: true, ctrl: ctrlStop, keep: true},
	PrintfFormat:   {letters: `abeEfnrtv\"'?`, octal: octalC, hex: true, unicode: true, keep: true},
	ANSIC:          {letters: `abeEfnrtv\"'?`, octal: octalC, hex: true, unicode: true, ctrl: ctrlMask, keep: true},
	Stat:           {letters: `abfnrtv\"`, octal: octalC, keep: true},
	Tr:             {letters: `abfnrtv`, octal: octalBelow256},
	SedText:        {letters: `afnrtv`, ctrl: ctrlSed, sedNum: true},
	SedReplacement: {letters: `afnrtv`, ctrl: ctrlSedAlways, sedNum: true},
	SedY:           {letters: `afnrtv`, ctrl: ctrlSedAlways, sedNum: true},
	AWK:            {letters: `abfnrtv\"/`, octal: octalC, hex: true},
	Find:           {letters: `abfnrtv\`, octal: octalC, ctrl: ctrlStop, keep: true},
	CurlWriteOut:   {letters: `nrt`, keep: true},
}

// Known reports whether the escape \e means something in context c (an
// unknown one is decoded by c's rule for unknown escapes).
func Known(c Context, e byte) bool {
	r := &table[c]
	switch {
	case e == 'c':
		return r.ctrl != ctrlNone
	case indexByte(r.letters, e):
		return true
	case e >= '0' && e <= '7':
		return r.octal != octalNone
	case e == 'x':
		return r.hex || r.sedNum
	case e == 'u' || e == 'U':
		return r.unicode
	case e == 'd' || e == 'o':
		return r.sedNum
	}
	return false
}

// letter returns the byte a single-letter escape stands for.
func letter(c byte) byte {
	switch c {
	case 'a':
		return '\a'
	case 'b':
		return '\b'
	case 'e', 'E':
		return 0x1b
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	}
	return c // \\ \" \' \? \/
}

// Append decodes the escape that starts at s[i], a backslash, appends its
// text to b and returns b, the index just after the escape, and whether
// the escape stops all output (\c of echo -e and printf %b; nothing is
// appended then). A backslash at the end of s is a backslash.
func Append(c Context, b []byte, s string, i int) (out []byte, next int, stop bool) {
	if i+1 >= len(s) {
		return append(b, '\\'), i + 1, false
	}
	r := &table[c]
	e := s[i+1]
	j := i + 2
	switch {
	case e != 'c' && indexByte(r.letters, e):
		return append(b, letter(e)), j, false
	case e == 'c' && r.ctrl != ctrlNone:
		switch r.ctrl {
		case ctrlStop:
			return b, j, true
		case ctrlMask:
			if j < len(s) {
				return append(b, s[j]&0x1f), j + 1, false
			}
		case ctrlSed, ctrlSedAlways:
			if j == len(s) {
				return append(b, '\\'), j, false // GNU's "\c" at the end
			}
			if s[j] == '\\' {
				// "\c\\" is control-backslash; "\c\" before anything
				// else is an error GNU reports (see RecursiveCtrl).
				if j+1 < len(s) && s[j+1] == '\\' {
					j++
				}
				return append(b, 0x1c), j + 1, false
			}
			if r.ctrl == ctrlSedAlways || s[j] != '\n' {
				return append(b, upper(s[j])^0x40), j + 1, false
			}
			return append(b, 'c'), j, false
		}
	case e >= '0' && e <= '7' && r.octal != octalNone:
		start, limit := i+1, 3
		switch r.octal {
		case octalZero:
			if e != '0' {
				return append(b, '\\', e), j, false
			}
			start = i + 2
		case octalBoth:
			if e == '0' {
				start = i + 2
			}
		}
		v, k := 0, start
		for ; k < start+limit && k < len(s) && s[k] >= '0' && s[k] <= '7'; k++ {
			d := int(s[k] - '0')
			if r.octal == octalBelow256 && v*8+d >= 256 {
				break
			}
			v = v*8 + d
		}
		return append(b, byte(v)), k, false
	case e == 'x' && r.hex:
		v, k := hexDigits(s, j, 2)
		if k == j {
			return append(b, '\\', 'x'), j, false
		}
		return append(b, byte(v)), k, false
	case (e == 'u' || e == 'U') && r.unicode:
		width := 4
		if e == 'U' {
			width = 8
		}
		v, k := hexDigits(s, j, width)
		if k == j {
			return append(b, '\\', e), j, false
		}
		return utf8.AppendRune(b, rune(v)), k, false
	case (e == 'd' || e == 'o' || e == 'x') && r.sedNum:
		v, n := SedNumber(s[j:], e)
		if n == 0 {
			return append(b, e), j, false
		}
		return append(b, v), j + n, false
	}
	if r.keep {
		return append(b, '\\', e), j, false
	}
	return append(b, e), j, false
}

// RecursiveCtrl reports whether s holds GNU sed's "\c\X" with X not a
// backslash, which GNU refuses: "recursive escaping after \c not allowed".
func RecursiveCtrl(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if s[i+1] == 'c' && i+3 < len(s) && s[i+2] == '\\' && s[i+3] != '\\' {
			return true
		}
		i++
	}
	return false
}

// Decode decodes every escape of s by the rules of c. stop reports that a
// \c stopped the output (echo -e, printf %b): out is then the text before
// it.
func Decode(c Context, s string) (out string, stop bool) {
	k := indexBackslash(s)
	if k < 0 {
		return s, false
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:k]...)
	for i := k; i < len(s); {
		if s[i] != '\\' {
			b = append(b, s[i])
			i++
			continue
		}
		b, i, stop = Append(c, b, s, i)
		if stop {
			return string(b), true
		}
	}
	return string(b), false
}

// SedNumber decodes the digits of GNU sed's \xHH, \dNNN and \oNNN escapes
// (kind is 'x', 'd' or 'o') at the start of s, stopping before the value
// would pass 255; n is the number of digits used (0 when none).
func SedNumber(s string, kind byte) (b byte, n int) {
	base, width := 16, 2
	switch kind {
	case 'd':
		base, width = 10, 3
	case 'o':
		base, width = 8, 3
	}
	v := 0
	for n < width && n < len(s) {
		d := DigitValue(s[n])
		if d < 0 || d >= base || v*base+d > 255 {
			break
		}
		v = v*base + d
		n++
	}
	return byte(v), n
}

// hexDigits reads up to width hexadecimal digits of s from i and returns
// their value and the index after them.
func hexDigits(s string, i, width int) (v, next int) {
	k := i
	for ; k < i+width && k < len(s); k++ {
		d := DigitValue(s[k])
		if d < 0 || d > 15 {
			break
		}
		v = v*16 + d
	}
	return v, k
}

// DigitValue returns the value of c as a digit of a base up to 16 (0-9,
// a-f, A-F), or -1 when it is none. The caller checks it against its base.
func DigitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func indexByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func indexBackslash(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			return i
		}
	}
	return -1
}
