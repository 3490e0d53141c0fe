package shellrt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/shell/command"
)

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

func parseSchema(b []byte) *schema {
	s := &schema{}
	if len(b) > 0 {
		_ = json.Unmarshal(b, s) // a schema we cannot read types nothing
	}
	return s
}

// toolCommand is the shell's `tool` command: it calls a host tool through
// the same policy, counters and audit as JavaScript does.
type toolCommand struct {
	tools []abi.ToolInfo
	hub   *hub.Hub
}

const toolUsage = `Usage: tool NAME [--PARAM VALUE]... [--json '{...}']
       tool --list [PREFIX]
       tool --help NAME
`

// find returns the tool that name names: its registered name, its dotted
// form or its flat alias, as getToolInfo accepts them (abi.LookupTool).
func (t *toolCommand) find(name string) (abi.ToolInfo, bool) {
	return abi.LookupTool(t.tools, name)
}

// maxListed is how many tools of a namespace the message for an unknown
// tool lists.
const maxListed = 5

// unknown fails for a name that names no tool, with the form of a tool's
// name that name is a typo of, if there is one; else with the tools of the
// longest namespace of name that has some (a namespace given as a name,
// or a member of it close to no tool), as JavaScript's error for a missing
// member of a tool namespace lists them.
func (t *toolCommand) unknown(env *command.Env, name string) int {
	if best, ok := abi.SuggestTool(t.tools, name); ok {
		return env.Errorf(2, "unknown tool %q; did you mean %s?", name, best)
	}
	segs := abi.ToolPath(name)
	for n := len(segs); n > 0; n-- {
		under := abi.ToolsUnder(t.tools, segs[:n])
		if len(under) == 0 {
			continue
		}
		ns := strings.Join(segs[:n], ".")
		if len(under) > maxListed {
			return env.Errorf(2, "unknown tool %q; the tools under %s include %s (tool --list %s lists all %d)", name, ns, strings.Join(under[:maxListed], ", "), ns, len(under))
		}
		return env.Errorf(2, "unknown tool %q; the tools under %s are %s", name, ns, strings.Join(under, ", "))
	}
	return env.Errorf(2, "unknown tool %q (tool --list shows the tools)", name)
}

func (t *toolCommand) run(env *command.Env) int {
	args := env.Args[1:]
	if len(args) == 0 {
		io.WriteString(env.Stderr, toolUsage)
		return 2
	}
	switch args[0] {
	case "--list", "-l":
		if len(args) > 2 {
			return env.Errorf(2, "--list takes at most one prefix")
		}
		prefix := ""
		if len(args) == 2 {
			prefix = args[1]
		}
		t.list(env.Stdout, prefix)
		return 0
	case "--help", "-h":
		if len(args) != 2 {
			io.WriteString(env.Stdout, toolUsage)
			return 0
		}
		ti, ok := t.find(args[1])
		if !ok {
			return t.unknown(env, args[1])
		}
		t.help(env.Stdout, ti)
		return 0
	}
	if strings.HasPrefix(args[0], "-") {
		return env.Errorf(2, "expected a tool name before %s\n%s", args[0], strings.TrimSuffix(toolUsage, "\n"))
	}
	ti, ok := t.find(args[0])
	if !ok {
		return t.unknown(env, args[0])
	}
	params, err := buildParams(parseSchema(ti.Schema), args[1:])
	if err != nil {
		return env.Errorf(2, "%s: %v", ti.Name, err)
	}
	if err := env.Ctx.Err(); err != nil {
		return 130
	}
	res, err := t.hub.Call(abi.LangShell, ti.Name, params)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tool: %s: %v\n", ti.Name, err)
		return 130
	}
	if !res.OK {
		fmt.Fprintf(env.Stderr, "tool: %s\n", res.ErrMsg)
		for _, r := range res.Reasons {
			if !strings.Contains(res.ErrMsg, r) {
				fmt.Fprintf(env.Stderr, "tool:   %s\n", r)
			}
		}
		return 1
	}
	out := bytes.TrimSpace(res.Value)
	if _, err := env.Stdout.Write(append(out, '\n')); err != nil {
		return 1
	}
	return 0
}

func (t *toolCommand) list(w io.Writer, prefix string) {
	names := make([]string, 0, len(t.tools))
	byName := map[string]abi.ToolInfo{}
	for _, ti := range t.tools {
		if abi.ToolHasPrefix(ti.Name, prefix) {
			names = append(names, ti.Name)
			byName[ti.Name] = ti
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if d := firstLine(byName[n].Description); d != "" {
			fmt.Fprintf(w, "%s\t%s\n", n, d)
		} else {
			fmt.Fprintln(w, n)
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func (t *toolCommand) help(w io.Writer, ti abi.ToolInfo) {
	s := parseSchema(ti.Schema)
	fmt.Fprintf(w, "Usage: tool %s", ti.Name)
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if req[names[i]] != req[names[j]] {
			return req[names[i]]
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		if req[n] {
			fmt.Fprintf(w, " --%s %s", n, typeName(s.Properties[n]))
		}
	}
	if len(names) > len(s.Required) {
		fmt.Fprint(w, " [flags]")
	}
	fmt.Fprintln(w)
	if d := strings.TrimSpace(ti.Description); d != "" {
		fmt.Fprintf(w, "\n  %s\n", strings.ReplaceAll(d, "\n", "\n  "))
	}
	fmt.Fprintf(w, "\nIn JavaScript: %s\n", jsForms(ti.Name))
	if len(ti.OutputSchema) > 0 {
		fmt.Fprintf(w, "Returns: %s\n", outputSummary(ti.OutputSchema))
	}
	if len(names) > 0 {
		fmt.Fprintln(w, "\nFlags:")
	}
	for _, n := range names {
		p := s.Properties[n]
		line := fmt.Sprintf("  --%s %s", n, typeName(p))
		if req[n] {
			line += " (required)"
		}
		if p.Desc != "" {
			line += "  " + firstLine(p.Desc)
		}
		if len(p.Enum) > 0 {
			var vs []string
			for _, e := range p.Enum {
				b, _ := json.Marshal(e)
				vs = append(vs, string(b))
			}
			line += "  one of: " + strings.Join(vs, ", ")
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, "  --json '{...}'  all params as one JSON object (flags given after it override its keys)")
}

func typeName(s *schema) string {
	if s == nil || s.Type == "" {
		return "value"
	}
	if s.Type == "array" && s.Items != nil && s.Items.Type != "" {
		return s.Items.Type + "[]"
	}
	return s.Type
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

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

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

// jsForms returns how JavaScript calls the tool name: by its path, when its
// segments are identifiers, and by its flat alias.
func jsForms(name string) string {
	flat := abi.FlatName(name) + "(...)"
	dotted := abi.DottedName(name)
	for _, seg := range abi.ToolPath(name) {
		if seg[0] >= '0' && seg[0] <= '9' || strings.ContainsAny(seg, "-:") {
			return flat
		}
	}
	if dotted+"(...)" == flat {
		return flat
	}
	return dotted + "(...) or " + flat
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
