package dsl

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/cordonhq/cordon/internal/dslutil"
	"github.com/gobwas/glob/syntax"
)

// WarningKind says what a Warning is about.
type WarningKind string

// The kinds of warnings Lint reports. The first three are holes: a later
// capability lets a call through that an earlier one constrains, limits or
// asks about. The last one is informational.
const (
	// KindConstraintLifted means that an earlier capability that does not
	// ask has constraints, and a later capability that does not ask allows
	// calls that fail them.
	KindConstraintLifted WarningKind = "constraint_lifted"
	// KindLimitLifted means that an earlier capability that does not ask
	// has a max_calls, and a later capability that does not ask allows the
	// calls once it is used up.
	KindLimitLifted WarningKind = "max_calls_lifted"
	// KindAskBypassed means that an earlier capability asks for approval
	// when its constraints hold, and a later capability that does not ask
	// allows the calls that fail them without approval (including calls
	// where a parameter is missing or of another type, since constraints
	// fail closed).
	KindAskBypassed WarningKind = "ask_bypassed"
	// KindUnreachable means that every call the capability would allow is
	// decided first by earlier capabilities, so it is never used.
	KindUnreachable WarningKind = "unreachable"
)

// Warning is a finding of Lint about a pair of capabilities, identified by
// their indexes in the list given to Lint.
type Warning struct {
	// Kind says what is wrong.
	Kind WarningKind
	// Capability is the index of the later capability the warning is
	// about: the one that lets the calls through, or for KindUnreachable
	// the one that is never used.
	Capability int
	// Earlier is the index of the earlier capability whose constraints,
	// max_calls or approval are undone; for KindUnreachable, the first of
	// the earlier capabilities that decide its calls.
	Earlier int
	// Constraints are the constraints of the earlier capability that the
	// later one does not impose (for KindConstraintLifted and
	// KindAskBypassed), in their text form.
	Constraints []string
	// Method is an example of a method that both patterns match and whose
	// calls reach the later capability (a valid tool name when there is
	// one, and the shortest), or "" when there is none to show
	// (KindUnreachable, or patterns too large to search).
	Method string
	// Message is the warning in one or two sentences. It names both
	// capabilities by index and pattern, and the lifted constraints and
	// the example method when there are any. It never contains a line
	// break.
	Message string
}

// String returns the message.
func (w Warning) String() string { return w.Message }

// Lint reports the places where a capability lets a call through that an
// earlier capability constrains, limits or asks about, and the
// capabilities that are never used. It reads the capabilities in order, as
// decisions do: a call is decided by the first capability whose pattern
// matches and whose constraints hold, and it falls through to the next one
// only when that capability does not ask and its max_calls is used up; an
// ask capability whose pattern and constraints match never lets the call
// fall through.
//
// For a pair of capabilities i < j whose patterns both match some method
// (computed exactly for the glob dialect, see Method), where j does
// not ask and no capability in between (or before) takes all of the calls
// first, Lint warns:
//
//   - KindConstraintLifted when i does not ask and has a constraint that j
//     does not impose: a call that fails it is allowed by j. A constraint
//     counts as imposed when j has it too (as text, after normalization),
//     or when j's constraints imply it in an obvious way (amount <= 500
//     implies amount <= 1000, currency == "USD" implies currency in ["USD",
//     "EUR"], any comparison on a parameter implies that it exists).
//   - KindLimitLifted when i does not ask and has a max_calls: once it is
//     used up, the calls go to j.
//   - KindAskBypassed when i asks and has a constraint that j does not
//     impose: a call that fails it is allowed by j without approval. The
//     fail-closed way to "ask above a limit, allow below it" is the
//     reverse order: the allow with the limit first, then the ask.
//
// A later capability that asks is never warned about: what it lets through
// needs a human's approval. A capability k takes all of j's calls first
// when j's constraints imply k's and k asks or has no max_calls; when such
// capabilities take every call that j would allow, j is reported as
// KindUnreachable and nothing else is reported about it.
//
// Warnings come in the order of Capability, then Earlier. Capabilities that
// are nil or do not validate allow nothing and are skipped. Lint is
// conservative: when it cannot tell, it warns (and never reports a
// capability unreachable). It does not see Rego rules, which may deny what
// it warns about.
func Lint(caps []*Capability) []Warning {
	l := &linter{caps: caps, tabs: make([]*table, len(caps)), overlaps: map[[2]int]bool{}}
	nfas := []*nfa{toolNames}
	byCap := make([]*nfa, len(caps))
	for i, c := range caps {
		if c == nil || c.Validate() != nil {
			continue
		}
		if a, err := patternNFA(c.method); err == nil {
			byCap[i] = a
			nfas = append(nfas, a)
		}
	}
	l.al = newAlphabet(nfas)
	l.names = l.al.compile(toolNames)
	l.plain = newSearcher(l.al, nil)
	for i, a := range byCap {
		if a != nil {
			l.tabs[i] = l.al.compile(a)
		}
	}
	facts := make([][]fact, len(caps)) // flattened, for implying
	own := make([][]fact, len(caps))   // as written, for being implied
	for i, t := range l.tabs {
		if t != nil {
			facts[i] = factsOf(caps[i].constraints, true)
			own[i] = factsOf(caps[i].constraints, false)
		}
	}
	var out []Warning
	for j, cj := range caps {
		if l.tabs[j] == nil {
			continue
		}
		// The catchers take every call j would allow that matches their
		// pattern, before j sees it.
		var catchers []int
		var negs []*table
		patterns := map[string]bool{} // one automaton per pattern is enough
		for k := 0; k < j; k++ {
			// A capability with a flow rule (unless_touched) stops
			// applying once its labels are touched: it catches nothing
			// for good.
			if ck := caps[k]; l.tabs[k] != nil && !patterns[ck.method] && (ck.ask || ck.maxCalls == 0) && len(ck.untouched) == 0 && l.overlap(k, j) && impliesAll(facts[j], own[k]) {
				patterns[ck.method] = true
				catchers = append(catchers, k)
				negs = append(negs, l.tabs[k])
			}
		}
		sr := newSearcher(l.al, negs)
		if len(catchers) > 0 {
			if _, found, exact := sr.search(l.tabs[j]); exact && !found {
				out = append(out, l.unreachable(j, catchers))
				continue
			}
		}
		if cj.ask || len(cj.untouched) > 0 {
			// An asking capability lifts nothing silently; one with a
			// flow rule lifts earlier constraints on purpose, until its
			// labels are touched.
			continue
		}
		for i := 0; i < j; i++ {
			if l.tabs[i] == nil {
				continue
			}
			ci := caps[i]
			limit := !ci.ask && ci.maxCalls > 0
			if len(ci.constraints) == 0 && !limit || !l.overlap(i, j) {
				continue
			}
			var lifted []Constraint
			for _, c := range own[i] {
				if !implies(facts[j], c) {
					lifted = append(lifted, c.c)
				}
			}
			if len(lifted) == 0 && !limit {
				continue
			}
			// i is not a catcher: it would have no lifted constraint and
			// no limit.
			method, found := example(sr, l.names, l.tabs[i], l.tabs[j])
			if !found {
				continue
			}
			if len(lifted) > 0 {
				out = append(out, l.lifted(i, j, lifted, method))
			}
			if limit {
				out = append(out, l.limitLifted(i, j, method))
			}
		}
	}
	return out
}

type linter struct {
	caps     []*Capability
	al       *alphabet
	tabs     []*table // nil for a capability that is skipped
	names    *table   // toolNames
	plain    *searcher
	overlaps map[[2]int]bool
}

// overlap reports whether some method matches the patterns of i and j
// (true when that cannot be decided within the budget).
func (l *linter) overlap(i, j int) bool {
	key := [2]int{min(i, j), max(i, j)}
	if v, ok := l.overlaps[key]; ok {
		return v
	}
	_, found, exact := l.plain.search(l.tabs[i], l.tabs[j])
	v := found || !exact
	l.overlaps[key] = v
	return v
}

// example returns a string that the automata of pos accept and the
// searcher's negative ones do not, preferring a valid tool name. found is
// true also when the search ran out of budget (then method is "").
func example(sr *searcher, names *table, pos ...*table) (method string, found bool) {
	w, found, exact := sr.search(pos...)
	if !found {
		return "", !exact
	}
	if nice, ok, _ := sr.search(append(pos, names)...); ok {
		return nice, true
	}
	return w, true
}

func (l *linter) ref(i int) string {
	return fmt.Sprintf("#%d %s", i, Quote(l.caps[i].method))
}

func callTo(method string) string {
	if method == "" {
		return "a call that matches both patterns"
	}
	return "a call to " + Quote(method)
}

// ownTerms describes what j still requires of the calls it lets through.
func (l *linter) ownTerms(j int) string {
	cj := l.caps[j]
	var parts []string
	if len(cj.constraints) > 0 {
		parts = append(parts, fmt.Sprintf("when it meets #%d's own constraints", j))
	}
	if cj.maxCalls > 0 {
		parts = append(parts, fmt.Sprintf("up to #%d's own max_calls %d", j, cj.maxCalls))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func (l *linter) lifted(i, j int, lifted []Constraint, method string) Warning {
	texts := make([]string, len(lifted))
	for n, c := range lifted {
		texts[n] = c.String()
	}
	list := joinAnd(texts)
	w := Warning{Capability: j, Earlier: i, Constraints: texts, Method: method}
	if l.caps[i].ask {
		fails := list
		if len(texts) > 1 {
			fails = "one of " + list
		}
		w.Kind = KindAskBypassed
		w.Message = fmt.Sprintf("capability %s lets calls skip the approval that capability %s asks for: %s that fails %s%s is allowed by #%d without asking%s. %s",
			l.ref(j), l.ref(i), callTo(method), fails, failsClosed(lifted), j, l.ownTerms(j), askAdvice(lifted))
		return w
	}
	w.Kind = KindConstraintLifted
	what, pronoun := "the constraint "+list, "it"
	if len(texts) > 1 {
		what, pronoun = "the constraints "+list, "one of them"
	}
	w.Message = fmt.Sprintf("capability %s lifts %s of capability %s: %s that fails %s is not allowed by #%d but is allowed by #%d%s.",
		l.ref(j), what, l.ref(i), callTo(method), pronoun, i, j, l.ownTerms(j))
	return w
}

func (l *linter) limitLifted(i, j int, method string) Warning {
	return Warning{
		Kind: KindLimitLifted, Capability: j, Earlier: i, Method: method,
		Message: fmt.Sprintf("capability %s lifts the max_calls %d of capability %s: once #%d is used up, %s is allowed by #%d%s.",
			l.ref(j), l.caps[i].maxCalls, l.ref(i), i, callTo(method), j, l.ownTerms(j)),
	}
}

func (l *linter) unreachable(j int, catchers []int) Warning {
	var refs []string
	for n, k := range catchers {
		if n == maxListed && len(catchers) > maxListed+1 {
			refs = append(refs, fmt.Sprintf("%d others", len(catchers)-n))
			break
		}
		refs = append(refs, l.ref(k))
	}
	by := "capability " + refs[0]
	if len(refs) > 1 {
		by = "capabilities " + joinAnd(refs)
	}
	return Warning{
		Kind: KindUnreachable, Capability: j, Earlier: catchers[0],
		Message: fmt.Sprintf("capability %s is never used: every call it would allow is decided first by %s.", l.ref(j), by),
	}
}

// maxListed is how many capabilities a message names before it counts the
// rest.
const maxListed = 3

func joinAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// failsClosed notes that a constraint also fails when its parameter is
// missing or of another type, for the first lifted comparison.
func failsClosed(lifted []Constraint) string {
	for _, c := range lifted {
		kind := ""
		switch c.Op {
		case OpLt, OpLe, OpGt, OpGe:
			kind = " or not a number"
			if _, ok := c.Value.(string); ok {
				kind = " or not a string"
			}
		case OpStartsWith, OpEndsWith:
			kind = " or not a string"
		case OpEq, OpNe, OpIn, OpNotIn, OpContains:
		default:
			continue
		}
		return fmt.Sprintf(" (for example one where %s is missing%s, since constraints fail closed)", dslutil.FormatParam(c.Param), kind)
	}
	return ""
}

// askAdvice says how to ask above a limit and allow below it, fail closed.
func askAdvice(lifted []Constraint) string {
	if len(lifted) == 1 {
		c := lifted[0]
		if op, ok := map[Op]Op{OpLt: OpGe, OpLe: OpGt, OpGt: OpLe, OpGe: OpLt}[c.Op]; ok {
			opposite := Constraint{Op: op, Param: c.Param, Value: c.Value}
			return fmt.Sprintf("To allow the other calls without asking, put the allow first with %s and the ask after it.", opposite)
		}
	}
	return "To allow the other calls without asking, put the allow first, with the constraints those calls must meet, and the ask after it."
}

// Constraint implication. implies is sound, not complete: true means that
// every params satisfying all of facts satisfy c; false means it could not
// be shown.

// fact is a constraint with its text.
type fact struct {
	c    Constraint
	text string
}

// factsOf returns constraints as facts, all_of groups replaced by their
// members (recursively) when flat is set.
func factsOf(cs []Constraint, flat bool) []fact {
	var out []fact
	for _, c := range cs {
		if flat && c.Op == OpAllOf {
			out = append(out, factsOf(c.Members, true)...)
			continue
		}
		out = append(out, fact{c, c.String()})
	}
	return out
}

// impliesAll reports whether facts (flattened) imply every one of cs.
func impliesAll(facts, cs []fact) bool {
	for _, c := range cs {
		if !implies(facts, c) {
			return false
		}
	}
	return true
}

func implies(facts []fact, c fact) bool {
	budget := 1000
	return impl(facts, c, &budget)
}

func impl(facts []fact, c fact, budget *int) bool {
	if *budget--; *budget < 0 {
		return false
	}
	for _, f := range facts {
		if f.text == c.text {
			return true
		}
	}
	switch c.c.Op {
	case OpAllOf:
		for _, m := range c.c.Members {
			if !impl(facts, fact{m, m.String()}, budget) {
				return false
			}
		}
		return len(c.c.Members) > 0
	case OpAnyOf:
		for _, m := range c.c.Members {
			if impl(facts, fact{m, m.String()}, budget) {
				return true
			}
		}
	default:
		for _, f := range facts {
			if !f.c.Op.IsGroup() && factImplies(f.c, c.c) {
				return true
			}
		}
	}
	// One member of an any_of fact holds: c follows when it follows from
	// each of them.
	for n, f := range facts {
		if f.c.Op != OpAnyOf || len(f.c.Members) == 0 {
			continue
		}
		rest := append(slices.Clone(facts[:n]), facts[n+1:]...)
		all := true
		for _, m := range f.c.Members {
			if !impl(append(slices.Clip(rest), factsOf([]Constraint{m}, true)...), c, budget) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// factImplies reports whether the comparison f implies the comparison c.
func factImplies(f, c Constraint) bool {
	if c.Op == OpExists {
		// Every comparison but not_exists needs its parameter present and
		// not null, and so does one below it.
		return f.Op != OpNotExists && (f.Param == c.Param || strings.HasPrefix(f.Param, c.Param+"/"))
	}
	if f.Param != c.Param {
		return false
	}
	switch f.Op {
	case OpEq:
		return holdsFor(c, f.Value)
	case OpIn:
		// The parameter is one of the elements (never null).
		list, _ := f.Value.([]any)
		for _, e := range list {
			if e != nil && !holdsFor(c, e) {
				return false
			}
		}
		return true
	}
	switch c.Op {
	case OpLt, OpLe, OpGt, OpGe:
		// Both values are numbers or both strings: an ordering holds only
		// for a parameter of its value's type.
		r, ok := order(f.Value, c.Value)
		if !ok {
			return false
		}
		switch c.Op {
		case OpLe:
			return (f.Op == OpLe || f.Op == OpLt) && r <= 0
		case OpLt:
			return f.Op == OpLe && r < 0 || f.Op == OpLt && r <= 0
		case OpGe:
			return (f.Op == OpGe || f.Op == OpGt) && r >= 0
		default:
			return f.Op == OpGe && r > 0 || f.Op == OpGt && r >= 0
		}
	case OpStartsWith, OpEndsWith, OpContains:
		fs, ok1 := f.Value.(string)
		cs, ok2 := c.Value.(string)
		if !ok1 || !ok2 {
			return false
		}
		switch {
		case c.Op == OpStartsWith:
			return f.Op == OpStartsWith && strings.HasPrefix(fs, cs)
		case c.Op == OpEndsWith:
			return f.Op == OpEndsWith && strings.HasSuffix(fs, cs)
		default: // starts_with and ends_with need a string, which then contains cs
			return (f.Op == OpStartsWith || f.Op == OpEndsWith) && strings.Contains(fs, cs)
		}
	case OpNotIn, OpNe:
		// not_in B implies not_in A for A within B, and != a for a in B.
		if f.Op != OpNotIn {
			return false
		}
		fl, _ := f.Value.([]any)
		want := []any{c.Value}
		if c.Op == OpNotIn {
			want, _ = c.Value.([]any)
		}
		for _, w := range want {
			if !slices.ContainsFunc(fl, func(e any) bool { return jsonEqual(e, w) }) {
				return false
			}
		}
		return true
	}
	return false
}

// holdsFor reports whether the comparison c holds when its parameter is v.
func holdsFor(c Constraint, v any) bool {
	segs, err := dslutil.SplitParam(c.Param)
	if err != nil {
		return false
	}
	cur := v
	for n := len(segs) - 1; n >= 0; n-- {
		switch s := segs[n].(type) {
		case string:
			cur = map[string]any{s: cur}
		case int:
			if s > 1<<10 {
				return false
			}
			a := make([]any, s+1)
			a[s] = cur
			cur = a
		}
	}
	return c.holds(cur)
}

// patternsOverlap reports whether some method matches both method
// patterns (see Method), and if so returns one, preferring a valid
// tool name (segments of letters, digits, _ - . and :) and the shortest.
// The answer is exact for the glob dialect: "*" and "?" stop at "/",
// classes and "{a,b}" alternatives are matched as gobwas/glob matches them,
// and "**" segments match zero or more segments. For patterns too large to
// decide within a fixed budget it reports an overlap with an empty example.
// It fails when a pattern is invalid.
func patternsOverlap(a, b string) (method string, overlap bool, err error) {
	na, err := patternNFA(a)
	if err != nil {
		return "", false, err
	}
	nb, err := patternNFA(b)
	if err != nil {
		return "", false, err
	}
	al := newAlphabet([]*nfa{na, nb, toolNames})
	method, overlap = example(newSearcher(al, nil), al.compile(toolNames), al.compile(na), al.compile(nb))
	return method, overlap, nil
}

// Pattern automata. A method pattern is a regular language over runes:
// each of its expanded globs (see Method) is parsed with the gobwas
// lexer into a Thompson automaton, "*" being any run of runes but '/', "**"
// any run of runes, "?" one rune but '/', and a class a set of runes (which
// may include '/'). Intersections and differences are searched on the fly
// over the product of the automata, on the atoms of the alphabet: the
// intervals of runes that no automaton tells apart.
//
// github.com/yashtewari/glob-intersection (which OPA uses) does not fit:
// its globs are regexp-like ('.' for any rune, '*' and '+' quantifiers),
// with no separator that '*' stops at, no negated classes and no {a,b}
// alternatives, and it only tells whether two globs intersect, where the
// lint also needs the difference with earlier patterns and an example.

// runeSet is a set of runes: sorted, disjoint, non-adjacent ranges.
type runeSet []runeRange

type runeRange struct{ lo, hi rune }

// universe is every rune a string can hold (no surrogates).
var universe = runeSet{{0, 0xD7FF}, {0xE000, unicode.MaxRune}}

func (s runeSet) has(r rune) bool {
	n := sort.Search(len(s), func(n int) bool { return s[n].hi >= r })
	return n < len(s) && s[n].lo <= r
}

// normalize sorts and merges ranges and keeps them within the universe.
func normalize(rs []runeRange) runeSet {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b runeRange) int { return int(a.lo - b.lo) })
	var out runeSet
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out.intersect(universe)
}

func (s runeSet) intersect(t runeSet) runeSet {
	var out runeSet
	for a, b := 0, 0; a < len(s) && b < len(t); {
		lo, hi := max(s[a].lo, t[b].lo), min(s[a].hi, t[b].hi)
		if lo <= hi {
			out = append(out, runeRange{lo, hi})
		}
		if s[a].hi < t[b].hi {
			a++
		} else {
			b++
		}
	}
	return out
}

// complement returns the runes of the universe not in s.
func (s runeSet) complement() runeSet {
	var out []runeRange
	next := rune(0)
	for _, r := range s {
		if r.lo > next {
			out = append(out, runeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, runeRange{next, unicode.MaxRune})
	}
	return normalize(out)
}

var (
	notSlash = runeSet{{'/', '/'}}.complement()
	nameRune = normalize([]runeRange{{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'_', '_'}, {'-', '.'}, {':', ':'}})
)

// nfa is an automaton without empty moves; state 0 is the start.
type nfa struct {
	edges  [][]nfaEdge
	accept []bool
}

type nfaEdge struct {
	set runeSet
	to  int
}

// toolNames matches the valid tool names: non-empty segments of name
// runes separated by '/'. It only picks nicer examples.
var toolNames = &nfa{
	edges: [][]nfaEdge{
		{{nameRune, 1}},
		{{nameRune, 1}, {runeSet{{'/', '/'}}, 0}},
	},
	accept: []bool{false, true},
}

// builder makes a Thompson automaton with empty moves.
type builder struct {
	eps   [][]int
	edges [][]nfaEdge
}

type frag struct{ in, out int }

func (b *builder) state() int {
	b.eps = append(b.eps, nil)
	b.edges = append(b.edges, nil)
	return len(b.eps) - 1
}

func (b *builder) link(from, to int) { b.eps[from] = append(b.eps[from], to) }

func (b *builder) one(set runeSet) frag {
	in, out := b.state(), b.state()
	b.edges[in] = append(b.edges[in], nfaEdge{set, out})
	return frag{in, out}
}

func (b *builder) star(set runeSet) frag {
	s := b.state()
	b.edges[s] = append(b.edges[s], nfaEdge{set, s})
	return frag{s, s}
}

// patternNFA returns the automaton of a method pattern: the union of its
// expanded globs.
func patternNFA(pattern string) (*nfa, error) {
	variants, err := dslutil.ExpandPattern(pattern)
	if err != nil {
		return nil, err
	}
	b := &builder{}
	start, accept := b.state(), b.state()
	for _, v := range variants {
		lex := syntax.NewLexer(v)
		f, end, err := b.sequence(lex)
		if err == nil && end.Type != syntax.EOF {
			err = fmt.Errorf("unexpected %s", end)
		}
		if err != nil {
			return nil, fmt.Errorf("dsl: method pattern %s: %v", Quote(pattern), err)
		}
		b.link(start, f.in)
		b.link(f.out, accept)
	}
	return b.finish(accept), nil
}

// sequence parses terms up to the end of the pattern or of an alternative
// and returns the token that ended it.
func (b *builder) sequence(lex *syntax.Lexer) (frag, syntax.Token, error) {
	first := b.state()
	cur := first
	add := func(f frag) {
		b.link(cur, f.in)
		cur = f.out
	}
	for {
		tok := lex.Next()
		switch tok.Type {
		case syntax.EOF, syntax.TermSeparator, syntax.TermsClose:
			return frag{first, cur}, tok, nil
		case syntax.Error:
			return frag{}, tok, fmt.Errorf("%s", tok.Data)
		case syntax.Text:
			for _, r := range tok.Data {
				add(b.one(runeSet{{r, r}}))
			}
		case syntax.Any:
			add(b.star(notSlash))
		case syntax.Super:
			add(b.star(universe))
		case syntax.Single:
			add(b.one(notSlash))
		case syntax.RangeOpen:
			set, err := class(lex)
			if err != nil {
				return frag{}, tok, err
			}
			add(b.one(set))
		case syntax.TermsOpen:
			in, out := b.state(), b.state()
			for {
				f, end, err := b.sequence(lex)
				if err != nil {
					return frag{}, end, err
				}
				b.link(in, f.in)
				b.link(f.out, out)
				if end.Type == syntax.TermsClose {
					break
				}
				if end.Type != syntax.TermSeparator {
					return frag{}, end, fmt.Errorf("unclosed {")
				}
			}
			add(frag{in, out})
		default:
			return frag{}, tok, fmt.Errorf("unexpected %s", tok)
		}
	}
}

// class parses a character class after its '[', as gobwas/glob does: one
// range lo-hi or a set of runes, either negated by a leading '!'.
func class(lex *syntax.Lexer) (runeSet, error) {
	var (
		not    bool
		lo, hi rune = -1, -1
		chars  []runeRange
		isSet  bool
	)
	for {
		tok := lex.Next()
		switch tok.Type {
		case syntax.Not:
			not = true
		case syntax.RangeLo:
			lo = []rune(tok.Data)[0]
		case syntax.RangeHi:
			hi = []rune(tok.Data)[0]
		case syntax.RangeBetween:
		case syntax.Text:
			isSet = true
			for _, r := range tok.Data {
				chars = append(chars, runeRange{r, r})
			}
		case syntax.RangeClose:
			var set runeSet
			switch {
			case isSet && lo < 0:
				set = normalize(chars)
			case !isSet && lo >= 0 && hi >= lo:
				set = normalize([]runeRange{{lo, hi}})
			default:
				return nil, fmt.Errorf("could not parse range")
			}
			if not {
				set = set.complement()
			}
			return set, nil
		case syntax.Error:
			return nil, fmt.Errorf("%s", tok.Data)
		default:
			return nil, fmt.Errorf("unclosed [")
		}
	}
}

// finish removes the empty moves: each state gets the edges and the
// acceptance of the states it reaches by them.
func (b *builder) finish(accept int) *nfa {
	n := len(b.eps)
	a := &nfa{edges: make([][]nfaEdge, n), accept: make([]bool, n)}
	for s := range n {
		seen := map[int]bool{s: true}
		stack := []int{s}
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			a.edges[s] = append(a.edges[s], b.edges[t]...)
			if t == accept {
				a.accept[s] = true
			}
			for _, u := range b.eps[t] {
				if !seen[u] {
					seen[u] = true
					stack = append(stack, u)
				}
			}
		}
	}
	return a
}

// alphabet is the partition of the runes into atoms: the maximal
// intervals of runes that no edge of the automata it was made for tells
// apart. Searches step on atoms, one representative rune each.
type alphabet struct {
	cuts  []rune // atom n is [cuts[n], cuts[n+1]-1]; only atoms within the universe are kept
	reps  []rune // a representative of each atom
	order []int  // the atoms, the more readable representatives first
}

func newAlphabet(as []*nfa) *alphabet {
	cuts := []rune{0, 0xD800, 0xE000, unicode.MaxRune + 1}
	for _, a := range as {
		for _, es := range a.edges {
			for _, e := range es {
				for _, r := range e.set {
					cuts = append(cuts, r.lo, r.hi+1)
				}
			}
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	al := &alphabet{}
	for n := 0; n+1 < len(cuts); n++ {
		if lo := cuts[n]; universe.has(lo) {
			al.cuts = append(al.cuts, lo)
			al.reps = append(al.reps, representative(lo, cuts[n+1]-1))
		}
	}
	al.order = make([]int, len(al.reps))
	for n := range al.order {
		al.order[n] = n
	}
	sort.SliceStable(al.order, func(x, y int) bool { return rank(al.reps[al.order[x]]) < rank(al.reps[al.order[y]]) })
	return al
}

// table is an automaton compiled for an alphabet: the successors of each
// state on each atom.
type table struct {
	next   [][][]int32
	live   [][]int // the atoms with successors, by state, in the alphabet's order
	accept []bool
}

func (al *alphabet) compile(a *nfa) *table {
	t := &table{next: make([][][]int32, len(a.edges)), accept: a.accept}
	for s, es := range a.edges {
		t.next[s] = make([][]int32, len(al.cuts))
		for _, e := range es {
			for _, r := range e.set {
				// The atoms within r: those starting in it.
				for n := sort.Search(len(al.cuts), func(n int) bool { return al.cuts[n] >= r.lo }); n < len(al.cuts) && al.cuts[n] <= r.hi; n++ {
					if !slices.Contains(t.next[s][n], int32(e.to)) {
						t.next[s][n] = append(t.next[s][n], int32(e.to))
					}
				}
			}
		}
	}
	t.live = make([][]int, len(a.edges))
	for s := range t.next {
		for _, atom := range al.order {
			if len(t.next[s][atom]) > 0 {
				t.live[s] = append(t.live[s], atom)
			}
		}
	}
	return t
}

// searchBudget bounds the nodes a search visits.
const searchBudget = 100000

// searcher finds strings that some automata accept and that a fixed list
// of negative automata all reject. The negative automata run together as
// one set of states (a subset construction made on the fly); the sets and
// their transitions are kept across searches.
type searcher struct {
	al      *alphabet
	neg     []*table
	off     []int32   // the first state of each negative automaton in the shared numbering
	sets    [][]int32 // the state sets, by id; set 0 is the start
	ids     map[string]int32
	accepts []bool          // whether a set holds an accepting state
	memo    map[int64]int32 // set id * atoms + atom -> set id
}

func newSearcher(al *alphabet, neg []*table) *searcher {
	sr := &searcher{al: al, neg: neg, ids: map[string]int32{}, memo: map[int64]int32{}}
	var start []int32
	total := int32(0)
	for _, t := range neg {
		sr.off = append(sr.off, total)
		start = append(start, total)
		total += int32(len(t.next))
	}
	sr.intern(start)
	return sr
}

// local returns the automaton and the state of a shared state number.
func (sr *searcher) local(s int32) (*table, int32) {
	k := sort.Search(len(sr.off), func(k int) bool { return sr.off[k] > s }) - 1
	return sr.neg[k], s - sr.off[k]
}

func (sr *searcher) intern(set []int32) int32 {
	b := make([]byte, 0, 4*len(set))
	for _, s := range set {
		b = binary.LittleEndian.AppendUint32(b, uint32(s))
	}
	if id, ok := sr.ids[string(b)]; ok {
		return id
	}
	id := int32(len(sr.sets))
	sr.ids[string(b)] = id
	sr.sets = append(sr.sets, set)
	acc := false
	for _, s := range set {
		t, ls := sr.local(s)
		acc = acc || t.accept[ls]
	}
	sr.accepts = append(sr.accepts, acc)
	return id
}

func (sr *searcher) step(id int32, atom int) int32 {
	if len(sr.neg) == 0 {
		return 0
	}
	key := int64(id)*int64(len(sr.al.cuts)) + int64(atom)
	if next, ok := sr.memo[key]; ok {
		return next
	}
	var set []int32
	for _, s := range sr.sets[id] {
		t, ls := sr.local(s)
		k := s - ls
		for _, to := range t.next[ls][atom] {
			set = append(set, to+k)
		}
	}
	slices.Sort(set)
	next := sr.intern(slices.Compact(set))
	sr.memo[key] = next
	return next
}

// maxPositive is the most positive automata a search takes.
const maxPositive = 3

// search looks for a string that every automaton of pos (at most
// maxPositive) accepts and no negative one does, shortest first. exact is
// false when the budget ran out before the answer was known (then found
// is false too).
func (sr *searcher) search(pos ...*table) (witness string, found, exact bool) {
	if len(pos) > maxPositive {
		panic("dsl: search takes at most maxPositive automata")
	}
	type key [maxPositive + 1]int32
	type node struct {
		key    key
		parent int32
		atom   int32
	}
	// The nodes seen: a bitmap over the product of the positive automata
	// when there are no negative ones and it is small, else a map.
	dense := len(sr.neg) == 0
	size := 1
	for _, t := range pos {
		size *= len(t.next)
		dense = dense && size <= 1<<20
	}
	var bits []uint64
	var seenMap map[key]bool
	if dense {
		bits = make([]uint64, (size+63)/64)
	} else {
		seenMap = map[key]bool{}
	}
	visit := func(k key) bool { // reports whether k is new, and marks it
		if !dense {
			if seenMap[k] {
				return false
			}
			seenMap[k] = true
			return true
		}
		n := 0
		for p := len(pos) - 1; p >= 0; p-- {
			n = n*len(pos[p].next) + int(k[p])
		}
		if bits[n/64]&(1<<(n%64)) != 0 {
			return false
		}
		bits[n/64] |= 1 << (n % 64)
		return true
	}
	nodes := []node{{parent: -1}}
	visit(nodes[0].key)
	var idx [maxPositive]int // the odometer over the positive successors
	for q := 0; q < len(nodes); q++ {
		cur := nodes[q].key
		done := !sr.accepts[cur[maxPositive]]
		for p, t := range pos {
			done = done && t.accept[cur[p]]
		}
		if done {
			var rs []rune
			for n := int32(q); nodes[n].parent >= 0; n = nodes[n].parent {
				rs = append(rs, sr.al.reps[nodes[n].atom])
			}
			slices.Reverse(rs)
			return string(rs), true, true
		}
		// Step on the atoms of the positive automaton with the fewest.
		order := sr.al.order
		for p, t := range pos {
			if live := t.live[cur[p]]; len(live) < len(order) {
				order = live
			}
		}
	atoms:
		for _, atom := range order {
			for p, t := range pos {
				if len(t.next[cur[p]][atom]) == 0 {
					continue atoms
				}
			}
			var next key
			next[maxPositive] = sr.step(cur[maxPositive], atom)
			// Every combination of the positive successors.
			for p := range pos {
				idx[p] = 0
			}
			for {
				for p, t := range pos {
					next[p] = t.next[cur[p]][atom][idx[p]]
				}
				if visit(next) {
					if len(nodes) >= searchBudget {
						return "", false, false
					}
					nodes = append(nodes, node{key: next, parent: int32(q), atom: int32(atom)})
				}
				p := 0
				for ; p < len(pos); p++ {
					if idx[p]++; idx[p] < len(pos[p].next[cur[p]][atom]) {
						break
					}
					idx[p] = 0
				}
				if p == len(pos) {
					break
				}
			}
		}
	}
	return "", false, true
}

// preferred are the runes examples are made of when they can be.
const preferred = "xabcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/"

func representative(lo, hi rune) rune {
	for _, r := range preferred {
		if lo <= r && r <= hi {
			return r
		}
	}
	for r := lo; r <= hi && r < lo+128; r++ {
		if unicode.IsPrint(r) {
			return r
		}
	}
	return lo
}

func rank(r rune) int {
	if n := strings.IndexRune(preferred, r); n >= 0 {
		return n
	}
	if unicode.IsPrint(r) {
		return len(preferred)
	}
	return len(preferred) + 1
}
