package shellrt

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/cordonhq/cordon/internal/abi"
)

// tool --help NAME: the usage of one tool, from its schemas.

// printHelp prints the usage of the tool ti: its flags from the input schema,
// its description, its JavaScript forms and a summary of its output.
func printHelp(w io.Writer, ti abi.ToolInfo) {
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

// typeName names the type of a flag in the usage.
func typeName(s *schema) string {
	if s == nil || s.Type == "" {
		return "value"
	}
	if s.Type == "array" && s.Items != nil && s.Items.Type != "" {
		return s.Items.Type + "[]"
	}
	return s.Type
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
