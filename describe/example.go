package describe

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/internal/dslutil"
)

// pickExample returns the tool to show an example call of: the first that
// has a required param and that the policy does not deny, else the first
// that the policy does not deny.
func pickExample(es []*entry) *entry {
	var first *entry
	for _, e := range es {
		if e.denied() {
			continue
		}
		if first == nil {
			first = e
		}
		if e.in != nil && requiresParams(e.in, e.in.root, 0) {
			return e
		}
	}
	return first
}

// exampleParams returns plausible params for the tool: its required
// params, filled from the schema (the first enum member, const, default,
// an example, a value of the format, or a placeholder "<name>"), then set
// so that the constraints of the first capability that matches the tool
// hold where they say a value (==, in, bounds, prefixes).
func exampleParams(e *entry, caps []*dsl.Capability) *object {
	params := &object{vals: map[string]any{}}
	if e.in != nil {
		if o, ok := exampleValue(e.in, e.in.root, "params", 0).(*object); ok {
			params = o
		}
	}
	for _, c := range caps {
		if c == nil || c.Validate() != nil {
			continue
		}
		if ok, err := dsl.MatchMethod(c.Pattern(), e.Name); err != nil || !ok {
			continue
		}
		for _, k := range c.Constraints() {
			satisfy(params, k)
		}
		break
	}
	return params
}

// exampleValue returns a plausible value of a schema.
func exampleValue(d *schemaDoc, s any, name string, depth int) any {
	o, ok := s.(*object)
	if !ok || depth > 12 {
		return nil
	}
	if ref := o.str("$ref"); ref != "" {
		if p, ok := d.pointer(ref); ok {
			if t, ok := d.resolve(p); ok {
				return exampleValue(d, t, name, depth+1)
			}
		}
	}
	switch {
	case o.has("const"):
		return o.get("const")
	case len(o.list("enum")) > 0:
		for _, v := range o.list("enum") {
			if v != nil {
				return v
			}
		}
	case len(o.list("examples")) > 0:
		return o.list("examples")[0]
	case o.has("example"):
		return o.get("example")
	case o.has("default") && o.get("default") != nil:
		return o.get("default")
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		for _, alt := range o.list(k) {
			if v := exampleValue(d, alt, name, depth+1); v != nil {
				return v
			}
		}
	}
	types := schemaTypes(o)
	t := ""
	for _, x := range types {
		if x != "null" {
			t = x
			break
		}
	}
	if t == "" && len(o.list("allOf")) > 0 {
		t = "object"
	}
	switch t {
	case "string":
		return exampleString(o, name)
	case "number", "integer":
		return exampleNumber(o, t == "integer")
	case "boolean":
		return true
	case "array":
		items := o.get("items")
		if l, ok := items.([]any); ok && len(l) > 0 {
			items = l[0]
		}
		if pi := o.list("prefixItems"); len(pi) > 0 {
			items = pi[0]
		}
		if v := exampleValue(d, items, strings.TrimSuffix(name, "s"), depth+1); v != nil {
			return []any{v}
		}
		return []any{}
	case "object":
		out := &object{vals: map[string]any{}}
		fill := func(o *object) {
			props := o.obj("properties")
			for _, r := range o.list("required") {
				k, ok := r.(string)
				if !ok || out.has(k) {
					continue
				}
				v := exampleValue(d, props.get(k), k, depth+1)
				if v == nil {
					v = "<" + k + ">"
				}
				out.keys = append(out.keys, k)
				out.vals[k] = v
			}
		}
		fill(o)
		for _, sub := range o.list("allOf") {
			if so, ok := exampleValue(d, sub, name, depth+1).(*object); ok {
				for _, k := range so.keys {
					if !out.has(k) {
						out.keys = append(out.keys, k)
						out.vals[k] = so.vals[k]
					}
				}
			}
		}
		return out
	}
	return nil
}

// formatExamples are values of the common string formats.
var formatExamples = map[string]string{
	"date-time": "2026-01-01T00:00:00Z",
	"date":      "2026-01-01",
	"time":      "12:00:00Z",
	"email":     "user@example.com",
	"uri":       "https://example.com/",
	"url":       "https://example.com/",
	"hostname":  "example.com",
	"uuid":      "123e4567-e89b-12d3-a456-426614174000",
	"ipv4":      "192.0.2.1",
	"ipv6":      "2001:db8::1",
}

func exampleString(o *object, name string) string {
	if v, ok := formatExamples[o.str("format")]; ok {
		return v
	}
	return "<" + name + ">"
}

func exampleNumber(o *object, integer bool) json.Number {
	v := 1.0
	num := func(k string) (float64, bool) {
		n, ok := o.get(k).(json.Number)
		if !ok {
			return 0, false
		}
		f, err := n.Float64()
		return f, err == nil
	}
	if lo, ok := num("minimum"); ok && v < lo {
		v = lo
	}
	if lo, ok := num("exclusiveMinimum"); ok && v <= lo {
		v = lo + 1
	}
	if hi, ok := num("maximum"); ok && v > hi {
		v = hi
	}
	if hi, ok := num("exclusiveMaximum"); ok && v >= hi {
		v = hi - 1
	}
	if integer {
		v = math.Ceil(v)
	}
	return json.Number(strconv.FormatFloat(v, 'f', -1, 64))
}

// satisfy sets the param a constraint reads so that the constraint holds,
// where it says a value: == and in set it, the bounds move it within them,
// starts_with and ends_with make it the affix, exists fills it.
func satisfy(params *object, k dsl.Constraint) {
	if k.Op.IsGroup() {
		if k.Op == dsl.OpAllOf {
			for _, m := range k.Members {
				satisfy(params, m)
			}
		} else if len(k.Members) > 0 {
			satisfy(params, k.Members[0])
		}
		return
	}
	segs, err := dslutil.SplitParam(k.Param)
	if err != nil {
		return
	}
	parent := params
	for _, s := range segs[:len(segs)-1] {
		key, ok := s.(string)
		if !ok {
			return // array indexes are left alone
		}
		next, ok := parent.get(key).(*object)
		if !ok {
			if parent.has(key) {
				return
			}
			next = &object{vals: map[string]any{}}
			parent.keys = append(parent.keys, key)
			parent.vals[key] = next
		}
		parent = next
	}
	key, ok := segs[len(segs)-1].(string)
	if !ok {
		return
	}
	cur, has := parent.vals[key]
	set := func(v any) {
		if !has {
			parent.keys = append(parent.keys, key)
		}
		parent.vals[key] = v
	}
	switch k.Op {
	case dsl.OpEq:
		set(k.Value)
	case dsl.OpIn:
		if list, ok := k.Value.([]any); ok && len(list) > 0 {
			for _, v := range list {
				if jsonText(v) == jsonText(cur) {
					return
				}
			}
			set(list[0])
		}
	case dsl.OpStartsWith:
		affix, _ := k.Value.(string)
		if c, ok := cur.(string); !ok || !strings.HasPrefix(c, affix) {
			set(affix)
		}
	case dsl.OpEndsWith:
		affix, _ := k.Value.(string)
		if c, ok := cur.(string); !ok || !strings.HasSuffix(c, affix) {
			set(affix)
		}
	case dsl.OpExists:
		if !has {
			set("<" + key + ">")
		}
	case dsl.OpLt, dsl.OpLe, dsl.OpGt, dsl.OpGe:
		bound, ok := k.Value.(json.Number)
		if !ok {
			// A string bound: the bound itself is at most and at least itself.
			if b, isStr := k.Value.(string); isStr && (k.Op == dsl.OpLe || k.Op == dsl.OpGe) {
				c, isStr := cur.(string)
				if !isStr || k.Op == dsl.OpLe && c > b || k.Op == dsl.OpGe && c < b {
					set(b)
				}
			}
			return
		}
		b, err := bound.Float64()
		if err != nil {
			return
		}
		v := b
		if n, ok := cur.(json.Number); ok {
			if f, err := n.Float64(); err == nil {
				v = f
			}
		}
		switch {
		case k.Op == dsl.OpLe && v > b, k.Op == dsl.OpGe && v < b:
			v = b
		case k.Op == dsl.OpLt && v >= b:
			v = b - 1
		case k.Op == dsl.OpGt && v <= b:
			v = b + 1
		}
		set(json.Number(strconv.FormatFloat(v, 'f', -1, 64)))
	}
}

// exampleJS is the example script: one call, its result returned.
func exampleJS(e *entry, params *object) string {
	arg := jsLiteral(params, 0)
	if arg == "{}" {
		arg = ""
	}
	return "const result = await " + e.jsName() + "(" + arg + ");\nreturn result; // printed as JSON\n"
}

// jsLiteral writes a value as a JavaScript literal: keys bare when they
// are identifiers, on one line when it is short.
func jsLiteral(v any, ind int) string {
	switch x := v.(type) {
	case *object:
		if len(x.keys) == 0 {
			return "{}"
		}
		parts := make([]string, len(x.keys))
		width := 4
		for i, k := range x.keys {
			parts[i] = propName(k) + ": " + jsLiteral(x.vals[k], ind+1)
			width += len(parts[i]) + 2
		}
		if width+2*ind <= 72 && !strings.Contains(strings.Join(parts, ""), "\n") {
			return "{ " + strings.Join(parts, ", ") + " }"
		}
		pad := strings.Repeat("  ", ind+1)
		return "{\n" + pad + strings.Join(parts, ",\n"+pad) + ",\n" + strings.Repeat("  ", ind) + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = jsLiteral(e, ind)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return jsonText(v)
}

// exampleShell is the example as a shell command line, its result piped
// to jq.
func exampleShell(e *entry, params *object) string {
	var b strings.Builder
	b.WriteString("tool " + e.Name)
	for _, k := range params.keys {
		v := params.vals[k]
		switch x := v.(type) {
		case string:
			b.WriteString(" " + shellQuote("--"+k) + " " + shellQuote(x))
		case json.Number, bool:
			b.WriteString(" " + shellQuote("--"+k) + " " + jsonText(x))
		case []any:
			scalar := true
			parts := make([]string, len(x))
			for i, el := range x {
				switch el := el.(type) {
				case string:
					parts[i] = el
					scalar = scalar && !strings.Contains(el, ",")
				case json.Number:
					parts[i] = el.String()
				default:
					scalar = false
				}
			}
			if scalar && len(x) > 0 {
				b.WriteString(" " + shellQuote("--"+k) + " " + shellQuote(strings.Join(parts, ",")))
			} else {
				b.WriteString(" " + shellQuote("--"+k) + " " + shellQuote(jsonText(x)))
			}
		default:
			b.WriteString(" " + shellQuote("--"+k) + " " + shellQuote(jsonText(x)))
		}
	}
	b.WriteString(" | jq .\n")
	return b.String()
}

// shellQuote quotes a word for the shell when it needs it: in single
// quotes, or, when it holds a line break, a tab, a character SafeText
// escapes, bytes that are not UTF-8 or a run of backticks (a word from an
// upstream server's schema may), in $'...' with those escaped, so that the
// word stays on its line and hides nothing.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@,+=", r))
	}) < 0 {
		return s
	}
	if strings.ContainsAny(s, "\n\t") || strings.Contains(s, "```") || SafeText(s) != s {
		return ansiQuote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ansiQuote writes s as a $'...' word of the shell, with line breaks,
// tabs, backslashes, quotes, backticks, bytes that are not UTF-8 and the
// characters SafeText escapes written as escapes.
func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\\' || r == '\'':
			b.WriteString(`\` + string(r))
		case r == '`':
			b.WriteString(`\x60`)
		case r > 0xffff && unsafeRune(r):
			fmt.Fprintf(&b, `\U%08x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteString("'")
	return b.String()
}
