package coreutils

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// fnmatch reports whether name matches the shell pattern pat, like
// fnmatch(3) without flags: '*' and '?' match any character including '/'
// and a leading '.', brackets support ranges, negation with '!' or '^' and
// [:class:] names, and a backslash quotes the next character. With fold,
// letters match case-insensitively. It runs in O(len(pat)*len(name)).
func fnmatch(pat, name string, fold bool) bool {
	if fold {
		pat, name = strings.ToLower(pat), strings.ToLower(name)
	}
	px, nx := 0, 0
	starPx, starNx := -1, -1
	for nx < len(name) || px < len(pat) {
		if px < len(pat) {
			switch pat[px] {
			case '*':
				starPx, starNx = px, nx
				px++
				continue
			case '?':
				if nx < len(name) {
					_, sz := utf8.DecodeRuneInString(name[nx:])
					px++
					nx += sz
					continue
				}
			case '[':
				if nx < len(name) {
					r, sz := utf8.DecodeRuneInString(name[nx:])
					if ok, plen, valid := matchBracket(pat[px:], r); valid {
						if ok {
							px += plen
							nx += sz
							continue
						}
					} else if name[nx] == '[' {
						px++
						nx++
						continue
					}
				}
			case '\\':
				if px+1 < len(pat) {
					if nx < len(name) && name[nx] == pat[px+1] {
						px += 2
						nx++
						continue
					}
				} else if nx < len(name) && name[nx] == '\\' {
					px++
					nx++
					continue
				}
			default:
				if nx < len(name) && name[nx] == pat[px] {
					px++
					nx++
					continue
				}
			}
		}
		if starPx >= 0 && starNx < len(name) {
			_, sz := utf8.DecodeRuneInString(name[starNx:])
			starNx += sz
			px, nx = starPx+1, starNx
			continue
		}
		return false
	}
	return true
}

// charClasses are the [:class:] names of bracket expressions.
var charClasses = map[string]func(rune) bool{
	"alpha":  unicode.IsLetter,
	"digit":  func(r rune) bool { return r >= '0' && r <= '9' },
	"alnum":  func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) },
	"upper":  unicode.IsUpper,
	"lower":  unicode.IsLower,
	"space":  unicode.IsSpace,
	"blank":  func(r rune) bool { return r == ' ' || r == '\t' },
	"punct":  func(r rune) bool { return r < 128 && unicode.IsPunct(r) || r < 128 && unicode.IsSymbol(r) },
	"print":  func(r rune) bool { return unicode.IsPrint(r) },
	"graph":  func(r rune) bool { return unicode.IsPrint(r) && r != ' ' },
	"cntrl":  unicode.IsControl,
	"xdigit": func(r rune) bool { return strings.ContainsRune("0123456789abcdefABCDEF", r) },
}

// matchBracket matches r against the bracket expression at the start of
// pat. It returns whether r matches, the length of the expression, and
// whether the expression is well formed (closed by ']').
func matchBracket(pat string, r rune) (matched bool, length int, valid bool) {
	i := 1
	negate := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negate = true
		i++
	}
	first := true
	for i < len(pat) {
		c := pat[i]
		if c == ']' && !first {
			return matched != negate, i + 1, true
		}
		first = false
		if c == '[' && i+1 < len(pat) && pat[i+1] == ':' {
			if end := strings.Index(pat[i+2:], ":]"); end >= 0 {
				if f, ok := charClasses[pat[i+2:i+2+end]]; ok {
					if f(r) {
						matched = true
					}
					i += end + 4
					continue
				}
			}
		}
		if c == '\\' && i+1 < len(pat) {
			i++
		}
		lo, sz := utf8.DecodeRuneInString(pat[i:])
		i += sz
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			i++
			if pat[i] == '\\' && i+1 < len(pat) {
				i++
			}
			h, sz := utf8.DecodeRuneInString(pat[i:])
			hi = h
			i += sz
		}
		if lo <= r && r <= hi {
			matched = true
		}
	}
	return false, 0, false
}
