package canon

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// maxSignificant is the most significant decimal digits a float64 can give
// back exactly.
const maxSignificant = 17

// appendNumber appends the canonical text of the JSON number tok, or fails
// when a float64 reader would not read tok as the same decimal number. It
// runs in time linear in len(tok) and does no big-number arithmetic: the
// digits are counted and trimmed first, and only a short mantissa of at
// most 17 digits reaches strconv.
func appendNumber(out, tok []byte) ([]byte, error) {
	if plainInteger(tok) {
		return append(out, tok...), nil
	}
	if len(tok) > MaxNumberLen {
		return nil, fmt.Errorf("a number of %d characters is longer than the limit of %d", len(tok), MaxNumberLen)
	}
	d, err := parseDecimal(tok)
	if err != nil {
		return nil, err
	}
	if d.zero {
		return append(out, '0'), nil
	}
	show := shorten(tok)
	if len(d.digits) > maxSignificant {
		return nil, fmt.Errorf("the number %s has %d significant digits, more than a float64 holds (%d), so readers would disagree on its value", show, len(d.digits), maxSignificant)
	}
	// The value is 0.DIGITS × 10^exp. Past these bounds a float64 overflows
	// or underflows to zero whatever the digits are (and exp may have
	// saturated).
	const maxExp, minExp = 310, -330
	if d.exp > maxExp {
		return nil, fmt.Errorf("the number %s is too large for a float64", show)
	}
	if d.exp < minExp {
		return nil, fmt.Errorf("the number %s is too small for a float64: it would read as 0", show)
	}
	mant := make([]byte, 0, 32)
	if d.neg {
		mant = append(mant, '-')
	}
	mant = append(mant, '0', '.')
	mant = append(mant, d.digits...)
	mant = append(mant, 'e')
	mant = strconv.AppendInt(mant, int64(d.exp), 10)
	f, err := strconv.ParseFloat(string(mant), 64)
	switch {
	case math.IsInf(f, 0):
		return nil, fmt.Errorf("the number %s is too large for a float64", show)
	case f == 0:
		return nil, fmt.Errorf("the number %s is too small for a float64: it would read as 0", show)
	case err != nil:
		return nil, fmt.Errorf("the number %s cannot be read: %v", show, err)
	}
	// The shortest decimal that reads back as f must be the number itself.
	back, _ := parseDecimal(strconv.AppendFloat(nil, f, 'e', -1, 64))
	if string(back.digits) != string(d.digits) || back.exp != d.exp {
		return nil, fmt.Errorf("the number %s cannot be held exactly by a float64: it would read as %s", show, appendFloat(nil, f))
	}
	return appendFloat(out, f), nil
}

// decimal is a JSON number as sign, significant digits (no leading or
// trailing zeros) and the exponent exp of 0.DIGITS × 10^exp.
type decimal struct {
	neg    bool
	zero   bool
	digits []byte
	exp    int
}

// parseDecimal splits a JSON number (or strconv's 'e' format) into a
// decimal. The exponent saturates far outside float64's range, so that an
// absurd exponent costs no more than its length.
func parseDecimal(tok []byte) (decimal, error) {
	var d decimal
	i := 0
	if i < len(tok) && tok[i] == '-' {
		d.neg = true
		i++
	}
	pointExp := 0 // digits before the point, counted from the first significant one
	seenPoint, seenDigit := false, false
	lastNonZero := 0
	for ; i < len(tok); i++ {
		c := tok[i]
		if c == '.' {
			seenPoint = true
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		switch {
		case !seenDigit && c == '0':
			if seenPoint {
				pointExp--
			}
			continue
		case !seenDigit:
			seenDigit = true
		}
		d.digits = append(d.digits, c)
		if c != '0' {
			lastNonZero = len(d.digits)
		}
		if !seenPoint {
			pointExp++
		}
	}
	d.digits = d.digits[:lastNonZero]
	exp := 0
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		neg := false
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			neg = tok[i] == '-'
			i++
		}
		if i == len(tok) {
			return d, errors.New("malformed exponent")
		}
		for ; i < len(tok); i++ {
			c := tok[i]
			if c < '0' || c > '9' {
				return d, errors.New("malformed number")
			}
			if exp < 1e8 {
				exp = exp*10 + int(c-'0')
			}
		}
		if neg {
			exp = -exp
		}
	}
	if i != len(tok) {
		return d, errors.New("malformed number")
	}
	if len(d.digits) == 0 {
		d.zero = true
		return d, nil
	}
	d.exp = pointExp + exp
	return d, nil
}

// appendFloat writes f as JavaScript's Number.prototype.toString does
// (which is also what encoding/json writes for a float64): plain digits
// from 1e-6 up to 1e21, exponent form outside that.
func appendFloat(out []byte, f float64) []byte {
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		b := strconv.AppendFloat(nil, f, 'e', -1, 64)
		// strconv writes e-07 and e+21; JavaScript writes e-7 and e+21.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-2] == '0' {
			b = append(b[:n-2], b[n-1])
		}
		return append(out, b...)
	}
	return strconv.AppendFloat(out, f, 'f', -1, 64)
}

// shorten returns a number's text for a message, cut to 40 characters.
func shorten(tok []byte) string {
	if len(tok) <= 40 {
		return string(tok)
	}
	return fmt.Sprintf("%s... (%d characters)", tok[:30], len(tok))
}

// plainInteger reports whether tok is an integer of at most 15 digits
// other than -0, as JSON writes it (no leading zero): a float64 holds it
// exactly, and JavaScript writes it as it is.
func plainInteger(tok []byte) bool {
	digits := tok
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(tok) > 1) {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
