package shell

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bash parses arithmetic, and the subscripts of arrays, only when it runs
// them: $(( 1 + )) is an error of that command, with bash's message, and
// ${m[a b]} names the key "a b". The parser the shell uses reads them with
// the script and refuses the script. When it does, deferParse quotes the
// text it refused ($((" 1 + ")), ${m["a b"]}): the quoted text is
// expanded, then evaluated (or used as the key) when the command runs, as
// bash does.

// maxDeferrals bounds how many times one source is rewritten.
const maxDeferrals = 16

// deferParse returns src with the arithmetic expression or subscript
// where the syntax error err is quoted, and true; false when err is not
// in one, or the text cannot be quoted.
func deferParse(src string, err error) (string, bool) {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return "", false
	}
	off := int(pe.Pos.Offset())
	if off < 0 || off > len(src) {
		return "", false
	}
	if s, ok := deferLet(src, off); ok {
		return s, true
	}
	if s, ok := deferArith(src, off); ok {
		return s, true
	}
	return deferSubscript(src, off)
}

// deferLet makes the let whose expressions did not parse (the error is at
// off, in them), or which has none, the builtin, which evaluates its
// arguments as text.
func deferLet(src string, off int) (string, bool) {
	from := strings.LastIndexAny(src[:off], "\n;&|") + 1
	for at := off; at >= from; at-- {
		if !strings.HasPrefix(src[at:], "let") {
			continue
		}
		if at > 0 && !strings.ContainsRune(" \t\n;&|(", rune(src[at-1])) {
			continue
		}
		if rest := src[at+3:]; rest != "" && !strings.ContainsRune(" \t\n;&|)", rune(rest[0])) {
			continue
		}
		return src[:at] + "builtin " + src[at:], true
	}
	return "", false
}

// quotable reports whether text can go inside double quotes unchanged.
func quotable(text string) bool {
	return strings.TrimSpace(text) != "" && !strings.ContainsAny(text, "\"'`\\\n")
}

// deferArith quotes the inside of the $((...)) or ((...)) around off.
func deferArith(src string, off int) (string, bool) {
	start := strings.LastIndex(src[:min(off+2, len(src))], "((")
	if start < 0 {
		return "", false
	}
	if start > 0 && src[start-1] == '(' {
		start-- // "(((" : the arithmetic starts at the second
		if start > 0 && src[start-1] == '(' {
			return "", false
		}
		start++
	}
	depth := 0
	end := -1
	for i := start + 2; i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			if i+1 < len(src) && src[i+1] == ')' {
				end = i
			}
		case '\n', ';', '"', '\'', '`', '\\':
			return "", false
		}
		if end >= 0 || depth < 0 {
			break
		}
	}
	if end < 0 || end < off-1 {
		return "", false
	}
	text := src[start+2 : end]
	if !quotable(text) {
		return "", false
	}
	return src[:start+2] + `"` + text + `"` + src[end:], true
}

// deferSubscript quotes the subscript of ${name[...]} or of an assignment
// name[...]= around off.
func deferSubscript(src string, off int) (string, bool) {
	open := strings.LastIndexByte(src[:min(off+1, len(src))], '[')
	if open < 1 {
		return "", false
	}
	n := open
	for n > 0 && (isNameByte(src[n-1])) {
		n--
	}
	if n == open || !syntax.ValidName(src[n:open]) {
		return "", false
	}
	param := n >= 2 && src[n-2:n] == "${"
	assign := n == 0 || strings.IndexByte(" \t\n;&|(", src[n-1]) >= 0
	if !param && !assign {
		return "", false
	}
	closing := strings.IndexByte(src[open:], ']')
	if closing < 0 {
		return "", false
	}
	closing += open
	if closing < off {
		return "", false
	}
	rest := src[closing+1:]
	if param && !strings.HasPrefix(rest, "}") && !strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, "-") &&
		!strings.HasPrefix(rest, "+") && !strings.HasPrefix(rest, "#") && !strings.HasPrefix(rest, "%") &&
		!strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "@") && !strings.HasPrefix(rest, "^") &&
		!strings.HasPrefix(rest, ",") && !strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "?") {
		return "", false
	}
	if !param && !strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "+=") {
		return "", false
	}
	text := src[open+1 : closing]
	if !quotable(text) || strings.ContainsAny(text, "[]") {
		return "", false
	}
	return src[:open+1] + `"` + text + `"` + src[closing:], true
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
