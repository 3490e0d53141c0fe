package jsrt

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/cordonhq/cordon/guest/internal/gojax"
	"github.com/dop251/goja"
)

// parseJSON builds the JS value of a JSON text, a tool's result, directly
// (and independently of the script's JSON global):
// goja's JSON.parse goes through encoding/json's token stream, which was a
// sixth of the guest's work per tool call. It gives exactly what JSON.parse
// gives (the differential tests and FuzzParseJSON hold it to that): strings
// are decoded by encoding/json, as JSON.parse's are, numbers are float64
// made into JS numbers the same way, and keys become own data properties in
// order, a repeated key keeping its first place and its last value.
//
// It refuses what JSON.parse refuses (numbers out of float64's range
// included), and also nesting deeper than maxJSONDepth, where JSON.parse
// would recurse until the guest's stack ran out.
func (r *run) parseJSON(b []byte) (goja.Value, error) {
	p := jsonReader{rt: r.rt, b: b}
	p.ws()
	v, ok := p.value(0)
	if ok {
		p.ws()
		if p.i == len(b) {
			return v, nil
		}
	}
	if p.deep {
		return nil, fmt.Errorf("JSON nested more than %d deep", maxJSONDepth)
	}
	return nil, fmt.Errorf("invalid JSON at offset %d", p.i)
}

const maxJSONDepth = 1000

type jsonReader struct {
	rt   *goja.Runtime
	b    []byte
	i    int
	deep bool // stopped at maxJSONDepth
}

func (p *jsonReader) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonReader) value(depth int) (goja.Value, bool) {
	if depth > maxJSONDepth {
		p.deep = true
		return nil, false
	}
	if p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		return p.rt.ToValue(s), true
	case c == 't':
		return p.lit("true", p.rt.ToValue(true))
	case c == 'f':
		return p.lit("false", p.rt.ToValue(false))
	case c == 'n':
		return p.lit("null", goja.Null())
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, false
}

func (p *jsonReader) lit(word string, v goja.Value) (goja.Value, bool) {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return nil, false
	}
	p.i += len(word)
	return v, true
}

func (p *jsonReader) object(depth int) (goja.Value, bool) {
	obj := p.rt.NewObject()
	p.i++ // {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return obj, true
	}
	for {
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, false
		}
		key, ok := p.str()
		if !ok {
			return nil, false
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.ws()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		// The object is new and only this loop fills it: gojax.PutData
		// stores the property without DefineDataProperty's descriptor.
		if !useGojax || !gojax.PutData(obj, key, v) {
			if obj.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE) != nil {
				return nil, false
			}
		}
		if more, ok := p.sep('}'); !ok {
			return nil, false
		} else if !more {
			return obj, true
		}
	}
}

func (p *jsonReader) array(depth int) (goja.Value, bool) {
	var items []any
	p.i++ // [
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return p.rt.NewArray(), true
	}
	for {
		p.ws()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		items = append(items, v)
		if more, ok := p.sep(']'); !ok {
			return nil, false
		} else if !more {
			return p.rt.NewArray(items...), true
		}
	}
}

// sep reads the separator after a member: ',' (more follows) or the closing
// bracket; ok is false for anything else.
func (p *jsonReader) sep(closing byte) (more, ok bool) {
	p.ws()
	if p.i >= len(p.b) {
		return false, false
	}
	switch p.b[p.i] {
	case ',':
		p.i++
		return true, true
	case closing:
		p.i++
		return false, true
	}
	return false, false
}

// str reads a string token. Plain ASCII is taken as it is; anything with
// escapes or other bytes is decoded by encoding/json, as JSON.parse does.
func (p *jsonReader) str() (string, bool) {
	start := p.i
	p.i++ // "
	plain := true
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if plain {
				return string(p.b[start+1 : p.i-1]), true
			}
			var s string
			if json.Unmarshal(p.b[start:p.i], &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			p.i += 2
			continue
		case c < 0x20:
			return "", false
		case c >= 0x80:
			plain = false
		}
		p.i++
	}
	return "", false
}

// number reads a number by JSON's grammar.
func (p *jsonReader) number() (goja.Value, bool) {
	start := p.i
	b := p.b
	if b[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(b) && b[p.i] >= '0' && b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(b) && b[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, false
	}
	if p.i < len(b) && b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if p.i < len(b) && (b[p.i] == 'e' || b[p.i] == 'E') {
		p.i++
		if p.i < len(b) && (b[p.i] == '+' || b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	f, err := strconv.ParseFloat(string(b[start:p.i]), 64)
	if err != nil {
		return nil, false
	}
	return p.rt.ToValue(f), true
}

// primitiveJSON is JSON.stringify of a number, a boolean or null, without
// going through the script's JSON.
func primitiveJSON(v goja.Value) (string, bool) {
	if _, isObj := v.(*goja.Object); isObj {
		return "", false
	}
	if goja.IsNull(v) {
		return "null", true
	}
	switch x := v.Export().(type) {
	case bool:
		return strconv.FormatBool(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "null", true
		}
		return v.String(), true // JS's number to string, as JSON.stringify uses
	}
	return "", false
}
