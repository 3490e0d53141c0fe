// Package canon turns a tool call's JSON params into the one canonical form
// that the policy sees, the audit records and the handler receives.
//
// A hostile script looks for bytes that two readers read differently: the
// policy matches keys exactly while encoding/json fills a struct
// case-insensitively, and a number with more digits than a float64 holds
// passes a bound in an exact evaluator and reads as the bound in a float64
// handler. Params reads the text once, refuses every value that could be
// read in two ways, and writes the rest in one form:
//
//   - the params are one JSON object, nested at most MaxDepth levels;
//   - no object holds two keys that are equal under Unicode simple case
//     folding (what encoding/json uses to match struct fields), which also
//     refuses exact duplicates, and no key is "__proto__";
//   - every string and key is valid UTF-8 with no unpaired UTF-16
//     surrogate escape;
//   - every number reads back from a float64 as the same decimal number:
//     at most 17 significant digits, and the shortest decimal of its
//     float64 is the number itself (0.1 and 1.0 pass; 9007199254740993,
//     999.99999999999999999, 1e400 and 1e-400 do not). A number longer
//     than MaxNumberLen characters is refused before any arithmetic, and
//     the whole check is linear in the text's length;
//   - the output has no insignificant space, keeps the keys in the order
//     the script wrote them, writes numbers as JavaScript's
//     Number.prototype.toString does (1.0 is 1, 1e21 is 1e+21, -0 is 0), and
//     escapes only what JSON requires.
//
// Every reader then agrees: encoding/json into a struct (float64, int or
// int64 fields), json.Number, map[string]any, OPA, and a JavaScript handler.
package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is how deeply params may nest objects and arrays; the params
// object itself is level 1.
const MaxDepth = 64

// MaxNumberLen is the longest number text, in characters, that Params reads.
const MaxNumberLen = 1000

// ErrInvalid is matched (errors.Is) by every error of Params.
var ErrInvalid = errors.New("canon: invalid params")

// Error says which param cannot be put in canonical form, and why.
type Error struct {
	// Path is the param's path, segments separated by "/" as in the
	// capability DSL ("body/user/email", "items/0"); "" is the params
	// object itself.
	Path string
	// Reason says what is wrong, without the path.
	Reason string
}

// Error returns "param PATH: REASON", or "params: REASON" for the object.
func (e *Error) Error() string {
	if e.Path == "" {
		return "params: " + e.Reason
	}
	return "param " + e.Path + ": " + e.Reason
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// Params returns the canonical text of a JSON object of params, or an
// *Error. Empty (or all-space) input is the empty object.
func Params(raw []byte) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte("{}"), nil
	}
	// Nesting first: past its own limit, json.Valid calls deep text
	// invalid, which would hide the reason.
	if tooDeep(raw) {
		return nil, &Error{Reason: fmt.Sprintf("params are nested deeper than %d levels", MaxDepth)}
	}
	if !json.Valid(raw) {
		return nil, &Error{Reason: "not valid JSON"}
	}
	var path [16]seg
	var keys [16][]byte
	p := parser{b: raw, out: make([]byte, 0, len(raw)), path: path[:0], keys: keys[:0]}
	p.skip()
	if p.b[p.i] != '{' {
		return nil, &Error{Reason: "not a JSON object"}
	}
	if err := p.value(); err != nil {
		return nil, err
	}
	return p.out, nil
}

// tooDeep reports whether the brackets of raw, outside strings, nest
// deeper than MaxDepth.
func tooDeep(raw []byte) bool {
	depth := 0
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > MaxDepth {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// parser writes the canonical form of JSON text that json.Valid accepted,
// so it only has to handle well-formed input.
type parser struct {
	b    []byte
	i    int
	out  []byte
	path []seg    // the value being read, for error messages
	keys [][]byte // the keys of the objects being read, innermost last
}

// seg is one step of a path: an object key, or an array index when key is
// nil.
type seg struct {
	key []byte
	idx int
}

func (p *parser) fail(format string, args ...any) error {
	return &Error{Path: p.pathString(), Reason: fmt.Sprintf(format, args...)}
}

func (p *parser) pathString() string {
	var b strings.Builder
	for i, s := range p.path {
		if i > 0 {
			b.WriteByte('/')
		}
		if s.key == nil {
			b.WriteString(strconv.Itoa(s.idx))
		} else {
			b.WriteString(segment(string(s.key)))
		}
	}
	return b.String()
}

func (p *parser) skip() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() error {
	p.skip()
	switch c := p.b[p.i]; {
	case c == '{', c == '[':
		// tooDeep has bounded the nesting already.
		if c == '{' {
			return p.object()
		}
		return p.array()
	case c == '"':
		s, plain, err := p.str()
		if err != nil {
			return err
		}
		if plain {
			// Unescaped text that json.Valid accepted holds no quote,
			// backslash or control character: it is canonical as it is.
			p.out = append(p.out, '"')
			p.out = append(p.out, s...)
			p.out = append(p.out, '"')
		} else {
			p.out = appendString(p.out, s)
		}
	case c == 't':
		p.i += 4
		p.out = append(p.out, "true"...)
	case c == 'f':
		p.i += 5
		p.out = append(p.out, "false"...)
	case c == 'n':
		p.i += 4
		p.out = append(p.out, "null"...)
	default:
		start := p.i
		for p.i < len(p.b) && strings.IndexByte("+-0123456789.eE", p.b[p.i]) >= 0 {
			p.i++
		}
		out, err := appendNumber(p.out, p.b[start:p.i])
		if err != nil {
			return p.fail("%v", err)
		}
		p.out = out
	}
	return nil
}

func (p *parser) object() error {
	p.i++ // '{'
	p.out = append(p.out, '{')
	mark := len(p.keys)
	var folded map[string][]byte // past smallObject keys: folded key -> key
	defer func() { p.keys = p.keys[:mark] }()
	first := true
	for {
		p.skip()
		if p.b[p.i] == '}' {
			p.i++
			p.out = append(p.out, '}')
			return nil
		}
		if p.b[p.i] == ',' {
			p.i++
			p.skip()
		}
		k, plain, err := p.str()
		if err != nil {
			return err
		}
		p.path = append(p.path, seg{key: k})
		if string(k) == "__proto__" {
			return p.fail("the key __proto__ is not allowed")
		}
		if other, dup := p.seen(mark, &folded, k); dup {
			if bytes.Equal(other, k) {
				return p.fail("the key %s appears twice", quoteShort(string(k)))
			}
			return p.fail("the keys %s and %s are the same key under Unicode case folding (as encoding/json matches struct fields), so readers would disagree on which one counts", quoteShort(string(other)), quoteShort(string(k)))
		}
		if !first {
			p.out = append(p.out, ',')
		}
		first = false
		if plain {
			p.out = append(p.out, '"')
			p.out = append(p.out, k...)
			p.out = append(p.out, '"')
		} else {
			p.out = appendString(p.out, k)
		}
		p.out = append(p.out, ':')
		p.skip()
		p.i++ // ':'
		if err := p.value(); err != nil {
			return err
		}
		p.path = p.path[:len(p.path)-1]
	}
}

func (p *parser) array() error {
	p.i++ // '['
	p.out = append(p.out, '[')
	for n := 0; ; n++ {
		p.skip()
		if p.b[p.i] == ']' {
			p.i++
			p.out = append(p.out, ']')
			return nil
		}
		if p.b[p.i] == ',' {
			p.i++
			p.out = append(p.out, ',')
		}
		p.path = append(p.path, seg{idx: n})
		if err := p.value(); err != nil {
			return err
		}
		p.path = p.path[:len(p.path)-1]
	}
}

// str reads a string token and decodes it, refusing invalid UTF-8 and
// unpaired surrogate escapes (which encoding/json would turn into U+FFFD
// and a JavaScript reader would keep). plain reports that the token had no
// escape, and the result is then a slice of the input.
func (p *parser) str() (s []byte, plain bool, err error) {
	p.i++ // '"'
	start := p.i
	for p.b[p.i] != '"' && p.b[p.i] != '\\' {
		p.i++
	}
	if p.b[p.i] == '"' {
		raw := p.b[start:p.i]
		p.i++
		if !utf8.Valid(raw) {
			return nil, false, p.fail("a string is not valid UTF-8")
		}
		return raw, true, nil
	}
	var b []byte
	b = append(b, p.b[start:p.i]...)
	for {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !utf8.Valid(b) {
				return nil, false, p.fail("a string is not valid UTF-8")
			}
			return b, false, nil
		case c != '\\':
			b = append(b, c)
			p.i++
			continue
		}
		p.i++ // '\\'
		switch e := p.b[p.i]; e {
		case 'u':
			r := hex4(p.b[p.i+1 : p.i+5])
			p.i += 5
			if utf16.IsSurrogate(r) {
				var r2 rune = -1
				if p.i+6 <= len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					r2 = hex4(p.b[p.i+2 : p.i+6])
				}
				dec := utf16.DecodeRune(r, r2)
				if dec == unicode.ReplacementChar {
					return nil, false, p.fail("a string holds an unpaired UTF-16 surrogate (\\u%04x)", r)
				}
				p.i += 6
				r = dec
			}
			b = utf8.AppendRune(b, r)
		default:
			b = append(b, unescape[e])
			p.i++
		}
	}
}

var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// appendString writes s as a JSON string, escaping only what JSON requires:
// the quote, the backslash and control characters.
func appendString(out, s []byte) []byte {
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		out = append(out, s[start:i]...)
		switch c {
		case '"', '\\':
			out = append(out, '\\', c)
		case '\n':
			out = append(out, '\\', 'n')
		case '\r':
			out = append(out, '\\', 'r')
		case '\t':
			out = append(out, '\\', 't')
		default:
			out = append(out, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		}
		start = i + 1
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}

// segment is how a key appears in an error's path: as it is when it is
// short and plain, else quoted and cut.
func segment(k string) string {
	if len(k) > 0 && len(k) <= 64 && !strings.ContainsAny(k, "/\"\\") {
		plain := true
		for i := 0; i < len(k); i++ {
			if k[i] <= ' ' || k[i] >= 0x7f {
				plain = false
				break
			}
		}
		if plain {
			return k
		}
	}
	return quoteShort(k)
}

// quoteShort quotes s for a message, in ASCII (so that look-alike
// characters such as the Kelvin sign show as escapes), cut to 64 runes.
func quoteShort(s string) string {
	if utf8.RuneCountInString(s) > 64 {
		r := []rune(s)
		return strconv.QuoteToASCII(string(r[:61])) + "..."
	}
	return strconv.QuoteToASCII(s)
}

// smallObject is how many keys an object may have before seen switches from
// comparing each pair to a map of folded keys.
const smallObject = 16

// seen records key k of the object whose keys start at p.keys[mark] and
// reports an earlier key equal to k under simple case folding, if any.
func (p *parser) seen(mark int, folded *map[string][]byte, k []byte) ([]byte, bool) {
	keys := p.keys[mark:]
	if *folded == nil {
		for _, other := range keys {
			if bytes.EqualFold(other, k) {
				return other, true
			}
		}
		p.keys = append(p.keys, k)
		if len(keys)+1 <= smallObject {
			return nil, false
		}
		*folded = make(map[string][]byte, 2*smallObject)
		for _, other := range p.keys[mark:] {
			(*folded)[fold(other)] = other
		}
		return nil, false
	}
	f := fold(k)
	if other, dup := (*folded)[f]; dup {
		return other, true
	}
	(*folded)[f] = k
	return nil, false
}

// fold maps s to a key that is equal for two strings exactly when
// bytes.EqualFold holds for them: each rune becomes the smallest rune of
// its simple case folding orbit, as encoding/json folds field names.
func fold(s []byte) string {
	b := make([]byte, 0, len(s))
	for _, r := range string(s) {
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}
