package textutils

import (
	"bytes"
	"regexp/syntax"
)

// A prefilter finds the lines a regular expression can match by the
// literals every match must contain: `alpha|gamma|zeta` must contain one of
// the three words, `user1[0-9] ` must contain "user1". Go's regexp has a
// fast path only for a literal prefix common to every match; anything else
// (an alternation, say) runs its automaton over every byte of the input,
// which made `grep -E 'alpha|gamma|zeta'` several times slower than a
// search for the words. grep looks for the literals with bytes.Index and
// runs the expression only on the lines that hold one. A line without any
// of them cannot match, so the lines selected are the same.

// maxPrefilterLiterals bounds the literals searched for: past it, the
// automaton is as fast.
const maxPrefilterLiterals = 16

// requiredLiterals returns literals such that every match of pattern (Go
// syntax, as regexp.Compile parses it) contains at least one of them, or
// nil when there are none worth searching for.
func requiredLiterals(pattern string) [][]byte {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	lits := literalSet(re.Simplify())
	if len(lits) == 0 || len(lits) > maxPrefilterLiterals {
		return nil
	}
	for _, l := range lits {
		if len(l) == 0 || bytes.IndexByte(l, '\n') >= 0 {
			return nil
		}
	}
	return lits
}

// literalSet returns literals one of which every match of re contains, or
// nil if it knows none.
func literalSet(re *syntax.Regexp) [][]byte {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return [][]byte{[]byte(string(re.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return literalSet(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literalSet(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// Every match contains a match of each part: take the part whose
		// literals are the most selective (the longest shortest literal).
		var best [][]byte
		bestLen := 0
		for _, sub := range re.Sub {
			set := literalSet(sub)
			if l := shortest(set); l > bestLen || (l == bestLen && l > 0 && len(set) < len(best)) {
				best, bestLen = set, l
			}
		}
		return best
	case syntax.OpAlternate:
		var all [][]byte
		for _, sub := range re.Sub {
			set := literalSet(sub)
			if set == nil {
				return nil
			}
			all = append(all, set...)
			if len(all) > maxPrefilterLiterals {
				return nil
			}
		}
		return all
	}
	return nil
}

// shortest returns the length of the shortest literal in set, 0 for none.
func shortest(set [][]byte) int {
	n := 0
	for i, l := range set {
		if i == 0 || len(l) < n {
			n = len(l)
		}
	}
	return n
}

// prefilter finds, in one buffer at a time, the next line holding one of
// its literals. It remembers where each literal occurs next, so that a
// buffer is scanned once per literal however many lines match. reset must
// be called before it is given a new buffer: grep reads every chunk into
// the same memory.
type prefilter struct {
	lits [][]byte
	next []int // the next occurrence of each literal at or after the last pos (-1: none, -2: not searched)
}

// reset forgets the positions found in the last buffer.
func (p *prefilter) reset() {
	p.next = p.next[:0]
	for range p.lits {
		p.next = append(p.next, -2)
	}
}

// candidate returns the bounds of the first line at or after pos in buf
// (whole lines ending in '\n', or the end of buf) that holds a literal.
// Calls for one buffer must come with increasing pos, after reset.
func (p *prefilter) candidate(buf []byte, pos int) (ls, le int, found bool) {
	if len(p.next) != len(p.lits) {
		p.reset()
	}
	first := -1
	for i, lit := range p.lits {
		if n := p.next[i]; n == -2 || (n >= 0 && n < pos) {
			k := bytes.Index(buf[pos:], lit)
			if k >= 0 {
				k += pos
			}
			p.next[i] = k
		}
		if n := p.next[i]; n >= 0 && (first < 0 || n < first) {
			first = n
		}
	}
	if first < 0 {
		return 0, 0, false
	}
	ls = bytes.LastIndexByte(buf[pos:first], '\n') + 1 + pos
	le = bytes.IndexByte(buf[first:], '\n')
	if le < 0 {
		le = len(buf)
	} else {
		le += first
	}
	return ls, le, true
}
