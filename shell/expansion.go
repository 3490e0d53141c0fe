package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// The runner expands words with package expansion: this file is the
// runner's side of it, the Env the expander calls back into and the
// report of its errors.

// xp returns the runner's expander, made on first use. A copy of the
// runner (a subshell) makes its own, as its expansions must call back
// into the copy.
func (r *runner) xp() *expansion.Expander {
	if r.xpOwner != r {
		r.xpOwner = r
		r.xpState.Reset(envView{r})
	}
	return &r.xpState
}

// fields expands words into fields (with splitting and globbing); an
// error is reported and gives false.
func (r *runner) fields(words ...*syntax.Word) ([]string, bool) {
	out, err := r.xp().Fields(words...)
	if err != nil {
		r.expandErr(err)
		return nil, false
	}
	return out, true
}

// literal expands a word to a single string (no splitting or globbing).
func (r *runner) literal(w *syntax.Word) (string, bool) {
	return r.reported(r.xp().Literal(w))
}

// assignValue expands the value of an assignment word.
func (r *runner) assignValue(w *syntax.Word) (string, bool) {
	return r.reported(r.xp().Assign(w))
}

// pattern expands a word as a shell pattern.
func (r *runner) pattern(w *syntax.Word) (string, bool) {
	return r.reported(r.xp().Pattern(w))
}

// reported reports err, if any, and returns s and whether there was none.
func (r *runner) reported(s string, err error) (string, bool) {
	if err != nil {
		r.expandErr(err)
		return "", false
	}
	return s, true
}

// expandErr reports an expansion error the way bash does.
func (r *runner) expandErr(err error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || r.ctxErr() != nil {
		r.status = CanceledStatus
		r.exiting = true
		return
	}
	if errors.Is(err, errReported) {
		r.status = 1
		r.aborting = true
		return
	}
	var ue expand.UnsetParameterError
	if errors.As(err, &ue) {
		msg := ue.Message
		if msg == "" {
			if ue.Node.Exp != nil && ue.Node.Exp.Op == syntax.ErrorUnsetOrNull {
				msg = "parameter null or not set"
			} else {
				msg = "parameter not set"
			}
		}
		name := ""
		if ue.Node.Param != nil {
			name = ue.Node.Param.Value
		}
		if name != "" && name[0] >= '0' && name[0] <= '9' {
			name = "$" + name // bash names positional parameters so
		}
		r.errf("%s: %s", name, msg)
		r.status = r.fatalStatus()
		r.exiting = true
		return
	}
	if expansion.IsFatal(err) {
		r.errf("%s", err)
		r.status = r.fatalStatusOf(err)
		r.exiting = true
		return
	}
	var un errUnsupported
	if errors.As(err, &un) {
		r.errf("%s", err)
		r.status = 2
		r.exiting = true
		return
	}
	r.errf("%s", err)
	r.status = 1
	r.aborting = true
}

// Source returns the source text of the running commands.
func (e envView) Source() string { return e.r.curSrc }

// RefTarget returns the value of a nameref with a value.
func (e envView) RefTarget(name string) (string, bool) {
	t, ok := e.r.isNameRef(name)
	return t, ok && t != ""
}

// fatalStatusOf is the exit status of a shell that the fatal arithmetic
// error err ends: fatalStatus for an unset variable, 1 for an error in a
// subscript's arithmetic, as in bash -c.
func (r *runner) fatalStatusOf(err error) int {
	if expansion.IsUnset(err) {
		return r.fatalStatus()
	}
	return 1
}

// fatalStatus is the exit status of a shell that an expansion error ends
// (set -u, ${x?}): 127 for the main shell of bash -c, as bash's, and 1
// for a subshell or a script file.
func (r *runner) fatalStatus() int {
	if r.subLevel > 0 || r.invocation != 'c' {
		return 1
	}
	return 127
}

// Attributes returns the attribute letters of ${x@a}.
func (e envView) Attributes(name string) string {
	if v, _ := e.r.lookup(name); v != nil {
		return attrFlags(v)
	}
	return ""
}

// Options returns the options that change expansion.
func (e envView) Options() expansion.Options {
	o := &e.r.opts
	return expansion.Options{
		NoUnset: o.nounset, NoGlob: o.noglob, NullGlob: o.nullglob, FailGlob: o.failglob,
		ExtGlob: o.extglob, DotGlob: o.dotglob, GlobStar: o.globstar, NoCaseGlob: o.nocaseglob,
		NoPatsubReplacement: !o.patsubRepl,
	}
}

// Dir returns the working directory.
func (e envView) Dir() string { return e.r.dir }

// Stat describes a file of the VFS.
func (e envView) Stat(name string) (fs.FileInfo, error) { return e.r.sh.fs.Stat(name) }

// ReadDir lists a directory of the VFS.
func (e envView) ReadDir(name string) ([]fs.DirEntry, error) { return e.r.sh.fs.ReadDir(name) }

// CmdSubst runs a command substitution.
func (e envView) CmdSubst(w io.Writer, cs *syntax.CmdSubst) error { return e.r.cmdSubst(w, cs) }

// ProcSubst starts a process substitution.
func (e envView) ProcSubst(ps *syntax.ProcSubst) (string, error) { return e.r.procSubst(ps) }

// Err reports whether the run must stop.
func (e envView) Err() error { return e.r.ctxErr() }

// Errorf prints a message prefixed like bash's.
func (e envView) Errorf(format string, args ...any) { e.r.errf("%s", fmt.Sprintf(format, args...)) }
