package expansion

import (
	"strings"
	"testing"
	"time"
)

func TestMatcher(t *testing.T) {
	tests := []struct {
		pat, s string
		mode   MatchMode
		want   bool
	}{
		{"@(a|b)", "a", MatchExtGlob, true},
		{"@(a|b)", "ab", MatchExtGlob, false},
		{"!(*.c)", "x.h", MatchExtGlob, true},
		{"!(*.c)", "x.c", MatchExtGlob, false},
		{"!(!(a))", "a", MatchExtGlob, true},
		{"+([0-9])", "123", MatchExtGlob, true},
		{"+([0-9])", "", MatchExtGlob, false},
		{"*(ab|c)", "abcab", MatchExtGlob, true},
		{"x.?(c|h)", "x.", MatchExtGlob, true},
		{"[[:alpha:]_]*([[:alnum:]_])", "_x1", MatchExtGlob, true},
		{"*!(a)", "a", MatchExtGlob, false}, // bash's * never reaches the end before more pattern
		{"*!(a)", "ab", MatchExtGlob, true},
		{"*?(x)", "a", MatchExtGlob, true},
		{"@(*)", ".a", MatchExtGlob | MatchPeriod, false},
		{"*(.)*", ".a", MatchExtGlob | MatchPeriod, true},
		{"!(x)", ".a", MatchExtGlob | MatchPeriod, false},
		{"@(A|b)", "a", MatchExtGlob | MatchFold, true},
		{"d/*", "d/e/f", MatchPathname, false},
		{`@(a\|b)`, "a|b", MatchExtGlob, true},
		{"[!a]", "b", 0, true},
		{"[]a]", "]", 0, true},
		{"[a-", "[a-", 0, true},
	}
	for _, tt := range tests {
		if got := CompileMatcher(tt.pat, tt.mode).Match(tt.s); got != tt.want {
			t.Errorf("%q matching %q (mode %d) = %v, want %v", tt.pat, tt.s, tt.mode, got, tt.want)
		}
	}
}

// TestMatcherHostile checks that patterns that make a backtracking matcher
// take exponential time end quickly.
func TestMatcherHostile(t *testing.T) {
	s := strings.Repeat("a", 3000) + "b"
	pats := []string{
		strings.Repeat("*(a|aa)", 30),
		strings.Repeat("!(*a)", 20),
		strings.Repeat("*?(a)", 40) + "c",
		"+(+(+(+(a))))c",
	}
	for _, p := range pats {
		start := time.Now()
		CompileMatcher(p, MatchExtGlob).Match(s)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q took %v", p, d)
		}
	}
}
