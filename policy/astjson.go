package policy

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

// maxParamDepth bounds the nesting of a call's params. The guest already
// bounds their size; this keeps a deeply nested document from costing a
// deep recursion here.
const maxParamDepth = 256

// paramsValue converts a call's JSON params to an [ast.Value] in one pass,
// without encoding/json's interface{} tree and its second conversion (the
// decision's hot path). The text is validated first with [json.Valid], so the
// parser below only has to handle well-formed JSON.
func paramsValue(b []byte) (ast.Value, error) {
	if !json.Valid(b) {
		return nil, errors.New("params are not valid JSON")
	}
	p := jsonParser{b: b}
	t, err := p.value(0)
	if err != nil {
		return nil, err
	}
	return t.Value, nil
}

type jsonParser struct {
	b []byte
	i int
}

func (p *jsonParser) skip() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (*ast.Term, error) {
	if depth > maxParamDepth {
		return nil, fmt.Errorf("params are nested more than %d levels deep", maxParamDepth)
	}
	p.skip()
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		obj := ast.NewObjectWithCapacity(4)
		for {
			p.skip()
			if p.b[p.i] == '}' {
				p.i++
				return ast.NewTerm(obj), nil
			}
			if p.b[p.i] == ',' {
				p.i++
				p.skip()
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.skip()
			p.i++ // ':'
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			obj.Insert(ast.StringTerm(k), v)
		}
	case c == '[':
		p.i++
		var elems []*ast.Term
		for {
			p.skip()
			if p.b[p.i] == ']' {
				p.i++
				return ast.ArrayTerm(elems...), nil
			}
			if p.b[p.i] == ',' {
				p.i++
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			elems = append(elems, v)
		}
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return ast.StringTerm(s), nil
	case c == 't':
		p.i += 4
		return ast.BooleanTerm(true), nil
	case c == 'f':
		p.i += 5
		return ast.BooleanTerm(false), nil
	case c == 'n':
		p.i += 4
		return ast.NullTerm(), nil
	default:
		start := p.i
		for p.i < len(p.b) && strings.IndexByte("+-0123456789.eE", p.b[p.i]) >= 0 {
			p.i++
		}
		// OPA refuses numbers whose exponent is out of its range; so must
		// this reader, or the two would disagree.
		n, err := ast.NumberChecked(string(p.b[start:p.i]))
		if err != nil {
			return nil, err
		}
		return ast.NewTerm(n), nil
	}
}

// str reads a string token. Escapes and invalid UTF-8 take the slow path
// through encoding/json, which decodes them exactly as OPA's own reader
// does (invalid bytes become U+FFFD).
func (p *jsonParser) str() (string, error) {
	start := p.i
	p.i++
	escaped := false
	for p.b[p.i] != '"' {
		if p.b[p.i] == '\\' {
			escaped = true
			p.i++
		}
		p.i++
	}
	p.i++
	if raw := p.b[start+1 : p.i-1]; !escaped && utf8.Valid(raw) {
		return string(raw), nil
	}
	var s string
	if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
		return "", err
	}
	return s, nil
}
