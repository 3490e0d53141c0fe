package shell

import (
	"fmt"
	"strconv"
)

// callerBuiltin is caller [expr]: the line and source file of the
// current call (a function or a sourced file), or with a frame number N
// the line, function and file of that frame, as bash reads them from
// BASH_LINENO, FUNCNAME and BASH_SOURCE (the call stack of lookup.go).
// Functions defined at the top level of a script given as a string have
// the source "environment", and the top level itself has none, as in
// bash -c.
func callerBuiltin(r *runner, args []string) int {
	n := len(r.calls)
	if n == 0 {
		// bash has no call stack to read at the top level.
		return 1
	}
	// frame returns FUNCNAME[k], BASH_SOURCE[k] and BASH_LINENO[k] (0 is
	// the innermost frame), ok false where bash has no value.
	frame := func(k int) (fn, src string, line int, ok bool) {
		switch {
		case k < n:
			c := r.calls[n-1-k]
			src = c.file
			if src == "" {
				src = "environment"
			}
			return c.name, src, c.line, true
		case k == n && r.invocation == 0:
			return "main", r.name, 0, true // a script file is the bottom
		}
		return "", "", 0, false
	}
	if len(args) < 2 {
		_, _, line, _ := frame(0)
		_, src, _, ok := frame(1)
		if !ok {
			src = "NULL"
		}
		fmt.Fprintf(r.stdout(), "%d %s\n", line, src)
		return 0
	}
	i, ok := legalNumber(args[1])
	if !ok {
		r.builtinErr(2, "caller", "%s: invalid number", args[1])
		fmt.Fprintln(r.stderr(), "caller: usage: caller [expr]")
		return 2
	}
	if i < 0 || i >= n {
		return 1
	}
	_, _, line, _ := frame(i)
	fn, src, _, ok := frame(i + 1)
	if !ok {
		return 1
	}
	fmt.Fprintf(r.stdout(), "%s %s %s\n", strconv.Itoa(line), fn, src)
	return 0
}
