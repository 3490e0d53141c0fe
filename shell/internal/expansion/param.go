package expansion

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// This file expands ${...}: it decides set/null tests, indirection,
// multi-valued forms and the operators that need bash's quoting rules,
// and leaves the plain value lookups to expand.

// paramPieces expands one ${...}.
func (ex *Expander) paramPieces(p *syntax.ParamExp, quoted bool) ([]piece, error) {
	return ex.paramPiecesCtx(p, quoted, false)
}

// paramPiecesCtx expands one ${...}; assign is true in the value of an
// assignment (for tildes in ${x-word}).
func (ex *Expander) paramPiecesCtx(p *syntax.ParamExp, quoted, assign bool) ([]piece, error) {
	if p.Param == nil {
		return nil, errors.New("bad substitution")
	}
	if err := ex.unsetElement(p); err != nil {
		return nil, err
	}
	p, err := ex.assocIndexWord(p)
	if err != nil {
		return nil, err
	}
	if p.Excl && p.Names == 0 && (p.Index == nil || !isAtStar(p.Index)) {
		return ex.indirectPieces(p, quoted)
	}
	if p.Exp != nil && !p.Excl {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			return ex.defaultPieces(p, quoted, assign)
		case syntax.OtherParamOps:
			op := ""
			if p.Exp.Word != nil {
				op = p.Exp.Word.Lit()
			}
			if ps, ok, err := ex.varTransformPieces(p, op, quoted); ok {
				return ps, err
			}
			return ex.transformPieces(p, quoted, true, ex.atOperator(p))
		case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			pat := ""
			if p.Exp.Word != nil {
				var err error
				if pat, err = ex.expandPattern(p.Exp.Word); err != nil {
					return nil, err
				}
			}
			op := p.Exp.Op
			return ex.transformPieces(p, quoted, false, func(v string) (string, error) {
				return ex.stripPattern(v, pat, op), nil
			})
		}
	}
	if p.Length && (isAtStar(p.Index) || (p.Index == nil && (p.Param.Value == "@" || p.Param.Value == "*"))) {
		base := *p
		base.Length = false
		elems, err := ex.multiElems(&base)
		if err != nil {
			return nil, err
		}
		return []piece{{s: strconv.Itoa(len(elems)), quoted: quoted, split: !quoted}}, nil
	}
	if p.Repl != nil {
		return ex.patsubPieces(p, quoted)
	}
	if isMulti(p) && !(quoted && isStar(p)) {
		elems, err := ex.multiElems(p)
		if err != nil {
			return nil, err
		}
		return ex.elemPieces(elems, quoted, p.Names == syntax.NamesPrefix, isStar(p)), nil
	}
	if v, ok := ex.plainValue(p); ok {
		return []piece{{s: v, quoted: quoted, split: !quoted}}, nil
	}
	if p.Index != nil && p.Exp == nil && !p.Length && !p.Excl && ex.env.Options().NoUnset {
		// set -u: an unset element is an error too
		if set, _, err := ex.paramState(p, true); err == nil && !set {
			name := p.Param.Value + "[" + IndexText(p.Index) + "]"
			return nil, expand.UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: name}}, Message: "unbound variable"}
		}
	}
	v, err := ex.scalarValue(p)
	if err != nil {
		return nil, err
	}
	return []piece{{s: v, quoted: quoted, split: !quoted}}, nil
}

// plainValue returns the value of $name or ${name} when name is a set
// string variable, the commonest expansion, without going through expand
// (which needs a word built around p); ok is false for everything else
// (operators, arrays, namerefs, unset names, special parameters), which
// scalarValue handles.
func (ex *Expander) plainValue(p *syntax.ParamExp) (string, bool) {
	if p.Excl || p.Length || p.Width || p.Flags != nil || p.NestedParam != nil || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil || len(p.Modifiers) != 0 ||
		!syntax.ValidName(p.Param.Value) {
		return "", false
	}
	vr := ex.env.Get(p.Param.Value)
	if !vr.IsSet() && vr.Kind != expand.Indexed && vr.Kind != expand.Associative && !ex.env.Options().NoUnset {
		// an unset name is empty (once: a circular nameref warns on each Get)
		return "", true
	}
	if vr.Kind != expand.String || !vr.IsSet() {
		return "", false
	}
	return vr.Str, true
}

// scalarValue returns the value of a single-valued ${...} from expand.
func (ex *Expander) scalarValue(p *syntax.ParamExp) (string, error) {
	w := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{p}}}}
	return ex.lit(w)
}

// emptyPieces is what an expansion to nothing gives.
func emptyPieces(quoted bool) []piece {
	if quoted {
		return []piece{{s: "", quoted: true}}
	}
	return nil
}

// indirectPieces expands ${!ref...}: it resolves the reference, then
// expands the target with the same operators.
func (ex *Expander) indirectPieces(p *syntax.ParamExp, quoted bool) ([]piece, error) {
	if t, ok := ex.env.RefTarget(p.Param.Value); ok && p.Index == nil && p.Slice == nil && p.Repl == nil && !p.Length &&
		(p.Exp == nil || p.Exp.Op == syntax.DefaultUnset || p.Exp.Op == syntax.DefaultUnsetOrNull) {
		// ${!ref} of a nameref is the name it refers to
		return []piece{{s: t, quoted: quoted, split: !quoted}}, nil
	}
	var target string
	if p.Index != nil {
		// ${!a[1]}: the element names the variable
		elem := &syntax.ParamExp{Param: p.Param, Index: p.Index}
		set, _, err := ex.paramState(elem, true)
		if err != nil {
			return nil, err
		}
		if set {
			if target, err = ex.scalarValue(elem); err != nil {
				return nil, err
			}
		} else if ex.env.Options().NoUnset {
			return nil, expand.UnsetParameterError{Node: p, Message: "unbound variable"}
		}
	} else {
		target = ex.getVar(p.Param.Value)
		if !ex.env.Get(p.Param.Value).IsSet() {
			if ex.env.Options().NoUnset {
				return nil, expand.UnsetParameterError{Node: p, Message: "unbound variable"}
			}
			return nil, errors.New(p.Param.Value + ": invalid indirect expansion")
		}
	}
	bad := errors.New(target + ": invalid variable name")
	if TooDeep(target) {
		return nil, bad
	}
	tw, err := NewParser().Document(strings.NewReader("${" + target + "}"))
	var tp *syntax.ParamExp
	if err == nil && len(tw.Parts) == 1 {
		tp, _ = tw.Parts[0].(*syntax.ParamExp)
	}
	if tp == nil || tp.Param == nil || tp.Exp != nil || tp.Slice != nil || tp.Repl != nil || tp.Length || tp.Excl || tp.Names != 0 {
		return nil, bad
	}
	np := *p
	np.Excl = false
	np.Param = tp.Param
	np.Index = tp.Index
	if np.Index != nil && !isAtStar(np.Index) {
		idx, ok, err := ex.preIndex(np.Param.Value, np.Index)
		if err != nil {
			return nil, err
		}
		if ok {
			np.Index = idx
		}
	}
	return ex.paramPieces(&np, quoted)
}

// defaultPieces expands ${x-w} ${x:-w} ${x+w} ${x:+w}; the word keeps its
// own quoting (it may yield several fields).
func (ex *Expander) defaultPieces(p *syntax.ParamExp, quoted, assign bool) ([]piece, error) {
	base := *p
	base.Exp = nil
	set, null, err := ex.paramState(&base, quoted)
	if err != nil {
		return nil, err
	}
	var useWord bool
	switch p.Exp.Op {
	case syntax.DefaultUnset:
		useWord = !set
	case syntax.DefaultUnsetOrNull:
		useWord = !set || null
	case syntax.AlternateUnset:
		useWord = set
	case syntax.AlternateUnsetOrNull:
		useWord = set && !null
	}
	if useWord {
		if p.Exp.Word == nil {
			return emptyPieces(quoted), nil
		}
		ps, err := ex.wordPiecesCtx(p.Exp.Word.Parts, quoted, !quoted, !quoted, assign && !quoted)
		if err != nil {
			return nil, err
		}
		if quoted {
			ps = append([]piece{{s: "", quoted: true}}, ps...)
		}
		return ps, nil
	}
	if p.Exp.Op == syntax.AlternateUnset || p.Exp.Op == syntax.AlternateUnsetOrNull {
		return emptyPieces(quoted), nil
	}
	if ex.env.Options().NoUnset && !set {
		return nil, nil
	}
	return ex.paramPieces(&base, quoted)
}

// baseValues returns the values of p without its operators: the elements
// of a multi-valued expansion, or one value.
func (ex *Expander) baseValues(base *syntax.ParamExp) (vals []string, multi bool, err error) {
	if isMulti(base) {
		vals, err = ex.multiElems(base)
		return vals, true, err
	}
	v, err := ex.scalarValue(base)
	return []string{v}, false, err
}

// valuePieces turns transformed values back into pieces, joining them
// like ${a[*]} or splitting them like ${a[@]}.
func (ex *Expander) valuePieces(p *syntax.ParamExp, vals []string, multi, quoted bool) []piece {
	if multi && !(quoted && isStar(p)) {
		return ex.elemPieces(vals, quoted, p.Names == syntax.NamesPrefix, isStar(p))
	}
	sep := " "
	if isStar(p) {
		sep = ""
		if ifs := ex.ifs(); ifs != "" {
			sep = firstRune(ifs)
		}
	}
	v := strings.Join(vals, sep)
	return []piece{{s: v, quoted: quoted, split: !quoted}}
}

// transformPieces applies fn to each value of p (without its Exp).
// skipUnset makes an unset scalar expand to nothing (for ${x@Q}).
func (ex *Expander) transformPieces(p *syntax.ParamExp, quoted, skipUnset bool, fn func(string) (string, error)) ([]piece, error) {
	base := *p
	base.Exp = nil
	if skipUnset && !isMulti(&base) {
		set, _, err := ex.paramState(&base, true)
		if err != nil {
			return nil, err
		}
		if !set {
			return emptyPieces(quoted), nil
		}
	}
	vals, multi, err := ex.baseValues(&base)
	if err != nil {
		return nil, err
	}
	for i, v := range vals {
		if vals[i], err = fn(v); err != nil {
			return nil, err
		}
	}
	return ex.valuePieces(p, vals, multi, quoted), nil
}

// atOperator returns the transformation of ${x@OP}.
func (ex *Expander) atOperator(p *syntax.ParamExp) func(string) (string, error) {
	op := ""
	if p.Exp.Word != nil {
		op = p.Exp.Word.Lit()
	}
	name := p.Param.Value
	return func(v string) (string, error) {
		switch op {
		case "Q":
			return atQuote(v), nil
		case "E":
			return ANSIC(v), nil
		case "U":
			return strings.ToUpper(v), nil
		case "L":
			return strings.ToLower(v), nil
		case "u":
			if v == "" {
				return v, nil
			}
			rs := []rune(v)
			return strings.ToUpper(string(rs[0])) + string(rs[1:]), nil
		case "a":
			return ex.env.Attributes(name), nil
		case "P":
			return Prompt(v, ex.getVar("PWD"), ex.getVar("HOME")), nil
		}
		return "", errors.New("${" + name + "@" + op + "}: bad substitution")
	}
}

// patsubPieces expands ${x/pat/rep} and friends.
func (ex *Expander) patsubPieces(p *syntax.ParamExp, quoted bool) ([]piece, error) {
	base := *p
	base.Repl = nil
	vals, multi, err := ex.baseValues(&base)
	if err != nil {
		return nil, err
	}
	if vals, err = ex.patsub(vals, p.Repl); err != nil {
		return nil, err
	}
	return ex.valuePieces(p, vals, multi, quoted), nil
}

// isMulti reports whether a parameter expansion yields several values
// ($@, $*, ${a[@]}, ${a[*]}, ${!prefix@}, ${!a[@]}).
func isMulti(p *syntax.ParamExp) bool {
	if p.Length || p.Param == nil {
		return false
	}
	if p.Names != 0 {
		return true
	}
	if p.Excl && p.Index == nil {
		return false
	}
	if p.Index != nil {
		return isAtStar(p.Index)
	}
	return p.Param.Value == "@" || p.Param.Value == "*"
}

// isStar reports whether a multi-valued expansion uses * (joined).
func isStar(p *syntax.ParamExp) bool {
	if p.Names == syntax.NamesPrefix {
		return true
	}
	if p.Index != nil {
		if w, ok := p.Index.(*syntax.Word); ok {
			return w.Lit() == "*"
		}
	}
	return p.Param.Value == "*" && p.Index == nil
}

// multiElems returns the values of a multi-valued expansion.
func (ex *Expander) multiElems(p *syntax.ParamExp) ([]string, error) {
	if p.Excl && p.Names == 0 && isAtStar(p.Index) && p.Slice == nil && p.Repl == nil && p.Exp == nil {
		// ${!m[@]} of an associative array: its keys in bash's order
		switch vr := ex.env.Get(p.Param.Value); {
		case vr.Kind == expand.Associative:
			return AssocKeys(vr), nil
		case vr.Kind == expand.String && vr.IsSet():
			return []string{"0"}, nil // a scalar is element 0
		}
	}
	if p.Names == 0 && !p.Excl {
		var base []string
		if p.Index == nil {
			base = ex.env.Get("@").List
		} else {
			vr := ex.env.Get(p.Param.Value)
			switch vr.Kind {
			case expand.Associative:
				for _, k := range AssocKeys(vr) {
					base = append(base, vr.Map[k])
				}
			default:
				if vr.IsSet() {
					_, base = ArrayItems(vr)
				}
			}
		}
		if len(base) == 0 {
			return nil, nil
		}
		if p.Slice == nil && p.Repl == nil && p.Exp == nil {
			return append([]string(nil), base...), nil
		}
	}
	c := *p
	if c.Names == syntax.NamesPrefix {
		c.Names = syntax.NamesPrefixWords
	}
	if c.Index != nil {
		if w, ok := c.Index.(*syntax.Word); ok && w.Lit() == "*" {
			c.Index = litWord("@")
		}
	} else if c.Param.Value == "*" {
		pc := *c.Param
		pc.Value = "@"
		c.Param = &pc
	}
	w := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{&c}}}}
	cfg := ex.ecfg()
	cfg.ReadDir2 = nil // no pathname expansion
	fields, err := expand.Fields(cfg, w)
	ex.putEcfg(cfg)
	return fields, err
}

// paramState reports whether a parameter is set and whether it is null.
func (ex *Expander) paramState(p *syntax.ParamExp, quoted bool) (set, null bool, err error) {
	if isMulti(p) {
		elems, err := ex.multiElems(p)
		if err != nil {
			return false, false, err
		}
		if len(elems) == 0 {
			return false, true, nil
		}
		sep := " "
		if isStar(p) && quoted {
			if v := ex.env.Get("IFS"); v.IsSet() {
				sep = v.String()
				if sep != "" {
					sep = sep[:1]
				}
			}
		}
		return true, strings.Join(elems, sep) == "", nil
	}
	if p.Param != nil && p.Index == nil && !p.Excl && !p.Length && p.Slice == nil && p.Repl == nil && p.Exp == nil {
		vr := ex.env.Get(p.Param.Value)
		if !vr.IsSet() {
			return false, true, nil
		}
		s := vr.String()
		switch vr.Kind {
		case expand.Indexed:
			idx, vals := ArrayItems(vr)
			if len(idx) == 0 || idx[0] != 0 {
				return false, true, nil
			}
			s = vals[0]
		case expand.Associative:
			v, ok := vr.Map["0"]
			if !ok {
				return false, true, nil
			}
			s = v
		}
		return true, s == "", nil
	}
	if p.Index != nil && p.Param != nil && !p.Excl {
		vr := ex.env.Get(p.Param.Value)
		if vr.Kind == expand.Associative {
			key, err := ex.AssocKey(p.Index)
			if err != nil {
				return false, false, err
			}
			v, ok := vr.Map[key]
			return ok, v == "", nil
		}
	}
	cfg := ex.ecfg()
	cfg.NoUnset = false
	v, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{p}}}})
	ex.putEcfg(cfg)
	if err != nil {
		return false, false, err
	}
	if v != "" {
		return true, false, nil
	}
	// distinguish unset from empty for indexed elements
	if p.Index != nil && p.Param != nil {
		vr := ex.env.Get(p.Param.Value)
		if !vr.IsSet() {
			return false, true, nil
		}
		n, err := ex.Arith(p.Index)
		if err != nil {
			return false, false, err
		}
		idx, _ := ArrayItems(vr)
		i := sort.SearchInts(idx, n)
		return i < len(idx) && idx[i] == n, true, nil
	}
	return true, true, nil
}

// hasQuotedMulti reports whether double-quoted parts hold "$@" or
// "${a[@]}", which yield no field at all when empty.
func hasQuotedMulti(parts []syntax.WordPart) bool {
	for _, p := range parts {
		if pe, ok := p.(*syntax.ParamExp); ok && isMulti(pe) && !isStar(pe) {
			return true
		}
	}
	return false
}

// elemPieces turns the values of a multi-valued expansion into pieces.
func (ex *Expander) elemPieces(elems []string, quoted, star, anyStar bool) []piece {
	var out []piece
	if quoted {
		for i, e := range elems {
			if i > 0 {
				out = append(out, piece{brk: true})
			}
			out = append(out, piece{s: e, quoted: true})
		}
		return out
	}
	ifs := ex.ifs()
	for i, e := range elems {
		if i > 0 {
			if ifs == "" && star {
				// joined with nothing into one field
			} else if ifs == "" {
				// separate fields, but $* joins with nothing where
				// there is no splitting (v=$*)
				out = append(out, piece{brk: true, nojoin: anyStar})
			} else {
				out = append(out, piece{s: firstRune(ifs), split: true, sep: !anyStar})
			}
		}
		out = append(out, piece{s: e, split: true})
	}
	return out
}

// firstRune returns the first character of s, which may take several
// bytes (IFS='é:' joins "$*" with "é").
func firstRune(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n]
}

// patsub implements ${x/pat/rep}, ${x//pat/rep}, ${x/#pat/rep} and
// ${x/%pat/rep} on each value.
func (ex *Expander) patsub(vals []string, repl *syntax.Replace) ([]string, error) {
	orig := repl.Orig
	with := repl.With
	if (orig == nil || len(orig.Parts) == 0) && with != nil && len(with.Parts) > 0 {
		// ${x////c} is parsed with an empty pattern and "/c"; bash reads
		// the pattern "/" and the replacement "c".
		if l, ok := with.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "/") {
			orig = litWord("/")
			with = &syntax.Word{Parts: append([]syntax.WordPart{&syntax.Lit{Value: l.Value[1:]}}, with.Parts[1:]...)}
		}
	}
	anchor := byte(0)
	if orig != nil && len(orig.Parts) > 0 && !repl.All {
		// ${x/#p/r} and ${x/%p/r} anchor; in ${x//#p/r} the # is literal
		if l, ok := orig.Parts[0].(*syntax.Lit); ok && l.Value != "" && (l.Value[0] == '#' || l.Value[0] == '%') {
			anchor = l.Value[0]
			parts := append([]syntax.WordPart{&syntax.Lit{Value: l.Value[1:]}}, orig.Parts[1:]...)
			orig = &syntax.Word{Parts: parts}
		}
	}
	pat := ""
	if orig != nil {
		var err error
		if pat, err = ex.expandPattern(orig); err != nil {
			return nil, err
		}
	}
	if pat == "" && anchor == 0 {
		return vals, nil
	}
	// the replacement: quote removal, and & stands for the match
	var withPieces []piece
	if with != nil {
		var err error
		if withPieces, err = ex.wordPieces(with.Parts, false, false, true); err != nil {
			return nil, err
		}
	}
	find, ok := ex.patFinder(pat, anchor)
	if !ok {
		return vals, nil
	}
	noAmp := ex.env.Options().NoPatsubReplacement
	withText := func(match string) string {
		var b strings.Builder
		for _, p := range withPieces {
			if p.quoted || !strings.Contains(p.s, "&") || noAmp {
				b.WriteString(p.s)
				continue
			}
			if !p.split || !strings.Contains(p.s, `\`) {
				b.WriteString(strings.ReplaceAll(p.s, "&", match))
				continue
			}
			// the value of an unquoted expansion: \& is a literal &, \\ a
			// backslash
			for i := 0; i < len(p.s); i++ {
				switch c := p.s[i]; {
				case c == '\\' && i+1 < len(p.s) && (p.s[i+1] == '&' || p.s[i+1] == '\\'):
					b.WriteByte(p.s[i+1])
					i++
				case c == '&':
					b.WriteString(match)
				default:
					b.WriteByte(c)
				}
			}
		}
		return b.String()
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		var b strings.Builder
		pos := 0
		for pos <= len(v) {
			start, end, found := find(v, pos)
			if !found {
				break
			}
			b.WriteString(v[pos:start])
			b.WriteString(withText(v[start:end]))
			if end == len(v) && end > start {
				pos = end
				break
			}
			if end == start {
				if end < len(v) {
					b.WriteByte(v[end])
				}
				end++
			}
			pos = end
			if !repl.All || anchor != 0 {
				break
			}
		}
		if pos < len(v) {
			b.WriteString(v[pos:])
		}
		out[i] = b.String()
	}
	return out, nil
}

// patFinder returns a function that finds the leftmost longest match of
// pat in v at or after pos (at pos only with the anchor #, and ending at
// the end of v with %), or false when pat is not a valid pattern.
func (ex *Expander) patFinder(pat string, anchor byte) (func(v string, pos int) (int, int, bool), bool) {
	if ex.env.Options().ExtGlob && HasExtGlob(pat) {
		m := CompileMatcher(pat, MatchExtGlob)
		var subj *MatchSubject
		var subjOf string
		return func(v string, pos int) (int, int, bool) {
			if subj == nil || subjOf != v {
				subj, subjOf = m.Subject(v), v
			}
			for start := pos; start <= len(v); start++ {
				if anchor == '#' && start > pos {
					break
				}
				if anchor == 0 && start == len(v) && pat[0] != '*' {
					// bash lets only a pattern that starts with *
					// match the empty string at the end
					break
				}
				if start < len(v) && !utf8.RuneStart(v[start]) {
					continue
				}
				ends := subj.Ends(start)
				if anchor == '%' {
					if len(ends) > 0 && ends[len(ends)-1] == len(v) {
						return start, len(v), true
					}
				} else if len(ends) > 0 {
					return start, ends[len(ends)-1], true
				}
				if (start-pos)%256 == 255 && ex.env.Err() != nil {
					return 0, 0, false
				}
			}
			return 0, 0, false
		}, true
	}
	expr, err := pattern.Regexp(pat, 0)
	if err != nil {
		return nil, false
	}
	switch anchor {
	case '#':
		expr = "^(?:" + expr + ")"
	case '%':
		expr = "(?:" + expr + ")$"
	}
	re, err := CompileRegexp("(?s)"+expr, true)
	if err != nil {
		return nil, false
	}
	return func(v string, pos int) (int, int, bool) {
		loc := re.FindStringIndex(v[pos:])
		if loc == nil {
			return 0, 0, false
		}
		return pos + loc[0], pos + loc[1], true
	}, true
}

// stripPattern implements ${x#pat} ${x##pat} ${x%pat} ${x%%pat}.
func (ex *Expander) stripPattern(v, pat string, op syntax.ParExpOperator) string {
	if pat == "" {
		return v
	}
	if !pattern.HasMeta(pat, 0) && !(ex.env.Options().ExtGlob && strings.ContainsAny(pat, "()")) {
		lit := unescapeGlob(pat)
		switch op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix:
			return strings.TrimPrefix(v, lit)
		default:
			return strings.TrimSuffix(v, lit)
		}
	}
	if ex.env.Options().ExtGlob && HasExtGlob(pat) {
		return ex.stripExtPattern(v, pat, op)
	}
	re, err := CompilePattern(pat, pattern.EntireString)
	if err != nil {
		return v
	}
	// candidate cut points are rune boundaries
	bounds := make([]int, 0, len(v)+1)
	for i := range v {
		bounds = append(bounds, i)
	}
	bounds = append(bounds, len(v))
	switch op {
	case syntax.RemSmallPrefix:
		for k, i := range bounds {
			if k%1024 == 0 && ex.env.Err() != nil {
				return v
			}
			if re.MatchString(v[:i]) {
				return v[i:]
			}
		}
	case syntax.RemLargePrefix:
		for k := len(bounds) - 1; k >= 0; k-- {
			if k%1024 == 0 && ex.env.Err() != nil {
				return v
			}
			if re.MatchString(v[:bounds[k]]) {
				return v[bounds[k]:]
			}
		}
	case syntax.RemSmallSuffix:
		for k := len(bounds) - 1; k >= 0; k-- {
			if k%1024 == 0 && ex.env.Err() != nil {
				return v
			}
			if re.MatchString(v[bounds[k]:]) {
				return v[:bounds[k]]
			}
		}
	case syntax.RemLargeSuffix:
		for k, i := range bounds {
			if k%1024 == 0 && ex.env.Err() != nil {
				return v
			}
			if re.MatchString(v[i:]) {
				return v[:i]
			}
		}
	}
	return v
}

// stripExtPattern is stripPattern for a pattern with extended operators.
func (ex *Expander) stripExtPattern(v, pat string, op syntax.ParExpOperator) string {
	m := CompileMatcher(pat, MatchExtGlob).Subject(v)
	switch op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix:
		ends := m.Ends(0)
		if len(ends) == 0 {
			return v
		}
		if op == syntax.RemSmallPrefix {
			return v[ends[0]:]
		}
		return v[ends[len(ends)-1]:]
	}
	// a suffix: the shortest starts as far right as possible
	try := func(i int) bool {
		if i < len(v) && !utf8.RuneStart(v[i]) {
			return false
		}
		ends := m.Ends(i)
		return len(ends) > 0 && ends[len(ends)-1] == len(v)
	}
	if op == syntax.RemSmallSuffix {
		for i := len(v); i >= 0; i-- {
			if i%256 == 0 && ex.env.Err() != nil {
				return v
			}
			if try(i) {
				return v[:i]
			}
		}
		return v
	}
	for i := 0; i <= len(v); i++ {
		if i%256 == 0 && ex.env.Err() != nil {
			return v
		}
		if try(i) {
			return v[:i]
		}
	}
	return v
}

// atQuote quotes a value the way ${x@Q} does.
func atQuote(s string) string {
	for _, c := range []byte(s) {
		if c < 0x20 || c == 0x7f {
			return Quote(s)
		}
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// assocIndexWord returns p with its subscript as a literal word when p
// indexes an associative array. The parser reads a subscript such as
// a[1+1] as arithmetic because it cannot know, before the script runs, that
// a is associative; mvdan.cc/sh's expand package expects a word there (and
// panics on anything else), and bash uses the subscript's text as the key.
func (ex *Expander) assocIndexWord(p *syntax.ParamExp) (*syntax.ParamExp, error) {
	if p.Index == nil || p.Param == nil {
		return p, nil
	}
	if _, isWord := p.Index.(*syntax.Word); isWord {
		return p, nil
	}
	if vr := ex.env.Get(p.Param.Value); vr.Kind != expand.Associative {
		return p, nil
	}
	key, err := ex.AssocKey(p.Index)
	if err != nil {
		return nil, err
	}
	q := *p
	q.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: key}}}
	return &q, nil
}
