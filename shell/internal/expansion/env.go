// Package expansion expands the words of the shell: parameter expansion
// (${...} and its operators, arrays, indirection), command and process
// substitution through callbacks, arithmetic, tilde and brace expansion,
// field splitting by IFS, quote removal and pathname expansion (globbing).
//
// It follows bash's rules and uses mvdan.cc/sh/v3/expand only for the
// value of the simplest expansions and for brace expansion. Everything it
// needs from the shell that runs it goes through Env, so it can be run,
// and tested, without a shell.
package expansion

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Env is what an expansion reads from, and changes in, the shell that
// runs it.
//
// Get (of expand.WriteEnviron) returns a variable after following
// namerefs, and the special parameters too: "@" and "*" return the
// positional parameters as an indexed array, "#" their count, "1", "2",
// ... each one, and "?", "$", "-" and the like their values. Set assigns
// or, with an unset variable, unsets; it returns the shell's error for a
// readonly variable. Each lists the variables for ${!prefix*}.
type Env interface {
	expand.WriteEnviron

	// Attributes returns the attribute letters of a variable as ${x@a}
	// prints them ("" when it has none or is unset).
	Attributes(name string) string
	// Source returns the source text the command being run was parsed
	// from (for arithmetic error messages, which quote it), or "".
	Source() string
	// RefTarget returns the value of name when name itself is a nameref
	// (declare -n) with a value: ${!ref} expands to it.
	RefTarget(name string) (string, bool)
	// Options returns the shell options that change expansion.
	Options() Options

	// Dir returns the working directory, an absolute path, against which
	// relative patterns are globbed.
	Dir() string
	// Stat describes the file at an absolute path.
	Stat(name string) (fs.FileInfo, error)
	// ReadDir lists the directory at an absolute path.
	ReadDir(name string) ([]fs.DirEntry, error)

	// CmdSubst runs the command of $(...) or `...` with its standard
	// output going to w.
	CmdSubst(w io.Writer, cs *syntax.CmdSubst) error
	// ProcSubst starts the command of <(...) or >(...) and returns the
	// path that names its output or input.
	ProcSubst(ps *syntax.ProcSubst) (string, error)

	// Err returns a non-nil error once the expansion must stop (the
	// script was canceled or ran out of time). It is polled in long
	// loops, so it should be cheap.
	Err() error
	// Errorf reports a diagnostic that does not stop the expansion, such
	// as "a: bad array subscript", on the shell's standard error.
	Errorf(format string, args ...any)
}

// Options are the shell options (set -o and shopt) that change expansion.
type Options struct {
	NoUnset    bool // set -u: an unset parameter is an error
	NoGlob     bool // set -f: no pathname expansion
	NullGlob   bool // a pattern without match expands to nothing
	FailGlob   bool // a pattern without match is an error
	ExtGlob    bool // ?(...) *(...) +(...) @(...) !(...) in patterns
	DotGlob    bool // patterns match names that start with a dot
	GlobStar   bool // ** matches directories at any depth
	NoCaseGlob bool // pathname expansion ignores case
	// NoPatsubReplacement is shopt -u patsub_replacement: & in the
	// replacement of ${x/pat/rep} is not the match.
	NoPatsubReplacement bool
}

// ErrReported is returned when an expansion failed and its message, if
// it has one, was already given to Env.Errorf. The shell reports nothing
// more, and sets the status 1.
var ErrReported = errors.New("expansion: error already reported")

// IsFatal reports whether err is an arithmetic error that must stop the
// shell (an unset variable under set -u), rather than only the command.
func IsFatal(err error) bool { return isArithFatal(err) }

// IsUnset reports whether err, a fatal arithmetic error, is an unset
// variable under set -u (bash -c exits 127 on it) rather than an error in
// a subscript's arithmetic (which exits 1).
func IsUnset(err error) bool {
	var ae *arithError
	return errors.As(err, &ae) && ae.fatal
}

// Expander expands words in one Env. It keeps scratch state between
// expansions, so it is not safe for concurrent use: each shell (each
// subshell too) has its own.
type Expander struct {
	env Env
	// free holds configurations for mvdan.cc/sh's expand to reuse: every
	// word of every command is expanded. An expansion can start another
	// (brace expansion, arithmetic), so one is never shared by two
	// expansions in progress.
	free []*expand.Config
	// The Env's callbacks as expand takes them, made once.
	cmdSubst  func(io.Writer, *syntax.CmdSubst) error
	procSubst func(*syntax.ProcSubst) (string, error)
	readDir   func(string) ([]fs.DirEntry, error)
	// argAssign is set while expanding an argument that looks like an
	// assignment (declare x=~/a): tildes after its = and : expand.
	argAssign bool
}

// New returns an Expander over env.
func New(env Env) *Expander {
	ex := &Expander{}
	ex.Reset(env)
	return ex
}

// Reset makes ex an Expander over env that keeps nothing from before. A
// shell can so hold its Expander in its own state, and give a copy of
// that state (a subshell) an Expander of its own without allocating one.
func (ex *Expander) Reset(env Env) {
	*ex = Expander{env: env}
}

// readDirAbs lists a directory for expand, which gives paths relative to
// the working directory.
func (ex *Expander) readDirAbs(p string) ([]fs.DirEntry, error) {
	if !path.IsAbs(p) {
		p = path.Join(ex.env.Dir(), p)
	}
	return ex.env.ReadDir(path.Clean(p))
}

// maxFreeConfigs bounds the configurations an Expander keeps (nesting is
// shallow: an expansion inside a brace expansion, say).
const maxFreeConfigs = 4

// ecfg returns a configuration of mvdan.cc/sh's expand for the current
// options; putEcfg gives it back once its expansion is done.
func (ex *Expander) ecfg() *expand.Config {
	var cfg *expand.Config
	if n := len(ex.free); n > 0 {
		cfg = ex.free[n-1]
		ex.free = ex.free[:n-1]
	} else {
		cfg = &expand.Config{}
	}
	if ex.cmdSubst == nil {
		// made on first use: most subshells never need them
		ex.cmdSubst, ex.procSubst, ex.readDir = ex.env.CmdSubst, ex.env.ProcSubst, ex.readDirAbs
	}
	opts := ex.env.Options()
	cfg.Env = ex.env
	cfg.CmdSubst = ex.cmdSubst
	cfg.ProcSubst = ex.procSubst
	cfg.ReadDir2 = nil
	if !opts.NoGlob {
		cfg.ReadDir2 = ex.readDir
	}
	cfg.NullGlob = opts.NullGlob
	cfg.NoUnset = opts.NoUnset
	cfg.DotGlob = opts.DotGlob
	cfg.GlobStar = opts.GlobStar
	cfg.ExtGlob = opts.ExtGlob
	cfg.NoCaseGlob = opts.NoCaseGlob
	return cfg
}

// putEcfg gives back a configuration from ecfg.
func (ex *Expander) putEcfg(cfg *expand.Config) {
	if len(ex.free) < maxFreeConfigs {
		ex.free = append(ex.free, cfg)
	}
}

// lit expands w with expand.Literal.
func (ex *Expander) lit(w *syntax.Word) (string, error) {
	cfg := ex.ecfg()
	s, err := expand.Literal(cfg, w)
	ex.putEcfg(cfg)
	return s, err
}

// getVar returns the string value of a variable ("" when unset).
func (ex *Expander) getVar(name string) string {
	return ex.env.Get(name).String()
}

// isSetVar reports whether a variable is set.
func (ex *Expander) isSetVar(name string) bool {
	return ex.env.Get(name).IsSet()
}

// Fields expands words into fields, as the arguments of a command: brace
// expansion, tilde expansion, parameter, command and arithmetic
// expansion, field splitting by IFS, pathname expansion and quote
// removal.
func (ex *Expander) Fields(words ...*syntax.Word) ([]string, error) {
	ws := make([]*syntax.Word, len(words))
	for i, w := range words {
		pw, err := ex.preArith(w)
		if err != nil {
			return nil, err
		}
		ws[i] = pw
	}
	return ex.expandFields(ws)
}

// Literal expands a word to one string, with neither field splitting nor
// pathname expansion (the word of case, of a redirection, of [[ ]]). A
// nil word expands to "".
func (ex *Expander) Literal(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	return ex.expandWith(w, ex.expandLiteral)
}

// Assign expands the value of an assignment: as Literal, and a tilde
// after = or : expands too. A nil word expands to "".
func (ex *Expander) Assign(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	return ex.expandWith(w, ex.expandAssign)
}

// Pattern expands a word as a shell pattern: quoted characters come out
// escaped with a backslash, so that they match only themselves.
func (ex *Expander) Pattern(w *syntax.Word) (string, error) {
	return ex.expandWith(w, ex.expandPattern)
}

// Document expands the body of a here-document whose delimiter is not
// quoted.
func (ex *Expander) Document(w *syntax.Word) (string, error) {
	w = starAsAt(w)
	cfg := ex.ecfg()
	s, err := expand.Document(cfg, w)
	ex.putEcfg(cfg)
	return s, err
}

// starAsAt returns w with its $* and ${*...} as $@ and ${@...}: bash 5.2
// joins the positional parameters of $* in a here-document with spaces,
// whatever IFS is (but ${a[*]} with IFS).
func starAsAt(w *syntax.Word) *syntax.Word {
	var parts []syntax.WordPart
	for i, p := range w.Parts {
		pe, ok := p.(*syntax.ParamExp)
		if !ok || pe.Param == nil || pe.Param.Value != "*" || pe.Excl || pe.Index != nil {
			continue
		}
		if parts == nil {
			parts = slices.Clone(w.Parts)
		}
		c := *pe
		c.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: "@"}
		parts[i] = &c
	}
	if parts == nil {
		return w
	}
	return &syntax.Word{Parts: parts}
}

// expandWith evaluates the subscripts and slices of w, then expands it
// with expand.
func (ex *Expander) expandWith(w *syntax.Word, expand func(*syntax.Word) (string, error)) (string, error) {
	w, err := ex.preArith(w)
	if err != nil {
		return "", err
	}
	return expand(w)
}
