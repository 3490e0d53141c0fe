package textutils

import (
	"errors"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/internal/ere"
	"github.com/dlclark/regexp2/v2"
)

// sedRegex is one compiled regex of a sed script. GNU sed matches bytes,
// not only text: a byte that is not UTF-8 matches only itself (never "."
// nor a negated bracket), and back-references need a backtracking matcher.
// So a regex has up to three forms, chosen by pattern and input:
//
//   - fast: RE2, leftmost-longest as POSIX wants, for input that is valid
//     UTF-8 (nearly all of it) when the pattern has no back-reference;
//   - escaped: RE2 again, compiled on first need, for input holding
//     invalid bytes, which is first rewritten so that each such byte is a
//     rune of its own (ere.ByteRune);
//   - back: regexp2 (which goja already links) for patterns with
//     back-references, over runes where invalid bytes are escaped the
//     same way. regexp2 backtracks, leftmost-first rather than POSIX's
//     leftmost-longest; RATIONALE.md says why that is the trade chosen.
type sedRegex struct {
	syn   ere.Syntax
	pat   string
	multi bool // the M flag
	// swapNL: match a copy of the input where NUL and newline have
	// traded places (the M flag with -z; see swapNLPattern).
	swapNL bool
	nsub   int

	fast  *regexp.Regexp
	back  *regexp2.Regexp
	probe *regexp2.Regexp // back anchored at both ends (see findBack)

	once    sync.Once
	escaped *regexp.Regexp
	escErr  error
}

// backStack bounds the backtracking stack of one regexp2 match (in int
// slots: 32 MiB). A backtracking matcher can also take exponential time on
// a hostile pattern; as for goja's regexes, the sandbox's time limit ends
// it (regexp2's own timeout needs a clock goroutine that cannot run while
// the WebAssembly guest matches, so none is set).
const backStack = 1 << 22

// probeBudget bounds the probes for longer matches in one search (each is
// one anchored match): past it, the first match found stands.
const probeBudget = 4096

// rightContext reports whether a translated pattern looks past the end of
// its match: an end anchor ($ or \z) or a look-ahead (the word anchors).
func rightContext(s string) bool {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			if s[i+1] == 'z' {
				return true
			}
			i++
		case s[i] == '$':
			return true
		case s[i] == '(' && strings.HasPrefix(s[i:], "(?=") || strings.HasPrefix(s[i:], "(?!"):
			return true
		case s[i] == '[':
			// A class: skip to its end ("]" first is a member).
			j := i + 1
			if j < len(s) && s[j] == '^' {
				j++
			}
			if j < len(s) && s[j] == ']' {
				j++
			}
			for j < len(s) && s[j] != ']' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		}
	}
	return false
}

// errBacktrack is reported when regexp2 gives up on a match.
var errBacktrack = errors.New("regular expression too complex to match")

func compileSedRegex(pat string, syn ere.Syntax, multi bool) (*sedRegex, error) {
	r := &sedRegex{syn: syn, pat: pat, multi: multi}
	if ere.NeedsBacktrack(pat, syn) {
		syn.Backrefs, syn.Lookaround, syn.Bytes = true, true, ere.BytesEscaped
		s, err := ere.Translate(pat, syn)
		if err != nil {
			return nil, err
		}
		opts := regexp2.RE2
		if multi {
			opts |= regexp2.Multiline
		}
		re, err := regexp2.Compile(s, opts, regexp2.OptionMaxBacktrackingStackSize(backStack))
		if err != nil {
			return nil, &ere.Error{Msg: err.Error()}
		}
		r.back = re
		if !multi && !rightContext(s) {
			// POSIX wants the longest match at the leftmost position;
			// regexp2 finds the first in its backtracking order. The
			// probe tells whether a longer one exists: it must start
			// where the match did (\G) and end at the end of input
			// that is cut where the longer match would end (\z), which
			// is sound when nothing in the pattern looks past a match.
			if pr, err := regexp2.Compile(`\G(?:`+s+`)\z`, opts, regexp2.OptionMaxBacktrackingStackSize(backStack)); err == nil {
				r.probe = pr
			}
		}
		r.nsub = len(re.GetGroupNumbers()) - 1
		return r, nil
	}
	syn.Bytes = ere.BytesNone
	re, err := r.compileRE2(syn)
	if err != nil {
		return nil, err
	}
	r.fast = re
	r.nsub = re.NumSubexp()
	return r, nil
}

func (r *sedRegex) compileRE2(syn ere.Syntax) (*regexp.Regexp, error) {
	s, err := ere.Translate(r.pat, syn)
	if err != nil {
		return nil, err
	}
	if r.multi {
		s = "(?m)" + s
	}
	return ere.CompileRE2(s, true)
}

// NumSubexp is the number of groups.
func (r *sedRegex) NumSubexp() int { return r.nsub }

// escapedRE returns the RE2 form for escaped input.
func (r *sedRegex) escapedRE() (*regexp.Regexp, error) {
	r.once.Do(func() {
		syn := r.syn
		syn.Bytes = ere.BytesEscaped
		r.escaped, r.escErr = r.compileRE2(syn)
	})
	return r.escaped, r.escErr
}

// Match reports whether b holds a match.
func (r *sedRegex) Match(b []byte) (bool, error) {
	if r.back == nil && !r.swapNL && utf8.Valid(b) {
		return r.fast.Match(b), nil
	}
	locs, err := r.FindAll(b, 1)
	return len(locs) > 0, err
}

// FindAll returns the submatch offsets (in b) of up to n matches (all when
// n < 0), with the rules of GNU sed's s///g: an empty match right after
// the previous match does not count.
func (r *sedRegex) FindAll(b []byte, n int) ([][]int, error) {
	if r.swapNL {
		c := make([]byte, len(b))
		for i, x := range b {
			switch x {
			case '\n':
				x = 0
			case 0:
				x = '\n'
			}
			c[i] = x
		}
		b = c
	}
	if r.back == nil && utf8.Valid(b) {
		if n == 1 {
			loc := r.fast.FindSubmatchIndex(b)
			if loc == nil {
				return nil, nil
			}
			return [][]int{loc}, nil
		}
		return r.fast.FindAllSubmatchIndex(b, n), nil
	}
	if r.back == nil {
		re, err := r.escapedRE()
		if err != nil {
			return nil, err
		}
		esc, offs := escapeBytes(b)
		locs := re.FindAllSubmatchIndex(esc, n)
		for _, loc := range locs {
			for i, x := range loc {
				if x >= 0 {
					loc[i] = offs[x]
				}
			}
		}
		return locs, nil
	}
	return r.findBack(b, n)
}

// findBack is FindAll with regexp2.
func (r *sedRegex) findBack(b []byte, n int) ([][]int, error) {
	runes, offs := bytesToRunes(b)
	var out [][]int
	pos, prevEnd := 0, -1
	budget := probeBudget
	for pos <= len(runes) && (n < 0 || len(out) < n) {
		m, err := r.back.FindRunesMatchStartingAt(runes, pos)
		if err != nil {
			return nil, errBacktrack
		}
		if m == nil {
			break
		}
		start, end := m.RuneIndex, m.RuneIndex+m.RuneLength
		if start == end && start == prevEnd {
			// An empty match where the last one ended: look further on.
			if start >= len(runes) {
				break
			}
			pos = start + 1
			m, err = r.back.FindRunesMatchStartingAt(runes, pos)
			if err != nil {
				return nil, errBacktrack
			}
			if m == nil {
				break
			}
			start, end = m.RuneIndex, m.RuneIndex+m.RuneLength
		}
		if r.probe != nil && budget > 0 {
			// Look for a longer match at the same start, longest first.
			for e := len(runes); e > end && budget > 0; e-- {
				budget--
				pm, err := r.probe.FindRunesMatchStartingAt(runes[:e], start)
				if err != nil {
					return nil, errBacktrack
				}
				if pm != nil && pm.RuneIndex == start {
					m, end = pm, e
					break
				}
			}
		}
		loc := make([]int, 2*(r.nsub+1))
		for g := 0; g <= r.nsub; g++ {
			grp := m.GroupByNumber(g)
			if grp == nil || len(grp.Captures) == 0 {
				loc[2*g], loc[2*g+1] = -1, -1
				continue
			}
			loc[2*g], loc[2*g+1] = offs[grp.RuneIndex], offs[grp.RuneIndex+grp.RuneLength]
		}
		out = append(out, loc)
		prevEnd = end
		if end > start {
			pos = end
		} else {
			pos = end + 1
		}
	}
	return out, nil
}

// escapeBytes rewrites the invalid bytes of b as the runes standing for
// them (ere.ByteRune); offs maps each offset of the result that starts a
// rune (and its end) to the offset in b.
func escapeBytes(b []byte) ([]byte, []int) {
	out := make([]byte, 0, len(b)+len(b)/2+4)
	offs := make([]int, 0, cap(out)+1)
	for i := 0; i < len(b); {
		r, n := decodeGlibc(b[i:])
		k := len(out)
		out = utf8.AppendRune(out, r)
		for range len(out) - k {
			offs = append(offs, i)
		}
		i += n
	}
	offs = append(offs, len(b))
	return out, offs
}

// bytesToRunes decodes b for regexp2, an invalid byte as ere.ByteRune;
// offs maps rune indexes (and the end) to offsets in b.
func bytesToRunes(b []byte) ([]rune, []int) {
	runes := make([]rune, 0, len(b))
	offs := make([]int, 0, len(b)+1)
	for i := 0; i < len(b); {
		r, n := decodeGlibc(b[i:])
		runes = append(runes, r)
		offs = append(offs, i)
		i += n
	}
	offs = append(offs, len(b))
	return runes, offs
}

// otherChar stands for the characters glibc decodes that UTF-8 proper
// refuses (surrogates, code points past U+10FFFF in 4 to 6 bytes): one
// character each, as in GNU sed, all of them this one rune of plane 15's
// private use area.
const otherChar = 0xFFFFD

// decodeGlibc decodes the character at the start of b as glibc's UTF-8
// does; an invalid byte is ere.ByteRune of it.
func decodeGlibc(b []byte) (rune, int) {
	r, n := utf8.DecodeRune(b)
	if r != utf8.RuneError || n > 1 {
		return r, n
	}
	c := b[0]
	var size int
	var min byte = 0x80 // the least second byte that is not overlong
	switch {
	case c == 0xED:
		size, min = 3, 0xA0 // a surrogate (others were decoded above)
	case c >= 0xF4 && c <= 0xF7:
		size = 4
		if c == 0xF4 {
			min = 0x90
		}
	case c >= 0xF8 && c <= 0xFB:
		size = 5
		if c == 0xF8 {
			min = 0x88
		}
	case c == 0xFC || c == 0xFD:
		size = 6
		if c == 0xFC {
			min = 0x84
		}
	}
	if size == 0 || len(b) < size || b[1] < min || b[1] > 0xBF {
		return ere.ByteRune(c), 1
	}
	for _, d := range b[2:size] {
		if d < 0x80 || d > 0xBF {
			return ere.ByteRune(c), 1
		}
	}
	return otherChar, size
}
