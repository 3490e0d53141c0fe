package jq

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
)

// Numbers follow jq 1.7: a number read from JSON text or written in the
// program keeps its literal value (and prints as written, in the canonical
// form of the decNumber library) until it is modified; arithmetic works on
// IEEE doubles. gojq's number types carry this: int (an integer literal
// of at most 18 digits, or a computed integer that a double holds exactly),
// json.Number (any other literal, in canonical form), *big.Int (a large
// integer literal of the program) and float64 (a computed double, and the
// infinities and NaN).

// maxExactInt is the largest integer below which every integer is a double.
const maxExactInt = 1 << 53

// jqIsNumber reports whether v is a number.
func jqIsNumber(v any) bool {
	switch v.(type) {
	case int, float64, json.Number, *big.Int:
		return true
	}
	return false
}

// jqFloat returns the double value of a number.
func jqFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case int:
		return float64(v), true
	case float64:
		return v, true
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil && !math.IsInf(f, 0) {
			return math.NaN(), true
		}
		return f, true
	case *big.Int:
		f, _ := new(big.Float).SetInt(v).Float64()
		return f, true
	}
	return 0, false
}

// jqNumber returns a computed double as the value gojq works with: an int
// when the double is an integer that prints the same either way.
func jqNumber(f float64) any {
	if f > -maxExactInt && f < maxExactInt && f == math.Trunc(f) && (f != 0 || !math.Signbit(f)) {
		return int(f)
	}
	return f
}

// jqArith applies a binary arithmetic operator on two numbers, with ints
// kept as ints while the result is exact.
func jqArithInts(op byte, a, b int) (any, bool) {
	if a <= -maxExactInt || a >= maxExactInt || b <= -maxExactInt || b >= maxExactInt {
		return nil, false
	}
	var r int
	switch op {
	case '+':
		r = a + b
	case '-':
		r = a - b
	case '*':
		if a != 0 && b != 0 && (a > 1<<26 || a < -(1<<26) || b > 1<<26 || b < -(1<<26)) {
			return nil, false
		}
		r = a * b
	default:
		return nil, false
	}
	if r <= -maxExactInt || r >= maxExactInt {
		return nil, false
	}
	return r, true
}

// jqPlus implements jq's a + b.
func (k *keyOrder) jqPlus(a, b any) any {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	switch x := a.(type) {
	case int:
		if y, ok := b.(int); ok {
			if r, ok := jqArithInts('+', x, y); ok {
				return r
			}
		}
	case string:
		if y, ok := b.(string); ok {
			return x + y
		}
		return k.typeError2(a, b, "cannot be added")
	case []any:
		if y, ok := b.([]any); ok {
			if len(x) == 0 {
				return y
			}
			if len(y) == 0 {
				return x
			}
			out := make([]any, len(x)+len(y))
			copy(out, x)
			copy(out[len(x):], y)
			return out
		}
		return k.typeError2(a, b, "cannot be added")
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			return k.mergeObjects(x, y, false)
		}
		return k.typeError2(a, b, "cannot be added")
	}
	x, ok1 := jqFloat(a)
	y, ok2 := jqFloat(b)
	if !ok1 || !ok2 {
		return k.typeError2(a, b, "cannot be added")
	}
	return jqNumber(x + y)
}

// jqMinus implements jq's a - b.
func (k *keyOrder) jqMinus(a, b any) any {
	if x, ok := a.(int); ok {
		if y, ok := b.(int); ok {
			if r, ok := jqArithInts('-', x, y); ok {
				return r
			}
		}
	}
	if x, ok := a.([]any); ok {
		y, ok := b.([]any)
		if !ok {
			return k.typeError2(a, b, "cannot be subtracted")
		}
		out := make([]any, 0, len(x))
		for _, v := range x {
			keep := true
			for _, w := range y {
				if jqEqual(v, w) {
					keep = false
					break
				}
			}
			if keep {
				out = append(out, v)
			}
		}
		return out
	}
	x, ok1 := jqFloat(a)
	y, ok2 := jqFloat(b)
	if !ok1 || !ok2 {
		return k.typeError2(a, b, "cannot be subtracted")
	}
	return jqNumber(x - y)
}

// jqMultiply implements jq's a * b.
func (k *keyOrder) jqMultiply(a, b any) any {
	if x, ok := a.(int); ok {
		if y, ok := b.(int); ok {
			if r, ok := jqArithInts('*', x, y); ok {
				return r
			}
		}
	}
	if x, ok := a.(map[string]any); ok {
		if y, ok := b.(map[string]any); ok {
			return k.mergeObjects(x, y, true)
		}
		return k.typeError2(a, b, "cannot be multiplied")
	}
	s, isStr := a.(string)
	n, isNum := jqFloat(b)
	if !isStr || !isNum {
		s, isStr = b.(string)
		n, isNum = jqFloat(a)
	}
	if isStr && isNum {
		if n < 0 || math.IsNaN(n) {
			return nil
		}
		count := 0
		if n > 0 {
			count = int(min(n, math.MaxInt32))
		}
		if count > 0 && len(s)*count > 1<<28 {
			return &jqError{"Repeat string result too long"}
		}
		return strings.Repeat(s, count)
	}
	x, ok1 := jqFloat(a)
	y, ok2 := jqFloat(b)
	if !ok1 || !ok2 {
		return k.typeError2(a, b, "cannot be multiplied")
	}
	return jqNumber(x * y)
}

// jqDivide implements jq's a / b.
func (k *keyOrder) jqDivide(a, b any) any {
	if x, ok := a.(string); ok {
		if y, ok := b.(string); ok {
			return jqSplitString(x, y)
		}
		return k.typeError2(a, b, "cannot be divided")
	}
	x, ok1 := jqFloat(a)
	y, ok2 := jqFloat(b)
	if !ok1 || !ok2 {
		return k.typeError2(a, b, "cannot be divided")
	}
	if y == 0 {
		return k.typeError2(a, b, "cannot be divided because the divisor is zero")
	}
	if xi, ok := a.(int); ok {
		if yi, ok := b.(int); ok && xi%yi == 0 && xi > -maxExactInt && xi < maxExactInt {
			return xi / yi
		}
	}
	return jqNumber(x / y)
}

// jqModulo implements jq's a % b: both numbers are truncated to integers.
func (k *keyOrder) jqModulo(a, b any) any {
	x, ok1 := jqFloat(a)
	y, ok2 := jqFloat(b)
	if !ok1 || !ok2 {
		return k.typeError2(a, b, "cannot be divided (remainder)")
	}
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	bi := dtoi(y)
	if bi == 0 {
		return k.typeError2(a, b, "cannot be divided (remainder) because the divisor is zero")
	}
	if bi == -1 {
		return 0
	}
	return jqNumber(float64(dtoi(x) % bi))
}

// dtoi converts a double to an int64 like jq's dtoi, clamping.
func dtoi(f float64) int64 {
	switch {
	case f < math.MinInt64:
		return math.MinInt64
	case -f < math.MinInt64:
		return math.MaxInt64
	}
	return int64(f)
}

// jqNegate implements jq's unary minus.
func (k *keyOrder) jqNegate(v any) any {
	switch x := v.(type) {
	case int:
		if x > -maxExactInt && x < maxExactInt && x != 0 {
			return -x
		}
	}
	f, ok := jqFloat(v)
	if !ok {
		return k.typeError(v, "cannot be negated")
	}
	return jqNumber(-f)
}

// jqSplitString splits s on sep like jq's string division.
func jqSplitString(s, sep string) any {
	if s == "" {
		return []any{}
	}
	var parts []string
	if sep == "" {
		parts = nil
		for _, r := range s {
			parts = append(parts, string(r))
		}
	} else {
		parts = strings.Split(s, sep)
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// mergeObjects implements object addition (deep: object multiplication),
// keeping a's key order and appending b's new keys in b's order.
func (k *keyOrder) mergeObjects(a, b map[string]any, deep bool) any {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 && !deep {
		return b
	}
	out := make(map[string]any, len(a)+len(b))
	keys := k.orderedKeys(a)
	for key, v := range a {
		out[key] = v
	}
	order := append([]string(nil), keys...)
	for _, key := range k.orderedKeys(b) {
		v := b[key]
		old, exists := out[key]
		if !exists {
			order = append(order, key)
		}
		if deep {
			if x, ok := old.(map[string]any); ok {
				if y, ok := v.(map[string]any); ok {
					v = k.mergeObjects(x, y, true)
				}
			}
		}
		out[key] = v
	}
	k.recordTransient(out, order)
	return out
}

// jqEqual compares two values like jq's ==.
func jqEqual(a, b any) bool {
	return gojq.Compare(a, b) == 0
}

// canonicalNumber returns the value of a JSON number token read with jq
// 1.7's rules (decNumber's syntax: a sign, digits with an optional point,
// an exponent, or Infinity and NaN in any case), or false.
func canonicalNumber(tok string) (any, bool) {
	body := tok
	neg := false
	if body != "" && (body[0] == '-' || body[0] == '+') {
		neg = body[0] == '-'
		body = body[1:]
	}
	if body == "" {
		return nil, false
	}
	if c := body[0]; c == 'i' || c == 'I' || c == 'n' || c == 'N' || c == 's' || c == 'S' {
		lower := strings.ToLower(body)
		switch {
		case lower == "inf" || lower == "infinity":
			if neg {
				return math.Inf(-1), true
			}
			return math.Inf(1), true
		case strings.HasPrefix(lower, "nan") || strings.HasPrefix(lower, "snan"):
			digits := strings.TrimPrefix(strings.TrimPrefix(lower, "s"), "nan")
			for _, c := range digits {
				if c < '0' || c > '9' {
					return nil, false
				}
			}
			return math.NaN(), true
		}
		return nil, false
	}
	i, digits := 0, 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
		digits++
	}
	integer := i == len(body)
	if i < len(body) && body[i] == '.' {
		i++
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return nil, false
	}
	if i < len(body) && (body[i] == 'e' || body[i] == 'E') {
		i++
		if i < len(body) && (body[i] == '+' || body[i] == '-') {
			i++
		}
		e := i
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i++
		}
		if e == i {
			return nil, false
		}
	}
	if i != len(body) {
		return nil, false
	}
	lit := body
	if neg {
		lit = "-" + body
	}
	if integer && len(body) <= 18 && !(neg && strings.Trim(body, "0") == "") {
		n, err := strconv.Atoi(lit)
		if err == nil {
			return n, true
		}
	}
	canon := decimalString(lit)
	if canon == "" {
		// The exponent is out of decNumber's range.
		f, _ := strconv.ParseFloat(lit, 64)
		return f, true
	}
	if n, err := strconv.Atoi(canon); err == nil && len(canon) <= 19 && (n != 0 || !neg) {
		return n, true
	}
	return json.Number(canon), true
}
