package shell

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// The shell's own word expansion: it uses expand for the value of each
// parameter expansion, but does quoting, field splitting and globbing
// itself, following bash's rules.

// piece is one part of an expanded word: text with its quoting, or a hard
// break between fields (from "$@" and friends).
type piece struct {
	s      string
	quoted bool // protected from splitting and globbing
	split  bool // result of an unquoted expansion: subject to splitting
	brk    bool
}

// wfield is a field being built: its bytes and which are quoted.
type wfield struct {
	b      []byte
	quoted []bool
	exists bool
}

func (f *wfield) add(s string, quoted bool) {
	f.b = append(f.b, s...)
	for range len(s) {
		f.quoted = append(f.quoted, quoted)
	}
}

// expandFields expands words into fields (brace expansion, parameter and
// command substitution, arithmetic, splitting, globbing).
func (r *Runner) expandFields(words []*syntax.Word) ([]string, error) {
	var out []string
	cfg := r.ecfg()
	for _, w := range words {
		wc := *w
		if !syntax.SplitBraces(&wc) {
			fs, err := r.expandOneWord(&wc)
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
			continue
		}
		for bw, err := range expand.BracesSeq(cfg, &wc) {
			if err != nil {
				return nil, err
			}
			fs, err := r.expandOneWord(bw)
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
		}
	}
	return out, nil
}

func (r *Runner) expandOneWord(w *syntax.Word) ([]string, error) {
	pieces, err := r.wordPiecesCtx(w.Parts, false, false, true, looksLikeAssign(w))
	if err != nil {
		return nil, err
	}
	fields := r.splitPieces(pieces)
	var out []string
	for _, f := range fields {
		if r.opts.noglob || !hasGlobMeta(f, r.opts.extglob) {
			out = append(out, string(f.b))
			continue
		}
		pat := globPattern(f)
		matches, err := r.glob(pat)
		if err != nil {
			out = append(out, string(f.b))
			continue
		}
		if len(matches) == 0 {
			if r.opts.failglob {
				return nil, errFailglob(string(f.b))
			}
			if r.opts.nullglob {
				continue
			}
			out = append(out, string(f.b))
			continue
		}
		out = append(out, matches...)
	}
	return out, nil
}

type errFailglob string

func (e errFailglob) Error() string { return "no match: " + string(e) }

// looksLikeAssign reports whether a word starts with NAME=.
func looksLikeAssign(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	name, _, found := strings.Cut(l.Value, "=")
	return found && syntax.ValidName(name)
}

// expandLiteral expands a word to one string (no splitting or globbing).
func (r *Runner) expandLiteral(w *syntax.Word) (string, error) {
	return r.expandLiteralCtx(w, false)
}

// expandAssign expands the value of an assignment (tildes after = and :).
func (r *Runner) expandAssign(w *syntax.Word) (string, error) {
	return r.expandLiteralCtx(w, true)
}

func (r *Runner) expandLiteralCtx(w *syntax.Word, assign bool) (string, error) {
	pieces, err := r.wordPiecesCtx(w.Parts, false, false, true, assign)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range pieces {
		if p.brk {
			b.WriteByte(' ')
			continue
		}
		b.WriteString(p.s)
	}
	return b.String(), nil
}

func (r *Runner) ifs() string {
	v := envView{r}.Get("IFS")
	if !v.IsSet() {
		return " \t\n"
	}
	return v.String()
}

// splitPieces splits the pieces of a word into fields by IFS.
func (r *Runner) splitPieces(pieces []piece) []*wfield {
	ifs := r.ifs()
	var out []*wfield
	cur := &wfield{}
	wsAfterField := false
	emit := func() {
		out = append(out, cur)
		cur = &wfield{}
	}
	for _, p := range pieces {
		if p.brk {
			if cur.exists {
				emit()
			}
			wsAfterField = false
			continue
		}
		if !p.split || ifs == "" {
			cur.add(p.s, p.quoted)
			if p.quoted || p.s != "" {
				cur.exists = true
				wsAfterField = false
			}
			continue
		}
		for i := 0; i < len(p.s); i++ {
			c := p.s[i]
			if strings.IndexByte(ifs, c) < 0 {
				cur.add(p.s[i:i+1], false)
				cur.exists = true
				wsAfterField = false
				continue
			}
			if c == ' ' || c == '\t' || c == '\n' {
				if cur.exists {
					emit()
					wsAfterField = true
				}
				continue
			}
			switch {
			case cur.exists:
				emit()
			case wsAfterField:
			default:
				cur.exists = true
				emit()
			}
			wsAfterField = false
		}
	}
	if cur.exists {
		emit()
	}
	return out
}

func hasGlobMeta(f *wfield, extglob bool) bool {
	for i, c := range f.b {
		if f.quoted[i] {
			continue
		}
		switch c {
		case '*', '?', '[':
			return true
		case '+', '@', '!':
			if extglob && i+1 < len(f.b) && f.b[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

// globPattern builds a pattern where quoted bytes are escaped.
func globPattern(f *wfield) string {
	var b strings.Builder
	for i, c := range f.b {
		if f.quoted[i] && strings.IndexByte(`*?[]\!+@(){}|`, c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// unescapeGlob removes pattern escapes from a literal component.
func unescapeGlob(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// maxGlobMatches bounds the number of paths one pattern may produce.
const maxGlobMatches = 100000

// glob expands a pattern against the VFS.
func (r *Runner) glob(pat string) ([]string, error) {
	mode := pattern.Filenames | pattern.EntireString
	if r.opts.extglob {
		mode |= pattern.ExtendedOperators
	}
	if r.opts.nocaseglob {
		mode |= pattern.NoGlobCase
	}
	if r.opts.dotglob {
		mode |= pattern.GlobLeadingDot
	}
	if !r.opts.globstar {
		mode |= pattern.NoGlobStar
	}
	abs := strings.HasPrefix(pat, "/")
	trailingSlash := strings.HasSuffix(pat, "/")
	parts := strings.Split(strings.Trim(pat, "/"), "/")
	cur := []cand{{"", r.dir}}
	if abs {
		cur = []cand{{"/", "/"}}
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		if strings.HasSuffix(a, "/") {
			return a + b
		}
		return a + "/" + b
	}
	for i, part := range parts {
		last := i == len(parts)-1
		if part == "" {
			continue
		}
		var next []cand
		if !pattern.HasMeta(part, 0) && !(r.opts.extglob && strings.Contains(part, "(")) {
			lit := unescapeGlob(part)
			for _, c := range cur {
				full := path.Join(c.full, lit)
				fi, err := r.sh.fs.Stat(full)
				if err != nil || (!last && !fi.IsDir()) {
					continue
				}
				next = append(next, cand{join(c.rel, lit), full})
			}
			cur = next
			continue
		}
		if r.opts.globstar && part == "**" {
			for _, c := range cur {
				next = append(next, c)
				r.walkDirs(c.rel, c.full, join, &next, 0)
			}
			cur = next
			continue
		}
		expr, err := pattern.Regexp(part, mode)
		if err != nil {
			return nil, err
		}
		re, err := compilePattern(part, mode)
		if err != nil {
			return nil, err
		}
		_ = expr
		for _, c := range cur {
			ents, err := r.sh.fs.ReadDir(c.full)
			if err != nil {
				continue
			}
			for _, e := range ents {
				name := e.Name()
				if name[0] == '.' && !strings.HasPrefix(part, ".") && !r.opts.dotglob {
					continue
				}
				if !re.MatchString(name) {
					continue
				}
				if (!last || trailingSlash) && !e.IsDir() {
					continue
				}
				next = append(next, cand{join(c.rel, name), path.Join(c.full, name)})
				if len(next) > maxGlobMatches {
					return nil, errors.New("too many glob matches")
				}
			}
		}
		cur = next
		if r.ctxErr() != nil {
			return nil, r.ctxErr()
		}
	}
	out := make([]string, 0, len(cur))
	for _, c := range cur {
		s := c.rel
		if trailingSlash {
			s += "/"
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}

type cand struct{ rel, full string }

func (r *Runner) walkDirs(rel, full string, join func(a, b string) string, out *[]cand, depth int) {
	if depth > 64 || len(*out) > maxGlobMatches {
		return
	}
	ents, err := r.sh.fs.ReadDir(full)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || (e.Name()[0] == '.' && !r.opts.dotglob) {
			continue
		}
		c := cand{join(rel, e.Name()), path.Join(full, e.Name())}
		*out = append(*out, c)
		r.walkDirs(c.rel, c.full, join, out, depth+1)
	}
}

var _ fs.DirEntry

// unquoteLit processes backslashes of a literal outside quotes. It
// returns pieces where escaped characters are quoted.
func unquoteLit(s string, split bool) []piece {
	if !strings.Contains(s, `\`) {
		return []piece{{s: s, split: split}}
	}
	var out []piece
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, piece{s: b.String(), split: split})
			b.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
			flush()
			out = append(out, piece{s: s[i : i+1], quoted: true})
			continue
		}
		b.WriteByte(s[i])
	}
	flush()
	return out
}

// unquoteDblLit processes backslashes of a literal inside double quotes.
func unquoteDblLit(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// tildePrefix expands a leading ~ in an unquoted literal.
func (r *Runner) tildePrefix(s string) (string, string, bool) {
	if !strings.HasPrefix(s, "~") {
		return "", s, false
	}
	end := strings.IndexByte(s, '/')
	if end < 0 {
		end = len(s)
	}
	user := s[1:end]
	var home string
	switch user {
	case "":
		home = r.getVar("HOME")
	case "+":
		home = r.getVar("PWD")
	case "-":
		if !r.isSetVar("OLDPWD") {
			return "", s, false
		}
		home = r.getVar("OLDPWD")
	case "root":
		home = "/root"
	default:
		return "", s, false
	}
	return home, s[end:], true
}

// wordPieces expands word parts. quoted is true inside double quotes;
// operand is true inside the word of ${x-word} (where literal text is
// split too); first is true at the start of a word (for tilde).
func (r *Runner) wordPieces(parts []syntax.WordPart, quoted, operand, first bool) ([]piece, error) {
	return r.wordPiecesCtx(parts, quoted, operand, first, false)
}

// mergeLits joins adjacent literal parts (brace expansion splits them).
func mergeLits(parts []syntax.WordPart) []syntax.WordPart {
	n := 0
	for i := 1; i < len(parts); i++ {
		_, a := parts[i-1].(*syntax.Lit)
		_, b := parts[i].(*syntax.Lit)
		if a && b {
			n++
		}
	}
	if n == 0 {
		return parts
	}
	out := make([]syntax.WordPart, 0, len(parts)-n)
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*syntax.Lit); ok {
				out[len(out)-1] = &syntax.Lit{ValuePos: prev.ValuePos, ValueEnd: l.ValueEnd, Value: prev.Value + l.Value}
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// assignTilde expands the tildes of an assignment's literal text: at its
// start (when first) and after each colon.
func (r *Runner) assignTilde(s string, first bool) []piece {
	var out []piece
	segs := strings.Split(s, ":")
	for i, seg := range segs {
		if i > 0 {
			out = append(out, piece{s: ":"})
		}
		if i > 0 || first {
			if home, rest, ok := r.tildePrefix(seg); ok {
				out = append(out, piece{s: home, quoted: true})
				seg = rest
			}
		}
		out = append(out, unquoteLit(seg, false)...)
	}
	return out
}

func (r *Runner) wordPiecesCtx(parts []syntax.WordPart, quoted, operand, first, assign bool) ([]piece, error) {
	var out []piece
	cfg := r.ecfg()
	parts = mergeLits(parts)
	for i, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if quoted {
				out = append(out, piece{s: unquoteDblLit(p.Value), quoted: true})
				continue
			}
			s := p.Value
			if assign && !strings.Contains(s, `\`) {
				out = append(out, r.assignTilde(s, i == 0 && first)...)
				continue
			}
			if i == 0 && first {
				if home, rest, ok := r.tildePrefix(s); ok {
					out = append(out, piece{s: home, quoted: true})
					s = rest
				}
			}
			out = append(out, unquoteLit(s, operand)...)
		case *syntax.SglQuoted:
			if quoted {
				v, ok := r.expandString(p.Value)
				if !ok {
					return nil, errReported
				}
				out = append(out, piece{s: "'" + v + "'", quoted: true})
				continue
			}
			s := p.Value
			if p.Dollar {
				v, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{p}})
				if err != nil {
					return nil, err
				}
				s = v
			}
			out = append(out, piece{s: s, quoted: true})
		case *syntax.DblQuoted:
			if p.Dollar {
				v, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{p}})
				if err != nil {
					return nil, err
				}
				out = append(out, piece{s: v, quoted: true})
				continue
			}
			inner, err := r.wordPieces(p.Parts, true, false, false)
			if err != nil {
				return nil, err
			}
			if !hasQuotedMulti(p.Parts) {
				out = append(out, piece{s: "", quoted: true})
			}
			out = append(out, inner...)
		case *syntax.ParamExp:
			ps, err := r.paramPiecesCtx(p, quoted, assign)
			if err != nil {
				return nil, err
			}
			out = append(out, ps...)
		case *syntax.ArithmExp:
			n, err := r.arith(p.X)
			if err != nil {
				return nil, err
			}
			out = append(out, piece{s: strconv.Itoa(n), quoted: quoted, split: !quoted})
		case *syntax.CmdSubst:
			v, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{p}}}})
			if err != nil {
				return nil, err
			}
			out = append(out, piece{s: v, quoted: quoted, split: !quoted})
		case *syntax.ExtGlob:
			out = append(out, piece{s: p.Op.String() + p.Pattern.Value + ")"})
		case *syntax.ProcSubst:
			return nil, errUnsupported("process substitution <(...) and >(...)")
		default:
			v, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return nil, err
			}
			out = append(out, piece{s: v, quoted: quoted})
		}
	}
	return out, nil
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

// paramPieces expands one ${...}.
func (r *Runner) paramPieces(p *syntax.ParamExp, quoted bool) ([]piece, error) {
	return r.paramPiecesCtx(p, quoted, false)
}

func (r *Runner) paramPiecesCtx(p *syntax.ParamExp, quoted, assign bool) ([]piece, error) {
	cfg := r.ecfg()
	if p.Excl && p.Names == 0 && p.Index == nil && p.Param != nil {
		// ${!ref...}: resolve the reference, then expand the target.
		target := r.getVar(p.Param.Value)
		if !(envView{r}).Get(p.Param.Value).IsSet() {
			if r.opts.nounset {
				return nil, expand.UnsetParameterError{Node: p, Message: "unbound variable"}
			}
			target = ""
		}
		tw, err := newParser().Document(strings.NewReader("${" + target + "}"))
		var tp *syntax.ParamExp
		if err == nil && len(tw.Parts) == 1 {
			tp, _ = tw.Parts[0].(*syntax.ParamExp)
		}
		if tp == nil || tp.Exp != nil || tp.Slice != nil || tp.Repl != nil || tp.Length || tp.Excl || tp.Names != 0 {
			if target == "" && p.Exp != nil {
				tp = &syntax.ParamExp{Param: &syntax.Lit{Value: "__cordon_unset__"}}
			} else {
				return nil, errors.New("${!" + p.Param.Value + "}: bad substitution")
			}
		}
		np := *p
		np.Excl = false
		np.Param = tp.Param
		np.Index = tp.Index
		if np.Index != nil && !isAtStar(np.Index) {
			if idx, ok, err := r.preIndex(np.Param.Value, np.Index); err != nil {
				return nil, err
			} else if ok {
				np.Index = idx
			}
		}
		return r.paramPieces(&np, quoted)
	}
	if p.Exp != nil && !p.Excl {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			base := *p
			base.Exp = nil
			set, null, err := r.paramState(&base)
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
			isAlt := p.Exp.Op == syntax.AlternateUnset || p.Exp.Op == syntax.AlternateUnsetOrNull
			if useWord {
				if p.Exp.Word == nil {
					if quoted {
						return []piece{{s: "", quoted: true}}, nil
					}
					return nil, nil
				}
				ps, err := r.wordPiecesCtx(p.Exp.Word.Parts, quoted, !quoted, !quoted, assign && !quoted)
				if err != nil {
					return nil, err
				}
				if quoted {
					ps = append([]piece{{s: "", quoted: true}}, ps...)
				}
				return ps, nil
			}
			if isAlt {
				if quoted {
					return []piece{{s: "", quoted: true}}, nil
				}
				return nil, nil
			}
			if r.opts.nounset && !set && p.Exp.Op == syntax.DefaultUnset {
				return nil, nil
			}
			return r.paramPieces(&base, quoted)
		}
	}
	if p.Length && p.Param != nil && (isAtStar(p.Index) || (p.Index == nil && (p.Param.Value == "@" || p.Param.Value == "*"))) {
		base := *p
		base.Length = false
		elems, err := r.multiElems(&base)
		if err != nil {
			return nil, err
		}
		return []piece{{s: strconv.Itoa(len(elems)), quoted: quoted, split: !quoted}}, nil
	}
	if p.Repl != nil && p.Param != nil {
		base := *p
		base.Repl = nil
		var vals []string
		multi := isMulti(&base)
		if multi {
			elems, err := r.multiElems(&base)
			if err != nil {
				return nil, err
			}
			vals = elems
		} else {
			v, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{&base}}}})
			if err != nil {
				return nil, err
			}
			vals = []string{v}
		}
		vals, err := r.patsub(vals, p.Repl)
		if err != nil {
			return nil, err
		}
		if !multi || (quoted && isStar(p)) {
			sep := " "
			if isStar(p) {
				sep = ""
				if ifs := r.ifs(); ifs != "" {
					sep = ifs[:1]
				}
			}
			v := strings.Join(vals, sep)
			if quoted {
				return []piece{{s: v, quoted: true}}, nil
			}
			return []piece{{s: v, split: true}}, nil
		}
		return r.elemPieces(vals, quoted), nil
	}
	if isMulti(p) && !(quoted && isStar(p)) {
		elems, err := r.multiElems(p)
		if err != nil {
			return nil, err
		}
		return r.elemPieces(elems, quoted), nil
	}
	v, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{p}}}})
	if err != nil {
		return nil, err
	}
	if quoted {
		return []piece{{s: v, quoted: true}}, nil
	}
	return []piece{{s: v, split: true}}, nil
}

// multiElems returns the values of a multi-valued expansion.
func (r *Runner) multiElems(p *syntax.ParamExp) ([]string, error) {
	if p.Names == 0 && !p.Excl {
		var base []string
		if p.Index == nil {
			base = r.params
		} else {
			vr := envView{r}.Get(p.Param.Value)
			switch vr.Kind {
			case expand.Associative:
				for _, k := range sortedKeys(vr.Map) {
					base = append(base, vr.Map[k])
				}
			default:
				if vr.IsSet() {
					_, base = arrayItems(vr)
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
	return expand.Fields(r.ecfgNoGlob(), w)
}

func (r *Runner) ecfgNoGlob() *expand.Config {
	cfg := r.ecfg()
	cfg.ReadDir2 = nil
	return cfg
}

// paramState reports whether a parameter is set and whether it is null.
func (r *Runner) paramState(p *syntax.ParamExp) (set, null bool, err error) {
	if isMulti(p) {
		elems, err := r.multiElems(p)
		if err != nil {
			return false, false, err
		}
		if len(elems) == 0 {
			return false, true, nil
		}
		return true, strings.Join(elems, "") == "", nil
	}
	if p.Param != nil && p.Index == nil && !p.Excl && !p.Length && p.Slice == nil && p.Repl == nil && p.Exp == nil {
		vr := envView{r}.Get(p.Param.Value)
		if !vr.IsSet() {
			return false, true, nil
		}
		s := vr.String()
		switch vr.Kind {
		case expand.Indexed:
			idx, vals := arrayItems(vr)
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
		vr := envView{r}.Get(p.Param.Value)
		if vr.Kind == expand.Associative {
			key, ok := r.assocKey(p.Index)
			if !ok {
				return false, false, errReported
			}
			v, ok := vr.Map[key]
			return ok, v == "", nil
		}
	}
	cfg := r.ecfg()
	cfg.NoUnset = false
	v, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{p}}}})
	if err != nil {
		return false, false, err
	}
	if v != "" {
		return true, false, nil
	}
	// distinguish unset from empty for indexed elements
	if p.Index != nil && p.Param != nil {
		vr := envView{r}.Get(p.Param.Value)
		if !vr.IsSet() {
			return false, true, nil
		}
		n, err := r.arith(p.Index)
		if err != nil {
			return false, false, err
		}
		idx, _ := arrayItems(vr)
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

// expandPattern expands a word as a shell pattern: quoted characters are
// escaped so that they match literally.
func (r *Runner) expandPattern(w *syntax.Word) (string, error) {
	pieces, err := r.wordPieces(w.Parts, false, false, true)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range pieces {
		if p.brk {
			b.WriteByte(' ')
			continue
		}
		if !p.quoted {
			b.WriteString(p.s)
			continue
		}
		for i := 0; i < len(p.s); i++ {
			if strings.IndexByte(`*?[]\(){}|+@!`, p.s[i]) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(p.s[i])
		}
	}
	return b.String(), nil
}

// elemPieces turns the values of a multi-valued expansion into pieces.
func (r *Runner) elemPieces(elems []string, quoted bool) []piece {
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
	ifs := r.ifs()
	for i, e := range elems {
		if i > 0 {
			if ifs == "" {
				out = append(out, piece{brk: true})
			} else {
				out = append(out, piece{s: ifs[:1], split: true})
			}
		}
		out = append(out, piece{s: e, split: true})
	}
	return out
}

// patsub implements ${x/pat/rep}, ${x//pat/rep}, ${x/#pat/rep} and
// ${x/%pat/rep} on each value.
func (r *Runner) patsub(vals []string, repl *syntax.Replace) ([]string, error) {
	orig := repl.Orig
	anchor := byte(0)
	if orig != nil && len(orig.Parts) > 0 {
		if l, ok := orig.Parts[0].(*syntax.Lit); ok && l.Value != "" && (l.Value[0] == '#' || l.Value[0] == '%') {
			anchor = l.Value[0]
			parts := append([]syntax.WordPart{&syntax.Lit{Value: l.Value[1:]}}, orig.Parts[1:]...)
			orig = &syntax.Word{Parts: parts}
		}
	}
	pat := ""
	if orig != nil {
		var err error
		if pat, err = r.expandPattern(orig); err != nil {
			return nil, err
		}
	}
	if pat == "" && anchor == 0 {
		return vals, nil
	}
	// the replacement: quote removal, and & stands for the match
	var withPieces []piece
	if repl.With != nil {
		var err error
		if withPieces, err = r.wordPieces(repl.With.Parts, false, false, false); err != nil {
			return nil, err
		}
	}
	expr, err := pattern.Regexp(pat, 0)
	if err != nil {
		return vals, nil
	}
	switch anchor {
	case '#':
		expr = "^(?:" + expr + ")"
	case '%':
		expr = "(?:" + expr + ")$"
	}
	re, err := regexp.Compile("(?s)" + expr)
	if err != nil {
		return vals, nil
	}
	re.Longest()
	with := func(match string) string {
		var b strings.Builder
		for _, p := range withPieces {
			if p.quoted || !strings.Contains(p.s, "&") {
				b.WriteString(p.s)
				continue
			}
			b.WriteString(strings.ReplaceAll(p.s, "&", match))
		}
		return b.String()
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		var b strings.Builder
		pos := 0
		for pos <= len(v) {
			loc := re.FindStringIndex(v[pos:])
			if loc == nil {
				break
			}
			start, end := pos+loc[0], pos+loc[1]
			b.WriteString(v[pos:start])
			b.WriteString(with(v[start:end]))
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
