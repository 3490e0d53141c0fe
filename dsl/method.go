package dsl

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gobwas/glob"
)

// MaxSuperSegments is the most "**" segments a method pattern may hold
// (after runs of them are merged, see ExpandPattern), since each one
// doubles the globs the pattern expands to.
const MaxSuperSegments = 4

// ExpandPattern returns the plain gobwas/glob patterns (with '/' as the
// separator) whose union is the method pattern, and checks the pattern.
//
// In a method pattern, "*" matches within one segment, and "**" as a whole
// segment matches zero or more segments anywhere: "stripe/**" matches
// "stripe" and "stripe/a/b", "**/create" matches "create", "a/**/b"
// matches "a/b" and "a/x/y/b". gobwas/glob alone needs at least the
// separators around a "**", so each "**" segment is expanded into a variant
// without it (zero segments) and one with it (one or more). Runs of "**"
// segments are merged first, which does not change what matches. A
// pattern without "**" segments expands to itself.
//
// It fails for an empty pattern, invalid UTF-8, characters that do not
// print (line breaks and other controls), an empty segment, "**"
// inside a segment ("a**"), more than MaxSuperSegments "**" segments, and
// glob syntax errors.
func ExpandPattern(pattern string) ([]string, error) {
	if pattern == "" {
		return nil, errors.New("dsl: the method pattern is empty")
	}
	if !utf8.ValidString(pattern) {
		return nil, fmt.Errorf("dsl: method pattern %s is not valid UTF-8", Quote(pattern))
	}
	if i := strings.IndexFunc(pattern, func(r rune) bool { return !unicode.IsPrint(r) }); i >= 0 {
		return nil, fmt.Errorf("dsl: method pattern %s holds a character that does not print", Quote(pattern))
	}
	var segs []string
	supers := 0
	for _, s := range strings.Split(pattern, "/") {
		switch {
		case s == "":
			return nil, fmt.Errorf("dsl: method pattern %s has an empty segment", Quote(pattern))
		case s == "**":
			if len(segs) > 0 && segs[len(segs)-1] == "**" {
				continue // "**/**" matches what "**" matches
			}
			supers++
		case hasSuperGlob(s):
			return nil, fmt.Errorf("dsl: method pattern %s: \"**\" must be a whole segment (write %s/** or use * within a segment)", Quote(pattern), Quote(s))
		}
		segs = append(segs, s)
	}
	if supers > MaxSuperSegments {
		return nil, fmt.Errorf("dsl: method pattern %s has %d \"**\" segments; at most %d are allowed", Quote(pattern), supers, MaxSuperSegments)
	}
	if _, err := glob.Compile(pattern, '/'); err != nil {
		return nil, fmt.Errorf("dsl: method pattern %s: %v", Quote(pattern), strings.TrimPrefix(err.Error(), "glob: "))
	}

	// Variant k drops the "**" segments whose bit is clear in k: variant 0
	// drops them all, the last keeps them all.
	var out []string
	seen := map[string]bool{}
	for k := 0; k < 1<<supers; k++ {
		var kept []string
		bit := 0
		for _, s := range segs {
			if s == "**" {
				keep := k&(1<<bit) != 0
				bit++
				if !keep {
					continue
				}
			}
			kept = append(kept, s)
		}
		v := strings.Join(kept, "/")
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out, nil
}

// hasSuperGlob reports whether a segment holds an unescaped "**".
func hasSuperGlob(seg string) bool {
	star := false
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '\\':
			i++
			star = false
		case '*':
			if star {
				return true
			}
			star = true
		default:
			star = false
		}
	}
	return false
}

// MatchMethod reports whether the method pattern matches method, with the
// semantics ExpandPattern describes: the method matches when one of the
// expanded globs matches it. The generated Rego agrees with it.
func MatchMethod(pattern, method string) (bool, error) {
	m, err := compileMethod(pattern)
	if err != nil {
		return false, err
	}
	return m.match(method), nil
}

// methodMatcher is a compiled method pattern.
type methodMatcher []*glob.Pattern

func compileMethod(pattern string) (methodMatcher, error) {
	variants, err := ExpandPattern(pattern)
	if err != nil {
		return nil, err
	}
	m := make(methodMatcher, len(variants))
	for i, v := range variants {
		if m[i], err = glob.Compile(v, '/'); err != nil {
			return nil, fmt.Errorf("dsl: method pattern %s: %v", Quote(pattern), strings.TrimPrefix(err.Error(), "glob: "))
		}
	}
	return m, nil
}

func (m methodMatcher) match(method string) bool {
	for _, g := range m {
		if g.Match(method) {
			return true
		}
	}
	return false
}
