package dsl

import (
	"fmt"
	"strings"

	"github.com/cordonhq/cordon/internal/dslutil"
	"github.com/gobwas/glob"
)

// MatchMethod reports whether the method pattern matches method, with the
// semantics Method describes, or fails when the pattern is invalid. The
// generated Rego agrees with it.
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
	variants, err := dslutil.ExpandPattern(pattern)
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
