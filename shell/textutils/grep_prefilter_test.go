package textutils

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestRequiredLiterals(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    []string // nil: no prefilter
	}{
		{`alpha|gamma|zeta`, []string{"alpha", "gamma", "zeta"}},
		{`user1[0-9] `, []string{"user1"}},
		{`(?m)(?:foo)`, []string{"foo"}},
		{`(ab)+c`, []string{"ab"}},
		{`x{2,}yz`, []string{"yz"}},
		{`foo|foobar`, []string{"foo"}},
		{`a.*bcd|ef`, []string{"bcd", "ef"}},
		{`a*`, nil},
		{`foo|.*`, nil},
		{`(?i)foo`, nil},
		{`[ab]c`, []string{"c"}},
		{`x?`, nil},
		{`a\nb`, nil},
		{`(?m)^$`, nil},
	} {
		got := requiredLiterals(c.pattern)
		var gs []string
		for _, l := range got {
			gs = append(gs, string(l))
		}
		if !slices.Equal(gs, c.want) {
			t.Errorf("%q: got %q, want %q", c.pattern, gs, c.want)
		}
	}
}

// TestPrefilterSelectsTheSameLines runs patterns over generated text with
// and without the prefilter and compares the lines each selects.
func TestPrefilterSelectsTheSameLines(t *testing.T) {
	words := []string{"alpha", "beta", "gamma", "user1", "user12 ", "foo", "foobar", "x", "", "zeta", "a\tb", "é", "ab", "abab", "c"}
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range 3000 {
		for n := rng.IntN(6); n > 0; n-- {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	buf := []byte(b.String())
	for _, p := range []struct {
		mode     byte
		patterns []string
		word     bool
		line     bool
	}{
		{'E', []string{"alpha|gamma|zeta"}, false, false},
		{'E', []string{"user1[0-9] "}, false, false},
		{'G', []string{`\(ab\)\{2\}`}, false, false},
		{'E', []string{"foo|foobar"}, true, false},
		{'E', []string{"(ab)+c?"}, false, true},
		{'F', []string{"beta", "zeta"}, false, false},
		{'E', []string{"^alpha", "gamma$"}, false, false},
		{'E', []string{"a.*c|é"}, false, false},
		{'P', []string{`\bfoo\b`}, false, false},
	} {
		o := grepOpts{mode: p.mode, patterns: p.patterns, word: p.word, line: p.line}
		m, err := newMatcher(o)
		if err != nil {
			t.Fatal(err)
		}
		if m.pre == nil {
			t.Errorf("%q: no prefilter", p.patterns)
			continue
		}
		plain := *m
		plain.pre = nil
		if got, want := selected(m, buf), selected(&plain, buf); !slices.Equal(got, want) {
			t.Errorf("%q: the prefilter selects %d lines, the expression %d", p.patterns, len(got), len(want))
		} else if len(want) == 0 {
			t.Errorf("%q: selects nothing; the test data should hold matches", p.patterns)
		}
	}
}

// selected returns the start of every line m.next selects in buf.
func selected(m *matcher, buf []byte) []string {
	m.startBuffer()
	var out []string
	for pos := 0; pos < len(buf); {
		ls, le, found := m.next(buf, pos)
		if !found {
			break
		}
		out = append(out, fmt.Sprint(ls))
		pos = le + 1
	}
	return out
}

// grep reads every chunk of a file into the same memory: a prefilter must
// not carry positions from one chunk to the next.
func TestPrefilterForgetsTheLastBuffer(t *testing.T) {
	m, err := newMatcher(grepOpts{mode: 'E', patterns: []string{"alpha|zeta"}})
	if err != nil || m.pre == nil {
		t.Fatal(err, m.pre)
	}
	buf := []byte("x\nx\nalpha\n")
	if got := selected(m, buf); !slices.Equal(got, []string{"4"}) {
		t.Fatalf("first chunk: %q", got)
	}
	copy(buf, "zeta\nx\nyy\n")
	if got := selected(m, buf); !slices.Equal(got, []string{"0"}) {
		t.Errorf("second chunk, same memory: %q", got)
	}
}

// Over a file of many chunks, grep with a prefilter counts what a search
// for each word counts.
func TestPrefilteredGrepOverManyChunks(t *testing.T) {
	var b strings.Builder
	want := 0
	for i := range 60000 {
		w := []string{"alpha", "beta", "gamma", "delta", "zeta"}[i*7%5]
		if w == "alpha" || w == "zeta" {
			want++
		}
		fmt.Fprintf(&b, "2026-11-21 host%d %s user%d request %d\n", i%7, w, i%113, i)
	}
	out, errOut, st, _ := runCmd(context.Background(), map[string]string{"log.txt": b.String()}, "", "grep", "-cE", "alpha|zeta", "log.txt")
	if st != 0 || out != fmt.Sprintf("%d\n", want) {
		t.Errorf("got %q (%d, %s), want %d", out, st, errOut, want)
	}
}
