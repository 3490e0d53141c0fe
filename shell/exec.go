package shell

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// yieldCPU lets other goroutines run (wasm has no preemption).
func yieldCPU() { runtime.Gosched() }

// stmts runs a list of statements.
func (r *runner) stmts(list []*syntax.Stmt) {
	for _, st := range list {
		if r.stopped() {
			return
		}
		r.stmt(st)
	}
}

// unsupported reports a construct the sandbox cannot run. It is fatal,
// like a syntax error, so that a script never goes on with a wrong result.
func (r *runner) unsupported(what string) {
	r.errf("%s are not supported in this sandbox", what)
	r.status = 2
	r.exiting = true
}

// stmt runs one statement with its redirections.
func (r *runner) stmt(st *syntax.Stmt) {
	if st == nil || r.stopped() || r.opts.noexec {
		return
	}
	r.lineno = int(st.Position.Line())
	// The process substitutions of this statement's words and
	// redirections end with it (unless exec keeps its redirections).
	psubMark := len(r.psubs)
	defer r.endProcSubsts(psubMark)
	switch {
	case st.Background:
		r.background(st)
		return
	case st.Coprocess:
		r.unsupported("coprocesses")
		return
	}
	if len(st.Redirs) == 0 && r.wordFds != nil {
		oldWordFds := r.wordFds
		r.wordFds = nil
		defer func() { r.wordFds = oldWordFds }()
	}
	if len(st.Redirs) > 0 {
		oldTrace := r.traceW
		if r.opts.xtrace {
			r.traceW = r.stderr()
		}
		defer func() { r.traceW = oldTrace }()
		saved := r.saveFds()
		openedBefore := len(r.opened)
		// bash expands the words before it redirects: a process
		// substitution among them gets the descriptors from before.
		oldWordFds := r.wordFds
		r.wordFds = saved
		defer func() { r.wordFds = oldWordFds }()
		ok := true
		for _, rd := range st.Redirs {
			if err := r.redirect(rd); err != nil {
				if err != errReported {
					r.errf("%s", err)
				}
				ok = false
				break
			}
		}
		if !ok {
			r.restoreFds(saved, openedBefore)
			if r.exiting {
				return
			}
			r.status = 1
			if st.Negated {
				r.status = 0
				return
			}
			if r.opts.errexit && r.noErrExit == 0 {
				r.exiting = true
			}
			return
		}
		defer func() {
			if r.persistRedirs {
				// "exec > >(tee log)": the process substitutions
				// stay open with the descriptors, until the shell ends.
				r.persistRedirs = false
				for _, p := range r.psubs[psubMark:] {
					r.opened = append(r.opened, p.c)
				}
				r.psubs = r.psubs[:psubMark]
				return
			}
			r.restoreFds(saved, openedBefore)
		}()
	}
	if st.Negated {
		r.noErrExit++
	}
	r.cmd(st.Cmd)
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.Subshell, *syntax.ArithmCmd, *syntax.TestClause, *syntax.DeclClause, *syntax.LetClause:
		r.pipestatus = []int{r.status}
	}
	if st.Negated {
		r.noErrExit--
		if r.status == 0 {
			r.status = 1
		} else {
			r.status = 0
		}
		return
	}
	if r.pipeOut != nil && r.pipeOut.broken.Load() {
		r.status = 141
		r.exiting = true
		return
	}
	r.checkErrExit(st)
}

// checkErrExit implements set -e after a statement.
func (r *runner) checkErrExit(st *syntax.Stmt) {
	if !r.opts.errexit || r.status == 0 || r.noErrExit > 0 || r.exiting || r.returning {
		return
	}
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			return
		}
	case *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause, *syntax.FuncDecl:
		return
	}
	r.exiting = true
}

// cmd runs one command.
func (r *runner) cmd(c syntax.Command) {
	if err := r.ctxErr(); err != nil {
		return
	}
	switch c := c.(type) {
	case nil:
		r.status = 0
	case *syntax.CallExpr:
		r.call(c)
	case *syntax.Block:
		r.stmts(c.Stmts)
	case *syntax.Subshell:
		child := r.subshell()
		child.stmts(c.Stmts)
		child.runExitTrap()
		child.closeAll()
		r.status = child.status
	case *syntax.IfClause:
		r.ifClause(c)
	case *syntax.WhileClause:
		r.whileClause(c)
	case *syntax.ForClause:
		r.forClause(c)
	case *syntax.CaseClause:
		r.caseClause(c)
	case *syntax.BinaryCmd:
		r.binaryCmd(c)
	case *syntax.FuncDecl:
		names := c.Names
		if c.Name != nil {
			names = []*syntax.Lit{c.Name}
		}
		for _, n := range names {
			if old, ok := r.funcs[n.Value]; ok && old != c.Body {
				r.sh.funcDefs.Delete(old)
			}
			r.funcs[n.Value] = c.Body
		}
		r.sh.funcDefs.Store(c.Body, funcDef{src: r.curSrc, file: r.defFile()})
		r.status = 0
	case *syntax.ArithmCmd:
		if r.opts.xtrace {
			r.traceArith(r.arithCmdText(c))
		}
		n, err := r.xp().Arith(c.X)
		if err != nil {
			r.arithErr(err)
			return
		}
		r.status = boolStatus(n != 0)
	case *syntax.TestClause:
		ok, err := r.testExpr(c.X)
		if err != nil {
			if err != errReported {
				r.errf("%s", err)
			}
			r.status = 2
			return
		}
		r.status = boolStatus(ok)
	case *syntax.DeclClause:
		r.declClause(c)
	case *syntax.LetClause:
		r.status = 0
		if r.opts.xtrace && !r.traceLet(c) {
			return
		}
		for _, e := range c.Exprs {
			var n int
			var err error
			if w, ok := e.(*syntax.Word); ok && (len(w.Parts) != 1 || !isLit(w.Parts[0])) {
				s, ok := r.literal(w)
				if !ok {
					return
				}
				n, err = r.xp().ArithString(s)
			} else {
				n, err = r.xp().Arith(e)
			}
			if err != nil {
				r.errf("let: %s", err)
				r.status = 1
				return
			}
			r.status = boolStatus(n != 0)
		}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			r.stmt(c.Stmt)
		} else {
			r.status = 0
		}
		fmt.Fprintf(r.stderr(), "\nreal\t0m0.000s\nuser\t0m0.000s\nsys\t0m0.000s\n")
	case *syntax.CoprocClause:
		r.unsupported("coprocesses")
	case *syntax.TestDecl:
		r.unsupported("test declarations")
	default:
		r.unsupported(fmt.Sprintf("%T commands", c))
	}
}

// arithErr reports an error of (( )), let or for (( )).
func (r *runner) arithErr(err error) {
	if err == errReported || r.exiting {
		r.status = 1
		return
	}
	r.status = 1
	if expansion.IsFatal(err) {
		// an unset variable under set -u: no "((: " prefix, and the
		// shell exits
		r.errf("%s", err)
		r.status = r.fatalStatusOf(err)
		r.exiting = true
		return
	}
	r.errf("((: %s", err)
}

// isLit reports whether p is a literal.
func isLit(p syntax.WordPart) bool {
	_, ok := p.(*syntax.Lit)
	return ok
}

// boolStatus converts a truth value to an exit status.
func boolStatus(ok bool) int {
	if ok {
		return 0
	}
	return 1
}

// cond runs a condition list (where set -e does not apply).
func (r *runner) cond(list []*syntax.Stmt) bool {
	r.noErrExit++
	r.stmts(list)
	r.noErrExit--
	return r.status == 0
}

// ifClause runs if/elif/else.
func (r *runner) ifClause(c *syntax.IfClause) {
	for c != nil {
		if !c.ThenPos.IsValid() {
			// the final "else" branch
			r.stmts(c.Then)
			return
		}
		ok := r.cond(c.Cond)
		if r.stopped() {
			return
		}
		if ok {
			r.stmts(c.Then)
			return
		}
		c = c.Else
	}
	r.status = 0
}

// loopControl handles break and continue after a loop body; it reports
// whether the loop must stop.
func (r *runner) loopControl() bool {
	if r.breakN > 0 {
		r.breakN--
		return true
	}
	if r.contN > 0 {
		r.contN--
		return r.contN > 0
	}
	return r.exiting || r.returning || r.aborting || r.ctxErr() != nil
}

// whileClause runs while and until loops.
func (r *runner) whileClause(c *syntax.WhileClause) {
	r.loopDepth++
	defer func() { r.loopDepth-- }()
	status := 0
	for {
		if r.ctxErr() != nil {
			return
		}
		ok := r.cond(c.Cond)
		if r.stopped() {
			if r.loopControl() {
				break
			}
			continue
		}
		if ok == c.Until {
			break
		}
		r.stmts(c.Do)
		status = r.status
		if r.loopControl() {
			break
		}
	}
	if !r.exiting && !r.returning {
		r.status = status
	}
}

// forClause runs both forms of for loops.
func (r *runner) forClause(c *syntax.ForClause) {
	if l, ok := c.Loop.(*syntax.WordIter); ok && c.Select {
		r.selectLoop(c, l)
		return
	}
	r.loopDepth++
	defer func() { r.loopDepth-- }()
	r.status = 0
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		var items []string
		if l.InPos.IsValid() {
			var ok bool
			items, ok = r.fields(l.Items...)
			if !ok {
				return
			}
		} else {
			items = append(items, r.params...)
		}
		name := l.Name.Value
		if !syntax.ValidName(name) {
			r.errf("`%s': not a valid identifier", name)
			r.status = 1
			return
		}
		for _, it := range items {
			if r.ctxErr() != nil {
				return
			}
			if r.opts.xtrace {
				r.traceText(forInText(l))
			}
			var err error
			if v, _ := r.lookupRaw(name); v != nil && v.Kind == expand.NameRef {
				// each word becomes the nameref's target
				err = r.setRefValue(name, v, it)
			} else {
				err = r.assign(name, vstr(it), false)
			}
			if err != nil {
				if err != errReported {
					r.errf("%s", err)
				}
				r.status = 1
				return
			}
			r.stmts(c.Do)
			if r.loopControl() {
				break
			}
		}
	case *syntax.CStyleLoop:
		if r.opts.xtrace {
			r.traceArith(r.loopPartText(l.Init))
		}
		if l.Init != nil {
			if _, err := r.xp().Arith(l.Init); err != nil {
				r.arithErr(err)
				return
			}
		}
		for {
			if r.ctxErr() != nil {
				return
			}
			if r.opts.xtrace {
				r.traceArith(r.loopPartText(l.Cond))
			}
			if l.Cond != nil {
				n, err := r.xp().Arith(l.Cond)
				if err != nil {
					r.arithErr(err)
					return
				}
				if n == 0 {
					break
				}
			}
			r.stmts(c.Do)
			if r.loopControl() {
				break
			}
			if r.opts.xtrace {
				r.traceArith(r.loopPartText(l.Post))
			}
			if l.Post != nil {
				if _, err := r.xp().Arith(l.Post); err != nil {
					r.arithErr(err)
					return
				}
			}
		}
	}
}

// caseClause runs case, with ;; ;& and ;;&.
func (r *runner) caseClause(c *syntax.CaseClause) {
	if r.opts.xtrace {
		r.traceText("case " + wordSource(c.Word) + " in")
	}
	word, ok := r.literal(c.Word)
	if !ok {
		return
	}
	r.status = 0
	fall := false
	for _, item := range c.Items {
		matched := fall
		if !matched {
			for _, pw := range item.Patterns {
				pat, ok := r.pattern(pw)
				if !ok {
					return
				}
				if r.match(pat, word, r.opts.extglob) {
					matched = true
					break
				}
			}
		}
		if !matched {
			continue
		}
		r.stmts(item.Stmts)
		switch item.Op {
		case syntax.Fallthrough:
			fall = true
			continue
		case syntax.Resume:
			fall = false
			continue
		}
		return
	}
}

// match reports whether s matches the shell pattern pat (whole string),
// with the extended operators when extglob is on ([[ ]] always has them).
func (r *runner) match(pat, s string, extglob bool) bool {
	if extglob && expansion.HasExtGlob(pat) {
		mode := expansion.MatchExtGlob
		if r.opts.nocasematch {
			mode |= expansion.MatchFold
		}
		return expansion.CompileMatcher(pat, mode).Match(s)
	}
	mode := pattern.EntireString
	if r.opts.nocasematch {
		mode |= pattern.NoGlobCase
	}
	re, err := expansion.CompilePattern(pat, mode)
	if err != nil {
		return pat == s
	}
	return re.MatchString(s)
}

// binaryCmd runs && || and pipelines.
func (r *runner) binaryCmd(c *syntax.BinaryCmd) {
	switch c.Op {
	case syntax.AndStmt, syntax.OrStmt:
		r.noErrExit++
		r.stmt(c.X)
		r.noErrExit--
		if r.stopped() {
			return
		}
		if (r.status == 0) == (c.Op == syntax.AndStmt) {
			r.stmt(c.Y)
		}
	case syntax.Pipe, syntax.PipeAll:
		r.pipeline(c)
	}
}

// call runs a simple command.
func (r *runner) call(ce *syntax.CallExpr) {
	r.substStatus = 0
	if len(ce.Args) == 0 {
		r.assignTrace = true
		for _, as := range ce.Assigns {
			if !r.assignStmt(as, false) {
				r.assignTrace = false
				if !r.exiting {
					r.status = 1
				}
				return
			}
		}
		r.assignTrace = false
		r.status = r.substStatus
		return
	}
	args, ok := r.fields(ce.Args...)
	if !ok {
		return
	}
	if len(args) == 0 {
		r.assignTrace = true
		defer func() { r.assignTrace = false }()
		for _, as := range ce.Assigns {
			if !r.assignStmt(as, false) {
				r.status = 1
				return
			}
		}
		r.status = r.substStatus
		return
	}
	if len(ce.Assigns) > 0 {
		// Temporary assignments: a frame of exported variables.
		fr := newFrame()
		for _, as := range ce.Assigns {
			if as.Name == nil {
				continue
			}
			if old, _ := r.lookup(as.Name.Value); old != nil && old.readonly {
				r.errf("%s: readonly variable", as.Name.Value)
				r.status = 1
				return
			}
		}
		r.frames = append(r.frames, fr)
		for _, as := range ce.Assigns {
			if as.Name == nil {
				continue
			}
			s := ""
			if as.Value != nil {
				v, ok := r.assignValue(as.Value)
				if !ok {
					r.frames = r.frames[:len(r.frames)-1]
					return
				}
				s = v
			} else if as.Array != nil {
				s = "(" + strings.TrimSuffix(strings.TrimPrefix(wordSourceNode(as.Array), "("), ")") + ")"
			}
			if as.Append {
				s = r.getVar(as.Name.Value) + s
			}
			fr.vars[as.Name.Value] = &variable{Variable: vstr(s), exported: true}
		}
		if r.opts.xtrace {
			r.traceAssigns(ce.Assigns)
		}
		defer func() {
			// keep the frame stack intact even if a function popped
			for i := len(r.frames) - 1; i >= 0; i-- {
				if r.frames[i] == fr {
					r.frames = append(r.frames[:i], r.frames[i+1:]...)
					break
				}
			}
		}()
	}
	if r.opts.xtrace {
		r.trace(args)
	}
	r.exec(args)
	if len(args) > 0 {
		r.lastArg = args[len(args)-1]
	}
}

// shQuote quotes s the way bash's xtrace and printf %q do (roughly).
func shQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_-./,:+=@%^", c) || c > 127) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// exec runs a command given its expanded arguments.
func (r *runner) exec(args []string) {
	if err := r.ctxErr(); err != nil {
		return
	}
	name := args[0]
	if body, ok := r.funcs[name]; ok {
		r.callFunc(name, body, args[1:])
		return
	}
	if b, ok := builtins[name]; ok {
		r.status = b(r, args)
		return
	}
	r.external(args)
}

// external runs a command found in $PATH: a registered command in a
// directory of systemDirs, or a script file (also given by path).
func (r *runner) external(args []string) {
	name := args[0]
	if !strings.Contains(name, "/") {
		r.pathCommand(args)
		return
	}
	for _, comp := range strings.Split(name, "/") {
		if len(comp) > 255 {
			r.errf("%s: File name too long", name)
			r.status = 126
			return
		}
	}
	p := r.abs(name)
	fi, err := r.sh.fs.Stat(p)
	if err != nil {
		r.errf("%s: %s", name, command.Strerror(err))
		r.status = 127
		if vfs.Code(err) == "ENAMETOOLONG" {
			r.status = 126
		}
		return
	}
	if fi.IsDir() {
		r.errf("%s: Is a directory", name)
		r.status = 126
		return
	}
	if r.sh.fs.Access(p, vfs.ExecOK) != nil {
		r.errf("%s: Permission denied", name)
		r.status = 126
		return
	}
	data, err := r.sh.fs.ReadFile(p)
	if err != nil {
		// The file could be executed but not read: the error is the new
		// shell's, before it has a line number.
		fmt.Fprintf(r.stderr(), "%s: %s: %s\n", r.name, name, command.Strerror(err))
		r.status = 126
		return
	}
	r.status = r.runChildScript(name, string(data), 0, args[1:])
}

// pathCommand runs a command whose name has no slash, found in $PATH.
func (r *runner) pathCommand(args []string) {
	name := args[0]
	if dir, ok := r.lookProgram(name); ok {
		r.hashUse(dir, name)
		if fn, ok := r.sh.commands[name]; ok {
			r.status = r.runCommand(fn, args)
			return
		}
		if name == "sh" || name == "bash" {
			r.status = r.shellCommand(args)
			return
		}
		if b, ok := builtins[name]; ok {
			r.status = b(r, args)
			return
		}
	}
	scripts, plain := r.pathScripts(name, false)
	if len(scripts) == 0 {
		switch {
		case plain != "":
			// execvp found only a file without execute permission.
			r.errf("%s: Permission denied", plain)
			r.status = 126
		case !r.pathSet():
			// bash tries the name in the current directory
			r.errf("%s: No such file or directory", name)
			r.status = 127
		default:
			r.errf("%s: command not found", name)
			r.status = 127
		}
		return
	}
	p := scripts[0]
	r.hashUse(path.Dir(p), name)
	data, err := r.sh.fs.ReadFile(r.abs(p))
	if err != nil {
		fmt.Fprintf(r.stderr(), "%s: %s: %s\n", r.name, p, command.Strerror(err))
		r.status = 126
		return
	}
	r.status = r.runChildScript(name, string(data), 0, args[1:])
}

// pathSet reports whether $PATH is set.
func (r *runner) pathSet() bool {
	v, _ := r.lookup("PATH")
	return v != nil && v.Set
}

// lookupCommand implements command.Env.Lookup: whether execvp could run
// name, which is neither a function nor a builtin unless a program has
// its name too.
func (r *runner) lookupCommand(name string) error {
	if !strings.Contains(name, "/") {
		// Functions and builtins are the shell's: only those that
		// are also programs (echo, test...) can be run this way.
		if _, ok := r.sh.commands[name]; ok || name == "sh" || name == "bash" || programBuiltins[name] {
			return nil
		}
		scripts, plain := r.pathScripts(name, false)
		switch {
		case len(scripts) > 0:
			return nil
		case plain != "":
			return &fs.PathError{Op: "exec", Path: plain, Err: syscall.EACCES}
		}
		return &fs.PathError{Op: "exec", Path: name, Err: syscall.ENOENT}
	}
	p := r.abs(name)
	fi, err := r.sh.fs.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return &fs.PathError{Op: "exec", Path: p, Err: syscall.EACCES}
	}
	return r.sh.fs.Access(p, vfs.ExecOK)
}

// shellCommand emulates running "sh" or "bash" (when no registered command
// has that name): "-c script [name [args...]]", "file [args...]", or a
// script read from standard input, in a fresh shell state. The options
// -e -u -x -f -C and -o NAME are honored.
func (r *runner) shellCommand(args []string) int {
	a := args[1:]
	var set []string
	cmdMode := false
	for len(a) > 0 && len(a[0]) > 1 && (a[0][0] == '-' || a[0][0] == '+') {
		opt := a[0]
		a = a[1:]
		if opt == "--" || opt == "-" {
			break
		}
		for _, c := range opt[1:] {
			switch c {
			case 'c':
				cmdMode = true
			case 'o':
				if len(a) > 0 {
					set = append(set, string(opt[0])+"o", a[0])
					a = a[1:]
				}
			case 'e', 'u', 'x', 'f', 'C', 'v', 'a', 'n':
				set = append(set, string(opt[0])+string(c))
			case 's', 'i', 'l', 'p', 'r':
			default:
				r.errf("%s: -%c: invalid option", args[0], c)
				return 2
			}
		}
	}
	var name, src string
	var params []string
	var invocation byte
	switch {
	case cmdMode:
		invocation = 'c'
		if len(a) == 0 {
			r.errf("%s: -c: option requires an argument", args[0])
			return 2
		}
		src, name = a[0], args[0]
		if len(a) > 1 {
			name, params = a[1], a[2:]
		}
	case len(a) > 0:
		data, err := r.sh.fs.ReadFile(r.abs(a[0]))
		if err != nil {
			fmt.Fprintf(r.stderr(), "%s: %s: %s\n", args[0], a[0], command.Strerror(err))
			if vfs.Code(err) == "ENOENT" {
				return 127
			}
			return 126
		}
		src, name, params = string(data), a[0], a[1:]
	default:
		var b strings.Builder
		if _, err := io.Copy(&limitWriter{w: &b, max: maxCaptured}, r.reader(0)); err != nil {
			r.errf("%s: %s", args[0], err)
			return 1
		}
		src, name, invocation = b.String(), args[0], 's'
	}
	return r.runChildScript(name, src, invocation, params, set...)
}

// runChildScript runs a script like a new bash process: a fresh state
// with only the exported variables.
// setArgs are applied with the set builtin first.
func (r *runner) runChildScript(name, src string, invocation byte, args []string, setArgs ...string) int {
	if r.depth >= r.sh.maxDepth {
		r.errf("%s: maximum function nesting level exceeded (%d)", name, r.sh.maxDepth)
		return 1
	}
	child := &runner{
		sh: r.sh, limit: r.limit, name: name, params: args, dir: r.dir,
		frames: []*frame{newFrame()}, funcs: map[string]*syntax.Stmt{}, aliases: map[string]string{},
		traps: map[string]string{}, fds: map[int]*fdesc{}, optind: 1, depth: r.depth + 1,
		opts: newOptions(), invocation: invocation,
	}
	for k, v := range r.fds {
		child.fds[k] = v
	}
	for _, kv := range r.environ() {
		k, v, _ := strings.Cut(kv, "=")
		child.frames[0].vars[k] = &variable{Variable: vstr(v), exported: true}
	}
	for name, on := range r.exportedFuncs {
		if body, ok := r.funcs[name]; ok && on {
			child.funcs[name] = body
			if child.exportedFuncs == nil {
				child.exportedFuncs = map[string]bool{}
			}
			child.exportedFuncs[name] = true
		}
	}
	for k, v := range map[string]string{"IFS": " \t\n", "PS4": "+ ", "OPTIND": "1"} {
		if _, ok := child.frames[0].vars[k]; !ok {
			child.frames[0].vars[k] = &variable{Variable: vstr(v)}
		}
	}
	if len(setArgs) > 0 {
		if st := setBuiltin(child, append([]string{"set"}, setArgs...)); st != 0 {
			return st
		}
	}
	if invocation == 'c' {
		child.frames[0].vars["BASH_EXECUTION_STRING"] = &variable{Variable: vstr(src)}
	}
	st := child.runScript(src, true)
	child.closeAll()
	return st
}

// runCommand runs a registered command, recovering its panics.
func (r *runner) runCommand(fn command.Func, args []string) (status int) {
	stdin := r.reader(0)
	stdout := r.writer(1)
	stderr := r.writer(2)
	var sigpipe *pipeWriter
	if pw, ok := stdout.(*pipeWriter); ok {
		sigpipe = pw
		stderr = &pipeGuardWriter{w: stderr, pw: pw}
	}
	env := &command.Env{
		Ctx:     r.commandCtx(),
		Args:    args,
		Stdin:   stdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Dir:     r.dir,
		FS:      r.sh.fs,
		Environ: r.environ(),
		Now:     r.sh.now,
		FDs:     r.commandFDs(),
	}
	// What the command buffered comes out before its error messages and
	// before the output of the commands it runs (xargs, find -exec).
	env.OrderStderr()
	env.Exec = func(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
		env.Flush()
		return r.execCallback(ctx, args, environ, stdin, stdout, stderr)
	}
	env.Lookup = r.lookupCommand
	defer func() {
		env.Release()
		if p := recover(); p != nil {
			fmt.Fprintf(r.stderr(), "%s: internal error: %v\n", args[0], p)
			status = 2
		}
		if sigpipe != nil && sigpipe.broken.Load() {
			status = 141
		}
	}()
	st := fn(env)
	if st < 0 || st > 255 {
		st &= 0xff
	}
	return st
}

// execCallback implements command.Env.Exec.
func (r *runner) execCallback(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return 0
	}
	if ctx != nil && ctx.Err() != nil {
		return CanceledStatus
	}
	child := r.subshell()
	if ctx != nil {
		child.limit = ctx
	}
	if environ != nil {
		child.replaceEnviron(environ)
	}
	child.fds[0] = &fdesc{r: stdin}
	child.fds[1] = &fdesc{w: stdout}
	child.fds[2] = &fdesc{w: stderr}
	child.execvp = true
	child.exec(args)
	return child.status
}

// commandCtx returns the context for a command: the run's, or the
// narrower one of the Env.Exec call that started this shell.
func (r *runner) commandCtx() context.Context {
	if r.limit != nil {
		return r.limit
	}
	return r.sh.commandCtx()
}

// done is closed when the run, or this shell's narrower context, is done.
func (r *runner) done() <-chan struct{} {
	if r.limit != nil {
		return r.limit.Done()
	}
	return r.sh.ctx.Done()
}

// callFunc calls a shell function.
func (r *runner) callFunc(name string, body *syntax.Stmt, args []string) {
	if r.depth >= r.sh.maxDepth || len(r.funcNames) >= r.sh.maxDepth {
		r.errf("%s: maximum function nesting level exceeded (%d)", name, r.sh.maxDepth)
		r.status = 1
		r.aborting = true
		return
	}
	oldParams := r.params
	r.params = args
	r.funcNames = append(r.funcNames, name)
	r.frames = append(r.frames, newFrame())
	r.depth++
	oldLoop := r.loopDepth
	r.loopDepth = 0
	oldSrc := r.curSrc
	def, ok := r.funcDef(body)
	if ok {
		r.curSrc = def.src
	}
	r.calls = append(r.calls, callFrame{name: name, file: def.file, line: r.lineno})
	r.stmt(body)
	r.calls = r.calls[:len(r.calls)-1]
	r.curSrc = oldSrc
	r.loopDepth = oldLoop
	r.depth--
	r.frames = r.frames[:len(r.frames)-1]
	r.funcNames = r.funcNames[:len(r.funcNames)-1]
	r.params = oldParams
	r.returning = false
	r.breakN, r.contN = 0, 0
}

// subshell returns a copy of r for a subshell.
func (r *runner) subshell() *runner {
	c := *r
	c.frames = make([]*frame, len(r.frames))
	for i, f := range r.frames {
		c.frames[i] = f.clone()
	}
	c.exportedFuncs = maps.Clone(r.exportedFuncs)
	c.funcs = make(map[string]*syntax.Stmt, len(r.funcs))
	for k, v := range r.funcs {
		c.funcs[k] = v
	}
	c.aliases = map[string]string{}
	c.traps = map[string]string{}
	c.fds = r.saveFds()
	c.opened = nil
	c.psubs = nil
	c.wordFds = nil
	c.jobs, c.jobNum, c.waited, c.lastProcSubst = nil, 0, nil, nil
	c.params = append([]string(nil), r.params...)
	c.funcNames = append([]string(nil), r.funcNames...)
	c.calls = slices.Clone(r.calls)
	if r.hash != nil {
		// the table is shared until one of them changes it (lookup.go)
		c.hashShared, r.hashShared = true, true
	}
	c.subLevel++
	c.loopDepth = 0
	c.exitTrap = false
	c.pipestatus = nil
	return &c
}

// abs resolves a path against the working directory.
func (r *runner) abs(p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(r.dir, p)
}

// commandFDs returns the descriptors above 2 for a command's Env (nil
// when there are none).
func (r *runner) commandFDs() map[int]command.Descriptor {
	var m map[int]command.Descriptor
	for n, d := range r.fds {
		if n > 2 && d != nil {
			if m == nil {
				m = make(map[int]command.Descriptor)
			}
			m[n] = command.Descriptor{R: d.r, W: d.w}
		}
	}
	return m
}
