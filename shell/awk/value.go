package awk

import (
	"math"
	"strconv"
	"strings"
)

// kind is the type of an AWK value.
type kind uint8

const (
	kUninit    kind = iota // never assigned: both "" and 0
	kNum                   // a number
	kStr                   // a string
	kStrnum                // input text that looks numeric: compares as a number
	kUnchecked             // input text not yet classified as kStr or kStrnum
)

// value is an AWK scalar.
type value struct {
	k kind
	s string
	n float64
}

func num(n float64) value { return value{k: kNum, n: n} }
func str(s string) value  { return value{k: kStr, s: s} }

// boolNum returns 1 for true and 0 for false.
func boolNum(b bool) value {
	if b {
		return value{k: kNum, n: 1}
	}
	return value{k: kNum}
}

// input returns a value for text that came from input (fields, getline,
// command-line assignments, ARGV, ENVIRON, split): a strnum when it looks
// numeric, a string otherwise.
func input(s string) value {
	if n, ok := looksNumeric(s); ok {
		return value{k: kStrnum, s: s, n: n}
	}
	return value{k: kStr, s: s}
}

// classify resolves a kUnchecked value.
func (v value) classify() value {
	if v.k == kUnchecked {
		return input(v.s)
	}
	return v
}

// isNum reports whether v compares as a number.
func (v value) isNum() bool {
	return v.k == kNum || v.k == kStrnum || v.k == kUninit
}

// toNum converts v to a number.
func (v value) toNum() float64 {
	switch v.k {
	case kNum, kStrnum:
		return v.n
	case kUninit:
		return 0
	}
	return strToNum(v.s)
}

// toBool returns v's truth value.
func (v value) toBool() bool {
	switch v.k {
	case kNum, kStrnum:
		return v.n != 0
	case kUninit:
		return false
	case kUnchecked:
		return v.classify().toBool()
	}
	return v.s != ""
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// numPrefix returns the length of the longest prefix of s (starting at i)
// that is a decimal floating-point number with an optional sign.
func numPrefix(s string, i int) int {
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	return i - start
}

// parseNum parses a number that numPrefix accepted.
func parseNum(s string) float64 {
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		// Out of range: ParseFloat still returns ±Inf or 0.
		return n
	}
	return n
}

// strToNum converts a string to a number the way strtod does: leading
// blanks are skipped and the longest numeric prefix is used.
func strToNum(s string) float64 {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		// "+inf" and "-nan" count only alone (blanks aside): "-inform" is 0.
		j := len(s)
		for j > i && isBlank(s[j-1]) {
			j--
		}
		if j-i == 4 {
			if v, ok := infNaN(s[i:j]); ok {
				return v
			}
		}
	}
	n := numPrefix(s, i)
	if n == 0 {
		return 0
	}
	return parseNum(s[i : i+n])
}

// infNaN recognizes gawk's signed special values "+inf", "-inf", "+nan"
// and "-nan" (case-insensitive).
func infNaN(s string) (float64, bool) {
	if len(s) < 4 {
		return 0, false
	}
	w := strings.ToLower(s[1:4])
	switch w {
	case "inf":
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		if s[0] == '-' {
			return math.Copysign(math.NaN(), -1), true
		}
		return math.NaN(), true
	}
	return 0, false
}

// looksNumeric reports whether the whole of s, apart from surrounding
// blanks, is a number, and returns it.
func looksNumeric(s string) (float64, bool) {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	j := len(s)
	for j > i && isBlank(s[j-1]) {
		j--
	}
	if i == j {
		return 0, false
	}
	t := s[i:j]
	if n := numPrefix(t, 0); n == len(t) {
		// Fast path for small integers.
		if len(t) <= 9 {
			neg := false
			k := 0
			if t[0] == '-' || t[0] == '+' {
				neg = t[0] == '-'
				k = 1
			}
			v := 0
			ok := k < len(t)
			for ; k < len(t); k++ {
				c := t[k]
				if c < '0' || c > '9' {
					ok = false
					break
				}
				v = v*10 + int(c-'0')
			}
			if ok {
				if neg {
					return -float64(v), true
				}
				return float64(v), true
			}
		}
		return parseNum(t), true
	}
	if len(t) == 4 && (t[0] == '+' || t[0] == '-') {
		return infNaN(t)
	}
	return 0, false
}

// isIntegral reports whether n is a whole number that is printed as an
// integer.
func isIntegral(n float64) bool {
	return n == math.Trunc(n) && !math.IsInf(n, 0)
}

// formatInt formats an integral number.
func formatInt(n float64) string {
	if n >= -1e15 && n <= 1e15 {
		return strconv.FormatInt(int64(n), 10)
	}
	return strconv.FormatFloat(n, 'f', 0, 64)
}

// specialFloat formats infinities and NaN as gawk (and onetrueawk) do,
// always with a sign: "+inf", "-inf", "+nan", "-nan".
func specialFloat(n float64) (string, bool) {
	switch {
	case math.IsNaN(n):
		if math.Signbit(n) {
			return "-nan", true
		}
		return "+nan", true
	case math.IsInf(n, 1):
		return "+inf", true
	case math.IsInf(n, -1):
		return "-inf", true
	}
	return "", false
}
