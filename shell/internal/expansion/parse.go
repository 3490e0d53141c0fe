package expansion

import "mvdan.cc/sh/v3/syntax"

// NewParser returns a parser for bash syntax, the one the shell reads
// scripts with, and the one expansion reads text with that becomes code
// when it runs (${!ref}, arithmetic in a variable, $'...' in double
// quotes).
func NewParser() *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}

// maxNesting bounds the nesting of brackets in source text given to the
// parser, whose recursion would otherwise grow without bound on hostile
// input such as 100000 nested parentheses.
const maxNesting = 1000

// TooDeep reports whether src nests brackets deeper than 1000 levels.
func TooDeep(src string) bool {
	depth := 0
	inSingle := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inSingle {
			if c == '\'' {
				inSingle = false
			}
			continue
		}
		switch c {
		case '\\':
			i++
		case '\'':
			inSingle = true
		case '(', '{', '[':
			depth++
			if depth > maxNesting {
				return true
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return false
}
