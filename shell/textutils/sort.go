package textutils

import (
	"bytes"
	"encoding/binary"
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
	kind                 byte   // 0 text, 'n', 'g', 'h', 'M', 'V' or 'R'
	kinds                string // every kind given, to detect conflicts
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
	env    *command.Env
	keys   []sortKey
	global sortFlags
	tab    int // -1 for blank separation
	unique bool
	stable bool
	merge  bool
	salt   uint64 // -R: seeds the key hashes
	check  byte   // 0, 'c' or 'C'
	output string
	delim  byte
	data   []byte
	starts []uint32 // offset of each line, and one past the last
	vals   []keyVal
	floats []float64 // -g values, parallel to vals
	plain  bool      // one whole-line byte comparison: no precomputed keys
	prefix []uint64  // plain: each line's first 8 bytes, big-endian, zero-padded
	aux    []byte    // translated -V keys
	nkeys  int
}

func cmdSort(env *command.Env) int {
	s := &sorter{env: env, tab: -1, delim: '\n'}
	if env.Now != nil {
		s.salt = uint64(env.Now().UnixNano())
	}
	opts, operands, err := command.Getopt(env.Args[1:], "nrk:t:uhfbsVgMcCo:dizmS:T:R", sortLong, false)
	if err != nil {
		return env.Usage(2, err.Error(), "")
	}
	for _, o := range opts {
		switch o.Name {
		case "n", "numeric-sort":
			s.global.setKind('n')
		case "g", "general-numeric-sort":
			s.global.setKind('g')
		case "h", "human-numeric-sort":
			s.global.setKind('h')
		case "M", "month-sort":
			s.global.setKind('M')
		case "V", "version-sort":
			s.global.setKind('V')
		case "R", "random-sort":
			s.global.setKind('R')
		case "sort":
			k := map[string]byte{"numeric": 'n', "general-numeric": 'g', "human-numeric": 'h', "month": 'M', "version": 'V', "random": 'R'}[o.Value]
			if k == 0 {
				return env.Errorf(2, "invalid argument '%s' for '--sort'", o.Value)
			}
			s.global.setKind(k)
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
			old := s.tab
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
			if old >= 0 && old != s.tab {
				return env.Errorf(2, "incompatible tabs")
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
	for i := range s.keys {
		if !s.keys[i].flags.any() {
			b := s.keys[i].flags
			s.keys[i].flags = s.global
			s.keys[i].flags.blankStart = s.global.blankStart || b.blankStart
			s.keys[i].flags.blankEnd = s.global.blankEnd || b.blankEnd
		}
	}
	effective := []sortFlags{s.global}
	if len(s.keys) > 0 {
		effective = effective[:0]
		for _, k := range s.keys {
			effective = append(effective, k.flags)
		}
	}
	for _, f := range effective {
		if bad := f.incompatible(); bad != "" {
			return env.Errorf(2, "options '-%s' are incompatible", bad)
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

// setKind records an ordering kind (n, g, h, M, V or R).
func (f *sortFlags) setKind(k byte) {
	f.kind = k
	if strings.IndexByte(f.kinds, k) < 0 {
		f.kinds += string(k)
	}
}

// incompatible returns GNU's letters for conflicting ordering options of
// one key ("gn", "dn", "MV"), or "".
func (f *sortFlags) incompatible() string {
	numeric := 0
	for _, k := range f.kinds {
		if strings.ContainsRune("ghMn", k) {
			numeric++
		}
	}
	version := strings.IndexByte(f.kinds, 'V') >= 0
	n := numeric
	if version {
		n++
	}
	if n <= 1 && !(numeric > 0 && (f.dict || f.nonprint)) {
		return ""
	}
	var b []byte
	for _, c := range []byte("dghiMnV") {
		if c == 'd' && f.dict || c == 'i' && f.nonprint || strings.IndexByte(f.kinds, c) >= 0 {
			b = append(b, c)
		}
	}
	return string(b)
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
			case 'n', 'g', 'h', 'M', 'V', 'R':
				k.flags.setKind(p[0])
			case 'r':
				k.flags.reverse = true
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
		f, err := s.env.Open(name)
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
		if err == command.ErrCanceled {
			return command.StatusCanceled
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
	if command.Done(s.env.Ctx) {
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
		if n&4095 == 0 && command.Done(s.env.Ctx) {
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
	if canceled || command.Done(s.env.Ctx) {
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

// versionText returns the text of a -V key, which with -f, -d or -i was
// translated into s.aux.
func (s *sorter) versionText(v *keyVal) []byte {
	if v.aux == 1 {
		return s.aux[v.s0:v.s1]
	}
	return s.data[v.s0:v.s1]
}

func (s *sorter) write(idx []int32) int {
	var out output
	var buf *bytes.Buffer
	if s.output != "" {
		buf = &bytes.Buffer{}
		out = newOutput(s.env, buf)
	} else {
		out = newOutput(s.env, s.env.Stdout)
	}
	for i, k := range idx {
		if i&1023 == 0 && (command.Done(s.env.Ctx) || out.failed()) {
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
		if i&1023 == 0 && command.Done(s.env.Ctx) {
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
		// Most comparisons are settled by the first 8 bytes, compared as one
		// integer; bytes.Compare is a byte loop in WebAssembly.
		s.prefix = make([]uint64, len(s.starts)-1)
		var b [8]byte
		for i := range s.prefix {
			clear(b[:])
			copy(b[:], s.line(i))
			s.prefix[i] = binary.BigEndian.Uint64(b[:])
		}
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
		if i&4095 == 0 && command.Done(s.env.Ctx) {
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
