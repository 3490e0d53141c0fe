package expansion

import (
	"math/bits"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file is bash's own pattern matcher, for the patterns that Go's
// regular expressions cannot express: the extended operators ?(...)
// *(...) +(...) @(...) and above all !(...), nested and with alternatives.
// A pattern is parsed into a tree and matched by sets of positions: each
// node maps the set of positions where it may start to the set where it
// may end, so that no input makes the matcher backtrack exponentially. A
// budget bounds the work on hostile input; past it the pattern does not
// match.

// MatchMode holds the options of a Matcher.
type MatchMode uint8

const (
	// MatchExtGlob recognizes the extended operators (shopt extglob, and
	// always in [[ ]]).
	MatchExtGlob MatchMode = 1 << iota
	// MatchFold ignores case (nocasematch, nocaseglob).
	MatchFold
	// MatchPeriod requires a leading "." to be matched by a literal "."
	// (a file name without dotglob).
	MatchPeriod
	// MatchPathname keeps * ? and bracket expressions from matching "/".
	MatchPathname
)

// Matcher is a compiled shell pattern.
type Matcher struct {
	nodes []pnode
	mode  MatchMode
}

// Kinds of pattern nodes.
const (
	pLit   = iota // one literal character
	pAny          // ?
	pStar         // *
	pClass        // [...]
	pGroup        // op(alt|alt...)
)

type pnode struct {
	kind  uint8
	op    byte // of a group: ? * + @ !
	r     rune // of a literal
	class *bclass
	alts  [][]pnode
}

// bclass is a bracket expression.
type bclass struct {
	neg     bool
	runes   []rune
	ranges  [][2]rune
	classes []string
}

// HasExtGlob reports whether pat has an unescaped extended operator
// followed by "(".
func HasExtGlob(pat string) bool {
	for i := 0; i+1 < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '?', '*', '+', '@', '!':
			if pat[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

var (
	matcherMu    sync.Mutex
	matcherCache = map[matcherKey]*Matcher{}
)

type matcherKey struct {
	pat  string
	mode MatchMode
}

// CompileMatcher parses a shell pattern, in which a backslash quotes the
// next character. Compiled patterns are cached.
func CompileMatcher(pat string, mode MatchMode) *Matcher {
	key := matcherKey{pat, mode}
	matcherMu.Lock()
	m, ok := matcherCache[key]
	matcherMu.Unlock()
	if ok {
		return m
	}
	p := patParser{s: pat, ext: mode&MatchExtGlob != 0}
	m = &Matcher{nodes: p.seq(false), mode: mode}
	if len(pat) <= maxCachedPattern {
		matcherMu.Lock()
		if len(matcherCache) >= maxCachedPatterns {
			clear(matcherCache)
		}
		matcherCache[key] = m
		matcherMu.Unlock()
	}
	return m
}

// patParser parses a pattern.
type patParser struct {
	s   string
	i   int
	ext bool
}

// seq parses nodes up to the end, or in a group up to "|" or ")".
func (p *patParser) seq(inGroup bool) []pnode {
	var out []pnode
	for p.i < len(p.s) {
		c := p.s[p.i]
		if inGroup && (c == '|' || c == ')') {
			return out
		}
		if p.ext && strings.IndexByte("?*+@!", c) >= 0 && p.i+1 < len(p.s) && p.s[p.i+1] == '(' {
			if end := groupEnd(p.s, p.i+1); end > 0 {
				p.i += 2
				g := pnode{kind: pGroup, op: c}
				for {
					g.alts = append(g.alts, p.seq(true))
					if p.i >= len(p.s) || p.s[p.i] == ')' {
						p.i++
						break
					}
					p.i++ // |
				}
				out = append(out, g)
				continue
			}
		}
		switch c {
		case '*':
			p.i++
			if len(out) == 0 || out[len(out)-1].kind != pStar {
				out = append(out, pnode{kind: pStar})
			}
			continue
		case '?':
			p.i++
			out = append(out, pnode{kind: pAny})
			continue
		case '[':
			if cl, n := parseBracket(p.s[p.i:]); n > 0 {
				p.i += n
				out = append(out, pnode{kind: pClass, class: cl})
				continue
			}
		case '\\':
			if p.i+1 < len(p.s) {
				p.i++
			}
		}
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		p.i += size
		out = append(out, pnode{kind: pLit, r: r})
	}
	return out
}

// groupEnd returns the index of the ")" closing the group whose "(" is at
// s[open], or -1.
func groupEnd(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			if _, n := parseBracket(s[i:]); n > 0 {
				i += n - 1
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// parseBracket parses the bracket expression at the start of s and
// returns it with its length, or a length of 0 when the "[" is literal.
func parseBracket(s string) (*bclass, int) {
	cl := &bclass{}
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		cl.neg = true
		i++
	}
	first := true
	var prev rune
	havePrev := false
	for i < len(s) {
		c := s[i]
		if c == ']' && !first {
			if havePrev {
				cl.runes = append(cl.runes, prev)
			}
			return cl, i + 1
		}
		first = false
		var r rune
		switch {
		case c == '[' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '=' || s[i+1] == '.'):
			kind := s[i+1]
			end := strings.Index(s[i+2:], string(kind)+"]")
			if end < 0 {
				r = '['
				i++
				break
			}
			name := s[i+2 : i+2+end]
			i += end + 4
			if kind == ':' {
				if havePrev {
					cl.runes = append(cl.runes, prev)
					havePrev = false
				}
				cl.classes = append(cl.classes, name)
				continue
			}
			r, _ = utf8.DecodeRuneInString(name)
		case c == '\\' && i+1 < len(s):
			var size int
			r, size = utf8.DecodeRuneInString(s[i+1:])
			i += 1 + size
		default:
			var size int
			r, size = utf8.DecodeRuneInString(s[i:])
			i += size
		}
		// a range: prev - r
		if havePrev && r == '-' && i < len(s) && s[i] != ']' {
			var hi rune
			switch {
			case s[i] == '\\' && i+1 < len(s):
				var size int
				hi, size = utf8.DecodeRuneInString(s[i+1:])
				i += 1 + size
			case s[i] == '[' && i+1 < len(s) && (s[i+1] == '.' || s[i+1] == '='):
				end := strings.Index(s[i+2:], string(s[i+1])+"]")
				if end < 0 {
					hi = '['
					i++
				} else {
					hi, _ = utf8.DecodeRuneInString(s[i+2 : i+2+end])
					i += end + 4
				}
			default:
				var size int
				hi, size = utf8.DecodeRuneInString(s[i:])
				i += size
			}
			cl.ranges = append(cl.ranges, [2]rune{prev, hi})
			havePrev = false
			continue
		}
		if havePrev {
			cl.runes = append(cl.runes, prev)
		}
		prev, havePrev = r, true
	}
	return nil, 0
}

// has reports whether the bracket expression matches r.
func (cl *bclass) has(r rune, fold bool) bool {
	m := cl.hasExact(r)
	if !m && fold {
		if l := unicode.ToLower(r); l != r {
			m = cl.hasExact(l)
		}
		if u := unicode.ToUpper(r); !m && u != r {
			m = cl.hasExact(u)
		}
	}
	return m != cl.neg
}

func (cl *bclass) hasExact(r rune) bool {
	for _, c := range cl.runes {
		if c == r {
			return true
		}
	}
	for _, rg := range cl.ranges {
		if rg[0] <= r && r <= rg[1] {
			return true
		}
	}
	for _, name := range cl.classes {
		if classHas(name, r) {
			return true
		}
	}
	return false
}

// classHas reports whether r is in the character class [:name:].
func classHas(name string, r rune) bool {
	switch name {
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "alpha":
		return unicode.IsLetter(r)
	case "blank":
		return r == ' ' || r == '\t'
	case "cntrl":
		return unicode.IsControl(r)
	case "digit":
		return r >= '0' && r <= '9'
	case "graph":
		return unicode.IsGraphic(r) && !unicode.IsSpace(r)
	case "lower":
		return unicode.IsLower(r)
	case "print":
		return unicode.IsPrint(r)
	case "punct":
		if r < 0x80 {
			return r > ' ' && r < 0x7f && !(r >= '0' && r <= '9') && !unicode.IsLetter(r)
		}
		return unicode.IsPunct(r) || unicode.IsSymbol(r)
	case "space":
		return unicode.IsSpace(r)
	case "upper":
		return unicode.IsUpper(r)
	case "xdigit":
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
	case "word":
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}

// matchBudget bounds the work of one match, in positions visited.
const matchBudget = 50_000_000

// posSet is a set of positions in the subject.
type posSet []uint64

func newPosSet(n int) posSet    { return make(posSet, (n+64)/64) }
func (s posSet) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s posSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s posSet) or(t posSet) {
	for i := range s {
		s[i] |= t[i]
	}
}
func (s posSet) andNot(t posSet) posSet {
	o := make(posSet, len(s))
	for i := range s {
		o[i] = s[i] &^ t[i]
	}
	return o
}
func (s posSet) empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// each calls fn for each position in s, in increasing order.
func (s posSet) each(fn func(int)) {
	for wi, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			fn(wi*64 + b)
			w &^= 1 << b
		}
	}
}

// matchState is one run of a Matcher over a subject.
type matchState struct {
	rs                     []rune
	offs                   []int // byte offset of each rune, and of the end
	fold, period, pathname bool
	steps                  int
}

func (m *Matcher) state(s string) *matchState {
	st := &matchState{rs: make([]rune, 0, len(s)), offs: make([]int, 0, len(s)+1), fold: m.mode&MatchFold != 0,
		period: m.mode&MatchPeriod != 0, pathname: m.mode&MatchPathname != 0}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		st.rs = append(st.rs, r)
		st.offs = append(st.offs, i)
		i += size
	}
	st.offs = append(st.offs, len(s))
	return st
}

// Match reports whether the pattern matches all of s.
func (m *Matcher) Match(s string) bool {
	st := m.state(s)
	starts := newPosSet(len(st.rs))
	starts.add(0)
	ends := st.seq(m.nodes, starts)
	return st.steps <= matchBudget && ends.has(len(st.rs))
}

// Ends returns the byte offsets in s where a match starting at byte
// offset start may end, in increasing order.
func (m *Matcher) Ends(s string, start int) []int {
	return m.Subject(s).Ends(start)
}

// Subject prepares s for matches from several starts (Ends).
func (m *Matcher) Subject(s string) *MatchSubject {
	return &MatchSubject{m: m, st: m.state(s)}
}

// MatchSubject is a Matcher applied to one string.
type MatchSubject struct {
	m  *Matcher
	st *matchState
}

// Ends returns the byte offsets where a match starting at byte offset
// start may end, in increasing order (none when start is not the start
// of a character). Each call has its own budget of work.
func (ms *MatchSubject) Ends(start int) []int {
	st := ms.st
	i := sort.SearchInts(st.offs, start)
	if i >= len(st.offs) || st.offs[i] != start {
		return nil
	}
	st.steps = 0
	starts := newPosSet(len(st.rs))
	starts.add(i)
	ends := st.seq(ms.m.nodes, starts)
	if st.steps > matchBudget {
		return nil
	}
	var out []int
	ends.each(func(p int) { out = append(out, st.offs[p]) })
	return out
}

// seq returns where nodes may end when they start in starts.
func (st *matchState) seq(nodes []pnode, starts posSet) posSet {
	cur := starts
	for i := range nodes {
		if cur.empty() || st.steps > matchBudget {
			return newPosSet(len(st.rs))
		}
		n := &nodes[i]
		if n.kind == pStar && i+1 < len(nodes) {
			// bash's * followed by more pattern: *?(p)rest and *\*(p)rest
			// are ?(p)rest or *rest; otherwise the rest starts before the
			// end of the string unless the * started there, and then
			// only !(p) may follow.
			next := &nodes[i+1]
			if next.kind == pGroup && (next.op == '?' || next.op == '*') {
				out := st.seq(nodes[i+1:], cur)
				rest := make([]pnode, 0, len(nodes)-i-1)
				rest = append(append(rest, *n), nodes[i+2:]...)
				out.or(st.seq(rest, cur))
				return out
			}
			end := len(st.rs)
			atEnd := cur.has(end)
			cur = st.node(n, cur)
			if !(atEnd && next.kind == pGroup && next.op == '!') {
				cur[end/64] &^= 1 << (end % 64)
			}
			continue
		}
		cur = st.node(n, cur)
	}
	return cur
}

// node returns where n may end when it starts in starts.
func (st *matchState) node(n *pnode, starts posSet) posSet {
	rs := st.rs
	out := newPosSet(len(rs))
	st.steps += len(starts)
	switch n.kind {
	case pStar:
		first := 0
		for first < len(starts) && starts[first] == 0 {
			first++
		}
		first *= 64
		st.steps += len(rs) - first
		active := false
		for p := first; p <= len(rs); p++ {
			if p > 0 && active {
				c := rs[p-1]
				if (st.pathname && c == '/') || (st.period && p == 1 && c == '.') {
					active = false
				}
			}
			if starts.has(p) {
				active = true
			}
			if active {
				out.add(p)
			}
		}
	case pLit, pAny, pClass:
		starts.each(func(p int) {
			st.steps++
			if p >= len(rs) {
				return
			}
			c := rs[p]
			var ok bool
			switch n.kind {
			case pLit:
				ok = c == n.r || st.fold && unicode.ToLower(c) == unicode.ToLower(n.r)
			case pAny:
				ok = !(st.pathname && c == '/') && !(st.period && p == 0 && c == '.')
			case pClass:
				ok = !(st.pathname && c == '/') && !(st.period && p == 0 && c == '.') && n.class.has(c, st.fold)
			}
			if ok {
				out.add(p + 1)
			}
		})
	case pGroup:
		switch n.op {
		case '@':
			return st.alts(n, starts)
		case '?':
			out = st.alts(n, starts)
			out.or(starts)
		case '*', '+':
			out = st.alts(n, starts)
			if n.op == '*' {
				out.or(starts)
			}
			front := out
			for !front.empty() && st.steps <= matchBudget {
				next := st.alts(n, front).andNot(out)
				out.or(next)
				front = next
			}
		case '!':
			starts.each(func(p int) {
				if st.period && p == 0 && len(rs) > 0 && rs[0] == '.' {
					return
				}
				one := newPosSet(len(rs))
				one.add(p)
				sub := st.alts(n, one)
				st.steps += len(rs) - p
				for q := p; q <= len(rs); q++ {
					if q > p && st.pathname && rs[q-1] == '/' {
						break
					}
					if !sub.has(q) {
						out.add(q)
					}
				}
			})
		}
	}
	return out
}

// alts returns where any alternative of a group may end.
func (st *matchState) alts(n *pnode, starts posSet) posSet {
	out := newPosSet(len(st.rs))
	for _, a := range n.alts {
		out.or(st.seq(a, starts))
	}
	return out
}
