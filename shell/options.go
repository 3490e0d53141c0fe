package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds the shell options: set and its -o names, shopt, $-,
// SHELLOPTS and BASHOPTS, as bash 5.2 lists and reports them.

// setOptions are the names of set -o, in bash's order, with their letter
// (0 for none).
var setOptions = [...]struct {
	name string
	flag byte
}{
	{"allexport", 'a'}, {"braceexpand", 'B'}, {"emacs", 0}, {"errexit", 'e'}, {"errtrace", 'E'},
	{"functrace", 'T'}, {"hashall", 'h'}, {"histexpand", 'H'}, {"history", 0}, {"ignoreeof", 0},
	{"interactive-comments", 0}, {"keyword", 'k'}, {"monitor", 'm'}, {"noclobber", 'C'}, {"noexec", 'n'},
	{"noglob", 'f'}, {"nolog", 0}, {"notify", 'b'}, {"nounset", 'u'}, {"onecmd", 't'}, {"physical", 'P'},
	{"pipefail", 0}, {"posix", 0}, {"privileged", 'p'}, {"verbose", 'v'}, {"vi", 0}, {"xtrace", 'x'},
}

// setDefaults are the set -o options on in a new shell (bits of
// options.setBits, by index in setOptions).
const setDefaults = 1<<1 | 1<<6 | 1<<10

// flagOrder is the order of the letters in $-.
const flagOrder = "abefhikmnprtuvxBCEHIPT"

// shoptOptions are the shopt options in bash's order, with their
// default.
var shoptOptions = [...]struct {
	name string
	on   bool
}{
	{"autocd", false}, {"assoc_expand_once", false}, {"cdable_vars", false}, {"cdspell", false},
	{"checkhash", false}, {"checkjobs", false}, {"checkwinsize", true}, {"cmdhist", true},
	{"compat31", false}, {"compat32", false}, {"compat40", false}, {"compat41", false},
	{"compat42", false}, {"compat43", false}, {"compat44", false}, {"complete_fullquote", true},
	{"direxpand", false}, {"dirspell", false}, {"dotglob", false}, {"execfail", false},
	{"expand_aliases", false}, {"extdebug", false}, {"extglob", false}, {"extquote", true},
	{"failglob", false}, {"force_fignore", true}, {"globasciiranges", true}, {"globskipdots", true},
	{"globstar", false}, {"gnu_errfmt", false}, {"histappend", false}, {"histreedit", false},
	{"histverify", false}, {"hostcomplete", true}, {"huponexit", false}, {"inherit_errexit", false},
	{"interactive_comments", true}, {"lastpipe", false}, {"lithist", false}, {"localvar_inherit", false},
	{"localvar_unset", false}, {"login_shell", false}, {"mailwarn", false}, {"no_empty_cmd_completion", false},
	{"nocaseglob", false}, {"nocasematch", false}, {"noexpand_translation", false}, {"nullglob", false},
	{"patsub_replacement", true}, {"progcomp", true}, {"progcomp_alias", false}, {"promptvars", true},
	{"restricted_shell", false}, {"shift_verbose", false}, {"sourcepath", true}, {"varredir_close", false},
	{"xpg_echo", false},
}

// Indexes of the shopt options the shell reads directly.
var (
	shoptInheritErrexit = shoptIndex("inherit_errexit")
	shoptSourcepath     = shoptIndex("sourcepath")
)

// shoptDefaults are the bits of options.shoptBits on in a new shell.
var shoptDefaults = func() uint64 {
	var b uint64
	for i, o := range shoptOptions {
		if o.on {
			b |= 1 << i
		}
	}
	return b
}()

// newOptions returns the options of a new shell.
func newOptions() options {
	return options{setBits: setDefaults, shoptBits: shoptDefaults, patsubRepl: true}
}

// setField returns the field of an option of set that the shell acts on,
// by long name, or nil.
func (o *options) setField(name string) *bool {
	switch name {
	case "allexport":
		return &o.allexport
	case "errexit":
		return &o.errexit
	case "noclobber":
		return &o.noclobber
	case "noexec":
		return &o.noexec
	case "noglob":
		return &o.noglob
	case "nounset":
		return &o.nounset
	case "pipefail":
		return &o.pipefail
	case "verbose":
		return &o.verbose
	case "xtrace":
		return &o.xtrace
	}
	return nil
}

// shoptField is setField for shopt.
func (o *options) shoptField(name string) *bool {
	switch name {
	case "nullglob":
		return &o.nullglob
	case "extglob":
		return &o.extglob
	case "dotglob":
		return &o.dotglob
	case "globstar":
		return &o.globstar
	case "failglob":
		return &o.failglob
	case "nocaseglob":
		return &o.nocaseglob
	case "nocasematch":
		return &o.nocasematch
	case "expand_aliases":
		return &o.expandAliases
	case "lastpipe":
		return &o.lastpipe
	case "xpg_echo":
		return &o.xpgEcho
	case "patsub_replacement":
		return &o.patsubRepl
	}
	return nil
}

// setIndex returns the index in setOptions of a long option name or of a
// letter, or -1.
func setIndex(name string) int {
	for i, o := range setOptions {
		if o.name == name || len(name) == 1 && o.flag == name[0] {
			return i
		}
	}
	return -1
}

// shoptIndex returns the index in shoptOptions of a name, or -1.
func shoptIndex(name string) int {
	for i, o := range shoptOptions {
		if o.name == name {
			return i
		}
	}
	return -1
}

// setOpt reports whether the set option with index i is on.
func (o *options) setOpt(i int) bool {
	if p := o.setField(setOptions[i].name); p != nil {
		return *p
	}
	return o.setBits&(1<<i) != 0
}

// setSetOpt turns the set option with index i on or off.
func (o *options) setSetOpt(i int, on bool) {
	if on && (setOptions[i].name == "vi" || setOptions[i].name == "emacs") {
		// one editing mode at a time
		o.setBits &^= 1<<setIndex("vi") | 1<<setIndex("emacs")
	}
	if p := o.setField(setOptions[i].name); p != nil {
		*p = on
		return
	}
	if on {
		o.setBits |= 1 << i
	} else {
		o.setBits &^= 1 << i
	}
}

// shopt reports whether the shopt option with index i is on.
func (o *options) shopt(i int) bool {
	if p := o.shoptField(shoptOptions[i].name); p != nil {
		return *p
	}
	return o.shoptBits&(1<<i) != 0
}

// setShopt turns the shopt option with index i on or off.
func (o *options) setShopt(i int, on bool) {
	if p := o.shoptField(shoptOptions[i].name); p != nil {
		*p = on
		return
	}
	if on {
		o.shoptBits |= 1 << i
	} else {
		o.shoptBits &^= 1 << i
	}
}

// setOptOn reports whether a set option, by long name or letter, is on
// (false for an unknown name): test -o and [[ -o ]].
func (r *runner) setOptOn(name string) bool {
	i := setIndex(name)
	return i >= 0 && r.opts.setOpt(i)
}

// optFlags returns $-.
func (r *runner) optFlags() string {
	var b strings.Builder
	for i := 0; i < len(flagOrder); i++ {
		c := flagOrder[i]
		for j, o := range setOptions {
			if o.flag == c && r.opts.setOpt(j) {
				b.WriteByte(c)
			}
		}
	}
	if r.invocation != 0 {
		b.WriteByte(r.invocation)
	}
	return b.String()
}

// shellOpts returns $SHELLOPTS.
func (r *runner) shellOpts() string {
	var on []string
	for i, o := range setOptions {
		if r.opts.setOpt(i) {
			on = append(on, o.name)
		}
	}
	return strings.Join(on, ":")
}

// bashOpts returns $BASHOPTS.
func (r *runner) bashOpts() string {
	var on []string
	for i, o := range shoptOptions {
		if r.opts.shopt(i) {
			on = append(on, o.name)
		}
	}
	return strings.Join(on, ":")
}

// setBuiltin sets options and positional parameters.
func setBuiltin(r *runner, args []string) int {
	a := args[1:]
	if len(a) == 0 {
		return r.printVars("set", map[byte]bool{})
	}
	for len(a) > 0 {
		arg := a[0]
		if arg == "--" {
			r.params = append([]string(nil), a[1:]...)
			r.paramsSet = true
			return 0
		}
		if arg == "-" {
			r.opts.xtrace, r.opts.verbose = false, false
			a = a[1:]
			if len(a) > 0 {
				r.params = append([]string(nil), a...)
				r.paramsSet = true
			}
			return 0
		}
		if arg == "+" {
			a = a[1:]
			continue
		}
		if len(arg) < 2 || (arg[0] != '-' && arg[0] != '+') {
			break
		}
		on := arg[0] == '-'
		a = a[1:]
		for i := 1; i < len(arg); i++ {
			c := arg[i]
			if c == 'o' {
				if len(a) == 0 || strings.HasPrefix(a[0], "-") || strings.HasPrefix(a[0], "+") {
					r.printSetO(on)
					continue
				}
				name := a[0]
				a = a[1:]
				k := setIndex(name)
				if k < 0 || len(name) == 1 {
					r.builtinErr(2, "set", "%s: invalid option name", name)
					return 2
				}
				r.opts.setSetOpt(k, on)
				continue
			}
			k := setIndex(string(c))
			if k < 0 {
				r.builtinErr(2, "set", "%c%c: invalid option", arg[0], c)
				fmt.Fprintln(r.stderr(), "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]")
				return 2
			}
			r.opts.setSetOpt(k, on)
		}
	}
	if len(a) > 0 {
		r.params = append([]string(nil), a...)
		r.paramsSet = true
	}
	return 0
}

// printSetO prints the options for set -o (minus) or set +o.
func (r *runner) printSetO(minus bool) {
	for i, o := range setOptions {
		r.printOpt(o.name, r.opts.setOpt(i), !minus, "set")
	}
}

// printOpt prints one option as "name<TAB>on" or, with reusable, as the
// command that sets it ("set -o name", "shopt -u name").
func (r *runner) printOpt(name string, on, reusable bool, cmd string) {
	switch {
	case reusable && cmd == "set":
		sign := "+"
		if on {
			sign = "-"
		}
		fmt.Fprintf(r.stdout(), "set %so %s\n", sign, name)
	case reusable:
		flag := "-u"
		if on {
			flag = "-s"
		}
		fmt.Fprintf(r.stdout(), "shopt %s %s\n", flag, name)
	default:
		st := "off"
		if on {
			st = "on"
		}
		fmt.Fprintf(r.stdout(), "%-15s\t%s\n", name, st)
	}
}

// shoptBuiltin sets, unsets and queries shopt options.
func shoptBuiltin(r *runner, args []string) int {
	set, unset, quiet, print, useO := false, false, false, false, false
	a := args[1:]
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && len(a[0]) > 1 {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		for _, c := range a[0][1:] {
			switch c {
			case 's':
				set = true
			case 'u':
				unset = true
			case 'q':
				quiet = true
			case 'p':
				print = true
			case 'o':
				useO = true
			default:
				r.builtinErr(2, "shopt", "-%c: invalid option", c)
				fmt.Fprintln(r.stderr(), "shopt: usage: shopt [-pqsu] [-o] [optname ...]")
				return 2
			}
		}
		a = a[1:]
	}
	if set && unset {
		return r.builtinErr(1, "shopt", "cannot set and unset shell options simultaneously")
	}
	cmd := "shopt"
	n := len(shoptOptions)
	get, put, index := r.opts.shopt, r.opts.setShopt, shoptIndex
	if useO {
		cmd, n = "set", len(setOptions)
		get, put = r.opts.setOpt, r.opts.setSetOpt
		index = func(name string) int {
			if len(name) == 1 {
				return -1
			}
			return setIndex(name)
		}
	}
	if len(a) == 0 {
		// list all, or those on (-s) or off (-u)
		for i := 0; i < n; i++ {
			on := get(i)
			if (set && !on) || (unset && on) || quiet {
				continue
			}
			r.printOpt(optName(useO, i), on, print, cmd)
		}
		return 0
	}
	st := 0
	for _, name := range a {
		i := index(name)
		if i < 0 {
			if useO {
				r.builtinErr(1, "shopt", "%s: invalid option name", name)
			} else {
				r.builtinErr(1, "shopt", "%s: invalid shell option name", name)
			}
			st = 1
			continue
		}
		switch {
		case set || unset:
			put(i, set)
		default:
			on := get(i)
			if !on {
				st = 1
			}
			if !quiet {
				r.printOpt(name, on, print, cmd)
			}
		}
	}
	return st
}

// optName returns the name of the set (o) or shopt option with index i.
func optName(o bool, i int) string {
	if o {
		return setOptions[i].name
	}
	return shoptOptions[i].name
}

// srandom returns the next value of $SRANDOM: 32 bits that change on
// every use, from a deterministic generator (splitmix64), like $RANDOM's.
func (sh *shared) srandom() uint32 {
	z := sh.srand.Add(0x9e3779b97f4a7c15)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return uint32((z ^ z>>31) >> 32)
}

// extglobError is the syntax error of an extended pattern read while
// extglob is off.
type extglobError struct {
	line int
	text string // the line
}

func (e *extglobError) Error() string { return "syntax error near unexpected token `('" }

// extglobOff returns the error of the first extended pattern outside
// [[ ]] in stmts, read from src, or nil.
func extglobOff(src string, stmts []*syntax.Stmt) error {
	from, to := int(stmts[0].Pos().Offset()), int(stmts[len(stmts)-1].End().Offset())
	if from > to || to > len(src) {
		return nil
	}
	text := src[from:to]
	if !strings.Contains(text, "(") || !(strings.Contains(text, "@(") || strings.Contains(text, "!(") ||
		strings.Contains(text, "?(") || strings.Contains(text, "*(") || strings.Contains(text, "+(")) {
		return nil
	}
	var found *syntax.ExtGlob
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.TestClause:
				return false
			case *syntax.ExtGlob:
				if found == nil {
					found = n
				}
			}
			return found == nil
		})
	}
	if found == nil {
		return nil
	}
	off := int(found.OpPos.Offset())
	start := strings.LastIndexByte(src[:off], '\n') + 1
	end := strings.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += off
	}
	return &extglobError{line: int(found.OpPos.Line()), text: src[start:end]}
}
