package dsl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Normalize returns v as the JSON value that encoding/json makes of it:
// nil, bool, json.Number, string, []any or map[string]any. Numbers keep
// their JSON text (json.Number), so that no precision is lost. It fails
// for a value that encoding/json cannot marshal.
func Normalize(v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string, json.Number:
		if s, ok := v.(string); ok && !utf8.ValidString(s) {
			break // let encoding/json replace invalid bytes
		}
		if n, ok := v.(json.Number); ok && !isJSONNumber(string(n)) {
			return nil, fmt.Errorf("dsl: %q is not a JSON number", string(n))
		}
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("dsl: value is not JSON: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	return decodeJSON(b)
}

// decodeJSON decodes exactly one JSON value, with numbers as json.Number.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected text after the value")
	}
	return out, nil
}

func isJSONNumber(s string) bool {
	if s == "" || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) || !json.Valid([]byte(s)) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
			return false
		}
	}
	return true
}

// FormatValue returns the canonical text of a normalized JSON value (see
// Normalize), as constraint texts and the generated Rego write it: JSON
// with ", " between elements, ": " after keys, object keys sorted, numbers
// as written, and every character that is not printable escaped as \uXXXX.
// The text is valid JSON and a valid Rego term.
func FormatValue(v any) string {
	var b strings.Builder
	writeValue(&b, v)
	return b.String()
}

func writeValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case json.Number:
		b.WriteString(string(v))
	case string:
		b.WriteString(Quote(v))
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Quote(k))
			b.WriteString(": ")
			writeValue(b, v[k])
		}
		b.WriteByte('}')
	default:
		// Not normalized: fall back to encoding/json.
		n, err := Normalize(v)
		if err != nil {
			b.WriteString("null")
			return
		}
		writeValue(b, n)
	}
}

// Quote returns s as a JSON string literal, which is also a Rego string
// literal: quotes and backslashes are escaped, and so is every character
// that is not printable (control characters, line and paragraph
// separators, invalid UTF-8 bytes, which become U+FFFD), as \uXXXX. The
// result never contains a line break, so it is safe in a Rego comment.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s { // invalid bytes come out as U+FFFD
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && r >= 0x20 && r != 0x7f, r >= 0x80 && unicode.IsPrint(r) && r != 0x2028 && r != 0x2029:
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsonEqual reports whether two normalized JSON values are equal, with
// numbers compared by value (1 equals 1.0), as Rego compares them.
func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		return ok && compareNumbers(a, bn) == 0
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !jsonEqual(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			w, ok := bm[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// compareNumbers compares two JSON numbers, with 1024 bits of precision
// (about 300 decimal digits), which is exact for every number that is not
// absurdly long.
func compareNumbers(a, b json.Number) int {
	if a == b {
		return 0
	}
	x, _, err1 := big.ParseFloat(string(a), 10, 1024, big.ToNearestEven)
	y, _, err2 := big.ParseFloat(string(b), 10, 1024, big.ToNearestEven)
	if err1 != nil || err2 != nil {
		return strings.Compare(string(a), string(b))
	}
	return x.Cmp(y)
}
