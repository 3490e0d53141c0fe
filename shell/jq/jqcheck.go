package jq

import (
	"strings"

	"github.com/itchyny/gojq"
)

// Errors that jq 1.7 reports when it compiles a program (exit status 3)
// and gojq only when it runs it, or words differently.

// jqCompileCheckError is a compile error with jq's message.
type jqCompileCheckError struct{ msg string }

// Error returns the message.
func (e *jqCompileCheckError) Error() string { return e.msg }

// jqCheckQuery reports jq's compile errors in q: an object key that is a
// constant but not a string ({(1): 2}).
func jqCheckQuery(q *gojq.Query) error {
	var err error
	jqInspect(q, func(node any) bool {
		if kv, ok := node.(*gojq.ObjectKeyVal); ok && err == nil {
			if v, ok := jqConstValue(kv.KeyQuery); ok {
				if _, isStr := v.(string); !isStr {
					err = &jqCompileCheckError{"Cannot use " + typeErrorPreview(v) + " as object key"}
				}
			}
		}
		return err == nil
	})
	return err
}

// jqConstValue returns the value of a constant query: a literal, or an
// array or object of literals, as jq folds them.
func jqConstValue(q *gojq.Query) (any, bool) {
	if q == nil || q.Term == nil || q.FuncDefs != nil || q.Term.SuffixList != nil {
		return nil, false
	}
	t := q.Term
	switch t.Type {
	case gojq.TermTypeNull:
		return nil, true
	case gojq.TermTypeTrue:
		return true, true
	case gojq.TermTypeFalse:
		return false, true
	case gojq.TermTypeNumber:
		return canonicalNumber(t.Number)
	case gojq.TermTypeString:
		if t.Str.Queries == nil {
			return t.Str.Str, true
		}
	case gojq.TermTypeQuery:
		return jqConstValue(t.Query)
	case gojq.TermTypeArray:
		if t.Array.Query == nil {
			return []any{}, true
		}
		var elems []any
		var walk func(q *gojq.Query) bool
		walk = func(q *gojq.Query) bool {
			if q.Op == gojq.OpComma {
				return walk(q.Left) && walk(q.Right)
			}
			v, ok := jqConstValue(q)
			elems = append(elems, v)
			return ok
		}
		if walk(t.Array.Query) {
			return elems, true
		}
	case gojq.TermTypeObject:
		obj := map[string]any{}
		for _, kv := range t.Object.KeyVals {
			if kv.Val == nil || strings.HasPrefix(kv.Key, "$") {
				return nil, false
			}
			key := kv.Key
			if kv.KeyString != nil {
				if kv.KeyString.Queries != nil {
					return nil, false
				}
				key = kv.KeyString.Str
			} else if kv.KeyQuery != nil {
				return nil, false
			}
			v, ok := jqConstValue(kv.Val)
			if !ok {
				return nil, false
			}
			obj[key] = v
		}
		return obj, true
	}
	return nil, false
}

// jqDirectiveError explains a program that gojq could not parse when the
// cause is a module directive whose metadata or path is not what jq
// accepts; it returns nil otherwise.
func jqDirectiveError(src string) error {
	s := jqSkipSpace(src)
	for {
		var kw string
		for _, k := range []string{"module", "import", "include"} {
			if strings.HasPrefix(s, k) && len(s) > len(k) && !jqIsIdentByte(s[len(k)]) {
				kw = k
			}
		}
		if kw == "" {
			return nil
		}
		s = jqSkipSpace(s[len(kw):])
		if kw != "module" {
			// The path: a string literal.
			lit, rest, ok := jqCutStringLiteral(s)
			if !ok {
				return nil
			}
			if strings.Contains(lit, `\(`) {
				return &jqCompileCheckError{"Import path must be constant"}
			}
			if _, err := parseJSONText(lit, nil); err != nil {
				return &jqCompileCheckError{err.Error() + " (while parsing '" + lit + "')"}
			}
			s = jqSkipSpace(rest)
			if kw == "import" {
				if !strings.HasPrefix(s, "as") {
					return nil
				}
				s = jqSkipSpace(s[2:])
				i := 0
				for i < len(s) && (jqIsIdentByte(s[i]) || s[i] == '$' || s[i] == ':') {
					i++
				}
				s = jqSkipSpace(s[i:])
			}
		}
		// The metadata, up to the ';'.
		end := jqDirectiveEnd(s)
		if end < 0 {
			return nil
		}
		if meta := strings.TrimSpace(s[:end]); meta != "" {
			mq, err := gojq.Parse(meta)
			if err != nil {
				return nil
			}
			v, ok := jqConstValue(mq)
			if !ok {
				return &jqCompileCheckError{"Module metadata must be constant"}
			}
			if _, isObj := v.(map[string]any); !isObj {
				return &jqCompileCheckError{"Module metadata must be an object"}
			}
		}
		s = jqSkipSpace(s[end+1:])
	}
}

// jqSkipSpace skips white space and comments.
func jqSkipSpace(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if !strings.HasPrefix(s, "#") {
			return s
		}
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		} else {
			return ""
		}
	}
}

// jqIsIdentByte reports whether c can be part of an identifier.
func jqIsIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// jqCutStringLiteral splits a leading string literal off s.
func jqCutStringLiteral(s string) (lit, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", "", false
	}
	depth := 0
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && s[i+1] == '(' {
				depth++
				i++
				continue
			}
			i++
		case ')':
			if depth > 0 {
				depth--
			}
		case '"':
			if depth == 0 {
				return s[:i+1], s[i+1:], true
			}
		}
	}
	return "", "", false
}

// jqDirectiveEnd returns the index of the ';' that ends a directive.
func jqDirectiveEnd(s string) int {
	depth, inStr := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ';' && depth == 0:
			return i
		}
	}
	return -1
}
