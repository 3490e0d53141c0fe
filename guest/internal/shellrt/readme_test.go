package shellrt

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell"
)

// readmeLists returns the names in backticks of the two lists in
// docs/shell.md's section "Builtins and commands": the paragraph of
// builtins ("Builtins, ...", split at "Of these," into all of them and the
// unsupported ones) and the paragraph of commands ("Commands, ...").
func readmeLists(t *testing.T) (builtins, unsupported, cmds []string) {
	t.Helper()
	data, err := os.ReadFile("../../../docs/shell.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n## Builtins and commands\n")
	if !ok {
		t.Fatal(`docs/shell.md has no section "Builtins and commands"`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	names := func(s string) []string {
		var out []string
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		return out
	}
	var sawB, sawC bool
	for _, para := range strings.Split(sec, "\n\n") {
		switch {
		case strings.HasPrefix(para, "Builtins, "):
			all, rest, ok := strings.Cut(para, "Of these,")
			if !ok {
				t.Fatal(`docs/shell.md's builtins paragraph has no "Of these," sentence`)
			}
			builtins, unsupported, sawB = names(all), names(rest), true
		case strings.HasPrefix(para, "Commands, "):
			cmds, sawC = names(para), true
		}
	}
	if !sawB || !sawC {
		t.Fatal(`docs/shell.md's section lacks the paragraph "Builtins, ..." or "Commands, ..."`)
	}
	return builtins, unsupported, cmds
}

// diffNames reports the names of got that want lacks and those of want that got
// lacks, and the names got holds twice.
func diffNames(t *testing.T, what string, got, want []string) {
	t.Helper()
	in := map[string]bool{}
	for _, n := range want {
		in[n] = true
	}
	seen := map[string]bool{}
	for _, n := range got {
		if seen[n] {
			t.Errorf("docs/shell.md lists %s %q twice", what, n)
		}
		seen[n] = true
		if !in[n] {
			t.Errorf("docs/shell.md lists %s %q, which the code does not have", what, n)
		}
	}
	for _, n := range want {
		if !seen[n] {
			t.Errorf("docs/shell.md does not list %s %q", what, n)
		}
	}
}

// TestREADMECommands holds docs/shell.md's lists to the code: its builtins
// are package shell's, and its commands are the runtime's registry
// (commands.All with tool, node and js) with sh and bash, which the shell
// runs itself; nothing is missing or extra on either side.
func TestREADMECommands(t *testing.T) {
	builtins, unsupported, cmds := readmeLists(t)
	diffNames(t, "the builtin", builtins, shell.Builtins())
	var want []string
	for name := range (&runtime{}).registry() {
		want = append(want, name)
	}
	want = append(want, "sh", "bash")
	sort.Strings(want)
	diffNames(t, "the command", cmds, want)

	// sh and bash are commands here, and the unsupported builtins say so.
	h, out := runSh(t, `sh -c 'exit 3'; echo $?; bash -c 'exit 4'; echo $?`)
	if got := h.Stdout(); got != "3\n4\n" || out.ExitCode != 0 {
		t.Errorf("sh and bash: %q, status %d", got, out.ExitCode)
	}
	for _, name := range unsupported {
		t.Run(name, func(t *testing.T) {
			script := name
			if name == "coproc" {
				script = "coproc cat" // a keyword: alone it is a syntax error
			}
			h, out := runSh(t, script)
			if out.ExitCode == 0 || !strings.Contains(h.Stderr(), "not supported") {
				t.Errorf("%s: status %d, stderr %q; want a failure saying it is not supported", name, out.ExitCode, h.Stderr())
			}
		})
	}
}
