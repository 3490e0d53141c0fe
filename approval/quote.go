package approval

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// writeEscape writes r as a JSON \uXXXX escape (a surrogate pair above
// U+FFFF).
func writeEscape(b *strings.Builder, r rune) {
	if r > 0xffff {
		r1, r2 := utf16.EncodeRune(r)
		writeEscape(b, r1)
		writeEscape(b, r2)
		return
	}
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>shift)&0xf])
	}
}

// hidden reports whether r must be escaped in a value: every character
// that is not printable (control characters, line and paragraph
// separators, U+0085, format characters such as the bidirectional
// controls U+202A-U+202E and U+2066-U+2069, zero-width characters and
// U+FEFF, spaces other than ASCII space, private use and unassigned code
// points), the printable characters Unicode says to ignore when
// displaying (default ignorable code points, such as U+115F HANGUL
// CHOSEONG FILLER, and the variation selectors), which show as nothing,
// and U+FFFD, which also stands for invalid bytes.
func hidden(r rune) bool {
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return r == utf8.RuneError || !unicode.IsPrint(r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		r == 0x2028 || r == 0x2029 || r == 0x85
}

// writeRune writes r as it appears inside a quoted string. ascii escapes
// every character outside ASCII; first escapes a combining mark, which
// would otherwise combine with the opening quote.
func writeRune(b *strings.Builder, r rune, ascii, first bool) {
	switch {
	case r == '"':
		b.WriteString(`\"`)
	case r == '\\':
		b.WriteString(`\\`)
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r == '\t':
		b.WriteString(`\t`)
	case hidden(r), ascii && r >= 0x80, first && unicode.Is(unicode.M, r):
		writeEscape(b, r)
	default:
		b.WriteRune(r)
	}
}

// runeWidth is how many bytes writeRune writes for r.
func runeWidth(r rune, ascii, first bool) int {
	switch {
	case r == '"', r == '\\', r == '\n', r == '\r', r == '\t':
		return 2
	case hidden(r), ascii && r >= 0x80, first && unicode.Is(unicode.M, r):
		if r > 0xffff {
			return 12
		}
		return 6
	default:
		return utf8.RuneLen(r)
	}
}

// Quote returns s as a JSON string literal that is safe to show on one
// line of an approval request: quotes and backslashes are escaped, and so
// is every character that could start a new line, reorder the text or
// hide in it (control characters; CR, LF, U+0085, U+2028 and U+2029;
// format characters such as the bidirectional controls, zero-width
// characters and U+FEFF; other invisible characters), as \n, \r, \t or
// \uXXXX. A combining mark at the start is escaped too, so that it cannot
// combine with the opening quote. Other printable characters, in any
// script, are kept. Invalid UTF-8 bytes come out as \ufffd. The result is
// valid JSON, and decoding it gives s back when s is valid UTF-8.
func Quote(s string) string {
	return quote(s, false)
}

// quote quotes s; ascii escapes every character outside ASCII, as keys
// are shown (so that a look-alike key cannot pass for another).
func quote(s string, ascii bool) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i, r := range s {
		writeRune(&b, r, ascii, i == 0)
	}
	b.WriteByte('"')
	return b.String()
}

// ellipsis stands for the middle of a cut string, between the quoted head
// and tail.
const ellipsis = " … "

// cutQuoted returns s quoted whole when its quoted form takes at most max
// bytes; otherwise its quoted head and tail, which together take at most
// max bytes, and cut is true. The cut falls between runes.
func cutQuoted(s string, max int) (text string, cut bool) {
	q := Quote(s)
	if len(q) <= max {
		return q, false
	}
	budget := max - 4 - len(ellipsis) // the quotes around the head and the tail, and the ellipsis between
	headMax := budget * 2 / 3
	tailMax := budget - headMax
	// The head: runes from the start while they fit.
	var head strings.Builder
	n, used := 0, 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		w := runeWidth(r, false, n == 0)
		if used+w > headMax {
			break
		}
		writeRune(&head, r, false, n == 0)
		used += w
		n += size
	}
	// The tail: runes from the end while they fit, not overlapping the
	// head.
	start, used := len(s), 0
	for start > n {
		r, size := utf8.DecodeLastRuneInString(s[n:start])
		w := runeWidth(r, false, false)
		if used+w > tailMax {
			break
		}
		start -= size
		used += w
	}
	// The tail's first rune is escaped when it is a combining mark, which
	// may take more room: drop runes from its start until it fits.
	for start < len(s) {
		r, size := utf8.DecodeRuneInString(s[start:])
		w := runeWidth(r, false, false)
		if used-w+runeWidth(r, false, true) <= tailMax {
			break
		}
		start += size
		used -= w
	}
	var tail strings.Builder
	first := true
	for _, r := range s[start:] {
		writeRune(&tail, r, false, first)
		first = false
	}
	return `"` + head.String() + `"` + ellipsis + `"` + tail.String() + `"`, true
}

// plainSegment reports whether a key may be shown without quotes in a
// path: ASCII letters, digits and _ . : - only, and not all digits (which
// would read as an array index).
func plainSegment(k string) bool {
	if k == "" {
		return false
	}
	digits := true
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '.', c == ':', c == '-':
			digits = false
		default:
			return false
		}
	}
	return !digits
}

// plainMethod reports whether a method name may be shown without quotes:
// plain segments separated by "/".
func plainMethod(m string) bool {
	for _, s := range strings.Split(m, "/") {
		if s == "" {
			return false
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' || c == ':' || c == '-') {
				return false
			}
		}
	}
	return true
}
