package shellrt

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The params of a call: the tool's flags, typed by its input schema.

// schema is the part of a tool's JSON Schema the tool command reads.
type schema struct {
	Type       string             `json:"type"`
	Properties map[string]*schema `json:"properties"`
	Required   []string           `json:"required"`
	Items      *schema            `json:"items"`
	Enum       []any              `json:"enum"`
	Desc       string             `json:"description"`
	Default    any                `json:"default"`
}

// parseSchema reads a tool's input schema; one it cannot read is empty,
// and types nothing.
func parseSchema(b []byte) *schema {
	s := &schema{}
	if len(b) > 0 {
		_ = json.Unmarshal(b, s) // a schema we cannot read types nothing
	}
	return s
}

// buildParams turns --key value flags into a JSON object, typing each
// value by the schema: numbers, integers, booleans, arrays (a JSON array,
// a comma-separated list, or the flag repeated) and objects (JSON) are
// converted; everything else, and keys the schema does not know, are
// strings. --json gives a whole object; later flags override its keys.
func buildParams(s *schema, args []string) ([]byte, error) {
	params := map[string]any{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") || len(a) == 2 {
			return nil, fmt.Errorf("unexpected argument %q (params are given as --NAME VALUE)", a)
		}
		key, val, hasVal := strings.Cut(a[2:], "=")
		prop := s.Properties[key]
		if key == "json" && prop == nil {
			if !hasVal {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("--json needs a JSON object")
				}
				i++
				val = args[i]
			}
			var obj map[string]any
			d := json.NewDecoder(strings.NewReader(val))
			d.UseNumber()
			if err := d.Decode(&obj); err != nil || obj == nil {
				return nil, fmt.Errorf("--json: not a JSON object: %s", oneLine(val))
			}
			for k, v := range obj {
				params[k] = v
			}
			continue
		}
		if !hasVal {
			if prop != nil && prop.Type == "boolean" && (i+1 >= len(args) || strings.HasPrefix(args[i+1], "--")) {
				params[key] = true
				continue
			}
			if i+1 >= len(args) {
				return nil, fmt.Errorf("--%s needs a value", key)
			}
			i++
			val = args[i]
		}
		v, err := typed(prop, val)
		if err != nil {
			return nil, fmt.Errorf("--%s: %v", key, err)
		}
		if prop != nil && prop.Type == "array" {
			if prev, ok := params[key].([]any); ok && !strings.HasPrefix(strings.TrimSpace(val), "[") {
				v = append(prev, v.([]any)...)
			}
		}
		params[key] = v
	}
	var missing []string
	for _, r := range s.Required {
		if _, ok := params[r]; !ok {
			missing = append(missing, "--"+r)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing required parameter %s (tool --help shows the flags)", strings.Join(missing, ", "))
	}
	return json.Marshal(params)
}

// oneLine shortens s to one line of at most 60 bytes for a message.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// typed converts a flag's value to the type its schema s gives it; with
// no schema the value stays a string.
func typed(s *schema, val string) (any, error) {
	if s == nil {
		return val, nil
	}
	switch s.Type {
	case "number":
		f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", val)
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	case "integer":
		n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", val)
		}
		return n, nil
	case "boolean":
		switch strings.ToLower(val) {
		case "true", "1", "yes":
			return true, nil
		case "false", "0", "no":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not a boolean (true or false)", val)
	case "array":
		if t := strings.TrimSpace(val); strings.HasPrefix(t, "[") {
			var arr []any
			d := json.NewDecoder(strings.NewReader(t))
			d.UseNumber()
			if err := d.Decode(&arr); err != nil {
				return nil, fmt.Errorf("not a JSON array: %s", oneLine(val))
			}
			return arr, nil
		}
		var out []any
		for _, part := range strings.Split(val, ",") {
			v, err := typed(s.Items, part)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case "object":
		var obj map[string]any
		d := json.NewDecoder(strings.NewReader(val))
		d.UseNumber()
		if err := d.Decode(&obj); err != nil || obj == nil {
			return nil, fmt.Errorf("not a JSON object: %s", oneLine(val))
		}
		return obj, nil
	}
	return val, nil
}
