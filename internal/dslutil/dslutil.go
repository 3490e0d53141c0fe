// Package dslutil holds the text and pattern helpers of the capability
// DSL that package dsl, the Rego compiler (policy/compile) and the guest's
// description of the policy (describe) share, so that the generated Rego,
// the reasons and the descriptions write parameters, values and method
// patterns alike. It is not the DSL: package dsl is.
package dslutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gobwas/glob"
)

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

// FormatParam returns a parameter path as constraint texts write it: as it
// is when it is plain, else as a JSON string.
func FormatParam(path string) string {
	if plainParam(path) {
		return path
	}
	return Quote(path)
}

func plainParam(path string) bool {
	if path == "" || !utf8.ValidString(path) {
		return false
	}
	for _, r := range path {
		if r == ' ' || !unicode.IsPrint(r) || strings.ContainsRune(`"(),[]{}`, r) {
			return false
		}
	}
	return true
}

// SplitParam splits a parameter path into its segments: a string for an
// object key, an int for a segment of digits, which indexes an array. It
// fails for an empty path, an empty segment, a segment of digits with a
// leading zero or too large for an int, and invalid UTF-8.
func SplitParam(path string) ([]any, error) {
	if path == "" {
		return nil, errors.New("dsl: the parameter path is empty")
	}
	if !utf8.ValidString(path) {
		return nil, fmt.Errorf("dsl: parameter path %s is not valid UTF-8", Quote(path))
	}
	parts := strings.Split(path, "/")
	out := make([]any, len(parts))
	for i, s := range parts {
		if s == "" {
			return nil, fmt.Errorf("dsl: parameter path %s has an empty segment", Quote(path))
		}
		if !allDigits(s) {
			out[i] = s
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || (len(s) > 1 && s[0] == '0') {
			return nil, fmt.Errorf("dsl: parameter path %s: array index %s must be a number without leading zeros that fits an int", Quote(path), s)
		}
		out[i] = n
	}
	return out, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// MaxSuperSegments is the most "**" segments a method pattern may hold
// (after runs of them are merged, see ExpandPattern), since each one
// doubles the globs the pattern expands to.
const MaxSuperSegments = 4

// ExpandPattern returns the plain gobwas/glob patterns (with '/' as the
// separator) whose union is the method pattern, and checks the pattern.
//
// In a method pattern, "*" matches within one segment, and "**" as a whole
// segment matches zero or more segments anywhere: "stripe/**" matches
// "stripe" and "stripe/a/b", "**/create" matches "create", "a/**/b"
// matches "a/b" and "a/x/y/b". gobwas/glob alone needs at least the
// separators around a "**", so each "**" segment is expanded into a variant
// without it (zero segments) and one with it (one or more). Runs of "**"
// segments are merged first, which does not change what matches. A
// pattern without "**" segments expands to itself.
//
// It fails for an empty pattern, invalid UTF-8, characters that do not
// print (line breaks and other controls), an empty segment, "**"
// inside a segment ("a**"), more than MaxSuperSegments "**" segments, and
// glob syntax errors.
func ExpandPattern(pattern string) ([]string, error) {
	if pattern == "" {
		return nil, errors.New("dsl: the method pattern is empty")
	}
	if !utf8.ValidString(pattern) {
		return nil, fmt.Errorf("dsl: method pattern %s is not valid UTF-8", Quote(pattern))
	}
	if i := strings.IndexFunc(pattern, func(r rune) bool { return !unicode.IsPrint(r) }); i >= 0 {
		return nil, fmt.Errorf("dsl: method pattern %s holds a character that does not print", Quote(pattern))
	}
	var segs []string
	supers := 0
	for _, s := range strings.Split(pattern, "/") {
		switch {
		case s == "":
			return nil, fmt.Errorf("dsl: method pattern %s has an empty segment", Quote(pattern))
		case s == "**":
			if len(segs) > 0 && segs[len(segs)-1] == "**" {
				continue // "**/**" matches what "**" matches
			}
			supers++
		case hasSuperGlob(s):
			return nil, fmt.Errorf("dsl: method pattern %s: \"**\" must be a whole segment (write %s/** or use * within a segment)", Quote(pattern), Quote(s))
		}
		segs = append(segs, s)
	}
	if supers > MaxSuperSegments {
		return nil, fmt.Errorf("dsl: method pattern %s has %d \"**\" segments; at most %d are allowed", Quote(pattern), supers, MaxSuperSegments)
	}
	if _, err := glob.Compile(pattern, '/'); err != nil {
		return nil, fmt.Errorf("dsl: method pattern %s: %v", Quote(pattern), strings.TrimPrefix(err.Error(), "glob: "))
	}

	// Variant k drops the "**" segments whose bit is clear in k: variant 0
	// drops them all, the last keeps them all.
	var out []string
	seen := map[string]bool{}
	for k := 0; k < 1<<supers; k++ {
		var kept []string
		bit := 0
		for _, s := range segs {
			if s == "**" {
				keep := k&(1<<bit) != 0
				bit++
				if !keep {
					continue
				}
			}
			kept = append(kept, s)
		}
		v := strings.Join(kept, "/")
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out, nil
}

// hasSuperGlob reports whether a segment holds an unescaped "**".
func hasSuperGlob(seg string) bool {
	star := false
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '\\':
			i++
			star = false
		case '*':
			if star {
				return true
			}
			star = true
		default:
			star = false
		}
	}
	return false
}

// MaxValueText is how many characters of a parameter's JSON text a reason
// shows; longer texts are cut and end with "...".
const MaxValueText = 64

// DescribeValue returns how a reason shows a parameter value: "missing"
// when found is false, else its JSON text as encoding/json writes it (which
// is what Rego's json.marshal writes), cut to MaxValueText characters.
func DescribeValue(v any, found bool) string {
	if !found {
		return "missing"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "(not JSON)"
	}
	r := []rune(string(b))
	if len(r) > MaxValueText {
		return string(r[:MaxValueText-3]) + "..."
	}
	return string(r)
}
