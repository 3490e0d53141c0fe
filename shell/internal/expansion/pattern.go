package expansion

import (
	"regexp"
	"strconv"
	"sync"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// The caches of compiled patterns, and the quick test of which words need
// their subscripts evaluated first.

var (
	patMu    sync.Mutex
	patCache = map[string]*regexp.Regexp{} // shell patterns (CompilePattern)
	reCache  = map[reKey]*regexp.Regexp{}  // regular expressions (CompileRegexp)
)

// CompilePattern compiles a shell pattern, as mvdan.cc/sh/v3/pattern
// translates it with mode, into a regular expression. Compiled patterns
// are cached; the cache is safe for concurrent use.
func CompilePattern(pat string, mode pattern.Mode) (*regexp.Regexp, error) {
	key := strconv.Itoa(int(mode)) + "\x00" + pat
	patMu.Lock()
	re, ok := patCache[key]
	patMu.Unlock()
	if ok {
		return re, nil
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return nil, err
	}
	re, err = regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	cachePattern(key, re)
	return re, nil
}

// CompileRegexp compiles a Go regular expression (leftmost-longest if
// longest), caching: ${x//pat/rep} and [[ s =~ re ]] in a loop compiled the
// same expression on every iteration.
func CompileRegexp(expr string, longest bool) (*regexp.Regexp, error) {
	key := reKey{expr, longest}
	patMu.Lock()
	re, ok := reCache[key]
	patMu.Unlock()
	if ok {
		return re, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	if longest {
		re.Longest() // before anyone else sees it: Longest is not safe for concurrent use
	}
	if len(expr) <= maxCachedPattern {
		patMu.Lock()
		if len(reCache) >= maxCachedPatterns {
			clear(reCache)
		}
		reCache[key] = re
		patMu.Unlock()
	}
	return re, nil
}

// reKey is the key of reCache.
type reKey struct {
	expr    string
	longest bool
}

// Bounds of the caches of compiled patterns: the patterns come from
// scripts.
const (
	maxCachedPatterns = 1000
	maxCachedPattern  = 4 << 10
)

// cachePattern remembers a compiled shell pattern.
func cachePattern(key string, re *regexp.Regexp) {
	if len(key) > maxCachedPattern {
		return
	}
	patMu.Lock()
	if len(patCache) >= maxCachedPatterns {
		clear(patCache)
	}
	patCache[key] = re
	patMu.Unlock()
}

// plainParts reports whether parts certainly hold neither a process
// substitution nor a ${...} subscript or slice outside command
// substitutions: the two things checkWord and hasArithExp look for. It
// answers from the node types of a typical word without walking the tree
// (Walk allocates, and every word of every command is checked); false
// means "not known", and the caller walks.
func plainParts(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted, *syntax.CmdSubst:
			// Neither walk looks inside a command substitution.
		case *syntax.DblQuoted:
			if !plainParts(p.Parts) {
				return false
			}
		case *syntax.ParamExp:
			if p.Flags != nil || p.NestedParam != nil || p.Index != nil || p.Slice != nil ||
				p.Repl != nil || p.Exp != nil || len(p.Modifiers) != 0 {
				return false
			}
		case *syntax.ArithmExp:
			if !plainArithm(p.X) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// plainArithm is plainParts for an arithmetic expression.
func plainArithm(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		return plainArithm(x.X) && plainArithm(x.Y)
	case *syntax.UnaryArithm:
		return plainArithm(x.X)
	case *syntax.ParenArithm:
		return plainArithm(x.X)
	case *syntax.Word:
		return plainParts(x.Parts)
	}
	return false
}
