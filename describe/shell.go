package describe

import (
	"strings"
)

// shellUsage is `tool NAME --flag <type> [--optional <type>]`, the flags
// typed as the shell's tool command types them (guest/internal/shellrt): required
// ones first, each group in the schema's order.
func shellUsage(e *entry) string {
	var b strings.Builder
	b.WriteString("tool " + e.Name)
	if e.in == nil {
		b.WriteString(" [--PARAM VALUE ...]")
		return b.String()
	}
	props, required := shellProps(e.in, e.in.root, 0)
	if len(props.keys) == 0 {
		return b.String()
	}
	var opt strings.Builder
	for _, k := range props.keys {
		p, _ := props.vals[k].(*object)
		if p != nil && p.str("$ref") != "" {
			if ptr, ok := e.in.pointer(p.str("$ref")); ok {
				if t, ok := e.in.resolve(ptr); ok {
					if to, ok := t.(*object); ok {
						p = to
					}
				}
			}
		}
		flag := " " + shellQuote("--"+k)
		typ := flagType(p)
		if required[k] {
			if typ == "" {
				typ = "true|false"
			}
			b.WriteString(flag + " " + typ)
			continue
		}
		if typ == "" {
			opt.WriteString(" [" + flag[1:] + "]")
		} else {
			opt.WriteString(" [" + flag[1:] + " " + typ + "]")
		}
	}
	b.WriteString(opt.String())
	return b.String()
}

// shellProps returns a params schema's properties and required names,
// those of its allOf members and its $ref included.
func shellProps(d *schemaDoc, s any, depth int) (*object, map[string]bool) {
	props := &object{vals: map[string]any{}}
	required := map[string]bool{}
	var walk func(s any, depth int)
	walk = func(s any, depth int) {
		o, ok := s.(*object)
		if !ok || depth > 8 {
			return
		}
		if ref := o.str("$ref"); ref != "" {
			if p, ok := d.pointer(ref); ok {
				if t, ok := d.resolve(p); ok {
					walk(t, depth+1)
				}
			}
		}
		if ps := o.obj("properties"); ps != nil {
			for _, k := range ps.keys {
				if !props.has(k) {
					props.keys = append(props.keys, k)
				}
				props.vals[k] = ps.vals[k]
			}
		}
		for _, r := range o.list("required") {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
		for _, sub := range o.list("allOf") {
			walk(sub, depth+1)
		}
	}
	walk(s, depth)
	return props, required
}

// flagType is a flag's value as the usage line shows it: <string>,
// <integer>, <date-time> (a string's format), a|b for an enum, <string,...>
// for an array of scalars, <json> for objects and other arrays, and "" for
// a boolean (the flag alone is true).
func flagType(p *object) string {
	if p == nil {
		return "<value>"
	}
	if enum := p.list("enum"); len(enum) > 0 {
		vs := make([]string, len(enum))
		for i, v := range enum {
			if s, ok := v.(string); ok && plainWord(s) {
				vs[i] = s
			} else {
				vs[i] = jsonText(v)
			}
		}
		return strings.Join(vs, "|")
	}
	if p.has("const") {
		return jsonText(p.get("const"))
	}
	types := schemaTypes(p)
	var t string
	for _, x := range types {
		if x != "null" {
			t = x
			break
		}
	}
	switch t {
	case "boolean":
		return ""
	case "string":
		if f := p.str("format"); f != "" {
			return "<" + safeLine(f) + ">"
		}
		return "<string>"
	case "number", "integer":
		return "<" + t + ">"
	case "array":
		if items := p.obj("items"); items != nil {
			it := schemaTypes(items)
			if len(it) == 1 && (it[0] == "string" || it[0] == "number" || it[0] == "integer") {
				return "<" + it[0] + ",...>"
			}
		}
		return "<json>"
	case "object":
		return "<json>"
	}
	return "<value>"
}
