package jq

import (
	"bufio"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxPrintDepth bounds the nesting that the encoder prints.
const maxPrintDepth = 10000

// jqEncoder writes values the way jq 1.7 prints them.
type jqEncoder struct {
	w      *bufio.Writer
	indent string // "" for compact output
	ascii  bool
	order  *keyOrder // original key order of input objects (nil with -S)
}

// encode writes one value (without the trailing newline).
func (e *jqEncoder) encode(v any) {
	e.value(v, 0)
}

// newline starts a new line indented for depth.
func (e *jqEncoder) newline(depth int) {
	e.w.WriteByte('\n')
	for i := 0; i < depth; i++ {
		e.w.WriteString(e.indent)
	}
}

// value writes v nested at depth.
func (e *jqEncoder) value(v any, depth int) {
	if depth > maxPrintDepth {
		e.w.WriteString("<stripped: exceeds max depth>")
		return
	}
	switch v := v.(type) {
	case nil:
		e.w.WriteString("null")
	case bool:
		if v {
			e.w.WriteString("true")
		} else {
			e.w.WriteString("false")
		}
	case int:
		e.w.WriteString(strconv.Itoa(v))
	case float64:
		e.w.WriteString(formatJQNumber(v))
	case *big.Int:
		e.w.WriteString(v.String())
	case json.Number:
		e.w.WriteString(decimalString(string(v)))
	case string:
		e.str(v)
	case []any:
		if len(v) == 0 {
			e.w.WriteString("[]")
			return
		}
		e.w.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				e.w.WriteByte(',')
			}
			if e.indent != "" {
				e.newline(depth + 1)
			}
			e.value(x, depth+1)
		}
		if e.indent != "" {
			e.newline(depth)
		}
		e.w.WriteByte(']')
	case map[string]any:
		if len(v) == 0 {
			e.w.WriteString("{}")
			return
		}
		keys := e.order.orderedKeys(v)
		e.w.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				e.w.WriteByte(',')
			}
			if e.indent != "" {
				e.newline(depth + 1)
			}
			e.str(k)
			e.w.WriteByte(':')
			if e.indent != "" {
				e.w.WriteByte(' ')
			}
			e.value(v[k], depth+1)
		}
		if e.indent != "" {
			e.newline(depth)
		}
		e.w.WriteByte('}')
	default:
		e.w.WriteString("null")
	}
}

// str writes a JSON string: control characters and DEL as \u00XX (or the
// short escapes), other characters as UTF-8 (or \uXXXX with -a), invalid
// UTF-8 as U+FFFD.
func (e *jqEncoder) str(s string) {
	w := e.w
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError && !e.ascii {
				i += size
				continue
			}
			w.WriteString(s[start:i])
			if e.ascii && r != utf8.RuneError {
				if r >= 0x10000 {
					a, b := utf16.EncodeRune(r)
					writeU(w, a)
					writeU(w, b)
				} else {
					writeU(w, r)
				}
			} else if e.ascii {
				w.WriteString(`\ufffd`)
			} else {
				w.WriteString("\ufffd")
			}
			i += size
			start = i
			continue
		}
		w.WriteString(s[start:i])
		switch c {
		case '"':
			w.WriteString(`\"`)
		case '\\':
			w.WriteString(`\\`)
		case '\n':
			w.WriteString(`\n`)
		case '\t':
			w.WriteString(`\t`)
		case '\r':
			w.WriteString(`\r`)
		case '\b':
			w.WriteString(`\b`)
		case '\f':
			w.WriteString(`\f`)
		default:
			writeU(w, rune(c))
		}
		i++
		start = i
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

// writeU writes r as a \uXXXX escape.
func writeU(w *bufio.Writer, r rune) {
	const hex = "0123456789abcdef"
	w.WriteString(`\u`)
	w.WriteByte(hex[r>>12&0xf])
	w.WriteByte(hex[r>>8&0xf])
	w.WriteByte(hex[r>>4&0xf])
	w.WriteByte(hex[r&0xf])
}

// formatJQNumber formats a float like jq: the shortest digits that round
// trip, in fixed notation unless the decimal exponent is below -4 or more
// than 15 past the last digit, exponents with a sign and at least two
// digits, NaN as null and infinities as the largest double.
func formatJQNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "null"
	case math.IsInf(f, 1):
		f = math.MaxFloat64
	case math.IsInf(f, -1):
		f = -math.MaxFloat64
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	digits := strings.Replace(mant, ".", "", 1)
	decpt := e + 1
	var out string
	if decpt <= -4 || decpt > len(digits)+15 {
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		sign := "+"
		if e < 0 {
			sign, e = "-", -e
		}
		es := strconv.Itoa(e)
		if len(es) < 2 {
			es = "0" + es
		}
		out += "e" + sign + es
	} else if decpt <= 0 {
		out = "0." + strings.Repeat("0", -decpt) + digits
	} else if decpt >= len(digits) {
		out = digits + strings.Repeat("0", decpt-len(digits))
	} else {
		out = digits[:decpt] + "." + digits[decpt:]
	}
	if neg {
		out = "-" + out
	}
	return out
}

// decimalString returns a JSON number literal in the canonical form of the
// decNumber library, which jq 1.7 uses to print numbers read from JSON text:
// plain notation when the exponent is at most zero and the adjusted exponent
// is at least -6 ("1.000", "0.00001"), scientific notation otherwise
// ("1E+2", "1.5E-7").
//
// It returns "" when the exponent is beyond decNumber's range (an
// adjusted exponent of at most 999999999 in magnitude): such a number is
// an infinity or zero.
func decimalString(lit string) string {
	neg := strings.HasPrefix(lit, "-")
	s := strings.TrimPrefix(strings.TrimPrefix(lit, "-"), "+")
	mant, expPart, hasExp := strings.Cut(strings.ToLower(s), "e")
	exp := 0
	if hasExp {
		e, err := strconv.Atoi(expPart)
		if err != nil || e > 4e9 || e < -4e9 {
			return ""
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	coef := strings.TrimLeft(intPart+frac, "0")
	exp -= len(frac)
	if coef == "" {
		coef = "0"
	}
	adjusted := exp + len(coef) - 1
	if coef != "0" && (adjusted > 999999999 || adjusted < -999999999) {
		return ""
	}
	var out string
	switch {
	case exp <= 0 && adjusted >= -6:
		if exp == 0 {
			out = coef
		} else if point := len(coef) + exp; point > 0 {
			out = coef[:point] + "." + coef[point:]
		} else {
			out = "0." + strings.Repeat("0", -point) + coef
		}
	default:
		out = coef[:1]
		if len(coef) > 1 {
			out += "." + coef[1:]
		}
		if adjusted >= 0 {
			out += "E+" + strconv.Itoa(adjusted)
		} else {
			out += "E" + strconv.Itoa(adjusted)
		}
	}
	if neg {
		out = "-" + out
	}
	return out
}
