package shell

import (
	"fmt"
	"strconv"
)

// callerBuiltin is caller [expr]: the line and source file of the
// current function's call, or with a frame number N the line, function
// and file of that frame, as bash reads them from BASH_LINENO, FUNCNAME
// and BASH_SOURCE. Functions defined at the top level of a script given
// as a string have the source "environment", and the top level itself
// has none, as in bash -c.
func callerBuiltin(r *runner, args []string) int {
	n := len(r.funcNames)
	// source returns BASH_SOURCE[i] (0 is the innermost frame), ok
	// false where bash has no value.
	source := func(i int) (string, bool) {
		if i >= n {
			return "", false
		}
		if s, ok := r.funcFile[r.funcNames[n-1-i]]; ok {
			return s, true
		}
		return "environment", true
	}
	if n == 0 {
		// bash has no call stack to read at the top level.
		return 1
	}
	if len(args) < 2 {
		src, ok := source(1)
		if !ok {
			src = "NULL"
		}
		fmt.Fprintf(r.stdout(), "%d %s\n", r.callLines[n-1], src)
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
	src, ok := source(i + 1)
	if !ok {
		return 1
	}
	fn := "main"
	if i+1 < n {
		fn = r.funcNames[n-2-i]
	}
	fmt.Fprintf(r.stdout(), "%s %s %s\n", strconv.Itoa(r.callLines[n-1-i]), fn, src)
	return 0
}
