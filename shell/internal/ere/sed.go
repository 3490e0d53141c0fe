package ere

// What GNU sed needs beyond grep and awk: bytes that are not UTF-8, a
// backtracking matcher for back-references and word anchors, and the
// POSIX classes of a UTF-8 locale.

// BytesMode tells how a translation treats bytes that are not UTF-8.
type BytesMode int

const (
	// BytesFFFD reads an invalid byte of the pattern as U+FFFD, as RE2
	// reads one in its input (grep, awk).
	BytesFFFD BytesMode = iota
	// BytesNone makes an invalid byte of the pattern match nothing: the
	// translation for input known to be valid UTF-8.
	BytesNone
	// BytesEscaped is the translation for input where each invalid byte
	// b has been replaced by the rune ByteRune(b) (see Escape): an invalid
	// byte of the pattern matches only that rune, and "." and negated
	// brackets never match one.
	BytesEscaped
)

// byteRuneBase is the start of the runes that stand for invalid bytes: the
// last 128 code points of plane 16 (private use) hold bytes 0x80-0xFF.
const byteRuneBase = 0x10FF00

// ByteRune is the rune that stands for the invalid byte b in escaped input.
func ByteRune(b byte) rune { return byteRuneBase + rune(b) }

// IsByteRune reports whether r stands for an invalid byte, and which.
func IsByteRune(r rune) (byte, bool) {
	if r >= byteRuneBase+0x80 && r <= byteRuneBase+0xFF {
		return byte(r - byteRuneBase), true
	}
	return 0, false
}

// byteRunes is the class of the runes that stand for invalid bytes.
const byteRunes = `\x{10FF80}-\x{10FFFF}`

// HasBackref reports whether the POSIX pattern pat (in the dialect s)
// holds a back-reference, so that it needs a backtracking matcher.
func HasBackref(pat string, s Syntax) bool {
	s.Backrefs, s.Lookaround = false, false
	t := &translator{o: s, pat: pat, atom: -1, start: true}
	return t.run() == ErrBackref
}

// NeedsBacktrack reports whether the POSIX pattern pat (in the dialect s)
// needs a backtracking matcher: it holds a back-reference, or, with Sed, a
// word anchor (\b \B \< \>), which RE2 knows for ASCII words only.
func NeedsBacktrack(pat string, s Syntax) bool {
	s.Backrefs, s.Lookaround = false, false
	t := &translator{o: s, pat: pat, atom: -1, start: true, probe: s.Sed}
	err := t.run()
	return err == ErrBackref || err == errWordAnchor
}

// errWordAnchor stops a probe (NeedsBacktrack) at a word anchor.
var errWordAnchor = reErr("word anchor")

// The word anchors with look-around, for a backtracking matcher, where a
// word character is a letter of any script, a digit or "_" (glibc's).
const (
	wordClass = `[\p{L}0-9_]`
	lookB     = `(?:(?<=` + wordClass + `)(?!` + wordClass + `)|(?<!` + wordClass + `)(?=` + wordClass + `))`
	lookNotB  = `(?:(?<=` + wordClass + `)(?=` + wordClass + `)|(?<!` + wordClass + `)(?!` + wordClass + `))`
	lookStart = `(?<!` + wordClass + `)(?=` + wordClass + `)`
	lookEnd   = `(?<=` + wordClass + `)(?!` + wordClass + `)`
)

// unicodeClasses are the POSIX classes as glibc has them in a UTF-8
// locale (GNU sed's): letters of every script are alpha, upper or lower,
// and every other graphic character is punctuation. They are written for
// use inside a bracket.
var unicodeClasses = map[string]string{
	"alpha":  `\p{L}`,
	"digit":  `0-9`,
	"alnum":  `\p{L}0-9`,
	"upper":  `\p{Lu}\p{Lt}`,
	"lower":  `\p{Ll}`,
	"space":  `\t\n\v\f\r \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200a}\x{2028}\x{2029}\x{205f}\x{3000}`,
	"blank":  `\t \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200a}\x{205f}\x{3000}`,
	"punct":  `!-/:-@\[-` + "`" + `{-~\x{a1}-\x{a9}\x{ab}-\x{b4}\x{b6}-\x{b9}\x{bb}-\x{bf}\x{d7}\x{f7}\p{P}\p{S}`,
	"print":  `\x20-\x7e\x{a0}-\x{10ff7f}`,
	"graph":  `\x21-\x7e\x{a1}-\x{10ff7f}`,
	"cntrl":  `\x00-\x1f\x7f-\x9f\x{2028}\x{2029}`,
	"xdigit": `0-9A-Fa-f`,
}
