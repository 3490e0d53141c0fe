package jq

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// Regular expressions: jq uses Oniguruma (Perl syntax); we use Go's
// regexp (RE2). A pattern is translated where the two differ in meaning
// (\w, \d, \s and POSIX classes match Unicode; ^ is the start of the
// subject and $ its end or the place before a final newline) and the
// flags are jq's: g (all matches), i, x (extended: white space and #
// comments ignored), n (ignore empty matches), s (single line), m and p
// (. matches a newline), l (longest match). Constructs that RE2 lacks
// (look-around, backreferences, atomic groups, possessive quantifiers)
// fail with a message that says so.

// jqRegexp is a compiled pattern.
type jqRegexp struct {
	re        *regexp.Regexp
	endAnchor bool // the pattern ends a match with $ or \Z
}

// jqRegexpCache holds compiled patterns, by pattern and flags.
var jqRegexpCache struct {
	sync.Mutex
	m map[[2]string]*jqRegexp
}

// jqRegexUnsupported lists what RE2 cannot do, by its syntax.
var jqRegexUnsupported = []struct{ prefix, what string }{
	{"(?<=", "look-behind (?<=...)"},
	{"(?<!", "negative look-behind (?<!...)"},
	{"(?=", "look-ahead (?=...)"},
	{"(?!", "negative look-ahead (?!...)"},
	{"(?>", "atomic group (?>...)"},
	{"(?~", "absent operator (?~...)"},
	{`\k<`, `named backreference \k<...>`},
	{`\k'`, `named backreference \k'...'`},
	{`\g<`, `subexpression call \g<...>`},
	{`\g'`, `subexpression call \g'...'`},
	{`\K`, `\K (keep)`},
	{`\G`, `\G (search start anchor)`},
	{`\X`, `\X (extended grapheme cluster)`},
}

// compileJqRegexp compiles re with jq's flags (g and n are the caller's).
func compileJqRegexp(re, flags string) (*jqRegexp, error) {
	key := [2]string{re, flags}
	jqRegexpCache.Lock()
	if r, ok := jqRegexpCache.m[key]; ok {
		jqRegexpCache.Unlock()
		return r, nil
	}
	jqRegexpCache.Unlock()
	extended := strings.ContainsAny(flags, "x")
	translated, endAnchor, err := translateJqRegexp(re, extended)
	if err != nil {
		return nil, err
	}
	prefix := ""
	if strings.ContainsRune(flags, 'i') {
		prefix += "i"
	}
	if strings.ContainsAny(flags, "mp") {
		prefix += "s"
	}
	if prefix != "" {
		translated = "(?" + prefix + ")" + translated
	}
	r, err := regexp.Compile(translated)
	if err != nil {
		return nil, jqRegexpError(err)
	}
	if strings.ContainsRune(flags, 'l') {
		r.Longest()
	}
	out := &jqRegexp{re: r, endAnchor: endAnchor}
	jqRegexpCache.Lock()
	if jqRegexpCache.m == nil || len(jqRegexpCache.m) >= 256 {
		jqRegexpCache.m = map[[2]string]*jqRegexp{}
	}
	jqRegexpCache.m[key] = out
	jqRegexpCache.Unlock()
	return out, nil
}

// jqRegexpError words a compile error as Oniguruma does, where it can.
func jqRegexpError(err error) error {
	var se *syntax.Error
	msg := err.Error()
	if errors.As(err, &se) {
		switch se.Code {
		case syntax.ErrMissingParen:
			msg = "end pattern with unmatched parenthesis"
		case syntax.ErrUnexpectedParen:
			msg = "unmatched close parenthesis"
		case syntax.ErrMissingBracket:
			msg = "premature end of char-class"
		case syntax.ErrMissingRepeatArgument:
			msg = "target of repeat operator is not specified"
		case syntax.ErrInvalidRepeatOp:
			msg = "nested repeat operator"
		case syntax.ErrTrailingBackslash:
			msg = "end pattern at escape"
		case syntax.ErrInvalidCharRange:
			msg = "empty range in char class"
		case syntax.ErrInvalidRepeatSize:
			msg = "too big number for repeat range"
		default:
			msg = se.Code.String() + ": " + se.Expr
		}
	}
	return &jqError{"Regex failure: " + msg}
}

// Unicode versions of the classes, as Oniguruma matches them in UTF-8.
const (
	jqClassWord  = `\p{L}\p{M}\p{Nd}\p{Pc}`
	jqClassDigit = `\p{Nd}`
	jqClassSpace = `\t-\r \x{85}\p{Z}`
)

// jqPosixClasses maps POSIX bracket classes to their Unicode versions.
var jqPosixClasses = map[string]string{
	"alpha": `\p{L}\p{M}`, "alnum": `\p{L}\p{M}\p{Nd}`, "digit": jqClassDigit,
	"upper": `\p{Lu}`, "lower": `\p{Ll}`, "space": jqClassSpace, "word": jqClassWord,
	"punct": `\p{P}`,
}

// translateJqRegexp rewrites an Oniguruma pattern for RE2. It reports
// whether the pattern has an end anchor ($ or \Z outside (?m)).
func translateJqRegexp(re string, extended bool) (string, bool, error) {
	var sb strings.Builder
	endAnchor := false
	inClass := 0
	multiline := strings.Contains(re, "(?m")
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\' && i+1 < len(re):
			n := re[i+1]
			if inClass == 0 {
				if err := jqRegexUnsupportedAt(re[i:]); err != nil {
					return "", false, err
				}
			}
			i++
			switch {
			case n >= '1' && n <= '9' && inClass == 0:
				return "", false, &jqError{"backreference \\" + string(n) + " is not supported: jq here uses RE2"}
			case n == 'w' || n == 'W' || n == 'd' || n == 'D' || n == 's' || n == 'S' || n == 'h' || n == 'H':
				class := map[byte]string{'w': jqClassWord, 'W': jqClassWord, 'd': jqClassDigit, 'D': jqClassDigit,
					's': jqClassSpace, 'S': jqClassSpace, 'h': `\t\p{Zs}`, 'H': `\t\p{Zs}`}[n]
				negated := n == 'W' || n == 'D' || n == 'S' || n == 'H'
				switch {
				case inClass > 0 && !negated:
					sb.WriteString(class)
				case inClass > 0:
					sb.WriteByte('\\')
					sb.WriteByte(n)
				case negated:
					sb.WriteString("[^" + class + "]")
				default:
					sb.WriteString("[" + class + "]")
				}
			case n == 'Z' && inClass == 0:
				endAnchor = true
				sb.WriteString(`\z`)
			case n == 'R' && inClass == 0:
				sb.WriteString(`(?:\r\n|[\n\v\f\r\x{85}\x{2028}\x{2029}])`)
			case n == ' ' || n == '#' && !extended:
				sb.WriteByte(n)
			case n == 'e':
				sb.WriteString(`\x1b`)
			default:
				sb.WriteByte('\\')
				sb.WriteByte(n)
			}
		case inClass > 0:
			if c == '[' && strings.HasPrefix(re[i:], "[:") {
				if end := strings.Index(re[i:], ":]"); end > 0 {
					name := re[i+2 : i+end]
					if u, ok := jqPosixClasses[name]; ok {
						sb.WriteString(u)
						i += end + 1
						continue
					}
					sb.WriteString(re[i : i+end+2])
					i += end + 1
					continue
				}
			}
			if c == '[' {
				inClass++
			}
			if c == ']' && (i == 0 || re[i-1] != '[') {
				inClass--
			}
			sb.WriteByte(c)
		case c == '[':
			inClass = 1
			sb.WriteByte(c)
			// A ] right after [ or [^ is a literal.
			if i+1 < len(re) && re[i+1] == '^' {
				sb.WriteByte('^')
				i++
			}
			if i+1 < len(re) && re[i+1] == ']' {
				sb.WriteString(`\]`)
				i++
			}
		case c == '(':
			if err := jqRegexUnsupportedAt(re[i:]); err != nil {
				return "", false, err
			}
			sb.WriteByte(c)
		case c == '$':
			if multiline {
				sb.WriteByte('$')
			} else {
				endAnchor = true
				sb.WriteString(`\z`)
			}
		case c == '^' && !multiline:
			sb.WriteString(`\A`)
		case extended && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'):
		case extended && c == '#':
			for i < len(re) && re[i] != '\n' {
				i++
			}
		case (c == '+') && i > 0 && jqIsQuantifierEnd(re, i-1):
			return "", false, &jqError{"possessive quantifier " + re[max(0, i-1):i+1] + " is not supported: jq here uses RE2"}
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), endAnchor, nil
}

// jqRegexUnsupportedAt returns the error for a construct that RE2 lacks
// at the start of re, or nil.
func jqRegexUnsupportedAt(re string) error {
	for _, u := range jqRegexUnsupported {
		if strings.HasPrefix(re, u.prefix) {
			return &jqError{u.what + " is not supported: jq here uses RE2"}
		}
	}
	return nil
}

// jqEscapedAt reports whether re[i] follows an odd number of backslashes.
func jqEscapedAt(re string, i int) bool {
	n := 0
	for i > 0 && re[i-1] == '\\' {
		n++
		i--
	}
	return n%2 == 1
}

// jqIsQuantifierEnd reports whether re[i] ends a quantifier (*, +, ? or
// {n,m}) that is not escaped.
func jqIsQuantifierEnd(re string, i int) bool {
	switch re[i] {
	case '*', '+', '?':
		return !jqEscapedAt(re, i) && i > 0 && re[i-1] != '(' && !(re[i] == '?' && i > 0 && (re[i-1] == '*' || re[i-1] == '+' || re[i-1] == '?'))
	case '}':
		return !jqEscapedAt(re, i) && strings.LastIndexByte(re[:i], '{') >= 0
	}
	return false
}

// match implements _match_impl(re; flags; test): jq's f_match.
func (b *jqBinding) match(v, re, flags any, test bool) any {
	s, ok := v.(string)
	if !ok {
		return b.order.typeError(v, "cannot be matched, as it is not a string")
	}
	pattern, ok := re.(string)
	if !ok {
		return b.order.typeError(re, "is not a string")
	}
	var fl string
	switch f := flags.(type) {
	case nil:
	case string:
		for _, c := range f {
			if !strings.ContainsRune("gixnpslm", c) {
				return &jqError{f + " is not a valid modifier string"}
			}
		}
		fl = f
	default:
		return b.order.typeError(flags, "is not a string")
	}
	r, err := compileJqRegexp(pattern, fl)
	if err != nil {
		return err
	}
	subject := s
	if r.endAnchor && strings.HasSuffix(s, "\n") && !r.re.MatchString(s) {
		// $ also matches before a final newline.
		subject = s[:len(s)-1]
	}
	global := strings.ContainsRune(fl, 'g')
	notEmpty := strings.ContainsRune(fl, 'n')
	if test {
		if !notEmpty {
			return r.re.MatchString(subject)
		}
		for _, loc := range r.re.FindAllStringIndex(subject, -1) {
			if loc[1] > loc[0] {
				return true
			}
		}
		return false
	}
	n := 1
	if global {
		n = -1
	}
	var locs [][]int
	if notEmpty {
		for _, loc := range r.re.FindAllStringSubmatchIndex(subject, -1) {
			if loc[1] > loc[0] {
				locs = append(locs, loc)
				if !global {
					break
				}
			}
		}
	} else {
		locs = r.re.FindAllStringSubmatchIndex(subject, n)
		if global {
			locs = jqAddEmptyMatches(r.re, subject, locs)
		}
	}
	names := r.re.SubexpNames()
	out := make([]any, 0, len(locs))
	cp := jqCodepoints{s: s}
	for _, loc := range locs {
		out = append(out, b.matchObject(&cp, s, loc, names))
	}
	return out
}

// jqAddEmptyMatches adds the empty matches that jq reports right after a
// non-empty match (Go skips an empty match that abuts the one before).
func jqAddEmptyMatches(re *regexp.Regexp, s string, locs [][]int) [][]int {
	var out [][]int
	for i, loc := range locs {
		out = append(out, loc)
		end := loc[1]
		if loc[1] == loc[0] || (i+1 < len(locs) && locs[i+1][0] == end) {
			continue
		}
		// Is there an empty match at end, given the context before it?
		_, size := utf8.DecodeLastRuneInString(s[:end])
		probe, err := regexp.Compile(`\A(?s:.)(?:` + re.String() + `)`)
		if err != nil {
			continue
		}
		if m := probe.FindStringSubmatchIndex(s[end-size:]); m != nil && m[1] == size {
			empty := make([]int, len(m))
			for j := range m {
				if m[j] >= 0 {
					empty[j] = m[j] + end - size
				} else {
					empty[j] = -1
				}
			}
			empty[0], empty[1] = end, end
			out = append(out, empty)
		}
	}
	return out
}

// jqCodepoints converts byte offsets to codepoint offsets, in order.
type jqCodepoints struct {
	s          string
	byte, runs int
}

// at returns the codepoint offset of byte offset i.
func (c *jqCodepoints) at(i int) int {
	if i < c.byte {
		c.byte, c.runs = 0, 0
	}
	c.runs += utf8.RuneCountInString(c.s[c.byte:i])
	c.byte = i
	return c.runs
}

// matchObject builds jq's match object, with its keys in jq's order.
func (b *jqBinding) matchObject(cp *jqCodepoints, s string, loc []int, names []string) map[string]any {
	k := b.order
	offset := cp.at(loc[0])
	length := utf8.RuneCountInString(s[loc[0]:loc[1]])
	captures := make([]any, 0, len(loc)/2-1)
	for g := 1; g < len(loc)/2; g++ {
		var name any
		if names[g] != "" {
			name = names[g]
		}
		start, end := loc[2*g], loc[2*g+1]
		var c map[string]any
		switch {
		case loc[0] == loc[1]:
			c = map[string]any{"offset": offset, "string": "", "length": 0, "name": name}
			k.recordTransient(c, []string{"offset", "string", "length", "name"})
		case start < 0:
			c = map[string]any{"offset": -1, "string": nil, "length": 0, "name": name}
			k.recordTransient(c, []string{"offset", "string", "length", "name"})
		case start == end:
			c = map[string]any{"offset": cp.at(start), "string": "", "length": 0, "name": name}
			k.recordTransient(c, []string{"offset", "string", "length", "name"})
		default:
			c = map[string]any{"offset": cp.at(start), "length": utf8.RuneCountInString(s[start:end]), "string": s[start:end], "name": name}
			k.recordTransient(c, []string{"offset", "length", "string", "name"})
		}
		captures = append(captures, c)
	}
	m := map[string]any{"offset": offset, "length": length, "string": s[loc[0]:loc[1]], "captures": captures}
	k.recordTransient(m, []string{"offset", "length", "string", "captures"})
	return m
}
