package textutils

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
)

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// blank reports whether c separates fields: a space or tab, and with -z
// also a newline, as in GNU sort.
func (s *sorter) blank(c byte) bool { return isBlank(c) || c == '\n' && s.delim == 0 }

// extract returns the part of line that key k selects.
func (s *sorter) extract(line []byte, k *sortKey) []byte {
	start := s.fieldStart(line, k.sfield)
	if k.flags.blankStart {
		for start < len(line) && s.blank(line[start]) {
			start++
		}
	}
	start = min(len(line), start+k.schar-1)
	end := len(line)
	if k.efield > 0 {
		e := s.fieldStart(line, k.efield)
		if k.echar == 0 {
			e = s.fieldEnd(line, e)
		} else {
			// Like GNU, the end character may lie beyond the end field.
			if k.flags.blankEnd {
				for e < len(line) && s.blank(line[e]) {
					e++
				}
			}
			e = min(len(line), e+k.echar)
		}
		end = e
	}
	if end < start {
		end = start
	}
	return line[start:end]
}

// fieldStart returns the offset of field n (1-based).
func (s *sorter) fieldStart(line []byte, n int) int {
	p := 0
	for f := 1; f < n && p < len(line); f++ {
		if s.tab >= 0 {
			k := bytes.IndexByte(line[p:], byte(s.tab))
			if k < 0 {
				return len(line)
			}
			p += k + 1
		} else {
			for p < len(line) && s.blank(line[p]) {
				p++
			}
			for p < len(line) && !s.blank(line[p]) {
				p++
			}
		}
	}
	return p
}

func (s *sorter) fieldEnd(line []byte, p int) int {
	if s.tab >= 0 {
		k := bytes.IndexByte(line[p:], byte(s.tab))
		if k < 0 {
			return len(line)
		}
		return p + k
	}
	for p < len(line) && s.blank(line[p]) {
		p++
	}
	for p < len(line) && !s.blank(line[p]) {
		p++
	}
	return p
}

// fillKey computes value k from text for the comparison kind.
func (s *sorter) fillKey(k int, text []byte, kind byte) {
	v := &s.vals[k]
	set := func(ip, fp []byte) {
		if ip != nil {
			v.s0, v.s1 = s.off(ip), s.off(ip)+uint32(len(ip))
		}
		if fp != nil {
			v.f0, v.f1 = s.off(fp), s.off(fp)+uint32(len(fp))
		}
	}
	f := &s.keys[k%s.nkeys].flags
	switch kind {
	case 'V':
		if f.fold || f.dict || f.nonprint {
			// Keep the translated key in s.aux (GNU translates first).
			start := len(s.aux)
			for _, c := range text {
				if f.dict && !(isBlank(c) || isAlnum(c)) || f.nonprint && (c < 32 || c > 126) {
					continue
				}
				if f.fold {
					c = upper(c)
				}
				s.aux = append(s.aux, c)
			}
			v.s0, v.s1, v.aux = uint32(start), uint32(len(s.aux)), 1
			return
		}
		set(text, nil)
	case 'n':
		sign, ip, fp, _ := parseNum(text)
		v.aux = sign
		set(ip, fp)
	case 'h':
		sign, ip, fp, rest := parseNum(text)
		suffix := int32(0)
		if len(rest) > 0 {
			c := rest[0]
			if f.fold {
				c = upper(c) // GNU folds the key before parsing it
			}
			suffix = int32(strings.IndexByte("KMGTPEZYRQ", c) + 1)
			if rest[0] == 'k' {
				suffix = 1
			}
		}
		if sign == 0 {
			suffix = 0
		}
		v.aux = sign * (suffix + 1)
		set(ip, fp)
	case 'g':
		v.aux, s.floats[k] = parseFloatPrefix(text)
	case 'M':
		v.aux = month(text)
	case 'R':
		h := randomHash(s.salt, text)
		v.f0, v.f1 = uint32(h>>32), uint32(h)
	default:
		set(text, nil)
	}
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// parseNum parses a -n number: blanks, optional '-', digits, optional
// fraction. It returns the sign (0 for zero), the integer digits without
// leading zeros, the fraction digits without trailing zeros, and the rest.
func parseNum(b []byte) (sign int32, ip, fp, rest []byte) {
	i := 0
	for i < len(b) && (isBlank(b[i]) || b[i] == '\n') {
		i++
	}
	neg := false
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	st := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	ip = b[st:i]
	for len(ip) > 0 && ip[0] == '0' {
		ip = ip[1:]
	}
	if i < len(b) && b[i] == '.' {
		i++
		fs := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		fp = b[fs:i]
		for len(fp) > 0 && fp[len(fp)-1] == '0' {
			fp = fp[:len(fp)-1]
		}
	}
	rest = b[i:]
	if len(ip) == 0 && len(fp) == 0 {
		return 0, nil, nil, rest
	}
	if neg {
		return -1, ip, fp, rest
	}
	return 1, ip, fp, rest
}

// compareNum compares two parsed -n numbers.
func compareNum(sa int32, ia, fa []byte, sb int32, ib, fb []byte) int {
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	c := 0
	switch {
	case len(ia) != len(ib):
		if len(ia) < len(ib) {
			c = -1
		} else {
			c = 1
		}
	default:
		c = bytes.Compare(ia, ib)
		if c == 0 {
			c = bytes.Compare(fa, fb)
		}
	}
	if sa < 0 {
		return -c
	}
	return c
}

// parseFloatPrefix parses the longest floating-point prefix of b for -g.
// The class is 0 for no number, 1 for NaN and 2 for a number.
func parseFloatPrefix(b []byte) (int32, float64) {
	i := 0
	for i < len(b) && (isBlank(b[i]) || b[i] == '\n') {
		i++
	}
	s := string(b[i : i+floatPrefixLen(b[i:])])
	hex := strings.HasPrefix(strings.TrimLeft(s, "+-"), "0x") || strings.HasPrefix(strings.TrimLeft(s, "+-"), "0X")
	for end := len(s); end > 0; end-- {
		t := s[:end]
		if hex && !strings.ContainsAny(t, "pP") {
			t += "p0"
		}
		f, err := strconv.ParseFloat(t, 64)
		if err == nil || strings.Contains(err.Error(), "range") {
			if f != f {
				return 1, 0
			}
			return 2, f
		}
	}
	return 0, 0
}

// floatPrefixLen returns the length of the longest prefix of b that looks
// like a strtod number (sign, digits, point, exponent, hex, inf, nan).
func floatPrefixLen(b []byte) int {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	for _, word := range []string{"infinity", "inf", "nan"} {
		if len(b)-i >= len(word) && strings.EqualFold(string(b[i:i+len(word)]), word) {
			return i + len(word)
		}
	}
	digits := "0123456789"
	exp := byte('e')
	if len(b)-i >= 2 && b[i] == '0' && (b[i+1] == 'x' || b[i+1] == 'X') {
		i += 2
		digits = "0123456789abcdefABCDEF"
		exp = 'p'
	}
	for i < len(b) && strings.IndexByte(digits, b[i]) >= 0 {
		i++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for i < len(b) && strings.IndexByte(digits, b[i]) >= 0 {
			i++
		}
	}
	if i < len(b) && (b[i]|0x20) == exp {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := j
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return min(i, 400)
}

var months = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

func month(b []byte) int32 {
	i := 0
	for i < len(b) && (isBlank(b[i]) || b[i] == '\n') {
		i++
	}
	if len(b)-i < 3 {
		return 0
	}
	m := string([]byte{upper(b[i]), upper(b[i+1]), upper(b[i+2])})
	return int32(slices.Index(months, m) + 1)
}

// compare orders lines a and b: keys, then the last-resort comparison.
func (s *sorter) compare(a, b int) int {
	if c := s.compareKeys(a, b); c != 0 || s.stable || s.unique {
		return c
	}
	c := bytes.Compare(s.line(a), s.line(b))
	if s.global.reverse {
		return -c
	}
	return c
}

func (s *sorter) compareKeys(a, b int) int {
	if s.plain {
		c := cmp.Compare(s.prefix[a], s.prefix[b])
		if c == 0 {
			c = bytes.Compare(s.line(a), s.line(b))
		}
		if s.keys[0].flags.reverse {
			return -c
		}
		return c
	}
	for j := range s.keys {
		f := &s.keys[j].flags
		ka, kb := a*s.nkeys+j, b*s.nkeys+j
		va, vb := &s.vals[ka], &s.vals[kb]
		var c int
		switch f.kind {
		case 'n':
			c = compareNum(va.aux, s.text(va.s0, va.s1), s.text(va.f0, va.f1), vb.aux, s.text(vb.s0, vb.s1), s.text(vb.f0, vb.f1))
		case 'h':
			c = compareInt(int(va.aux), int(vb.aux))
			if c == 0 {
				c = compareNum(sign(va.aux), s.text(va.s0, va.s1), s.text(va.f0, va.f1), sign(vb.aux), s.text(vb.s0, vb.s1), s.text(vb.f0, vb.f1))
			}
		case 'g':
			c = compareInt(int(va.aux), int(vb.aux))
			if c == 0 && va.aux == 2 {
				switch fa, fb := s.floats[ka], s.floats[kb]; {
				case fa < fb:
					c = -1
				case fa > fb:
					c = 1
				}
			}
		case 'M':
			c = compareInt(int(va.aux), int(vb.aux))
		case 'R':
			c = compareInt(int(va.f0), int(vb.f0))
			if c == 0 {
				c = compareInt(int(va.f1), int(vb.f1))
			}
		case 'V':
			c = versionCompare(s.versionText(va), s.versionText(vb))
		default:
			if f.fold || f.dict || f.nonprint {
				c = compareText(s.text(va.s0, va.s1), s.text(vb.s0, vb.s1), f)
			} else {
				c = bytes.Compare(s.text(va.s0, va.s1), s.text(vb.s0, vb.s1))
			}
		}
		if c != 0 {
			if f.reverse {
				return -c
			}
			return c
		}
	}
	return 0
}

func sign(x int32) int32 {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func compareInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareText compares with -f, -d and -i applied.
func compareText(a, b []byte, f *sortFlags) int {
	skip := func(c byte) bool {
		if f.dict && !(isBlank(c) || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return true
		}
		return f.nonprint && (c < 32 || c > 126)
	}
	i, j := 0, 0
	for {
		for i < len(a) && skip(a[i]) {
			i++
		}
		for j < len(b) && skip(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return compareInt(len(a)-i, len(b)-j) * boolInt(i == len(a) != (j == len(b)))
		}
		ca, cb := a[i], b[j]
		if f.fold {
			ca, cb = upper(ca), upper(cb)
		}
		if ca != cb {
			return compareInt(int(ca), int(cb))
		}
		i++
		j++
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// versionCompare orders like GNU's version sort (gnulib's filevercmp): the
// empty string, "." and ".." first, then names starting with a dot, then
// the rest; names are compared without their file suffix (".tar.gz") first
// and whole only to break a tie.
func versionCompare(a, b []byte) int {
	if bytes.Equal(a, b) {
		return 0
	}
	for _, special := range []string{"", ".", ".."} {
		if string(a) == special {
			return -1
		}
		if string(b) == special {
			return 1
		}
	}
	ha, hb := a[0] == '.', b[0] == '.'
	if ha != hb {
		if ha {
			return -1
		}
		return 1
	}
	if ha {
		a, b = a[1:], b[1:]
	}
	pa, pb := a[:suffixStart(a)], b[:suffixStart(b)]
	if c := verrevcmp(pa, pb); c != 0 || bytes.Equal(pa, a) && bytes.Equal(pb, b) {
		return c
	}
	return verrevcmp(a, b)
}

// suffixStart returns where the file suffix of s begins: the longest tail
// matching (\.[A-Za-z~][A-Za-z0-9~]*)*.
func suffixStart(s []byte) int {
	start := len(s)
	i := len(s)
	for i > 0 {
		// Find the start of a candidate ".xxx" component ending at i.
		j := i
		for j > 0 && (isAlnum(s[j-1]) || s[j-1] == '~') {
			j--
		}
		if j == 0 || s[j-1] != '.' || j == i || !(isAlpha(s[j]) || s[j] == '~') {
			break
		}
		start = j - 1
		i = j - 1
	}
	return start
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

// verrevcmp compares like Debian's version comparison: runs of digits
// numerically, other characters with letters before other characters and
// '~' before everything.
func verrevcmp(a, b []byte) int {
	order := func(c byte) int {
		switch {
		case c >= '0' && c <= '9':
			return 0
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			return int(c)
		case c == '~':
			return -1
		}
		return int(c) + 256
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		for i < len(a) && !isDigit(a[i]) || j < len(b) && !isDigit(b[j]) {
			oa, ob := 0, 0
			if i < len(a) && !isDigit(a[i]) {
				oa = order(a[i])
			}
			if j < len(b) && !isDigit(b[j]) {
				ob = order(b[j])
			}
			if oa != ob {
				return compareInt(oa, ob)
			}
			i++
			j++
		}
		for i < len(a) && a[i] == '0' {
			i++
		}
		for j < len(b) && b[j] == '0' {
			j++
		}
		first := 0
		for i < len(a) && isDigit(a[i]) && j < len(b) && isDigit(b[j]) {
			if first == 0 {
				first = compareInt(int(a[i]), int(b[j]))
			}
			i++
			j++
		}
		if i < len(a) && isDigit(a[i]) {
			return 1
		}
		if j < len(b) && isDigit(b[j]) {
			return -1
		}
		if first != 0 {
			return first
		}
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// randomHash hashes a key for sort -R: FNV-1a seeded with salt, finished
// with a mixer so that nearby seeds give unrelated orders. Equal keys get
// equal hashes and so end up together, as with GNU.
func randomHash(salt uint64, b []byte) uint64 {
	h := uint64(14695981039346656037) ^ salt
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
