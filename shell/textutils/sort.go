package textutils

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

var sortLong = []string{
	"numeric-sort", "reverse", "key=", "field-separator=", "unique", "human-numeric-sort",
	"ignore-case", "ignore-leading-blanks", "stable", "version-sort", "general-numeric-sort",
	"month-sort", "check", "check=", "output=", "dictionary-order", "ignore-nonprinting",
	"zero-terminated", "merge", "buffer-size=", "temporary-directory=", "parallel=", "help",
	"random-sort", "sort=",
}

// sortFlags are the ordering options of a key (or the global ones).
type sortFlags struct {
	blankStart, blankEnd bool
	dict, fold, nonprint bool
	kind                 byte // 0 text, 'n', 'g', 'h', 'M', 'V'
	reverse              bool
}

func (f sortFlags) any() bool {
	return f.blankStart || f.blankEnd || f.dict || f.fold || f.nonprint || f.kind != 0 || f.reverse
}

// sortKey is one -k specification; fields and chars are 1-based, echar 0
// means the end of the field and efield 0 the end of the line.
type sortKey struct {
	sfield, schar, efield, echar int
	flags                        sortFlags
}

// keyVal is a key precomputed for one line, as offsets into the input.
type keyVal struct {
	s0, s1 uint32 // the key text, or the integer digits for -n and -h
	f0, f1 uint32 // -n, -h: the fraction digits without trailing zeros
	aux    int32  // -n/-h: sign (-1, 0, 1) and suffix; -g: class; -M: month
}

// sorter holds one sort run.
type sorter struct {
	env     *command.Env
	keys    []sortKey
	global  sortFlags
	tab     int // -1 for blank separation
	unique  bool
	stable  bool
	merge   bool
	check   byte // 0, 'c' or 'C'
	output  string
	delim   byte
	data    []byte
	starts  []uint32 // offset of each line, and one past the last
	vals    []keyVal
	floats  []float64 // -g values, parallel to vals
	plain   bool      // one whole-line byte comparison: no precomputed keys
	nkeys   int
	compErr bool
}

func sortMain(env *command.Env) int {
	s := &sorter{env: env, tab: -1, delim: '\n'}
	opts, operands, err := command.Getopt(env.Args[1:], "nrk:t:uhfbsVgMcCo:dizmS:T:R", sortLong, false)
	if err != nil {
		return usageError(env, 2, err.Error(), "")
	}
	for _, o := range opts {
		switch o.Name {
		case "n", "numeric-sort":
			s.global.kind = setKind(s.global.kind, 'n', &s.compErr)
		case "g", "general-numeric-sort":
			s.global.kind = setKind(s.global.kind, 'g', &s.compErr)
		case "h", "human-numeric-sort":
			s.global.kind = setKind(s.global.kind, 'h', &s.compErr)
		case "M", "month-sort":
			s.global.kind = setKind(s.global.kind, 'M', &s.compErr)
		case "V", "version-sort":
			s.global.kind = setKind(s.global.kind, 'V', &s.compErr)
		case "sort":
			k := map[string]byte{"numeric": 'n', "general-numeric": 'g', "human-numeric": 'h', "month": 'M', "version": 'V'}[o.Value]
			if k == 0 {
				return env.Errorf(2, "invalid argument '%s' for '--sort'", o.Value)
			}
			s.global.kind = setKind(s.global.kind, k, &s.compErr)
		case "r", "reverse":
			s.global.reverse = true
		case "f", "ignore-case":
			s.global.fold = true
		case "b", "ignore-leading-blanks":
			s.global.blankStart, s.global.blankEnd = true, true
		case "d", "dictionary-order":
			s.global.dict = true
		case "i", "ignore-nonprinting":
			s.global.nonprint = true
		case "u", "unique":
			s.unique = true
		case "s", "stable":
			s.stable = true
		case "c", "check":
			s.check = 'c'
			if o.Value == "quiet" || o.Value == "silent" {
				s.check = 'C'
			}
		case "C":
			s.check = 'C'
		case "z", "zero-terminated":
			s.delim = 0
		case "m", "merge":
			s.merge = true
		case "o", "output":
			s.output = o.Value
		case "t", "field-separator":
			switch {
			case o.Value == `\0`:
				s.tab = 0
			case len(o.Value) == 1:
				s.tab = int(o.Value[0])
			case o.Value == "":
				return env.Errorf(2, "empty tab")
			default:
				return env.Errorf(2, "multi-character tab '%s'", o.Value)
			}
		case "k", "key":
			k, msg := parseSortKey(o.Value)
			if msg != "" {
				return env.Errorf(2, "%s", msg)
			}
			s.keys = append(s.keys, k)
		case "help":
			fmt.Fprintln(env.Stdout, "Usage: sort [OPTION]... [FILE]...")
			return 0
		}
	}
	if s.compErr {
		return env.Errorf(2, "options '-%s' are incompatible", incompatible(opts))
	}
	if s.global.kind == 'V' || s.global.kind == 'M' {
		// fine
	}
	for i := range s.keys {
		if !s.keys[i].flags.any() {
			b := s.keys[i].flags
			s.keys[i].flags = s.global
			s.keys[i].flags.blankStart = s.global.blankStart || b.blankStart
			s.keys[i].flags.blankEnd = s.global.blankEnd || b.blankEnd
		}
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	if s.check != 0 && len(operands) > 1 {
		return env.Errorf(2, "extra operand '%s' not allowed with -%c", operands[1], s.check)
	}
	return s.run(operands)
}

func setKind(old, k byte, bad *bool) byte {
	if old != 0 && old != k {
		*bad = true
	}
	return k
}

func incompatible(opts []command.Opt) string {
	var b strings.Builder
	for _, o := range opts {
		if len(o.Name) == 1 && strings.Contains("ghMnV", o.Name) && !strings.Contains(b.String(), o.Name) {
			b.WriteString(o.Name)
		}
	}
	s := []byte(b.String())
	slices.Sort(s)
	return string(s)
}

// parseSortKey parses POS1[,POS2].
func parseSortKey(spec string) (sortKey, string) {
	var k sortKey
	invalid := func(what, at string) (sortKey, string) {
		return k, fmt.Sprintf("%s: invalid field specification '%s'", what, spec)
	}
	p := spec
	num := func() (int, bool) {
		i := 0
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, false
		}
		n, err := strconv.Atoi(p[:i])
		if err != nil {
			n = 1 << 30
		}
		p = p[i:]
		return n, true
	}
	flags := func(end bool) bool {
		for len(p) > 0 && p[0] != ',' {
			switch p[0] {
			case 'b':
				if end {
					k.flags.blankEnd = true
				} else {
					k.flags.blankStart = true
				}
			case 'd':
				k.flags.dict = true
			case 'f':
				k.flags.fold = true
			case 'i':
				k.flags.nonprint = true
			case 'n', 'g', 'h', 'M', 'V':
				k.flags.kind = p[0]
			case 'r':
				k.flags.reverse = true
			case 'R':
			default:
				return false
			}
			p = p[1:]
		}
		return true
	}
	var ok bool
	if k.sfield, ok = num(); !ok {
		return k, fmt.Sprintf("invalid number at field start: invalid count at start of '%s'", p)
	}
	if k.sfield == 0 {
		return invalid("field number is zero", "")
	}
	k.schar = 1
	if len(p) > 0 && p[0] == '.' {
		p = p[1:]
		if k.schar, ok = num(); !ok {
			return k, fmt.Sprintf("invalid number after '.': invalid count at start of '%s'", p)
		}
		if k.schar == 0 {
			return invalid("character offset is zero", "")
		}
	}
	if !flags(false) {
		return k, fmt.Sprintf("stray character in field spec: invalid field specification '%s'", spec)
	}
	if len(p) > 0 && p[0] == ',' {
		p = p[1:]
		if k.efield, ok = num(); !ok {
			return k, fmt.Sprintf("invalid number after ',': invalid count at start of '%s'", p)
		}
		if k.efield == 0 {
			return invalid("field number is zero", "")
		}
		if len(p) > 0 && p[0] == '.' {
			p = p[1:]
			if k.echar, ok = num(); !ok {
				return k, fmt.Sprintf("invalid number after '.': invalid count at start of '%s'", p)
			}
		}
		if !flags(true) {
			return k, fmt.Sprintf("stray character in field spec: invalid field specification '%s'", spec)
		}
	}
	if len(p) > 0 {
		return k, fmt.Sprintf("stray character in field spec: invalid field specification '%s'", spec)
	}
	return k, ""
}

func (s *sorter) run(operands []string) int {
	var buf bytes.Buffer
	var bounds []int // line count at the end of each file, for -m
	for _, name := range operands {
		f, err := openFile(s.env, name)
		if err != nil {
			return s.env.Errorf(2, "cannot read: %s: %s", name, command.Strerror(err))
		}
		if st, ok := f.(interface{ Stat() (fs.FileInfo, error) }); ok && len(operands) == 1 {
			if fi, err := st.Stat(); err == nil && fi.Size() > 0 && fi.Size() < 1<<31 {
				buf.Grow(int(fi.Size()) + 1)
			}
		}
		err = readInto(s.env.Ctx, &buf, f)
		f.Close()
		if err == errCanceled {
			return 2
		}
		if err != nil {
			return s.env.Errorf(2, "read failed: %s: %s", name, command.Strerror(err))
		}
		if b := buf.Bytes(); len(b) > 0 && b[len(b)-1] != s.delim {
			buf.WriteByte(s.delim)
		}
		if buf.Len() >= 1<<32-1 {
			return s.env.Errorf(2, "input too large")
		}
		bounds = append(bounds, bytes.Count(buf.Bytes(), []byte{s.delim}))
	}
	if s.env.Ctx.Err() != nil {
		return 2
	}
	s.split(buf.Bytes())
	if s.check != 0 {
		return s.checkSorted(operands[0])
	}
	if !s.precompute() {
		return 2
	}
	idx := make([]int32, len(s.starts)-1)
	for i := range idx {
		idx[i] = int32(i)
	}
	canceled := false
	n := 0
	cmp := func(a, b int32) int {
		n++
		if n&4095 == 0 && s.env.Ctx.Err() != nil {
			canceled = true
		}
		if canceled {
			return 0
		}
		return s.compare(int(a), int(b))
	}
	if s.merge {
		idx = s.mergeRuns(idx, bounds, cmp)
	} else if s.stable || s.unique {
		slices.SortStableFunc(idx, cmp)
	} else {
		slices.SortFunc(idx, cmp)
	}
	if canceled || s.env.Ctx.Err() != nil {
		return 2
	}
	return s.write(idx)
}

// mergeRuns merges the already sorted runs of each file (sort -m).
func (s *sorter) mergeRuns(idx []int32, bounds []int, cmp func(a, b int32) int) []int32 {
	heads := make([]int, len(bounds))
	start := 0
	for i, b := range bounds {
		heads[i] = start
		start = b
	}
	out := make([]int32, 0, len(idx))
	for len(out) < len(idx) {
		best := -1
		for i := range heads {
			if heads[i] >= bounds[i] {
				continue
			}
			if best < 0 || cmp(int32(heads[i]), int32(heads[best])) < 0 {
				best = i
			}
		}
		out = append(out, int32(heads[best]))
		heads[best]++
	}
	return out
}

func (s *sorter) split(data []byte) {
	s.data = data
	n := bytes.Count(data, []byte{s.delim})
	s.starts = make([]uint32, 0, n+1)
	for p := 0; p < len(data); {
		s.starts = append(s.starts, uint32(p))
		p += bytes.IndexByte(data[p:], s.delim) + 1
	}
	s.starts = append(s.starts, uint32(len(data)))
}

// line returns line i without its terminator.
func (s *sorter) line(i int) []byte {
	return s.data[s.starts[i] : s.starts[i+1]-1]
}

// off returns the offset in s.data of x, a subslice of it.
func (s *sorter) off(x []byte) uint32 {
	return uint32(cap(s.data) - cap(x))
}

func (s *sorter) text(a, b uint32) []byte { return s.data[a:b] }

func (s *sorter) write(idx []int32) int {
	var out output
	var buf *bytes.Buffer
	if s.output != "" {
		buf = &bytes.Buffer{}
		out = newOutput(buf)
	} else {
		out = newOutput(s.env.Stdout)
	}
	for i, k := range idx {
		if i&1023 == 0 && (s.env.Ctx.Err() != nil || out.failed()) {
			return 2
		}
		if s.unique && i > 0 && s.compareKeys(int(idx[i-1]), int(k)) == 0 {
			continue
		}
		out.Write(s.line(int(k)))
		out.WriteByte(s.delim)
	}
	if err := out.Flush(); err != nil {
		return 2
	}
	if buf != nil {
		if err := writeFile(s.env, s.output, buf.Bytes()); err != nil {
			return s.env.Errorf(2, "open failed: %s: %s", s.output, command.Strerror(err))
		}
	}
	return 0
}

func (s *sorter) checkSorted(name string) int {
	if !s.precompute() {
		return 2
	}
	for i := 1; i < len(s.starts)-1; i++ {
		if i&1023 == 0 && s.env.Ctx.Err() != nil {
			return 2
		}
		c := s.compare(i-1, i)
		if c > 0 || s.unique && c == 0 {
			if s.check == 'c' {
				fmt.Fprintf(s.env.Stderr, "%s: %s:%d: disorder: %s\n", s.env.Args[0], name, i+1, s.line(i))
			}
			return 1
		}
	}
	return 0
}

// precompute extracts every line's keys once.
func (s *sorter) precompute() bool {
	keys := s.keys
	if len(keys) == 0 {
		keys = []sortKey{{sfield: 1, schar: 1, flags: s.global}}
		s.keys = keys
	}
	s.nkeys = len(keys)
	k0 := keys[0]
	s.plain = len(keys) == 1 && k0.sfield == 1 && k0.schar == 1 && k0.efield == 0 &&
		k0.flags == sortFlags{reverse: k0.flags.reverse}
	if s.plain {
		return true
	}
	n := len(s.starts) - 1
	s.vals = make([]keyVal, n*len(keys))
	for j := range keys {
		if keys[j].flags.kind == 'g' {
			s.floats = make([]float64, len(s.vals))
		}
	}
	for i := 0; i < n; i++ {
		if i&4095 == 0 && s.env.Ctx.Err() != nil {
			return false
		}
		line := s.line(i)
		for j := range keys {
			k := &keys[j]
			text := s.extract(line, k)
			s.fillKey(i*len(keys)+j, text, k.flags.kind)
		}
	}
	return true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// extract returns the part of line that key k selects.
func (s *sorter) extract(line []byte, k *sortKey) []byte {
	start := s.fieldStart(line, k.sfield)
	if k.flags.blankStart {
		for start < len(line) && isBlank(line[start]) {
			start++
		}
	}
	start = min(len(line), start+k.schar-1)
	end := len(line)
	if k.efield > 0 {
		e := s.fieldStart(line, k.efield)
		fe := s.fieldEnd(line, e)
		if k.echar == 0 {
			e = fe
		} else {
			if k.flags.blankEnd {
				for e < fe && isBlank(line[e]) {
					e++
				}
			}
			e = min(fe, e+k.echar)
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
			for p < len(line) && isBlank(line[p]) {
				p++
			}
			for p < len(line) && !isBlank(line[p]) {
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
	for p < len(line) && isBlank(line[p]) {
		p++
	}
	for p < len(line) && !isBlank(line[p]) {
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
	switch kind {
	case 'n':
		sign, ip, fp, _ := parseNum(text, false)
		v.aux = sign
		set(ip, fp)
	case 'h':
		sign, ip, fp, rest := parseNum(text, false)
		suffix := int32(0)
		if len(rest) > 0 {
			suffix = int32(strings.IndexByte("KMGTPEZYRQ", upper(rest[0])) + 1)
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
func parseNum(b []byte, _ bool) (sign int32, ip, fp, rest []byte) {
	i := 0
	for i < len(b) && isBlank(b[i]) {
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
	if i == st && (i == 0 || b[i-1] != '.') {
		// no digits at all
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
	for i < len(b) && isBlank(b[i]) {
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
	for i < len(b) && isBlank(b[i]) {
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
		c := bytes.Compare(s.line(a), s.line(b))
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
		case 'V':
			c = versionCompare(s.text(va.s0, va.s1), s.text(vb.s0, vb.s1))
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

// versionCompare compares like GNU's version sort: runs of digits
// numerically, other characters with letters before other characters and
// '~' before everything.
func versionCompare(a, b []byte) int {
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
