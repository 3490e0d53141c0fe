package expansion

import (
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// This file has the ${x@op} transformations that need the variable rather
// than its values (a, A, K, k), prompt decoding (P), the order bash lists
// the keys of an associative array in, and declare -p's quoting, which
// the shell shares.

// AssocKeys returns the keys of an associative array in the order bash
// lists them: bash keeps them in a hash table of 1024 buckets (hashlib.c,
// hash_string: 32-bit FNV-1 over the key's bytes as signed chars) and walks
// the buckets in order, the keys of one bucket most recent first (v.List
// has the order of insertion, see AssocSet; keys it lacks come last). The
// table grows fourfold when it holds twice as many keys as buckets, which
// changes the order; that is replayed for the keys there are, in their
// order of insertion.
func AssocKeys(v expand.Variable) []string {
	m := v.Map
	keys := make([]string, 0, len(m))
	if len(m) < 2 {
		for k := range m {
			keys = append(keys, k)
		}
		return keys
	}
	pos := make(map[string]int, len(m))
	for i, k := range v.List {
		if _, ok := m[k]; ok {
			pos[k] = i + 1
		}
	}
	es := make([]assocEntry, 0, len(m))
	for k := range m {
		es = append(es, assocEntry{k, assocHash(k), pos[k]})
	}
	if len(es) >= 2*assocBuckets {
		return bashTableOrder(es)
	}
	sort.Slice(es, func(i, j int) bool {
		a, b := &es[i], &es[j]
		if ba, bb := a.hash&(assocBuckets-1), b.hash&(assocBuckets-1); ba != bb {
			return ba < bb
		}
		if a.pos != b.pos {
			return a.pos > b.pos
		}
		return a.key > b.key
	})
	for i := range es {
		keys = append(keys, es[i].key)
	}
	return keys
}

// assocBuckets is how many buckets bash's table of an associative array
// starts with (ASSOC_HASH_BUCKETS).
const assocBuckets = 1024

// assocEntry is a key with its hash and its place in the order of
// insertion (0 when unknown).
type assocEntry struct {
	key  string
	hash uint32
	pos  int
}

// bashTableOrder inserts the keys into a table as bash's hash_insert
// does, growing it as hash_grow does, and lists it.
func bashTableOrder(es []assocEntry) []string {
	sort.Slice(es, func(i, j int) bool {
		if es[i].pos != es[j].pos {
			return es[i].pos < es[j].pos
		}
		return es[i].key < es[j].key
	})
	nb := assocBuckets
	head := make([]int, nb) // 1 + index of the first entry of each bucket
	next := make([]int, len(es))
	for i := range es {
		if i >= 2*nb {
			// hash_rehash: walk the old buckets, each from its head,
			// inserting at the head of the new ones
			nnb := nb * 4
			nhead := make([]int, nnb)
			for b := 0; b < nb; b++ {
				for e := head[b]; e != 0; {
					following := next[e-1]
					nbk := int(es[e-1].hash) & (nnb - 1)
					next[e-1] = nhead[nbk]
					nhead[nbk] = e
					e = following
				}
			}
			nb, head = nnb, nhead
		}
		b := int(es[i].hash) & (nb - 1)
		next[i] = head[b]
		head[b] = i + 1
	}
	keys := make([]string, 0, len(es))
	for b := 0; b < nb; b++ {
		for e := head[b]; e != 0; e = next[e-1] {
			keys = append(keys, es[e-1].key)
		}
	}
	return keys
}

// assocHash is bash's hash_string of key.
func assocHash(key string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h *= 16777619
		h ^= uint32(int32(int8(key[i]))) // char is signed on bash's platforms
	}
	return h
}

// DeclQuote quotes a value the way declare -p prints it: in double quotes,
// or as $'...' when it has control characters.
func DeclQuote(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return Quote(s)
		}
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '$', '`':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// DeclKeyQuote quotes an associative-array key the way declare -p prints
// it.
func DeclKeyQuote(k string) string {
	if k != "" && !hasShellMetas(k) {
		return k
	}
	return DeclQuote(k)
}

// hasShellMetas reports whether s has a character the shell would read
// specially (bash's sh_contains_shell_metas).
func hasShellMetas(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}',
			'*', '[', '?', ']', '^', '$', '`':
			return true
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return true
			}
		case '#':
			if i == 0 {
				return true
			}
		default:
			if s[i] < 0x20 || s[i] == 0x7f {
				return true
			}
		}
	}
	return false
}

// DeclBody returns what follows "declare -flags name" in declare -p's
// output for a set variable: =value, =(...) for arrays.
func DeclBody(v expand.Variable) string {
	var b strings.Builder
	switch v.Kind {
	case expand.Indexed:
		b.WriteString("=(")
		idx, vals := ArrayItems(v)
		for i := range idx {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(idx[i]))
			b.WriteString("]=")
			b.WriteString(DeclQuote(vals[i]))
		}
		b.WriteString(")")
	case expand.Associative:
		b.WriteString("=(")
		for _, k := range AssocKeys(v) {
			b.WriteByte('[')
			b.WriteString(DeclKeyQuote(k))
			b.WriteString("]=")
			b.WriteString(DeclQuote(v.Map[k]))
			b.WriteByte(' ')
		}
		b.WriteString(")")
	default:
		b.WriteString("=" + DeclQuote(v.Str))
	}
	return b.String()
}

// varTransformPieces expands ${x@a}, ${x@A}, ${x@K} and ${x@k}, which
// need the variable itself; ok is false for other operators.
func (ex *Expander) varTransformPieces(p *syntax.ParamExp, op string, quoted bool) ([]piece, bool, error) {
	switch op {
	case "a", "A", "K", "k":
	default:
		return nil, false, nil
	}
	name := p.Param.Value
	if !syntax.ValidName(name) {
		return nil, false, nil
	}
	base := *p
	base.Exp = nil
	vr := ex.env.Get(name)
	attrs := ex.env.Attributes(name)
	for range 8 {
		// ${ref@A} of a nameref names the variable it refers to
		t, ok := ex.env.RefTarget(name)
		if !ok || !syntax.ValidName(t) {
			break
		}
		name = t
	}
	arrayAll := isMulti(&base) && p.Index != nil && (vr.Kind == expand.Indexed || vr.Kind == expand.Associative)
	one := func(s string) []piece { return []piece{{s: s, quoted: quoted, split: !quoted}} }
	switch op {
	case "a":
		if !isMulti(&base) {
			return one(attrs), true, nil
		}
		vals, err := ex.multiElems(&base)
		if err != nil {
			return nil, true, err
		}
		for i := range vals {
			vals[i] = attrs
		}
		return ex.valuePieces(p, vals, true, quoted), true, nil
	case "A":
		if arrayAll {
			if !vr.IsSet() {
				return one("declare -" + attrs + " " + name), true, nil
			}
			return one("declare -" + attrs + " " + name + DeclBody(vr)), true, nil
		}
		set, _, err := ex.paramState(&base, true)
		if err != nil {
			return nil, true, err
		}
		if !set {
			if attrs == "" {
				return emptyPieces(quoted), true, nil
			}
			return one("declare -" + attrs + " " + name), true, nil
		}
		v, err := ex.scalarValue(&base)
		if err != nil {
			return nil, true, err
		}
		if attrs == "" {
			return one(name + "=" + atQuote(v)), true, nil
		}
		return one("declare -" + attrs + " " + name + "=" + atQuote(v)), true, nil
	}
	// K and k
	if !arrayAll {
		set, _, err := ex.paramState(&base, true)
		if err != nil {
			return nil, true, err
		}
		if !set {
			return emptyPieces(quoted), true, nil
		}
		v, err := ex.scalarValue(&base)
		if err != nil {
			return nil, true, err
		}
		return one(atQuote(v)), true, nil
	}
	var keys, vals []string
	if vr.Kind == expand.Associative {
		keys = AssocKeys(vr)
		for _, k := range keys {
			vals = append(vals, vr.Map[k])
		}
	} else {
		idx, vs := ArrayItems(vr)
		for i := range idx {
			keys = append(keys, strconv.Itoa(idx[i]))
		}
		vals = vs
	}
	if op == "k" {
		words := make([]string, 0, 2*len(keys))
		for i := range keys {
			words = append(words, keys[i], vals[i])
		}
		return ex.elemPieces(words, quoted, false, false), true, nil
	}
	var b strings.Builder
	for i := range keys {
		if vr.Kind == expand.Associative {
			b.WriteString(DeclKeyQuote(keys[i]) + " " + DeclQuote(vals[i]) + " ")
			continue
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(keys[i] + " " + DeclQuote(vals[i]))
	}
	return one(b.String()), true, nil
}

// Prompt decodes the backslash escapes of a prompt string, as ${x@P}
// does, for those that do not depend on the terminal, the user or the
// host: \a \e \n \r \\ \[ \] \$ (as for a user other than root), \NNN,
// \w \W (from PWD and HOME), \s (the shell's name) and \v \V.
func Prompt(s, pwd, home string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch d := s[i]; d {
		case 'a':
			b.WriteByte(7)
		case 'e':
			b.WriteByte(27)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteByte('\\')
		case '[', ']':
		case '$':
			b.WriteByte('$')
		case 's':
			b.WriteString("bash")
		case 'v':
			b.WriteString("5.2")
		case 'V':
			b.WriteString("5.2.15")
		case 'w', 'W':
			w := pwd
			if home != "" && (w == home || strings.HasPrefix(w, home+"/")) {
				w = "~" + w[len(home):]
			}
			if d == 'W' && w != "/" && w != "~" {
				if k := strings.LastIndexByte(w, '/'); k >= 0 {
					w = w[k+1:]
				}
			}
			b.WriteString(w)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				n = n*8 + int(s[j]-'0')
				j++
			}
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(d)
		}
	}
	return b.String()
}

// IndexText returns the text of a subscript as the script wrote it (but
// for spaces, which the tree does not keep), for error messages.
func IndexText(x syntax.ArithmExpr) string {
	switch x := x.(type) {
	case *syntax.Word:
		var b strings.Builder
		syntax.NewPrinter(syntax.Minify(true)).Print(&b, x)
		return b.String()
	case *syntax.UnaryArithm:
		if x.Post {
			return IndexText(x.X) + x.Op.String()
		}
		return x.Op.String() + IndexText(x.X)
	case *syntax.BinaryArithm:
		return IndexText(x.X) + x.Op.String() + IndexText(x.Y)
	case *syntax.ParenArithm:
		return "(" + IndexText(x.X) + ")"
	}
	return ""
}
