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
// has the order of insertion, see AssocSet; keys it lacks come last).
func AssocKeys(v expand.Variable) []string {
	m := v.Map
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	if len(keys) < 2 {
		return keys
	}
	pos := make(map[string]int, len(m))
	for i, k := range v.List {
		if _, ok := m[k]; ok {
			pos[k] = i + 1
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		bi, bj := assocBucket(keys[i]), assocBucket(keys[j])
		if bi != bj {
			return bi < bj
		}
		pi, pj := pos[keys[i]], pos[keys[j]]
		if pi != pj {
			return pi > pj
		}
		return keys[i] > keys[j]
	})
	return keys
}

// assocBucket is the bucket of key in bash's table of an associative
// array.
func assocBucket(key string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h *= 16777619
		h ^= uint32(int32(int8(key[i]))) // char is signed on bash's platforms
	}
	return h & 1023
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
