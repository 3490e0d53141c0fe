package shell

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The directory stack of pushd, popd and dirs. Entry 0 is always the
// working directory; runner.dirs holds entries 1, 2, ... in that order. The
// slice is never changed in place, only replaced, so that a subshell's copy
// of the runner can share it.

// Flags of dirs.
const (
	dirsLong = 1 << iota
	dirsLines
	dirsVerbose
)

// dirEntries returns the whole stack, entry 0 first.
func (r *runner) dirEntries() []string {
	return append([]string{r.dir}, r.dirs...)
}

// politeDir abbreviates $HOME at the start of dir with a tilde, as dirs
// prints entries without -l.
func (r *runner) politeDir(dir string) string {
	home := r.getVar("HOME")
	if home == "" || home == "/" {
		return dir
	}
	if rest, ok := strings.CutPrefix(dir, home); ok && (rest == "" || rest[0] == '/') {
		return "~" + rest
	}
	return dir
}

// legalNumber parses a decimal integer as bash's legal_number does: blanks
// around it and a sign are allowed.
func legalNumber(s string) (int, bool) {
	s = strings.Trim(s, " \t\n")
	t := strings.TrimLeft(s, "+-")
	if len(s)-len(t) > 1 || t == "" || strings.Trim(t, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > 1<<31 || n < -(1<<31) {
		return 0, false
	}
	return int(n), true
}

// dirUsage prints the usage line of a directory stack builtin and
// returns status 2.
func (r *runner) dirUsage(name string) int {
	use := map[string]string{
		"dirs":  "dirs [-clpv] [+N] [-N]",
		"pushd": "pushd [-n] [+N | -N | dir]",
		"popd":  "popd [-n] [+N | -N]",
	}[name]
	fmt.Fprintf(r.stderr(), "%s: usage: %s\n", name, use)
	return 2
}

// isOption reports whether w is exactly "-" followed by c.
func isOption(w string, c byte) bool {
	return len(w) == 2 && w[0] == '-' && w[1] == c
}

// printDirs prints the stack as dirs does with flags.
func (r *runner) printDirs(flags int) {
	var b strings.Builder
	for i, d := range r.dirEntries() {
		if flags&dirsLong == 0 {
			d = r.politeDir(d)
		}
		switch {
		case flags&dirsVerbose != 0:
			fmt.Fprintf(&b, "%2d  %s\n", i, d)
		case flags&dirsLines != 0:
			b.WriteString(d)
			b.WriteByte('\n')
		default:
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(d)
		}
	}
	if flags&(dirsVerbose|dirsLines) == 0 {
		b.WriteByte('\n')
	}
	fmt.Fprint(r.stdout(), b.String())
}

// dirsBuiltin prints the directory stack.
func dirsBuiltin(r *runner, args []string) int {
	flags, clear := 0, false
	index, hasIndex := 0, false
	var word string
	for _, w := range args[1:] {
		switch {
		case isOption(w, 'l'):
			flags |= dirsLong
		case isOption(w, 'c'):
			clear = true
		case isOption(w, 'v'):
			flags |= dirsVerbose
		case isOption(w, 'p'):
			flags |= dirsLines
		case w == "--":
		case w != "" && (w[0] == '+' || w[0] == '-'):
			n, ok := legalNumber(w[1:])
			if !ok {
				r.builtinErr(2, "dirs", "%s: invalid number", w)
				return r.dirUsage("dirs")
			}
			if w[0] == '+' {
				index = n
			} else {
				index = len(r.dirs) - n
			}
			hasIndex, word = true, w[1:]
			continue
		default:
			r.builtinErr(2, "dirs", "%s: invalid option", w)
			return r.dirUsage("dirs")
		}
		if w == "--" {
			break
		}
	}
	if clear {
		r.dirs = nil
		return 0
	}
	if hasIndex {
		if index < 0 || index > len(r.dirs) {
			return r.builtinErr(1, "dirs", "%s: directory stack index out of range", word)
		}
		d := r.dirEntries()[index]
		if flags&dirsLong == 0 {
			d = r.politeDir(d)
		}
		if flags&dirsVerbose != 0 {
			fmt.Fprintf(r.stdout(), "%2d  %s\n", index, d)
		} else {
			fmt.Fprintln(r.stdout(), d)
		}
		return 0
	}
	r.printDirs(flags)
	return 0
}

// stackError reports a bad index for pushd or popd.
func (r *runner) stackError(name, word string) int {
	if len(r.dirs) == 0 {
		return r.builtinErr(1, name, "directory stack empty")
	}
	return r.builtinErr(1, name, "%s: directory stack index out of range", word)
}

// cdTo changes to dir for pushd and popd and, when that works, prints the
// stack.
func (r *runner) cdTo(name, dir string) int {
	if st := r.cd(name, []string{dir}); st != 0 {
		return st
	}
	r.printDirs(0)
	return 0
}

// pushdBuiltin pushes a directory, or rotates the stack.
func pushdBuiltin(r *runner, args []string) int {
	noCD, rotate, num := false, false, 0
	a := args[1:]
loop:
	for len(a) > 0 {
		w := a[0]
		switch {
		case isOption(w, 'n'):
			noCD = true
		case w == "--":
			a = a[1:]
			break loop
		case w == "-":
			break loop
		case w != "" && (w[0] == '+' || w[0] == '-'):
			n, ok := legalNumber(w[1:])
			if !ok {
				r.builtinErr(2, "pushd", "%s: invalid number", w)
				return r.dirUsage("pushd")
			}
			if w[0] == '-' {
				n = len(r.dirs) - n
			}
			if n > len(r.dirs) || n < 0 {
				return r.stackError("pushd", w)
			}
			rotate, num = true, n
		default:
			break loop
		}
		a = a[1:]
	}
	switch {
	case rotate:
		if num == 0 {
			if noCD {
				return 0
			}
			return r.cdTo("pushd", r.dir)
		}
		all := r.dirEntries()
		all = append(all[num:], all[:num]...)
		r.dirs = all[1:]
		if noCD {
			return 0
		}
		return r.cdTo("pushd", all[0])
	case len(a) == 0:
		if noCD {
			return 0
		}
		if len(r.dirs) == 0 {
			return r.builtinErr(1, "pushd", "no other directory")
		}
		top := r.dirs[0]
		r.dirs = append([]string{r.dir}, r.dirs[1:]...)
		return r.cdTo("pushd", top)
	}
	if len(r.dirs) >= maxDirStack {
		return r.builtinErr(1, "pushd", "directory stack full")
	}
	old := r.dir
	if noCD {
		old = a[0]
	} else if st := r.cd("pushd", a); st != 0 {
		return st
	}
	r.dirs = append([]string{old}, r.dirs...)
	r.printDirs(0)
	return 0
}

// maxDirStack bounds the directory stack, which a loop could grow without
// end.
const maxDirStack = 10000

// popdBuiltin removes an entry of the directory stack.
func popdBuiltin(r *runner, args []string) int {
	noCD, which, plus := false, 0, true
	word := ""
loop:
	for _, w := range args[1:] {
		switch {
		case isOption(w, 'n'):
			noCD = true
		case w == "--":
			break loop
		case w != "" && (w[0] == '+' || w[0] == '-'):
			n, ok := legalNumber(w[1:])
			if !ok {
				r.builtinErr(2, "popd", "%s: invalid number", w)
				return r.dirUsage("popd")
			}
			which, plus, word = n, w[0] == '+', w
		case w != "":
			r.builtinErr(2, "popd", "%s: invalid argument", w)
			return r.dirUsage("popd")
		default:
			break loop
		}
	}
	n := len(r.dirs)
	if which > n || which < -n || (n == 0 && which == 0) {
		return r.stackError("popd", word)
	}
	if (plus && which == 0) || (!plus && which == n) {
		if !noCD {
			if st := r.cd("popd", r.dirs[:1]); st != 0 {
				return st
			}
		}
		r.dirs = r.dirs[1:]
	} else {
		e := which
		if !plus {
			e = n - which
		}
		if e < 1 || e > n {
			return r.stackError("popd", word)
		}
		r.dirs = append(r.dirs[:e-1:e-1], r.dirs[e:]...)
	}
	r.printDirs(0)
	return 0
}

// dirStackVar returns $DIRSTACK: the whole stack, entry 0 first.
func (r *runner) dirStackVar() expand.Variable {
	return expand.Variable{Set: true, Kind: expand.Indexed, List: r.dirEntries()}
}

// assignDirStack assigns DIRSTACK[x]=val: it changes an entry of the stack
// (entry 0 only for $DIRSTACK's value, as in bash, where the working
// directory replaces it again).
func (r *runner) assignDirStack(x syntax.ArithmExpr, val string) bool {
	v := &variable{Variable: r.dirStackVar()}
	n, err := r.indexOf(v, x)
	if err != nil {
		r.errf("DIRSTACK: %s", err)
		r.status = 1
		return false
	}
	if n < 1 || n > len(r.dirs) {
		r.errf("DIRSTACK: bad array subscript")
		return false
	}
	dirs := append([]string(nil), r.dirs...)
	dirs[n-1] = val
	r.dirs = dirs
	return true
}
