package coreutils

import (
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// tabStops are expand's tab stops: explicit positions, then either every
// repeat columns after the last one (repeat > 0) or single spaces.
type tabStops struct {
	stops    []int
	repeat   int
	absolute bool // "/N": multiples of N; "+N": every N after the last stop
}

// next returns the column of the tab stop after col, or -1 when tabs past
// the last stop become single spaces.
func (t tabStops) next(col int) int {
	for _, s := range t.stops {
		if s > col {
			return s
		}
	}
	if t.repeat > 0 {
		base := 0
		if n := len(t.stops); n > 0 && !t.absolute {
			base = t.stops[n-1]
		}
		return base + ((col-base)/t.repeat+1)*t.repeat
	}
	return -1
}

// parseTabStops parses expand's -t argument: "N", "N,M,...", with an
// optional last "/N" (every N columns) or "+N" (every N after the last).
func parseTabStops(env *command.Env, lists []string) (tabStops, bool) {
	var t tabStops
	for _, list := range lists {
		for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
			prefix := ""
			if f[0] == '/' || f[0] == '+' {
				prefix, f = f[:1], f[1:]
			}
			n, err := strconv.Atoi(f)
			if err != nil || n < 0 || n > 1<<20 {
				env.Errorf(1, "tab size contains invalid character(s): ‘%s’", f)
				return t, false
			}
			if n == 0 {
				env.Errorf(1, "tab size cannot be 0")
				return t, false
			}
			switch prefix {
			case "/":
				t.repeat, t.absolute = n, true
			case "+":
				t.repeat = n
			default:
				if k := len(t.stops); k > 0 && n <= t.stops[k-1] {
					env.Errorf(1, "tab sizes must be ascending")
					return t, false
				}
				t.stops = append(t.stops, n)
			}
		}
	}
	switch {
	case len(t.stops) == 0 && t.repeat == 0:
		t.repeat = 8
	case len(t.stops) == 1 && t.repeat == 0:
		t.repeat, t.stops = t.stops[0], nil
	}
	return t, true
}

// cmdExpand implements expand [-i] [-t LIST] [FILE]...: it converts tabs
// to spaces. Columns count bytes, as in GNU expand.
func cmdExpand(env *command.Env) int {
	env2 := *env
	env2.Args = rewriteFoldWidth(env.Args)
	for i, a := range env2.Args {
		if a == "-w" {
			env2.Args[i] = "-t"
		}
	}
	opts, files, st, ok := env2.ParseOptions("it:", []string{"initial", "tabs="}, false)
	if !ok {
		return st
	}
	initial := false
	var lists []string
	for _, o := range opts {
		switch o.Name {
		case "i", "initial":
			initial = true
		case "t", "tabs":
			lists = append(lists, o.Value)
		}
	}
	stops, ok := parseTabStops(env, lists)
	if !ok {
		return 1
	}
	w := env.NewOutput()
	st = forEachLine(env, files, func(line []byte, hasNL bool) error {
		col := 0
		leading := true
		for _, c := range line {
			switch {
			case c == '\t' && (leading || !initial):
				next := stops.next(col)
				if next < 0 {
					next = col + 1
				}
				for ; col < next; col++ {
					w.WriteByte(' ')
				}
				continue
			case c == '\b':
				if col > 0 {
					col--
				}
			default:
				col++
			}
			if c != ' ' && c != '\t' {
				leading = false
			}
			w.WriteByte(c)
		}
		if hasNL {
			_, err := w.WriteString("\n")
			return err
		}
		return nil
	})
	if err := w.Flush(); err != nil && st == 0 {
		return env.WriteError(err)
	}
	return st
}
