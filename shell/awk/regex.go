package awk

import (
	"regexp"
	"strings"

	"github.com/cordonhq/cordon/shell/internal/ere"
)

// awkSyntax is awk's dialect of the POSIX ERE: its string escapes (also in
// brackets), gawk's \y \< \> \s \S \w \W \B \` \', and '.' matching a
// newline. The translation is the one grep -E and sed -E use (package ere).
var awkSyntax = ere.Syntax{Extended: true, DotNL: true, AWK: true}

// compileRegex is the regexp compiler used for literals and dynamic
// regexes: leftmost-longest, as POSIX matching is.
func compileRegex(src string) (*regexp.Regexp, error) {
	return ere.Compile(src, awkSyntax)
}

// regexProblem names the kind of a regex's error in onetrueawk's words:
// an unclosed bracket expression, an operand missing after "(", or
// another syntax error.
func regexProblem(src string, err error) string {
	switch {
	case strings.Contains(err.Error(), "Unmatched ["):
		return "nonterminated character class"
	case strings.HasSuffix(src, "(") && !strings.HasSuffix(src, `\(`):
		return "illegal primary in regular expression"
	}
	return "syntax error in regular expression"
}
