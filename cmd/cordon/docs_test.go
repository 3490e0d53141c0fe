package main

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/engine"
)

// cliDoc returns docs/cli.md.
func cliDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docSection returns the part of doc under "## title", up to the next
// heading of that level.
func docSection(t *testing.T, doc, title string) string {
	t.Helper()
	_, s, ok := strings.Cut(doc, "\n## "+title+"\n")
	if !ok {
		t.Fatalf("docs/cli.md has no section %q", title)
	}
	s, _, _ = strings.Cut(s, "\n## ")
	return s
}

// listed returns the commands the code names in its error for an unknown
// one: "unknown command "x" (commands: run, mcp, ...)".
func listed(t *testing.T, args ...string) []string {
	t.Helper()
	_, _, stderr := cli(t, "", args...)
	_, list, ok := strings.Cut(stderr, "(")
	if !ok {
		t.Fatalf("%q: %q names no commands", args, stderr)
	}
	list, _, _ = strings.Cut(list, ")")
	list = strings.TrimPrefix(list, "commands: ")
	return strings.Split(list, ", ")
}

var (
	usageLine = regexp.MustCompile(`^cordon ((?:[a-z]+ ?)+)`)
	flagName  = regexp.MustCompile(`(?:^|[\s,])(--?[a-z][a-z-]*)`)
	colGap    = regexp.MustCompile(`\S {2,}\S`)
)

// documentedFlags returns the flags of each command in a section's flag
// tables: the indented lines that start with a flag, after a line
// "cordon COMMAND ..." of the same block, each line's flags being those of
// its left column (before a gap of two spaces or more).
func documentedFlags(section string) map[string][]string {
	out := map[string][]string{}
	cmd := ""
	for _, l := range strings.Split(section, "\n") {
		if !strings.HasPrefix(l, "    ") {
			cmd = ""
			continue
		}
		s := strings.TrimSpace(l)
		if m := usageLine.FindStringSubmatch(s); m != nil {
			cmd = strings.TrimSpace(m[1])
			if _, ok := out[cmd]; !ok {
				out[cmd] = []string{}
			}
			continue
		}
		if cmd == "" || !strings.HasPrefix(s, "-") {
			continue
		}
		left := s
		if loc := colGap.FindStringIndex(s); loc != nil {
			left = s[:loc[0]+1]
		}
		for _, m := range flagName.FindAllStringSubmatch(left, -1) {
			out[cmd] = append(out[cmd], m[1])
		}
	}
	return out
}

// docsSection is the section of docs/cli.md for each command.
var docsSection = map[string]string{
	"run":        "cordon run",
	"mcp":        "cordon mcp",
	"describe":   "cordon describe",
	"precompile": "cordon precompile",
	"version":    "cordon version and cordon help",
	"policy":     "cordon policy",
	"replay":     "cordon replay",
}

// Every command and subcommand of the code has its section in
// docs/cli.md, and the section's flag table lists exactly the flags the
// command defines: each command runs with --help here, which defines its
// flags and returns before doing anything, and its flag set is read.
func TestCLIDocsListEveryFlag(t *testing.T) {
	doc := cliDoc(t)
	commands := docSection(t, doc, "Commands")
	var cmds [][]string
	for _, c := range listed(t, "frobnicate") {
		if !strings.Contains(commands, "cordon "+c) {
			t.Errorf("docs/cli.md, \"Commands\", does not name `cordon %s`", c)
		}
		switch c {
		case "help":
		case "policy":
			for _, sub := range listed(t, "policy", "frobnicate") {
				cmds = append(cmds, []string{"policy", sub})
			}
		default:
			cmds = append(cmds, []string{c})
		}
	}
	if len(cmds) < 9 {
		t.Fatalf("the code names %d commands: %q", len(cmds), cmds)
	}
	for _, cmd := range cmds {
		name := strings.Join(cmd, " ")
		var sets []*flag.FlagSet
		onFlagSet = func(fs *flag.FlagSet) { sets = append(sets, fs) }
		code, _, stderr := cli(t, "", append(cmd, "--help")...)
		onFlagSet = nil
		if code != 0 || len(sets) != 1 {
			t.Errorf("%s --help: exit %d, %d flag sets, stderr %q", name, code, len(sets), stderr)
			continue
		}
		var defined []string
		sets[0].VisitAll(func(f *flag.Flag) {
			if len(f.Name) == 1 {
				defined = append(defined, "-"+f.Name)
			} else {
				defined = append(defined, "--"+f.Name)
			}
		})
		title, ok := docsSection[cmd[0]]
		if !ok {
			t.Errorf("docs/cli.md: no section is known for `cordon %s`; add one, and its name here", name)
			continue
		}
		tables := documentedFlags(docSection(t, doc, title))
		documented, ok := tables[name]
		if !ok && len(defined) > 0 {
			t.Errorf("docs/cli.md, %q: no flag table under a line `cordon %s ...`; the command has the flags %v", title, name, defined)
			continue
		}
		sort.Strings(defined)
		sort.Strings(documented)
		if !slices.Equal(slices.Compact(documented), defined) {
			t.Errorf("docs/cli.md, %q: `cordon %s` lists the flags\n  %v\nthe code defines\n  %v", title, name, documented, defined)
		}
	}
}

// mib writes a size in bytes as the docs do: "8 MiB", or the number.
func mib(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10)
}

// docs/limits.md has a row for every field of engine.Limits and every key
// of a config's limits, with the default the engine applies, and the
// flags it names are cordon run's.
func TestLimitsDocs(t *testing.T) {
	b, err := os.ReadFile("../../docs/limits.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "|---") && !strings.HasPrefix(l, "| limit |") {
			rows = append(rows, l)
		}
	}
	row := func(what string) []string {
		for _, r := range rows {
			if strings.Contains(r, "`"+what+"`") {
				return strings.Split(strings.Trim(r, "| "), " | ")
			}
		}
		t.Errorf("docs/limits.md has no row that names `%s`", what)
		return nil
	}
	defaults := map[string][]string{
		"Timeout":            {strconv.FormatFloat(engine.DefaultTimeout.Seconds(), 'g', -1, 64) + " s"},
		"MaxOutputBytes":     {mib(engine.DefaultMaxOutputBytes)},
		"VFSBytes":           {mib(engine.DefaultVFSBytes), "a third of the guest memory"},
		"VFSFiles":           {mib(engine.DefaultVFSFiles)},
		"MaxCallDepth":       {mib(engine.DefaultMaxCallDepth)},
		"MaxToolCalls":       {mib(engine.DefaultMaxToolCalls)},
		"MaxParamBytes":      {mib(engine.DefaultMaxParamBytes)},
		"MaxResultBytes":     {mib(engine.DefaultMaxResultBytes), "an eighth of the guest memory"},
		"MaxConcurrentCalls": {mib(engine.DefaultMaxConcurrentCalls)},
		"MaxRecordedBytes":   {mib(engine.DefaultMaxRecordedBytes)},
	}
	lt := reflect.TypeOf(engine.Limits{})
	for i := 0; i < lt.NumField(); i++ {
		name := lt.Field(i).Name
		want, ok := defaults[name]
		if !ok {
			t.Errorf("engine.Limits.%s: add its default to this test and its row to docs/limits.md", name)
			continue
		}
		if r := row("Limits." + name); r != nil {
			for _, w := range want {
				if !regexp.MustCompile(`(^|[^0-9])` + regexp.QuoteMeta(w) + `($|[^0-9])`).MatchString(r[1]) {
					t.Errorf("docs/limits.md: the default of Limits.%s is %q, which does not say %q", name, r[1], w)
				}
			}
		}
	}
	memory := fmt.Sprintf("%s (%d to %d)", mib(engine.DefaultMemoryMB<<20), engine.MinMemoryMB, engine.MaxMemoryMB)
	if r := row("Config.WithMemoryLimitMB"); r != nil && r[1] != memory {
		t.Errorf("docs/limits.md: the guest memory's default and range are %q; the engine's are %q", r[1], memory)
	}
	if r := row("engine.DefaultMaxCalls"); r != nil && r[1] != strconv.Itoa(engine.DefaultMaxCalls) {
		t.Errorf("docs/limits.md: the default calls per tool are %q, not %d", r[1], engine.DefaultMaxCalls)
	}

	ct := reflect.TypeOf(config.Limits{})
	keys := map[string]bool{}
	for i := 0; i < ct.NumField(); i++ {
		k, _, _ := strings.Cut(ct.Field(i).Tag.Get("json"), ",")
		keys[k] = true
		row("limits." + k)
	}
	var run *flag.FlagSet
	onFlagSet = func(fs *flag.FlagSet) { run = fs }
	cli(t, "", "run", "--help")
	onFlagSet = nil
	flags := map[string]bool{}
	run.VisitAll(func(f *flag.Flag) { flags["--"+f.Name] = true })
	for _, r := range rows {
		for _, m := range regexp.MustCompile("`limits\\.([a-z_]+)`").FindAllStringSubmatch(r, -1) {
			if !keys[m[1]] {
				t.Errorf("docs/limits.md names the config key limits.%s, which config.Limits does not have", m[1])
			}
		}
		for _, m := range regexp.MustCompile("`(--[a-z-]+)`").FindAllStringSubmatch(r, -1) {
			if !flags[m[1]] {
				t.Errorf("docs/limits.md names the flag %s, which cordon run does not have", m[1])
			}
		}
	}
}
