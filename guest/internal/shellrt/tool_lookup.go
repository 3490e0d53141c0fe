package shellrt

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/shell/command"
)

// Finding tools: by name, the message for a name that names none, and
// tool --list.

// findTool returns the tool of tools that name names: its registered name, its dotted
// form or its flat alias, as getToolInfo accepts them (abi.LookupTool).
func findTool(tools []abi.ToolInfo, name string) (abi.ToolInfo, bool) {
	return abi.LookupTool(tools, name)
}

// maxListed is how many tools of a namespace the message for an unknown
// tool lists.
const maxListed = 5

// unknownTool fails for a name that names no tool, with the form of a tool's
// name that name is a typo of, if there is one; else with the tools of the
// longest namespace of name that has some (a namespace given as a name,
// or a member of it close to no tool), as JavaScript's error for a missing
// member of a tool namespace lists them.
func unknownTool(env *command.Env, tools []abi.ToolInfo, name string) int {
	if best, ok := abi.SuggestTool(tools, name); ok {
		return env.Errorf(2, "unknown tool %q; did you mean %s?", name, best)
	}
	segs := abi.ToolPath(name)
	for n := len(segs); n > 0; n-- {
		under := abi.ToolsUnder(tools, segs[:n])
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

// listTools prints the tools of tools whose names start with prefix, in name order,
// each with the first line of its description.
func listTools(w io.Writer, tools []abi.ToolInfo, prefix string) {
	names := make([]string, 0, len(tools))
	byName := map[string]abi.ToolInfo{}
	for _, ti := range tools {
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
