package hexfmt

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// odSpec is one output type of od.
type odSpec struct {
	kind  byte // 'o', 'x', 'u', 'd', 'f', 'c', 'a'
	size  int  // bytes per value
	width int  // characters per value
	z     bool // append the printable characters
	pad   int  // extra spaces spread over a line's fields
}

// odWidths are the widths of integer values by kind and size.
var odWidths = map[byte]map[int]int{
	'o': {1: 3, 2: 6, 4: 11, 8: 22},
	'x': {1: 2, 2: 4, 4: 8, 8: 16},
	'u': {1: 3, 2: 5, 4: 10, 8: 20},
	'd': {1: 4, 2: 6, 4: 11, 8: 20},
	'f': {4: 15, 8: 24},
}

// parseOdType parses the argument of -t into specs.
func parseOdType(s string) ([]odSpec, error) {
	var specs []odSpec
	orig := s
	for s != "" {
		k := s[0]
		s = s[1:]
		sp := odSpec{kind: k}
		switch k {
		case 'a', 'c':
			sp.size, sp.width = 1, 3
		case 'o', 'x', 'u', 'd', 'f':
			sp.size = 4
			if k == 'f' {
				sp.size = 8
			}
			switch {
			case s != "" && s[0] >= '0' && s[0] <= '9':
				i := 0
				for i < len(s) && s[i] >= '0' && s[i] <= '9' {
					i++
				}
				n, _ := strconv.Atoi(s[:i])
				s = s[i:]
				if _, ok := odWidths[k][n]; !ok {
					return nil, fmt.Errorf("invalid type string %s;\nthis system doesn't provide a %d-byte %s type", quote(orig), n, map[bool]string{true: "floating point", false: "integral"}[k == 'f'])
				}
				sp.size = n
			case s != "" && k != 'f' && strings.IndexByte("CSIL", s[0]) >= 0:
				sp.size = map[byte]int{'C': 1, 'S': 2, 'I': 4, 'L': 8}[s[0]]
				s = s[1:]
			case s != "" && k == 'f' && strings.IndexByte("FDL", s[0]) >= 0:
				if s[0] == 'L' {
					return nil, fmt.Errorf("long double (-t fL) is not supported in this sandbox")
				}
				sp.size = map[byte]int{'F': 4, 'D': 8}[s[0]]
				s = s[1:]
			}
			sp.width = odWidths[k][sp.size]
		default:
			return nil, fmt.Errorf("invalid character '%c' in type string %s", k, quote(orig))
		}
		if s != "" && s[0] == 'z' {
			sp.z = true
			s = s[1:]
		}
		specs = append(specs, sp)
	}
	return specs, nil
}

func quote(s string) string { return "‘" + s + "’" }

// odNames are -t a's names of the control characters.
var odNames = [...]string{"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"}

// cmdOd implements od [-A RADIX] [-t TYPE]... [-j SKIP] [-N COUNT] [-w[N]]
// [-v] [-abcdfilosx] [FILE]... with GNU's output: fields aligned across
// types, repeated lines shown as "*" (unless -v), values little-endian.
// Long doubles (-t fL) and the traditional "+OFFSET" operand are not
// supported.
func cmdOd(env *command.Env) int {
	args := make([]string, 0, len(env.Args))
	for _, a := range env.Args[1:] {
		if a == "-w" || a == "--width" {
			a = "--width=32"
		}
		args = append(args, a)
	}
	opts, files, err := command.Getopt(args, "A:t:j:N:w:vabcdfilosxhBDeFHILOS:", []string{"address-radix=", "format=", "skip-bytes=", "read-bytes=",
		"width=", "output-duplicates", "strings=", "traditional", "endian="}, false)
	if err != nil {
		return env.Usage(1, err.Error(), "")
	}
	radix := byte('o')
	var specs []odSpec
	var skip, limit int64 = 0, -1
	width := 16
	verbose := false
	add := func(t string) int {
		s, err := parseOdType(t)
		if err != nil {
			return env.Usage(1, err.Error(), "")
		}
		specs = append(specs, s...)
		return 0
	}
	for _, o := range opts {
		st := 0
		switch o.Name {
		case "A", "address-radix":
			if len(o.Value) != 1 || strings.IndexByte("doxn", o.Value[0]) < 0 {
				return env.Usage(1, fmt.Sprintf("invalid output address radix '%s'; it must be one character from [doxn]", o.Value), "")
			}
			radix = o.Value[0]
		case "t", "format":
			st = add(o.Value)
		case "j", "skip-bytes":
			n, ok := parseSize(o.Value)
			if !ok {
				return env.Errorf(1, "invalid skip argument %s", quote(o.Value))
			}
			skip = n
		case "N", "read-bytes":
			n, ok := parseSize(o.Value)
			if !ok {
				return env.Errorf(1, "invalid read-bytes argument %s", quote(o.Value))
			}
			limit = n
		case "w", "width":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n <= 0 || n > 1<<16 {
				return env.Errorf(1, "invalid width argument %s", quote(o.Value))
			}
			width = n
		case "v", "output-duplicates":
			verbose = true
		case "a":
			st = add("a")
		case "b":
			st = add("o1")
		case "c":
			st = add("c")
		case "d":
			st = add("u2")
		case "D":
			st = add("u4")
		case "f", "F", "e":
			st = add(map[string]string{"f": "fF", "F": "fD", "e": "fD"}[o.Name])
		case "i":
			st = add("dI")
		case "I", "L", "l":
			st = add("dL")
		case "o", "B":
			st = add("o2")
		case "O":
			st = add("o4")
		case "s":
			st = add("d2")
		case "x", "h":
			st = add("x2")
		case "H", "X":
			st = add("x4")
		case "S", "strings", "traditional", "endian":
			return env.Errorf(1, "--%s is not supported in this sandbox", o.Name)
		}
		if st != 0 {
			return st
		}
	}
	if len(specs) == 0 {
		specs = []odSpec{{kind: 'o', size: 2, width: 6}}
	}
	// Each line holds a whole number of every type's values.
	lcm := 1
	for _, s := range specs {
		lcm = lcm * s.size / gcd(lcm, s.size)
	}
	if width%lcm != 0 {
		return env.Errorf(1, "warning: invalid width %d; using %d instead", width, lcm)
	}
	blockWidth := 0
	for _, s := range specs {
		if w := (s.width + 1) * (width / s.size); w > blockWidth {
			blockWidth = w
		}
	}
	for i := range specs {
		specs[i].pad = blockWidth - specs[i].width*(width/specs[i].size)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	in := &multiInput{env: env, names: files}
	w := env.NewOutput()
	if skip > 0 {
		n, err := io.CopyN(io.Discard, in, skip)
		if err != nil && !command.IsCanceled(err) && n < skip {
			w.Flush()
			return env.Errorf(1, "cannot skip past end of combined input")
		}
		if err != nil && err != io.EOF {
			return env.ReadError(files[0], err)
		}
	}
	var r io.Reader = in
	if limit >= 0 {
		r = io.LimitReader(in, limit)
	}
	addr, _, st, ok := dumpLines(env, w, r, files[0], skip, width, verbose, func(addr int64, line []byte) {
		odLine(w, radix, addr, line, width, specs)
	})
	if !ok {
		return st
	}
	if radix != 'n' {
		w.WriteString(odAddress(radix, addr))
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	if in.failed {
		return 1
	}
	return 0
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// odAddress formats an address in the radix.
func odAddress(radix byte, addr int64) string {
	switch radix {
	case 'd':
		return fmt.Sprintf("%07d", addr)
	case 'x':
		return fmt.Sprintf("%06x", addr)
	case 'n':
		return ""
	}
	return fmt.Sprintf("%07o", addr)
}

// odLine writes one line (or, with several types, one line per type).
func odLine(w *bufio.Writer, radix byte, addr int64, line []byte, width int, specs []odSpec) {
	addrStr := odAddress(radix, addr)
	for i, s := range specs {
		if i == 0 {
			w.WriteString(addrStr)
		} else {
			w.WriteString(strings.Repeat(" ", len(addrStr)))
		}
		fields := width / s.size
		shown := (len(line) + s.size - 1) / s.size
		padded := make([]byte, shown*s.size)
		copy(padded, line)
		padRemaining := s.pad
		for f := 0; f < shown; f++ {
			idx := fields - f
			nextPad := s.pad * (idx - 1) / fields
			adjusted := padRemaining - nextPad + s.width
			v := odValue(s, padded[f*s.size:(f+1)*s.size])
			w.WriteString(strings.Repeat(" ", max(adjusted-len(v), 0)))
			w.WriteString(v)
			padRemaining = nextPad
		}
		if s.z {
			// Pad a short line to the full width, then the characters.
			for f := shown; f < fields; f++ {
				idx := fields - f
				nextPad := s.pad * (idx - 1) / fields
				w.WriteString(strings.Repeat(" ", padRemaining-nextPad+s.width))
				padRemaining = nextPad
			}
			w.WriteString("  >")
			for _, c := range line {
				w.WriteByte(printable(c))
			}
			w.WriteByte('<')
		}
		w.WriteByte('\n')
	}
}

// odValue formats one value of a type.
func odValue(s odSpec, b []byte) string {
	var u uint64
	switch s.size {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		u = binary.LittleEndian.Uint64(b)
	}
	switch s.kind {
	case 'o':
		return fmt.Sprintf("%0*o", s.width, u)
	case 'x':
		return fmt.Sprintf("%0*x", s.width, u)
	case 'u':
		return strconv.FormatUint(u, 10)
	case 'd':
		shift := 64 - 8*s.size
		return strconv.FormatInt(int64(u<<shift)>>shift, 10)
	case 'f':
		if s.size == 4 {
			return cFloat(float64(math.Float32frombits(uint32(u))), 32)
		}
		return cFloat(math.Float64frombits(u), 64)
	case 'a':
		c := b[0] & 0x7f
		switch {
		case c <= 0x20:
			return odNames[c]
		case c == 0x7f:
			return "del"
		}
		return string(rune(c))
	case 'c':
		return hexdumpChar(b[0])
	}
	return ""
}

// cFloat formats f with the fewest digits that read back as the same
// value, in C's %g style (as GNU's ftoastr does).
func cFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, bits)
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	digits := len(strings.TrimPrefix(strings.Replace(mant, ".", "", 1), "-"))
	if x < -4 || x >= digits {
		return e
	}
	return strconv.FormatFloat(f, 'f', max(digits-1-x, 0), bits)
}
