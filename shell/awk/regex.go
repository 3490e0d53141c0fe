package awk

import (
	"errors"
	"regexp"
	"strings"
)

var posixClasses = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true,
	"space": true, "blank": true, "punct": true, "print": true, "graph": true,
	"cntrl": true, "xdigit": true,
}

// translateERE converts a POSIX extended regular expression, with the
// escapes and GNU extensions that awk accepts, to Go's RE2 syntax. The
// result matches newlines with '.', and is meant to be compiled with
// leftmost-longest semantics.
func translateERE(src string) (string, error) {
	var b strings.Builder
	b.WriteString("(?s)")
	// atStart is true where a repetition operator has nothing to repeat and
	// is therefore literal: at the start, after '(' and after '|'.
	atStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch c {
		case '\\':
			if i+1 >= len(src) {
				b.WriteString(`\\`)
				i++
				break
			}
			n := regexEscape(src[i+1:], &b)
			i += 1 + n
			atStart = false
			continue
		case '[':
			n, err := translateBracket(src[i:], &b)
			if err != nil {
				return "", err
			}
			i += n
			atStart = false
			continue
		case '*', '+', '?':
			if atStart {
				b.WriteByte('\\')
				b.WriteByte(c)
				i++
				atStart = false
				continue
			}
			b.WriteByte(c)
			i++
			// Collapse stacked repetitions ("a**", "a+*"), which RE2 rejects.
			for i < len(src) && (src[i] == '*' || src[i] == '+' || src[i] == '?') {
				if src[i] != c {
					c = '*'
					s := b.String()
					b.Reset()
					b.WriteString(s[:len(s)-1])
					b.WriteByte('*')
				}
				i++
			}
			continue
		case '{':
			if !atStart {
				if n := intervalLen(src[i:]); n > 0 {
					b.WriteString(src[i : i+n])
					i += n
					continue
				}
			}
			b.WriteString(`\{`)
			i++
			atStart = false
			continue
		case '}':
			b.WriteString(`\}`)
			i++
			atStart = false
			continue
		case '(', '|':
			b.WriteByte(c)
			i++
			atStart = true
			continue
		case '^':
			b.WriteByte(c)
			i++
			continue
		default:
			b.WriteByte(c)
		}
		i++
		atStart = false
	}
	return b.String(), nil
}

// intervalLen returns the length of an interval expression {n}, {n,} or
// {n,m} at the start of s, or 0 if there is none.
func intervalLen(s string) int {
	i := 1
	d1 := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		d1++
	}
	if d1 == 0 {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	return 0
}

// regexEscape translates the escape sequence at the start of s (after the
// backslash) and returns its length.
func regexEscape(s string, b *strings.Builder) int {
	d := s[0]
	switch d {
	case 's':
		b.WriteString(`[[:space:]]`)
	case 'S':
		b.WriteString(`[^[:space:]]`)
	case 'w':
		b.WriteString(`[[:alnum:]_]`)
	case 'W':
		b.WriteString(`[^[:alnum:]_]`)
	case 'y', '<', '>':
		b.WriteString(`\b`)
	case 'B':
		b.WriteString(`\B`)
	case '`':
		b.WriteString(`\A`)
	case '\'':
		b.WriteString(`\z`)
	default:
		var lit strings.Builder
		n := unescape(s, &lit, false)
		b.WriteString(regexp.QuoteMeta(lit.String()))
		return n
	}
	return 1
}

// translateBracket translates the bracket expression at the start of s and
// returns its length.
func translateBracket(s string, b *strings.Builder) (int, error) {
	var out strings.Builder
	out.WriteByte('[')
	i := 1
	if i < len(s) && s[i] == '^' {
		out.WriteByte('^')
		i++
	}
	if i < len(s) && s[i] == ']' {
		out.WriteString(`\]`)
		i++
	}
	for {
		if i >= len(s) {
			return 0, errors.New("unterminated [")
		}
		c := s[i]
		switch {
		case c == ']':
			out.WriteByte(']')
			b.WriteString(out.String())
			return i + 1, nil
		case c == '[' && i+1 < len(s) && s[i+1] == ':':
			end := strings.Index(s[i+2:], ":]")
			if end < 0 {
				return 0, errors.New("unterminated [")
			}
			name := s[i+2 : i+2+end]
			if !posixClasses[name] {
				return 0, errors.New("invalid character class")
			}
			out.WriteString("[:" + name + ":]")
			i += 2 + end + 2
		case c == '[' && i+1 < len(s) && (s[i+1] == '.' || s[i+1] == '='):
			end := strings.Index(s[i+2:], string(s[i+1])+"]")
			if end < 0 {
				return 0, errors.New("unterminated [")
			}
			out.WriteString(quoteClassChars(s[i+2 : i+2+end]))
			i += 2 + end + 2
		case c == '\\' && i+1 < len(s):
			var lit strings.Builder
			n := unescape(s[i+1:], &lit, false)
			out.WriteString(quoteClassChars(lit.String()))
			i += 1 + n
		case c == '[' || c == '^' || c == '\\':
			out.WriteByte('\\')
			out.WriteByte(c)
			i++
		default:
			out.WriteByte(c)
			i++
		}
	}
}

// quoteClassChars escapes characters that are special inside an RE2
// character class.
func quoteClassChars(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\', ']', '[', '^', '-':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
