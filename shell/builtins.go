package shell

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// builtin is a shell builtin: it gets its arguments (args[0] is the name)
// and returns its exit status.
type builtin func(r *runner, args []string) int

var builtins map[string]builtin

// Builtins returns the names of the shell's builtin commands, sorted: the
// ones it runs itself rather than through Config.Commands. A few of bash's
// (job control, history, completion: fg, bg, kill, history, complete...)
// are there only to fail with a message saying that the sandbox does not
// support them.
func Builtins() []string {
	names := make([]string, 0, len(builtins))
	for name := range builtins {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// init fills the builtins table (it refers to functions that use it).
func init() {
	builtins = map[string]builtin{
		":":         func(*runner, []string) int { return 0 },
		"true":      func(*runner, []string) int { return 0 },
		"false":     func(*runner, []string) int { return 1 },
		"echo":      echoBuiltin,
		"printf":    printfBuiltin,
		"cd":        cdBuiltin,
		"pwd":       pwdBuiltin,
		"exit":      exitBuiltin,
		"return":    returnBuiltin,
		"break":     breakBuiltin,
		"continue":  breakBuiltin,
		"eval":      evalBuiltin,
		"source":    sourceBuiltin,
		".":         sourceBuiltin,
		"export":    declareBuiltin,
		"readonly":  declareBuiltin,
		"local":     declareBuiltin,
		"declare":   declareBuiltin,
		"typeset":   declareBuiltin,
		"unset":     unsetBuiltin,
		"set":       setBuiltin,
		"shift":     shiftBuiltin,
		"shopt":     shoptBuiltin,
		"read":      readBuiltin,
		"test":      testBuiltin,
		"[":         testBuiltin,
		"type":      typeBuiltin,
		"command":   commandBuiltin,
		"builtin":   builtinBuiltin,
		"trap":      trapBuiltin,
		"getopts":   getoptsBuiltin,
		"hash":      hashBuiltin,
		"wait":      waitBuiltin,
		"umask":     umaskBuiltin,
		"let":       letBuiltin,
		"alias":     aliasBuiltin,
		"unalias":   func(*runner, []string) int { return 0 },
		"times":     timesBuiltin,
		"mapfile":   mapfileBuiltin,
		"readarray": mapfileBuiltin,
		"jobs":      jobsBuiltin,
		"ulimit":    func(r *runner, a []string) int { fmt.Fprintln(r.stdout(), "unlimited"); return 0 },
		"enable":    enableBuiltin,
		"dirs":      dirsBuiltin,
		"pushd":     pushdBuiltin,
		"popd":      popdBuiltin,
		"kill":      killBuiltin,
		"help":      helpBuiltin,
		"caller":    callerBuiltin,
	}
	for _, name := range []string{"fg", "bg", "disown", "kill", "suspend", "exec", "coproc", "logout", "history", "fc", "bind", "complete", "compgen", "compopt"} {
		n := name
		if _, ok := builtins[n]; !ok {
			builtins[n] = func(r *runner, args []string) int {
				if n == "exec" {
					return execBuiltin(r, args)
				}
				return r.builtinErr(1, n, "not supported in this sandbox")
			}
		}
	}
}

// enableBuiltin accepts enable and lists the builtins (enable, enable -a,
// enable -p); builtins cannot be disabled or loaded here.
func enableBuiltin(r *runner, args []string) int {
	list := len(args) == 1
	for _, a := range args[1:] {
		if a == "-a" || a == "-p" {
			list = true
		}
	}
	if list {
		var b strings.Builder
		for _, name := range Builtins() {
			fmt.Fprintf(&b, "enable %s\n", name)
		}
		fmt.Fprint(r.stdout(), b.String())
	}
	return 0
}

// execBuiltin supports "exec" with only redirections (which persist) and
// "exec cmd" (run, then exit).
func execBuiltin(r *runner, args []string) int {
	if len(args) == 1 {
		// The redirections of this statement persist: drop the saved
		// state by marking them permanent.
		r.persistRedirs = true
		return 0
	}
	a := args[1:]
	if a[0] == "--" {
		a = a[1:]
	}
	if len(a) == 0 {
		return 0
	}
	r.exec(a)
	r.exiting = true
	return r.status
}

// timesBuiltin prints zero times: there are no processes.
func timesBuiltin(r *runner, _ []string) int {
	fmt.Fprintln(r.stdout(), "0m0.000s 0m0.000s\n0m0.000s 0m0.000s")
	return 0
}

// pwdBuiltin prints the working directory.
func pwdBuiltin(r *runner, args []string) int {
	for _, a := range args[1:] {
		if a != "-L" && a != "-P" {
			if strings.HasPrefix(a, "-") {
				r.builtinErr(2, "pwd", "%s: invalid option", a[:2])
				fmt.Fprintln(r.stderr(), "pwd: usage: pwd [-LP]")
				return 2
			}
		}
	}
	fmt.Fprintln(r.stdout(), r.dir)
	return 0
}

// cdBuiltin changes the working directory (cd, cd -, cd DIR).
func cdBuiltin(r *runner, args []string) int {
	return r.cd("cd", args[1:])
}

// cd is cd with the arguments a, its errors naming the builtin name (cd,
// or pushd and popd, which change directory through it).
func (r *runner) cd(name string, a []string) int {
	for len(a) > 0 && (a[0] == "-L" || a[0] == "-P" || a[0] == "-e" || a[0] == "-@") {
		a = a[1:]
	}
	if len(a) > 0 && a[0] == "--" {
		a = a[1:]
	}
	if len(a) > 1 {
		return r.builtinErr(1, name, "too many arguments")
	}
	var dest string
	printDir := false
	switch {
	case len(a) == 0:
		if !r.isSetVar("HOME") {
			return r.builtinErr(1, name, "HOME not set")
		}
		dest = r.getVar("HOME")
	case a[0] == "-":
		if !r.isSetVar("OLDPWD") || r.getVar("OLDPWD") == "" {
			return r.builtinErr(1, name, "OLDPWD not set")
		}
		dest = r.getVar("OLDPWD")
		printDir = true
	default:
		dest = a[0]
	}
	if dest == "" {
		return 0
	}
	p := r.abs(dest)
	fi, err := r.sh.fs.Stat(p)
	if err != nil {
		return r.builtinErr(1, name, "%s: %s", dest, command.Strerror(err))
	}
	if !fi.IsDir() {
		return r.builtinErr(1, name, "%s: Not a directory", dest)
	}
	if r.sh.fs.Access(p, vfs.ExecOK) != nil {
		return r.builtinErr(1, name, "%s: Permission denied", dest)
	}
	old := r.dir
	r.dir = p
	r.setGlobal("OLDPWD", old, false)
	r.setGlobal("PWD", p, false)
	if printDir {
		fmt.Fprintln(r.stdout(), p)
	}
	return 0
}

// exitBuiltin ends the shell (or subshell).
func exitBuiltin(r *runner, args []string) int {
	st := r.status
	if len(args) > 1 {
		n, err := strconv.Atoi(strings.TrimSpace(args[1]))
		if err != nil {
			r.builtinErr(2, "exit", "%s: numeric argument required", args[1])
			st = 2
		} else {
			st = n & 0xff
		}
		if len(args) > 2 && err == nil {
			return r.builtinErr(1, "exit", "too many arguments")
		}
	}
	r.exiting = true
	return st
}

// returnBuiltin returns from a function or sourced file.
func returnBuiltin(r *runner, args []string) int {
	st := r.status
	if len(args) > 1 {
		n, err := strconv.Atoi(strings.TrimSpace(args[1]))
		if err != nil {
			r.builtinErr(2, "return", "%s: numeric argument required", args[1])
			st = 2
		} else {
			st = n & 0xff
		}
	}
	if len(r.funcNames) == 0 && len(r.calls) == 0 {
		return r.builtinErr(2, "return", "can only `return' from a function or sourced script")
	}
	r.returning = true
	return st
}

// breakBuiltin implements break and continue.
func breakBuiltin(r *runner, args []string) int {
	n := 1
	if len(args) > 2 {
		r.builtinErr(1, args[0], "too many arguments")
		if r.loopDepth > 0 {
			r.breakN = 1
		}
		return 1
	}
	if len(args) > 1 {
		k, err := strconv.Atoi(args[1])
		if err != nil {
			r.builtinErr(1, args[0], "%s: numeric argument required", args[1])
			r.exiting = true
			return 128
		}
		if k < 1 {
			return r.builtinErr(1, args[0], "%s: loop count out of range", args[1])
		}
		n = k
	}
	if r.loopDepth == 0 {
		r.builtinErr(0, args[0], "only meaningful in a `for', `while', or `until' loop")
		return 0
	}
	if n > r.loopDepth {
		n = r.loopDepth
	}
	if args[0] == "break" {
		r.breakN = n
	} else {
		r.contN = n
	}
	return 0
}

// evalString runs src as shell code in the current shell.
func (r *runner) evalString(src string) int {
	if r.depth >= r.sh.maxDepth {
		r.errf("eval: maximum nesting level exceeded (%d)", r.sh.maxDepth)
		return 1
	}
	r.depth++
	r.evalLevel++
	defer func() { r.depth--; r.evalLevel-- }()
	ran := false
	perr := r.runSource(src, false, func() bool {
		ran = true
		return r.stopped()
	})
	if !ran && perr == nil {
		r.status = 0
	}
	if perr != nil && !r.stopped() {
		r.syntaxError(perr)
		return 2
	}
	return r.status
}

// evalBuiltin runs its arguments as shell code.
func evalBuiltin(r *runner, args []string) int {
	a := args[1:]
	if len(a) > 0 && a[0] == "--" {
		a = a[1:]
	}
	line := r.lineno
	st := r.evalString(strings.Join(a, " "))
	r.lineno = line
	return st
}

// unsetBuiltin unsets variables, array elements and functions.
func unsetBuiltin(r *runner, args []string) int {
	mode := ""
	a := args[1:]
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && len(a[0]) > 1 {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		for _, c := range a[0][1:] {
			switch c {
			case 'v', 'f', 'n':
				mode = string(c)
			default:
				r.builtinErr(2, "unset", "-%c: invalid option", c)
				fmt.Fprintln(r.stderr(), "unset: usage: unset [-f] [-v] [-n] [name ...]")
				return 2
			}
		}
		a = a[1:]
	}
	st := 0
	for _, name := range a {
		if mode == "f" {
			delete(r.funcs, name)
			continue
		}
		base, idx, hasIdx := strings.Cut(name, "[")
		if hasIdx && strings.HasSuffix(idx, "]") {
			idx = idx[:len(idx)-1]
			if !r.unsetIndex(base, idx) {
				st = 1
			}
			continue
		}
		if !syntax.ValidName(name) {
			r.builtinErr(1, "unset", "`%s': not a valid identifier", name)
			st = 1
			continue
		}
		if mode == "n" {
			if err := r.unsetRaw(name); err != nil {
				r.builtinErr(1, "unset", "%s", err)
				st = 1
			}
			continue
		}
		if v, _ := r.lookupRaw(name); v != nil || mode == "v" {
			if err := r.unsetVar(name); err != nil {
				r.builtinErr(1, "unset", "%s", err)
				st = 1
			}
			continue
		}
		delete(r.funcs, name)
	}
	return st
}

// unsetIndex unsets one element of an array.
func (r *runner) unsetIndex(name, index string) bool {
	v, _ := r.lookup(name)
	if v == nil || !v.Set {
		return true
	}
	if v.readonly {
		r.builtinErr(1, "unset", "%s: cannot unset: readonly variable", name)
		return false
	}
	if v.Kind == expand.Associative {
		key := index
		if k, ok := r.expandString(index); ok {
			key = k
		}
		if key == "" {
			r.builtinErr(1, "unset", "[%s]: bad array subscript", index)
			return false
		}
		expansion.AssocDelete(&v.Variable, key)
		return true
	}
	if index == "@" || index == "*" {
		// unset 'a[@]' empties an indexed array, which stays declared
		if v.Kind == expand.Indexed {
			v.Variable = expansion.MakeIndexed(nil, nil)
		} else {
			v.Variable = expand.Variable{Kind: v.Kind}
		}
		return true
	}
	n, err := r.xp().ArithString(index)
	if err != nil {
		r.errf("%s", err)
		return false
	}
	idx, vals := expansion.ArrayItems(v.Variable)
	if n < 0 {
		if len(idx) > 0 {
			n += idx[len(idx)-1] + 1
		}
		if n < 0 {
			r.builtinErr(1, "unset", "[%s]: bad array subscript", index)
			return false
		}
	}
	i := sort.SearchInts(idx, n)
	if i < len(idx) && idx[i] == n {
		idx = append(idx[:i], idx[i+1:]...)
		vals = append(vals[:i], vals[i+1:]...)
		v.Variable = expansion.MakeIndexed(idx, vals)
	}
	return true
}

// expandString expands s as the inside of a double-quoted word.
func (r *runner) expandString(s string) (string, bool) {
	if expansion.TooDeep(s) {
		return s, false
	}
	p := expansion.NewParser()
	w, err := p.Document(strings.NewReader(s))
	if err != nil {
		return s, false
	}
	return r.literal(w)
}

// shiftBuiltin shifts the positional parameters.
func shiftBuiltin(r *runner, args []string) int {
	n := 1
	if len(args) > 1 {
		k, err := strconv.Atoi(args[1])
		if err != nil {
			return r.builtinErr(1, "shift", "%s: numeric argument required", args[1])
		}
		n = k
	}
	if n < 0 {
		return r.builtinErr(1, "shift", "%d: shift count out of range", n)
	}
	if n > len(r.params) {
		return 1
	}
	r.params = r.params[n:]
	return 0
}

// typeBuiltin describes command names.
func typeBuiltin(r *runner, args []string) int {
	a := args[1:]
	tflag, pflag, aflag, Pflag := false, false, false, false
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && len(a[0]) > 1 {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		for _, c := range a[0][1:] {
			switch c {
			case 't':
				tflag = true
			case 'p':
				pflag = true
			case 'P':
				Pflag = true
			case 'a':
				aflag = true
			case 'f':
			default:
				return r.builtinErr(2, "type", "-%c: invalid option", c)
			}
		}
		a = a[1:]
	}
	st := 0
	for _, name := range a {
		if aflag && !Pflag {
			if !r.typeAll(name, tflag, pflag) {
				if !tflag && !pflag {
					r.builtinErr(1, "type", "%s: not found", name)
				}
				st = 1
			}
			continue
		}
		kind := r.kindOf(name)
		switch {
		case Pflag:
			// A search for the program, whatever else the name denotes.
			paths := r.commandPaths(name, aflag)
			for _, p := range paths {
				fmt.Fprintln(r.stdout(), p)
			}
			if len(paths) == 0 {
				st = 1
			}
		case tflag:
			if kind == "" {
				st = 1
				continue
			}
			fmt.Fprintln(r.stdout(), kind)
		case pflag:
			if kind == "file" {
				fmt.Fprintln(r.stdout(), r.commandPath(name))
			} else if kind == "" {
				st = 1
			}
		default:
			switch kind {
			case "function":
				fmt.Fprintf(r.stdout(), "%s is a function\n", name)
				r.printFunc(name)
			case "builtin":
				fmt.Fprintf(r.stdout(), "%s is a shell builtin\n", name)
			case "keyword":
				fmt.Fprintf(r.stdout(), "%s is a shell keyword\n", name)
			case "file":
				if e, ok := r.hash[name]; ok {
					fmt.Fprintf(r.stdout(), "%s is hashed (%s)\n", name, e.path)
				} else {
					fmt.Fprintf(r.stdout(), "%s is %s\n", name, r.commandPath(name))
				}
			default:
				r.builtinErr(1, "type", "%s: not found", name)
				st = 1
			}
		}
	}
	return st
}

var keywords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true, "esac": true, "for": true, "select": true, "while": true, "until": true, "do": true, "done": true, "in": true, "function": true, "time": true, "{": true, "}": true, "!": true, "[[": true, "]]": true, "coproc": true}

// kindOf returns what a command name denotes for type -t.
func (r *runner) kindOf(name string) string {
	if r.aliases[name] != "" {
		return "alias"
	}
	if keywords[name] {
		return "keyword"
	}
	if _, ok := r.funcs[name]; ok {
		return "function"
	}
	if _, ok := builtins[name]; ok {
		return "builtin"
	}
	if r.commandPath(name) != "" {
		return "file"
	}
	return ""
}

// commandBuiltin runs a command skipping functions, or describes it (-v, -V).
func commandBuiltin(r *runner, args []string) int {
	a := args[1:]
	vflag, Vflag := false, false
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && len(a[0]) > 1 {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		for _, c := range a[0][1:] {
			switch c {
			case 'v':
				vflag = true
			case 'V':
				Vflag = true
			case 'p':
			default:
				r.builtinErr(2, "command", "-%c: invalid option", c)
				fmt.Fprintln(r.stderr(), "command: usage: command [-pVv] command [arg ...]")
				return 2
			}
		}
		a = a[1:]
	}
	if len(a) == 0 {
		return 0
	}
	if vflag || Vflag {
		// the status is 0 when any name is found, as in bash
		st := 1
		for _, name := range a {
			kind := r.kindOf(name)
			if kind != "" {
				st = 0
			}
			switch {
			case kind == "":
				if Vflag {
					r.builtinErr(1, "command", "%s: not found", name)
				}
			case Vflag:
				typeBuiltin(r, []string{"type", name})
			case kind == "file":
				fmt.Fprintln(r.stdout(), r.commandPath(name))
			case kind == "alias":
				fmt.Fprintf(r.stdout(), "alias %s=%s\n", name, shQuote(r.aliases[name]))
			default:
				fmt.Fprintln(r.stdout(), name)
			}
		}
		return st
	}
	name := a[0]
	if b, ok := builtins[name]; ok {
		return b(r, a)
	}
	r.external(a)
	return r.status
}

// builtinBuiltin runs a builtin skipping functions.
func builtinBuiltin(r *runner, args []string) int {
	if len(args) < 2 {
		return 0
	}
	b, ok := builtins[args[1]]
	if !ok {
		return r.builtinErr(1, "builtin", "%s: not a shell builtin", args[1])
	}
	return b(r, args[1:])
}

// trapBuiltin records traps; only EXIT ever runs.
func trapBuiltin(r *runner, args []string) int {
	a := args[1:]
	if len(a) > 0 && a[0] == "--" {
		a = a[1:]
	}
	if len(a) == 0 || a[0] == "-p" {
		for _, k := range sortedKeys(r.traps) {
			fmt.Fprintf(r.stdout(), "trap -- %s %s\n", shQuote(r.traps[k]), k)
		}
		return 0
	}
	if a[0] == "-l" {
		fmt.Fprintln(r.stdout(), " 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP")
		return 0
	}
	code := a[0]
	sigs := a[1:]
	if len(sigs) == 0 {
		sigs = []string{code}
		code = "-"
	}
	st := 0
	for _, s := range sigs {
		name := strings.TrimPrefix(strings.ToUpper(s), "SIG")
		switch name {
		case "0":
			name = "EXIT"
		case "EXIT", "ERR", "DEBUG", "RETURN", "HUP", "INT", "QUIT", "TERM", "USR1", "USR2", "PIPE", "ALRM", "CHLD", "1", "2", "3", "15", "9", "KILL", "STOP", "CONT", "TSTP", "WINCH":
		default:
			r.builtinErr(1, "trap", "%s: invalid signal specification", s)
			st = 1
			continue
		}
		if code == "-" {
			delete(r.traps, name)
		} else {
			r.traps[name] = code
		}
	}
	return st
}

// letBuiltin evaluates arithmetic expressions.
func letBuiltin(r *runner, args []string) int {
	if len(args) < 2 {
		return r.builtinErr(1, "let", "expression expected")
	}
	st := 1
	for _, e := range args[1:] {
		n, err := r.xp().ArithString(e)
		if err != nil {
			r.builtinErr(1, "let", "%s", err)
			if expansion.IsFatal(err) {
				r.status = r.fatalStatusOf(err)
				r.exiting = true
				return r.status
			}
			return 1
		}
		st = boolStatus(n != 0)
	}
	return st
}

// aliasBuiltin records aliases (they are not expanded).
func aliasBuiltin(r *runner, args []string) int {
	if len(args) == 1 {
		for _, k := range sortedKeys(r.aliases) {
			fmt.Fprintf(r.stdout(), "alias %s=%s\n", k, shQuote(r.aliases[k]))
		}
		return 0
	}
	st := 0
	for _, a := range args[1:] {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			if v, ok := r.aliases[name]; ok {
				fmt.Fprintf(r.stdout(), "alias %s=%s\n", name, shQuote(v))
			} else {
				r.builtinErr(1, "alias", "%s: not found", name)
				st = 1
			}
			continue
		}
		r.aliases[name] = val
	}
	return st
}

// getoptsBuiltin parses options like POSIX getopts.
func getoptsBuiltin(r *runner, args []string) int {
	if len(args) < 3 {
		fmt.Fprintln(r.stderr(), "getopts: usage: getopts optstring name [arg ...]")
		return 2
	}
	optstr, name := args[1], args[2]
	if !syntax.ValidName(name) {
		return r.builtinErr(1, "getopts", "`%s': not a valid identifier", name)
	}
	params := r.params
	if len(args) > 3 {
		params = args[3:]
	}
	silent := strings.HasPrefix(optstr, ":")
	if silent {
		optstr = optstr[1:]
	}
	// OPTERR=0 silences the messages, not the rest of the normal mode.
	quiet := silent || r.getVar("OPTERR") == "0"
	optind, _ := strconv.Atoi(r.getVar("OPTIND"))
	if optind < 1 {
		optind = 1
	}
	if optind != r.optind {
		r.optind = optind
		r.optsub = 0
	}
	setInd := func(n int) {
		r.optind = n
		r.setGlobal("OPTIND", strconv.Itoa(n), false)
	}
	if optind-1 >= len(params) {
		r.setGlobal(name, "?", false)
		return 1
	}
	arg := params[optind-1]
	if r.optsub == 0 {
		if len(arg) < 2 || arg[0] != '-' {
			r.setGlobal(name, "?", false)
			return 1
		}
		if arg == "--" {
			setInd(optind + 1)
			r.setGlobal(name, "?", false)
			return 1
		}
		r.optsub = 1
	}
	c := arg[r.optsub]
	r.optsub++
	next := func() {
		if r.optsub >= len(arg) {
			r.optsub = 0
			setInd(optind + 1)
		}
	}
	i := strings.IndexByte(optstr, c)
	if i < 0 || c == ':' {
		if silent {
			r.setGlobal("OPTARG", string(c), false)
		} else {
			if !quiet {
				fmt.Fprintf(r.stderr(), "%s: illegal option -- %c\n", r.name, c)
			}
			r.unsetVar("OPTARG")
		}
		r.setGlobal(name, "?", false)
		next()
		return 0
	}
	if i+1 < len(optstr) && optstr[i+1] == ':' {
		if r.optsub < len(arg) {
			r.setGlobal("OPTARG", arg[r.optsub:], false)
			r.optsub = 0
			setInd(optind + 1)
		} else if optind < len(params) {
			r.setGlobal("OPTARG", params[optind], false)
			r.optsub = 0
			setInd(optind + 2)
		} else {
			r.optsub = 0
			setInd(optind + 1)
			if silent {
				r.setGlobal(name, ":", false)
				r.setGlobal("OPTARG", string(c), false)
			} else {
				if !quiet {
					fmt.Fprintf(r.stderr(), "%s: option requires an argument -- %c\n", r.name, c)
				}
				r.setGlobal(name, "?", false)
				r.unsetVar("OPTARG")
			}
			return 0
		}
		r.setGlobal(name, string(c), false)
		return 0
	}
	r.unsetVar("OPTARG")
	r.setGlobal(name, string(c), false)
	next()
	return 0
}
