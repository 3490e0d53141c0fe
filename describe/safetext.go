package describe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SafeText returns s made safe to show a model among cordon's own text,
// for text that comes from elsewhere (the description of an upstream MCP
// server's tool, a schema's title): every line break (CR, CRLF, U+0085
// NEXT LINE, U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR) becomes
// "\n"; every other control character but tab (C0, DEL, C1) and every
// Unicode format character (category Cf: the bidirectional overrides and
// isolates, zero-width characters, the byte order mark, tag characters)
// is written as its \uXXXX escape, a character outside the Basic
// Multilingual Plane as its UTF-16 pair (\uDB40\uDC41); a byte that is not
// UTF-8 becomes U+FFFD. Printable text passes unchanged.
//
// The result has no character that can move text, hide it, or start a line
// that "\n" does not show, so a reader sees the lines that are there. It
// may still hold "```" or "*/", which the renderers of this package break
// where they would close a fenced block or a JSDoc comment.
func SafeText(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				n = 2
			}
		case r == 0x85 || r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
		case unsafeRune(r):
			writeEscape(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII, tabs and newlines only,
// which SafeText leaves as it is.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' {
			return false
		}
	}
	return true
}

// unsafeRune reports whether SafeText escapes r: a control character other
// than tab and newline, or a format character.
func unsafeRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return true
	case r < 0x7f:
		return false
	}
	return unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029
}

// writeEscape writes r as a JSON and JavaScript escape: \uXXXX, or a
// UTF-16 surrogate pair of them.
func writeEscape(b *strings.Builder, r rune) {
	if r > 0xffff {
		r -= 0x10000
		fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		return
	}
	fmt.Fprintf(b, `\u%04x`, r)
}

// safeLine is SafeText for a place that holds one line: a line break is
// written \u000a too.
func safeLine(s string) string {
	return unfence(strings.ReplaceAll(SafeText(s), "\n", `\u000a`))
}

// unfence breaks every run of three or more backticks in s, which would
// open or close a Markdown fenced code block, by putting a space after
// every second backtick of it.
func unfence(s string) string {
	if !strings.Contains(s, "```") {
		return s
	}
	var b strings.Builder
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			run = 0
			b.WriteByte(s[i])
			continue
		}
		if run == 2 {
			b.WriteByte(' ')
			run = 0
		}
		b.WriteByte('`')
		run++
	}
	return b.String()
}
