package awk

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxWidth bounds printf widths and precisions.
const maxWidth = 1 << 24

// sprintf formats like C's printf, with awk's conversions of arguments.
// weirdConversion warns, once for each, of a conversion that printf does
// not know, which it copies to its output as it is.
func (in *interp) weirdConversion(spec string) {
	if in.weird[spec] {
		return
	}
	if in.weird == nil {
		in.weird = map[string]bool{}
	}
	if len(in.weird) < 100 {
		in.weird[spec] = true
	}
	in.warn("warning: weird printf conversion %s", spec)
}

func (in *interp) sprintf(format string, args []value) string {
	var b strings.Builder
	ai := 0
	i := 0
	nextArg := func() value {
		if ai >= len(args) {
			fatal("not enough args in printf(%s)", format)
		}
		ai++
		return args[ai-1]
	}
	for ; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		if i >= len(format) {
			b.WriteByte('%')
			break
		}
		if format[i] == '%' {
			b.WriteByte('%')
			continue
		}
		var flags []byte
		for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
			flags = append(flags, format[i])
			i++
		}
		width, prec := -1, -1
		if i < len(format) && format[i] == '*' {
			w := nextArg().toNum()
			if w < 0 {
				flags = append(flags, '-')
				w = -w
			}
			width = clampWidth(w)
			i++
		} else if w, next, ok := readDigits(format, i); ok {
			width = clampWidth(float64(w))
			i = next
			if i < len(format) && format[i] == '$' {
				// Positional arguments (%2$s) are not POSIX awk's;
				// onetrueawk and mawk refuse them too.
				fatal("'$' not permitted in awk formats: %s", format)
			}
		}
		if i < len(format) && format[i] == '.' {
			i++
			if i < len(format) && format[i] == '*' {
				p := nextArg().toNum()
				if p >= 0 {
					prec = clampWidth(p)
				}
				i++
			} else {
				p, next, _ := readDigits(format, i)
				prec = clampWidth(float64(p))
				i = next
			}
		}
		// Length modifiers are accepted and ignored.
		for i < len(format) && strings.IndexByte("hlLqjzt", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			in.weirdConversion(format[start:])
			b.WriteString(format[start:])
			break
		}
		conv := fmtSpec{verb: format[i], flags: flags, width: width, prec: prec}
		if !in.convert(&b, conv, nextArg) {
			// Unknown conversions are copied as they are, as gawk
			// does, with onetrueawk's warning.
			in.weirdConversion(format[start : i+1])
			b.WriteString(format[start : i+1])
		}
	}
	return b.String()
}

// fmtSpec is one parsed printf conversion.
type fmtSpec struct {
	verb        byte
	flags       []byte
	width, prec int
}

// convert formats one conversion into b; it returns false for an unknown
// conversion character.
func (in *interp) convert(b *strings.Builder, c fmtSpec, nextArg func() value) bool {
	flags, width, prec := c.flags, c.width, c.prec
	spec := goSpec(flags, width, prec)
	switch verb := c.verb; verb {
	case '%':
		b.WriteByte('%')
	case 'd', 'i':
		formatInteger(b, nextArg().toNum(), flags, width, spec)
	case 'o', 'x', 'X', 'u':
		formatUnsigned(b, nextArg().toNum(), verb, flags, width, prec)
	case 'e', 'E', 'f', 'F', 'g', 'G':
		formatFloat(b, nextArg().toNum(), verb, flags, width, prec)
	case 'a', 'A':
		formatHexFloat(b, nextArg().toNum(), verb, flags, width, prec)
	case 'c':
		a := nextArg()
		var s string
		if a.k == kNum || a.k == kStrnum {
			r := int(a.n)
			if r < 0 || r > utf8.MaxRune {
				r &= 0xff
			}
			s = string(rune(r))
		} else if s = in.toStr(a); s != "" {
			s = s[:runeLen(s)]
		} else {
			s = "\x00" // as gawk and mawk: %c of "" is a NUL
		}
		b.WriteString(pad(s, width, hasFlag(flags, '-')))
	case 's':
		s := in.toStr(nextArg())
		if prec >= 0 && prec < len(s) {
			s = s[:byteOffset(s, prec)]
		}
		b.WriteString(pad(s, width, hasFlag(flags, '-')))
	default:
		return false
	}
	return true
}

// writeSpecial writes an infinity or NaN for any numeric conversion as
// gawk does: always signed ("+inf", "-nan"), in capitals for %E %F %G %A,
// and without padding.
func writeSpecial(b *strings.Builder, s string, verb byte) {
	if verb == 'E' || verb == 'F' || verb == 'G' || verb == 'A' || verb == 'X' {
		s = strings.ToUpper(s)
	}
	b.WriteString(s)
}

func formatFloat(b *strings.Builder, n float64, verb byte, flags []byte, width, prec int) {
	if s, ok := specialFloat(n); ok {
		writeSpecial(b, s, verb)
		return
	}
	if prec < 0 {
		prec = 6
	}
	if verb == 'F' {
		verb = 'f'
	}
	fmt.Fprintf(b, goSpec(flags, width, prec)+string(verb), n)
}

// formatHexFloat formats %a and %A as C does ("0x1.5p+5"): Go's %x
// writes the exponent with two digits at least.
func formatHexFloat(b *strings.Builder, n float64, verb byte, flags []byte, width, prec int) {
	if s, ok := specialFloat(n); ok {
		writeSpecial(b, s, verb)
		return
	}
	var fl []byte
	for _, f := range flags {
		if f != '0' && f != '-' {
			fl = append(fl, f)
		}
	}
	s := fmt.Sprintf(goSpec(fl, -1, prec)+"x", n)
	if p := strings.LastIndexByte(s, 'p'); p >= 0 && p+2 < len(s) {
		exp := strings.TrimLeft(s[p+2:], "0")
		if exp == "" {
			exp = "0"
		}
		s = s[:p+2] + exp
	}
	if verb == 'A' {
		s = strings.ToUpper(s)
	}
	if hasFlag(flags, '0') && !hasFlag(flags, '-') && len(s) < width {
		// Zeros go after the sign and the 0x.
		k := strings.IndexAny(s, "xX") + 1
		s = s[:k] + strings.Repeat("0", width-len(s)) + s[k:]
	}
	b.WriteString(pad(s, width, hasFlag(flags, '-')))
}

// readDigits reads a decimal number at s[i:], saturating above maxWidth.
func readDigits(s string, i int) (n, next int, ok bool) {
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		if n > maxWidth {
			n = maxWidth + 1
		}
		ok = true
	}
	return n, i, ok
}

func clampWidth(w float64) int {
	if w > maxWidth || math.IsNaN(w) {
		fatal("printf: width or precision too large")
	}
	return int(w)
}

func hasFlag(flags []byte, f byte) bool {
	for _, c := range flags {
		if c == f {
			return true
		}
	}
	return false
}

// pad pads s with spaces to width characters.
func pad(s string, width int, left bool) string {
	n := charLen(s)
	if width <= n {
		return s
	}
	sp := strings.Repeat(" ", width-n)
	if left {
		return s + sp
	}
	return sp + s
}

// goSpec builds a Go format prefix (without the verb).
func goSpec(flags []byte, width, prec int) string {
	var b strings.Builder
	b.WriteByte('%')
	b.Write(flags)
	if width >= 0 {
		b.WriteString(strconv.Itoa(width))
	}
	if prec >= 0 {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(prec))
	}
	return b.String()
}

func formatInteger(b *strings.Builder, n float64, flags []byte, width int, spec string) {
	if s, ok := specialFloat(n); ok {
		writeSpecial(b, s, 'd')
		return
	}
	n = math.Trunc(n)
	if n >= -9.2e18 && n <= 9.2e18 {
		fmt.Fprintf(b, spec+"d", int64(n))
		return
	}
	// Too big for an integer: print all the digits.
	s := strconv.FormatFloat(n, 'f', 0, 64)
	if n > 0 {
		if hasFlag(flags, '+') {
			s = "+" + s
		} else if hasFlag(flags, ' ') {
			s = " " + s
		}
	}
	b.WriteString(pad(s, width, hasFlag(flags, '-')))
}

func formatUnsigned(b *strings.Builder, n float64, verb byte, flags []byte, width, prec int) {
	if s, ok := specialFloat(n); ok {
		writeSpecial(b, s, verb)
		return
	}
	n = math.Trunc(n)
	var u uint64
	switch {
	case n < 0 && n >= -9.2e18:
		u = uint64(int64(n))
	case n < 0:
		u = 0
	case n >= 1.8446744073709552e19:
		u = math.MaxUint64
	default:
		u = uint64(n)
	}
	// '+' and ' ' do not apply to unsigned conversions.
	var fl []byte
	for _, f := range flags {
		if f != '+' && f != ' ' && !(f == '#' && (u == 0 || verb == 'u')) {
			fl = append(fl, f)
		}
	}
	v := verb
	if v == 'u' {
		v = 'd'
	}
	if v == 'o' && hasFlag(flags, '#') && u == 0 && prec == 0 {
		// C's %#.0o of zero still prints the 0 that '#' asks for.
		prec = 1
	}
	if (v == 'x' || v == 'X') && hasFlag(fl, '#') && hasFlag(fl, '0') && !hasFlag(fl, '-') && prec < 0 && width > 2 {
		// C counts the 0x prefix in the width that zeros fill; Go
		// pads the digits alone to the width.
		var nfl []byte
		for _, f := range fl {
			if f != '0' {
				nfl = append(nfl, f)
			}
		}
		fmt.Fprintf(b, goSpec(nfl, -1, width-2)+string(v), u)
		return
	}
	fmt.Fprintf(b, goSpec(fl, width, prec)+string(v), u)
}
