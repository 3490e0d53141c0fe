package describe

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A schema is read into plain values that keep the order of object keys,
// so that params appear in the order their authors wrote them: *object,
// []any, string, json.Number, bool and nil.

// object is a JSON object whose keys keep their order.
type object struct {
	keys []string
	vals map[string]any
}

// get returns the value of key, or nil.
func (o *object) get(key string) any {
	if o == nil {
		return nil
	}
	return o.vals[key]
}

// has reports whether key is present.
func (o *object) has(key string) bool {
	if o == nil {
		return false
	}
	_, ok := o.vals[key]
	return ok
}

// str returns the string value of key, or "".
func (o *object) str(key string) string {
	s, _ := o.get(key).(string)
	return s
}

// obj returns the object value of key, or nil.
func (o *object) obj(key string) *object {
	v, _ := o.get(key).(*object)
	return v
}

// list returns the array value of key, or nil.
func (o *object) list(key string) []any {
	v, _ := o.get(key).([]any)
	return v
}

// parseJSON reads one JSON value, or returns nil and false when b is empty
// or is not JSON.
func parseJSON(b []byte) (any, bool) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	v, err := decodeValue(d, 0)
	if err != nil {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

// maxNesting bounds the nesting of a schema that is read.
const maxNesting = 200

type nestingError struct{}

func (nestingError) Error() string { return "nested too deep" }

func decodeValue(d *json.Decoder, depth int) (any, error) {
	if depth > maxNesting {
		return nil, nestingError{}
	}
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{vals: map[string]any{}}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := o.vals[k]; !dup {
					o.keys = append(o.keys, k)
				}
				o.vals[k] = v
			}
			_, err := d.Token() // '}'
			return o, err
		case '[':
			arr := []any{}
			for d.More() {
				v, err := decodeValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := d.Token() // ']'
			return arr, err
		}
	}
	return tok, nil
}

// jsonText writes a value as compact JSON, object keys in their order and
// without escaping < > & (the text is read by people and models). A
// TypeScript type of a literal is the same text.
func jsonText(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

func writeJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		b.WriteString(x.String())
	case string:
		b.WriteString(quote(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	case *object:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quote(k))
			b.WriteByte(':')
			writeJSON(b, x.vals[k])
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

// canonicalJSON writes a value as JSON with object keys sorted, to compare
// two schemas; ref rewrites the value of each "$ref".
func canonicalJSON(b *strings.Builder, v any, ref func(string) string) {
	switch x := v.(type) {
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			canonicalJSON(b, e, ref)
		}
		b.WriteByte(']')
	case *object:
		keys := append([]string(nil), x.keys...)
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quote(k))
			b.WriteByte(':')
			if r, ok := x.vals[k].(string); ok && k == "$ref" && ref != nil {
				b.WriteString(quote(ref(r)))
				continue
			}
			canonicalJSON(b, x.vals[k], ref)
		}
		b.WriteByte('}')
	default:
		writeJSON(b, v)
	}
}

// quote returns s as a JSON string (which is also a JavaScript and
// TypeScript string literal), without escaping < > &. Beyond what JSON
// escapes, every character SafeText escapes (DEL, C1 controls, format
// characters) is written \uXXXX, and so is each backtick of a run of three
// or more, so that a string from an upstream server cannot hide text or
// close the fenced block a declaration is shown in.
func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	q := strings.TrimSuffix(buf.String(), "\n")
	if isPlain(q) && !strings.Contains(q, "```") {
		return q
	}
	var b strings.Builder
	for i := 0; i < len(q); {
		r, n := utf8.DecodeRuneInString(q[i:])
		switch {
		case unsafeRune(r):
			writeEscape(&b, r)
		case r == '`' && (strings.HasPrefix(q[i:], "```") || strings.HasPrefix(q[max(0, i-1):], "```") || strings.HasPrefix(q[max(0, i-2):], "```")):
			b.WriteString(`\u0060`)
		default:
			b.WriteString(q[i : i+n])
		}
		i += n
	}
	return b.String()
}

// rawJSON returns the compact form of a JSON document, or nil when it is
// empty or not JSON.
func rawJSON(b []byte) json.RawMessage {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil
	}
	return buf.Bytes()
}
