package jq

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxJSONDepth bounds the nesting of parsed JSON, like jq's parser limit.
const maxJSONDepth = 10000

// jsonDecoder parses a stream of whitespace-separated JSON values from a
// byte slice into the value types gojq uses (nil, bool, int, float64,
// *big.Int, string, []any, map[string]any).
type jsonDecoder struct {
	data  []byte
	pos   int
	order *keyOrder // records the key order of objects when not nil
	// lines counts the newlines in data[:linePos], so that line is
	// amortized linear over the whole input.
	lines, linePos int
}

// jsonError is a parse error with jq's wording and position.
type jsonError struct {
	msg       string
	line, col int
	eof       bool // the error was found at the end of the input
}

// Error returns the message in jq's form.
func (e *jsonError) Error() string {
	if e.eof {
		return fmt.Sprintf("%s at EOF at line %d, column %d", e.msg, e.line, e.col)
	}
	return fmt.Sprintf("%s at line %d, column %d", e.msg, e.line, e.col)
}

// line returns the 1-based line of the last consumed byte.
func (d *jsonDecoder) line() int {
	end := min(d.pos, len(d.data))
	if end < d.linePos {
		d.lines, d.linePos = 0, 0
	}
	for _, c := range d.data[d.linePos:end] {
		if c == '\n' {
			d.lines++
		}
	}
	d.linePos = end
	return d.lines + 1
}

// fail returns an error at the current position.
func (d *jsonDecoder) fail(msg string) error {
	line, col := 1, 0
	end := min(d.pos, len(d.data))
	for _, c := range d.data[:end] {
		if c == '\n' {
			line++
			col = 0
		} else {
			col++
		}
	}
	return &jsonError{msg: msg, line: line, col: col}
}

// failEOF reports input that ends inside a value.
func (d *jsonDecoder) failEOF() error {
	err := d.fail("Unfinished JSON term").(*jsonError)
	err.eof = true
	return err
}

// skipSpace skips JSON white space.
func (d *jsonDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// next returns the next value; ok is false at the end of the input.
func (d *jsonDecoder) next() (v any, ok bool, err error) {
	if d.pos == 0 && len(d.data) >= 3 && string(d.data[:3]) == "\ufeff" {
		// jq skips a byte order mark at the start of its input.
		d.pos = 3
	}
	d.skipSpace()
	if d.pos >= len(d.data) {
		return nil, false, nil
	}
	v, err = d.value(0)
	if err != nil {
		return nil, false, err
	}
	// A value must be followed by a separator (space or a new value that
	// starts with a structural character).
	return v, true, nil
}

// isLiteralByte reports whether c can be part of a bare word or number: as
// in jq's tokenizer, anything but white space, structural characters and
// quotes.
func isLiteralByte(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '[', ']', '{', '}', ',', ':', '"':
		return false
	}
	return true
}

func (d *jsonDecoder) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, d.fail("Exceeds depth limit for parsing")
	}
	d.skipSpace()
	if d.pos >= len(d.data) {
		err := d.fail("Unfinished JSON term").(*jsonError)
		err.eof = true
		return nil, err
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return d.object(depth)
	case '[':
		return d.array(depth)
	case '"':
		return d.str()
	case ']', '}':
		d.pos++
		if c == ']' {
			return nil, d.fail("Unmatched ']'")
		}
		return nil, d.fail("Unmatched '}'")
	case ',':
		d.pos++
		return nil, d.fail("Expected value before ','")
	case ':':
		d.pos++
		return nil, d.fail("':' not as part of an object")
	}
	return d.literal()
}

// literal parses a bare word: null, true, false, nan or a number.
func (d *jsonDecoder) literal() (any, error) {
	start := d.pos
	for d.pos < len(d.data) && isLiteralByte(d.data[d.pos]) {
		d.pos++
	}
	if v, ok := shortInt(d.data[start:d.pos]); ok {
		return v, nil
	}
	tok := string(d.data[start:d.pos])
	if tok == "" {
		d.pos++
		return nil, d.fail("Invalid literal")
	}
	switch tok {
	case "null":
		return nil, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	if c := tok[0]; c != 't' && c != 'f' && !(c == 'n' && len(tok) > 1 && tok[1] == 'u') {
		if v, ok := canonicalNumber(tok); ok {
			return v, nil
		}
	}
	// Like jq, report a bad bare word after the byte that ends it; words
	// that start like true, false or null are "literals", others numbers.
	msg := "Invalid numeric literal"
	if c := tok[0]; c == 't' || c == 'f' || c == 'n' && len(tok) > 1 && tok[1] == 'u' {
		msg = "Invalid literal"
	}
	if d.pos >= len(d.data) {
		err := d.fail(msg).(*jsonError)
		err.eof = true
		return nil, err
	}
	d.pos++
	return nil, d.fail(msg)
}

// shortInt is canonicalNumber's answer for an integer of at most 18
// digits (which cannot overflow an int), the common case, read without
// making a string: a third of decoding `seq 1 3000 | jq -s` went to the
// string and strconv. It declines everything else, including zeros after
// a minus sign (canonicalNumber keeps "-0" as written).
func shortInt(b []byte) (int, bool) {
	digits := b
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		digits = b[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		if n == 0 {
			return 0, false
		}
		n = -n
	}
	return n, true
}

// array parses an array; the current byte is '['.
func (d *jsonDecoder) array(depth int) (any, error) {
	d.pos++
	arr := []any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return arr, nil
	}
	for {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.failEOF()
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			if d.pos < len(d.data) && d.data[d.pos] == ']' {
				d.pos++
				return nil, d.fail("Expected another array element")
			}
		case ']':
			d.pos++
			return arr, nil
		default:
			return nil, d.separatorError()
		}
	}
}

// separatorError reports a value that follows another without a comma,
// after consuming the offending token as jq's tokenizer does.
func (d *jsonDecoder) separatorError() error {
	c := d.data[d.pos]
	switch {
	case isLiteralByte(c):
		for d.pos < len(d.data) && isLiteralByte(d.data[d.pos]) {
			d.pos++
		}
		if d.pos >= len(d.data) {
			return d.failEOF()
		}
		d.pos++
	case c == '"':
		if _, err := d.str(); err != nil {
			return err
		}
	default:
		d.pos++
		if c == ']' || c == '}' || c == ':' {
			return d.fail("Objects must consist of key:value pairs")
		}
	}
	return d.fail("Expected separator between values")
}

// object parses an object; the current byte is '{'.
func (d *jsonDecoder) object(depth int) (any, error) {
	d.pos++
	obj := map[string]any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return obj, nil
	}
	var keys []string
	for {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.failEOF()
		}
		switch d.data[d.pos] {
		case '"':
		case ',':
			d.pos++
			return nil, d.fail("Expected value before ','")
		case '}':
			d.pos++
			return nil, d.fail("Expected another key-value pair")
		default:
			d.pos++
			return nil, d.fail("Object keys must be strings")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.failEOF()
		}
		if d.data[d.pos] != ':' {
			return nil, d.separatorError()
		}
		d.pos++
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		key := k.(string)
		if _, dup := obj[key]; !dup && d.order != nil {
			keys = append(keys, key)
		}
		obj[key] = v
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.failEOF()
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.order.record(obj, keys)
			return obj, nil
		default:
			return nil, d.separatorError()
		}
	}
}

// str parses a string; invalid UTF-8 becomes U+FFFD.
func (d *jsonDecoder) str() (any, error) {
	d.pos++
	start := d.pos
	// Fast path: no escapes.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			if utf8.Valid(s) {
				return string(s), nil
			}
			return string([]rune(string(s))), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.pos++
	}
	buf := append([]byte(nil), d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch c {
		case '"':
			d.pos++
			if !utf8.Valid(buf) {
				return string([]rune(string(buf))), nil
			}
			return string(buf), nil
		case '\\':
			d.pos++
			if d.pos >= len(d.data) {
				return nil, d.failString()
			}
			e := d.data[d.pos]
			d.pos++
			switch e {
			case 'n':
				buf = append(buf, '\n')
			case 't':
				buf = append(buf, '\t')
			case 'r':
				buf = append(buf, '\r')
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case '/', '\\', '"':
				buf = append(buf, e)
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return nil, d.invalidEscape()
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(utf8.RuneError)
					if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
						save := d.pos
						d.pos += 2
						if lo, ok := d.hex4(); ok && utf16.DecodeRune(r, lo) != utf8.RuneError {
							r2 = utf16.DecodeRune(r, lo)
						} else {
							d.pos = save
						}
					}
					r = r2
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return nil, d.invalidEscape()
			}
		default:
			if c < 0x20 {
				return nil, d.stringError("Invalid string: control characters from U+0000 through U+001F must be escaped")
			}
			buf = append(buf, c)
			d.pos++
		}
	}
	return nil, d.failString()
}

// failString reports input that ends inside a string.
func (d *jsonDecoder) failString() error {
	err := d.fail("Unfinished string").(*jsonError)
	err.eof = true
	return err
}

// invalidEscape reports a bad escape after the end of its string, where
// jq notices it.
func (d *jsonDecoder) invalidEscape() error {
	return d.stringError("Invalid escape")
}

// stringError reports an error in a string after the end of the string,
// where jq notices it.
func (d *jsonDecoder) stringError(msg string) error {
	for d.pos < len(d.data) && d.data[d.pos] != '"' {
		if d.data[d.pos] == '\\' {
			d.pos++
		}
		d.pos++
	}
	if d.pos >= len(d.data) {
		return d.failString()
	}
	d.pos++
	return d.fail(msg)
}

// hex4 parses the four hex digits of a \u escape.
func (d *jsonDecoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.pos += 4
	return rune(n), true
}
