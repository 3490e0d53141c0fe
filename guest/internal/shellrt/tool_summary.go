package shellrt

import (
	"encoding/json"
	"sort"
	"strings"
)

// One-line summaries of schemas and descriptions, for --list and --help.

// firstLine returns the first line of s, trimmed.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// outputSummary describes a tool's output schema on one line, in the
// notation of TypeScript's types: {id: string, tags?: string[]} (with "?"
// on the properties a "required" list leaves out), "a"|"b" for an enum,
// A | B for anyOf and oneOf, and the schema's description after two
// spaces. Objects nested deeper than three levels show as "object", and
// an object shows at most a dozen properties. A schema that is not JSON
// shows as "(unreadable schema)".
func outputSummary(b []byte) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "(unreadable schema)"
	}
	s := summarize(v, 0)
	if m, ok := v.(map[string]any); ok {
		if d, ok := m["description"].(string); ok && firstLine(d) != "" {
			s += "  " + firstLine(d)
		}
	}
	return s
}

// summarize describes the JSON Schema v at nesting depth.
func summarize(v any, depth int) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "value"
	}
	if enum, ok := m["enum"].([]any); ok && len(enum) > 0 {
		vs := make([]string, len(enum))
		for i, e := range enum {
			b, _ := json.Marshal(e)
			vs[i] = string(b)
		}
		return strings.Join(vs, "|")
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := m[k].([]any); ok && len(alts) > 0 {
			vs := make([]string, len(alts))
			for i, a := range alts {
				vs[i] = summarize(a, depth+1)
			}
			return strings.Join(vs, " | ")
		}
	}
	if ref, ok := m["$ref"].(string); ok {
		return ref[strings.LastIndexByte(ref, '/')+1:]
	}
	var types []string
	switch ty := m["type"].(type) {
	case string:
		types = []string{ty}
	case []any:
		for _, x := range ty {
			if s, ok := x.(string); ok {
				types = append(types, s)
			}
		}
	}
	props, hasProps := m["properties"].(map[string]any)
	if len(types) == 0 {
		if !hasProps {
			return "value"
		}
		types = []string{"object"}
	}
	for i, ty := range types {
		switch ty {
		case "object":
			if hasProps && len(props) > 0 && depth < 3 {
				types[i] = summarizeObject(m, props, depth)
			}
		case "array":
			if items, ok := m["items"].(map[string]any); ok && depth < 3 {
				s := summarize(items, depth+1)
				if strings.Contains(s, "|") && !strings.HasPrefix(s, "{") {
					s = "(" + s + ")"
				}
				types[i] = s + "[]"
			}
		}
	}
	return strings.Join(types, "|")
}

// summarizeObject describes an object schema's properties, in name order.
func summarizeObject(m, props map[string]any, depth int) string {
	required := map[string]bool{}
	reqList, _ := m["required"].([]any)
	for _, r := range reqList {
		if s, ok := r.(string); ok {
			required[s] = true
		}
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	const maxProps = 12
	parts := make([]string, 0, min(len(names), maxProps)+1)
	for i, n := range names {
		if i == maxProps {
			parts = append(parts, "...")
			break
		}
		opt := ""
		if len(reqList) > 0 && !required[n] {
			opt = "?"
		}
		parts = append(parts, n+opt+": "+summarize(props[n], depth+1))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
