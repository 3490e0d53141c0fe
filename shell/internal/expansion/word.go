package expansion

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
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
	sep    bool // separator between the elements of an unquoted $@
	nojoin bool // a brk that joins with nothing where words are not split ($* with IFS='')
}

// wfield is a field being built: its bytes and which are quoted.
type wfield struct {
	b      []byte
	quoted []bool
	exists bool
}

// add appends text with its quoting.
func (f *wfield) add(s string, quoted bool) {
	f.b = append(f.b, s...)
	for range len(s) {
		f.quoted = append(f.quoted, quoted)
	}
}

// expandFields expands words into fields (brace expansion, parameter and
// command substitution, arithmetic, splitting, globbing).
func (ex *Expander) expandFields(words []*syntax.Word) ([]string, error) {
	var out []string
	for _, w := range words {
		wc := *w
		if !syntax.SplitBraces(&wc) {
			fs, err := ex.expandOneWord(&wc)
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
			continue
		}
		var err error
		if out, err = ex.expandBraces(&wc, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// expandBraces appends the fields of a word with brace expansions to out.
func (ex *Expander) expandBraces(w *syntax.Word, out []string) ([]string, error) {
	cfg := ex.ecfg()
	defer ex.putEcfg(cfg)
	for bw, err := range expand.BracesSeq(cfg, w) {
		if err != nil {
			return nil, err
		}
		// Thousands of words can come out of one brace expansion; a
		// timeout must be able to stop it (wasm cannot preempt).
		if err := ex.env.Err(); err != nil {
			return nil, err
		}
		fs, err := ex.expandOneWord(bw)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// expandOneWord expands one word (after brace expansion) into fields.
func (ex *Expander) expandOneWord(w *syntax.Word) ([]string, error) {
	assignLike := looksLikeAssign(w)
	ex.argAssign = assignLike
	pieces, err := ex.wordPiecesCtx(w.Parts, false, false, true, assignLike)
	ex.argAssign = false
	if err != nil {
		return nil, err
	}
	if f, n, ok := ex.singleField(pieces); ok {
		if n == 0 {
			return nil, nil
		}
		return []string{f}, nil
	}
	fields := ex.splitPieces(pieces)
	var out []string
	for _, f := range fields {
		if ex.env.Options().NoGlob || !hasGlobMeta(f, ex.env.Options().ExtGlob) {
			out = append(out, string(f.b))
			continue
		}
		pat := globPattern(f)
		matches, err := ex.glob(pat)
		if err != nil {
			out = append(out, string(f.b))
			continue
		}
		if len(matches) == 0 {
			if ex.env.Options().FailGlob {
				return nil, errFailglob(string(f.b))
			}
			if ex.env.Options().NullGlob {
				continue
			}
			out = append(out, string(f.b))
			continue
		}
		out = append(out, matches...)
	}
	return out, nil
}

// errFailglob is the error of a pattern without match under failglob.
type errFailglob string

// Error returns the message.
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
func (ex *Expander) expandLiteral(w *syntax.Word) (string, error) {
	return ex.expandLiteralCtx(w, false)
}

// expandAssign expands the value of an assignment (tildes after = and :).
func (ex *Expander) expandAssign(w *syntax.Word) (string, error) {
	return ex.expandLiteralCtx(w, true)
}

// expandLiteralCtx expands a word to one string.
func (ex *Expander) expandLiteralCtx(w *syntax.Word, assign bool) (string, error) {
	pieces, err := ex.wordPiecesCtx(w.Parts, false, false, true, assign)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range pieces {
		if p.brk && p.nojoin {
			continue
		}
		if p.brk || p.sep {
			b.WriteByte(' ')
			continue
		}
		b.WriteString(p.s)
	}
	return b.String(), nil
}

// ifs returns the field separators (the default when IFS is unset).
func (ex *Expander) ifs() string {
	v := ex.env.Get("IFS")
	if !v.IsSet() {
		return " \t\n"
	}
	return v.String()
}

// singleField expands the commonest word, one piece that neither splits
// nor globs (echo hi, "$x", $i holding a number), without building fields
// byte by byte. It returns the word's fields, of which there are n (0 or
// 1); ok is false when the word needs splitPieces and globbing.
func (ex *Expander) singleField(pieces []piece) (field string, n int, ok bool) {
	if len(pieces) != 1 {
		return "", 0, false
	}
	p := pieces[0]
	if p.brk || p.sep {
		return "", 0, false
	}
	if p.split {
		if p.s == "" {
			return "", 0, true // an unquoted empty expansion leaves no field
		}
		if ifs := ex.ifs(); ifs != "" && strings.ContainsAny(p.s, ifs) {
			return "", 0, false
		}
	} else if !p.quoted && p.s == "" {
		return "", 0, true
	}
	if !p.quoted && !ex.env.Options().NoGlob && strings.ContainsAny(p.s, "*?[+@!") {
		return "", 0, false // may be a pattern: hasGlobMeta decides
	}
	return p.s, 1, true
}

// splitPieces splits the pieces of a word into fields by IFS.
func (ex *Expander) splitPieces(pieces []piece) []*wfield {
	ifs := ex.ifs()
	asciiIFS := isASCII(ifs)
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
			n := 1
			if c >= utf8.RuneSelf && !asciiIFS {
				// a separator may be a multibyte character
				_, n = utf8.DecodeRuneInString(p.s[i:])
			}
			if !isIFS(ifs, p.s[i:i+n], asciiIFS) {
				cur.add(p.s[i:i+n], false)
				cur.exists = true
				wsAfterField = false
				i += n - 1
				continue
			}
			i += n - 1
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

// isASCII reports whether s has only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isIFS reports whether the character c (one byte when ascii) is one of
// the separators.
func isIFS(ifs, c string, ascii bool) bool {
	if ascii || len(c) == 1 && c[0] < utf8.RuneSelf {
		return len(c) == 1 && strings.IndexByte(ifs, c[0]) >= 0
	}
	for _, r := range ifs {
		if string(r) == c {
			return true
		}
	}
	return false
}

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
func (ex *Expander) tildePrefix(s string) (string, string, bool) {
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
		home = ex.getVar("HOME")
	case "+":
		home = ex.getVar("PWD")
	case "-":
		if !ex.isSetVar("OLDPWD") {
			return "", s, false
		}
		home = ex.getVar("OLDPWD")
	case "root":
		home = "/root"
	default:
		d, ok := ex.dirStackEntry(user)
		if !ok {
			return "", s, false
		}
		home = d
	}
	return home, s[end:], true
}

// dirStackEntry expands the tilde prefixes ~N, ~+N and ~-N: the entries
// of $DIRSTACK that dirs +N and dirs -N print with -l.
func (ex *Expander) dirStackEntry(s string) (string, bool) {
	plus := true
	switch {
	case s == "":
		return "", false
	case s[0] == '+':
		s = s[1:]
	case s[0] == '-':
		plus = false
		s = s[1:]
	}
	if s == "" || len(s) > 9 || strings.Trim(s, "0123456789") != "" {
		return "", false
	}
	n, _ := strconv.Atoi(s)
	list := ex.env.Get("DIRSTACK").List
	if !plus {
		n = len(list) - 1 - n
	}
	if n < 0 || n >= len(list) {
		return "", false
	}
	return list[n], true
}

// wordPieces expands word parts. quoted is true inside double quotes;
// operand is true inside the word of ${x-word} (where literal text is
// split too); first is true at the start of a word (for tilde).
func (ex *Expander) wordPieces(parts []syntax.WordPart, quoted, operand, first bool) ([]piece, error) {
	return ex.wordPiecesCtx(parts, quoted, operand, first, false)
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
// followed is true when another part of the word follows s: a tilde
// prefix that runs to the end of s then has a quoted part and stays.
func (ex *Expander) assignTilde(s string, first, followed bool) []piece {
	var out []piece
	if first && ex.argAssign {
		// an argument like NAME=~/x: the value starts after "="
		if name, rest, ok := strings.Cut(s, "="); ok && syntax.ValidName(name) {
			out = append(out, piece{s: name + "="})
			s = rest
		}
	}
	segs := strings.Split(s, ":")
	for i, seg := range segs {
		if i > 0 {
			out = append(out, piece{s: ":"})
		}
		if (i > 0 || first) && (!followed || i < len(segs)-1 || strings.IndexByte(seg, '/') >= 0) {
			if home, rest, ok := ex.tildePrefix(seg); ok {
				out = append(out, piece{s: home, quoted: true})
				seg = rest
			}
		}
		out = append(out, unquoteLit(seg, false)...)
	}
	return out
}

// wordPiecesCtx is wordPieces; assign is true in assignment values.
func (ex *Expander) wordPiecesCtx(parts []syntax.WordPart, quoted, operand, first, assign bool) ([]piece, error) {
	var out []piece
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
				out = append(out, ex.assignTilde(s, i == 0 && first, i+1 < len(parts))...)
				continue
			}
			if i == 0 && first && (i+1 == len(parts) || strings.IndexByte(s, '/') >= 0) {
				// A quoted character in the tilde prefix (~"/x") stops it.
				if home, rest, ok := ex.tildePrefix(s); ok {
					out = append(out, piece{s: home, quoted: true})
					s = rest
				}
			}
			out = append(out, unquoteLit(s, operand)...)
		case *syntax.SglQuoted:
			if quoted {
				v, err := ex.expandString(p.Value)
				if err != nil {
					return nil, err
				}
				out = append(out, piece{s: "'" + v + "'", quoted: true})
				continue
			}
			s := p.Value
			if p.Dollar {
				s = ANSIC(s)
			}
			out = append(out, piece{s: s, quoted: true})
		case *syntax.DblQuoted:
			if p.Dollar {
				v, err := ex.lit(&syntax.Word{Parts: []syntax.WordPart{p}})
				if err != nil {
					return nil, err
				}
				out = append(out, piece{s: v, quoted: true})
				continue
			}
			inner, err := ex.wordPieces(p.Parts, true, false, false)
			if err != nil {
				return nil, err
			}
			if !hasQuotedMulti(p.Parts) {
				out = append(out, piece{s: "", quoted: true})
			}
			out = append(out, inner...)
		case *syntax.ParamExp:
			ps, err := ex.paramPiecesCtx(p, quoted, assign)
			if err != nil {
				return nil, err
			}
			out = append(out, ps...)
		case *syntax.ArithmExp:
			n, err := ex.Arith(p.X)
			if err != nil {
				return nil, err
			}
			out = append(out, piece{s: strconv.Itoa(n), quoted: quoted, split: !quoted})
		case *syntax.CmdSubst:
			v, err := ex.lit(&syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{p}}}})
			if err != nil {
				return nil, err
			}
			out = append(out, piece{s: v, quoted: quoted, split: !quoted})
		case *syntax.ExtGlob:
			ps, err := ex.extGlobPieces(p)
			if err != nil {
				return nil, err
			}
			out = append(out, ps...)
		case *syntax.ProcSubst:
			path, err := ex.env.ProcSubst(p)
			if err != nil {
				return nil, err
			}
			out = append(out, piece{s: path, quoted: true})
		default:
			v, err := ex.lit(&syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return nil, err
			}
			out = append(out, piece{s: v, quoted: quoted})
		}
	}
	return out, nil
}

// expandPattern expands a word as a shell pattern: quoted characters are
// escaped so that they match literally.
func (ex *Expander) expandPattern(w *syntax.Word) (string, error) {
	pieces, err := ex.wordPieces(w.Parts, false, false, true)
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

// expandString expands s as the inside of a double-quoted word; it fails
// with ErrReported when s cannot be parsed.
func (ex *Expander) expandString(s string) (string, error) {
	if TooDeep(s) {
		return s, ErrReported
	}
	w, err := NewParser().Document(strings.NewReader(s))
	if err != nil {
		return s, ErrReported
	}
	return ex.Literal(w)
}
