package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// Config configures one run of a script.
type Config struct {
	// FS is the sandbox file system. It is required.
	FS *vfs.FS
	// Commands holds the external commands (cat, grep, ...). Builtins take
	// precedence over them, and functions over both, as in bash.
	Commands command.Registry
	// Stdin is the script's standard input; nil means an empty input. Its
	// Read should not block forever: a command blocked in it cannot be
	// stopped by the context.
	Stdin io.Reader
	// Stdout and Stderr receive the script's output. Both are required.
	Stdout, Stderr io.Writer
	// Dir is the initial working directory; it defaults to "/workspace".
	Dir string
	// Env lists the initial exported variables as "NAME=value". The
	// defaults HOME=/workspace, PATH=/usr/bin:/bin and PWD=<Dir> are set
	// first, so given values win.
	Env []string
	// Now is the clock given to commands; it defaults to time.Now.
	Now func() time.Time
	// MaxDepth bounds the nesting of function calls, command
	// substitutions, eval and source; it defaults to 1000.
	MaxDepth int
	// Args holds the positional parameters $1, $2, ...
	Args []string
	// File runs the script the way bash runs a script file ("bash FILE",
	// FILE being Run's name) rather than a string ("bash -c SCRIPT", the
	// default): $- has no c, BASH_SOURCE and FUNCNAME end with the file
	// and "main", and an error under set -u ends the script with status 1
	// rather than 127.
	File bool
}

// CanceledStatus is the exit status Run returns together with a non-nil
// error when the context stopped the script (128 + SIGINT, as bash).
const CanceledStatus = 130

// maxCaptured bounds the output a single command substitution may capture.
const maxCaptured = 64 << 20

// Run parses and runs script. The name is used as $0 and in messages
// ("name: line 3: foo: command not found"). Run returns the script's exit
// status. The error is non-nil only when ctx stopped the script; the status
// is then CanceledStatus. Syntax errors are not Go errors: they are reported
// on Stderr in bash's style and give status 2.
func Run(ctx context.Context, cfg Config, name, script string) (status int, err error) {
	if cfg.FS == nil {
		return 2, errors.New("shell: Config.FS is required")
	}
	if cfg.Stdout == nil || cfg.Stderr == nil {
		return 2, errors.New("shell: Config.Stdout and Config.Stderr are required")
	}
	r := newRunner(ctx, &cfg, name)
	defer r.closeAll()
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(cfg.Stderr, "%s: internal error: %v\n", name, p)
			status, err = 2, nil
		}
	}()
	if r.invocation == 'c' {
		r.frames[0].vars["BASH_EXECUTION_STRING"] = &variable{Variable: vstr(script)}
	}
	st := r.runScript(script, true)
	if err := r.ctxErr(); err != nil {
		return CanceledStatus, err
	}
	return st, nil
}

// shared holds what all the subshells of one Run share.
type shared struct {
	ctx      context.Context
	fs       *vfs.FS
	commands command.Registry
	now      func() time.Time
	maxDepth int
	deadline time.Time
	polls    atomic.Uint32
	rand     atomic.Uint32
	srand    atomic.Uint64 // the state of $SRANDOM
	// funcDefs maps the body of each function defined to where it was
	// read from (*syntax.Stmt to funcDef).
	funcDefs sync.Map
	stages   atomic.Int32 // pipeline stages running
	pids     atomic.Int32 // the last background job's made-up PID
	stdin    *fdesc       // the script's own standard input
	expired  atomic.Bool  // the deadline passed (seen by ctxErr)
}

// maxStages bounds the pipeline stages running at once (a fork bomb like
// "f() { f | f; }; f" would otherwise start goroutines without end).
const maxStages = 2048

// runner is the state of one shell (or subshell).
type runner struct {
	sh *shared
	// limit, when not nil, is a narrower context than the run's: that of
	// the Env.Exec call (timeout's, say) that started this shell.
	limit context.Context

	name   string
	params []string
	dir    string
	frames []*frame
	funcs  map[string]*syntax.Stmt
	// exportedFuncs holds the functions marked with export -f.
	exportedFuncs map[string]bool
	aliases       map[string]string
	opts          options
	traps         map[string]string

	fds    map[int]*fdesc
	opened []io.Closer
	// psubs are the process substitutions of the statements running,
	// innermost last (procsubst.go).
	psubs []psub
	// wordFds are the descriptors from before the redirections of the
	// statement whose words are being expanded, when it has any.
	wordFds map[int]*fdesc
	// jobs are the background jobs not yet waited for (jobs.go); jobNum
	// numbers them and lastBg is $!.
	jobs   []*job
	jobNum int
	lastBg int
	// dirs is the directory stack below the working directory
	// (dirstack.go); it is replaced, never changed in place.
	dirs []string
	// lastProcSubst is the last process substitution started, which
	// "wait $!" can wait for.
	lastProcSubst *job
	// waited holds the statuses of the jobs waited for, by process ID.
	waited map[int]int
	// umask is the file creation mask umask set (umaskSet), which
	// redirections apply (umask.go).
	umask    int
	umaskSet bool

	status      int
	substStatus int
	pipestatus  []int
	lastArg     string

	// control flow
	exiting   bool
	returning bool
	breakN    int
	contN     int

	depth     int
	funcNames []string
	// calls are the functions and sourced files running, innermost last
	// (lookup.go); paramsSet is true once set changed the positional
	// parameters, which source keeps.
	calls     []callFrame
	paramsSet bool
	// hash is the table of the hash builtin; hashShared is true while a
	// subshell may read it, so that a change copies it first.
	hash       map[string]*hashEntry
	hashShared bool
	// execvp is true in the shell that runs a command for another
	// command (Env.Exec): without PATH, it searches execvp's default.
	execvp        bool
	noErrExit     int
	inSubst       bool
	substLevel    int
	subLevel      int
	lineno        int
	optind        int
	optsub        int
	exitTrap      bool
	aborting      bool
	loopDepth     int
	pipeOut       *pipeWriter
	persistRedirs bool
	traceW        io.Writer
	// invocation is the last letter of $-: 'c' for a script given as a
	// string (bash -c), 's' for one read from standard input, 0 for a
	// file.
	invocation byte
	// evalLevel counts the eval, source and trap code running (set -x
	// repeats PS4's first character once more for each); inPS4 is true
	// while PS4 is expanded; curSrc is the source text of the statements
	// running, for the traces that print it and the arithmetic errors that
	// quote it.
	evalLevel int
	inPS4     bool
	curSrc    string
	// assignTrace is true while the assignments of a statement without
	// a command run: set -x traces each as it is made.
	assignTrace bool
	// testNot is true while a [[ ! test ]] is evaluated, for its trace.
	testNot bool

	// The expander of this runner's words (xp), and the runner it calls
	// back into: a copy of the runner (a subshell) makes its own.
	xpOwner *runner
	xpState expansion.Expander
}

// options holds the set and shopt options.
type options struct {
	errexit, nounset, pipefail, xtrace, noglob, noclobber, allexport, verbose, noexec bool
	nullglob, extglob, dotglob, globstar, failglob, nocaseglob, nocasematch           bool
	expandAliases, lastpipe, xpgEcho                                                  bool
	patsubRepl                                                                        bool // on by default
	// The options the shell keeps but does not act on (options.go).
	setBits   uint32
	shoptBits uint64
}

// newRunner returns the state of a new shell for cfg.
func newRunner(ctx context.Context, cfg *Config, name string) *runner {
	sh := &shared{ctx: ctx, fs: cfg.FS, commands: cfg.Commands, now: cfg.Now, maxDepth: cfg.MaxDepth}
	sh.rand.Store(12345)
	sh.pids.Store(1000)
	if sh.now == nil {
		sh.now = time.Now
	}
	if sh.maxDepth <= 0 {
		sh.maxDepth = 1000
	}
	if d, ok := ctx.Deadline(); ok {
		sh.deadline = d
	}
	if sh.commands == nil {
		sh.commands = command.Registry{}
	}
	dir := cfg.Dir
	if dir == "" {
		dir = "/workspace"
	}
	r := &runner{
		sh:     sh,
		name:   name,
		params: append([]string(nil), cfg.Args...),
		dir:    dir,
		// The global frame starts with about 20 variables: room for them
		// and a script's own, so that the map does not grow while filling.
		frames:  []*frame{{vars: make(map[string]*variable, 32)}},
		funcs:   map[string]*syntax.Stmt{},
		aliases: map[string]string{},
		traps:   map[string]string{},
		fds:     map[int]*fdesc{},
		optind:  1,
		opts:    newOptions(),
		// cordon runs a script given as a string, like bash -c
		invocation: 'c',
	}
	if cfg.File {
		r.invocation = 0
	}
	var in io.Reader = strings.NewReader("")
	if cfg.Stdin != nil {
		in = cfg.Stdin
	}
	r.fds[0] = &fdesc{r: in}
	sh.stdin = r.fds[0]
	// Pipeline stages and background jobs write at the same time: one
	// lock orders the writes to the caller's writers (which may be one).
	mu := &sync.Mutex{}
	r.fds[1] = &fdesc{w: &syncWriter{mu: mu, w: cfg.Stdout}}
	r.fds[2] = &fdesc{w: &syncWriter{mu: mu, w: cfg.Stderr}}
	env := []string{"HOME=/workspace", "PATH=/usr/bin:/bin", "PWD=" + dir}
	env = append(env, cfg.Env...)
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !syntax.ValidName(k) {
			continue
		}
		r.frames[0].vars[k] = &variable{Variable: vstr(v), exported: true}
	}
	r.setGlobal("OLDPWD", "", false)
	delete(r.frames[0].vars, "OLDPWD")
	r.frames[0].vars["BASH_VERSINFO"] = &variable{Variable: expand.Variable{Set: true, Kind: expand.Indexed,
		List: []string{"5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"}}, readonly: true}
	for _, d := range shellDefaults {
		if _, ok := r.frames[0].vars[d.name]; !ok {
			r.frames[0].vars[d.name] = &variable{Variable: vstr(d.value)}
		}
	}
	return r
}

// syncWriter serializes the writes to a writer the shell was given.
type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

// Write writes p under the lock.
func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// shellDefaults are the variables bash sets that the environment did not.
var shellDefaults = [...]struct{ name, value string }{
	{"IFS", " \t\n"}, {"OPTIND", "1"}, {"PS4", "+ "}, {"SHELL", "/bin/bash"}, {"BASH", "/bin/bash"},
	{"BASH_VERSION", "5.2.15(1)-release"}, {"HOSTNAME", "cordon"}, {"UID", "1000"}, {"EUID", "1000"}, {"PPID", "1"}, {"SHLVL", "1"},
}

// ctxErr reports whether the run must stop. It polls the context and,
// because wasm has no preemption, yields now and then and checks the
// deadline itself.
func (r *runner) ctxErr() error {
	sh := r.sh
	if err := sh.ctx.Err(); err != nil {
		return err
	}
	if r.limit != nil {
		if err := command.Err(r.limit); err != nil {
			return err
		}
	}
	if sh.expired.Load() {
		return context.DeadlineExceeded
	}
	if sh.polls.Add(1)%256 == 0 {
		yieldCPU()
		if !sh.deadline.IsZero() && time.Now().After(sh.deadline) {
			// Sticky: the context's own timer may not have fired yet.
			sh.expired.Store(true)
			return context.DeadlineExceeded
		}
	}
	return nil
}

// stopped reports whether the current statement list must stop running.
func (r *runner) stopped() bool {
	return r.exiting || r.aborting || r.returning || r.breakN > 0 || r.contN > 0 || r.ctxErr() != nil
}

// closeAll closes the files opened by redirections that are still open.
func (r *runner) closeAll() {
	r.waitJobs()
	r.endProcSubsts(0)
	for _, c := range r.opened {
		c.Close()
	}
	r.opened = nil
}

// errf prints a message prefixed like bash's ("name: line N: "), name
// being the file the code comes from or the shell's name.
func (r *runner) errf(format string, args ...any) {
	fmt.Fprintf(r.stderr(), "%s: line %d: %s\n", r.errName(), r.lineno, fmt.Sprintf(format, args...))
}

// builtinErr prints "name: line N: builtin: message" and returns status.
func (r *runner) builtinErr(status int, builtin, format string, args ...any) int {
	r.errf("%s: %s", builtin, fmt.Sprintf(format, args...))
	return status
}

// errTooDeep is reported for source text nested too deep to parse
// (expansion.TooDeep).
var errTooDeep = errors.New("syntax error: nesting too deep")

// runScript parses and runs src statement by statement, like bash reads
// a script. top is true for the main script (syntax errors exit).
func (r *runner) runScript(src string, top bool) int {
	perr := r.runSource(src, true, func() bool {
		return r.exiting || r.ctxErr() != nil
	})
	if perr != nil && !r.exiting && r.ctxErr() == nil {
		r.syntaxError(perr)
		r.status = 2
		if top {
			r.exiting = true
		}
	}
	if top {
		r.runExitTrap()
	}
	return r.status
}

// syntaxError prints a parse error in bash's style.
func (r *runner) syntaxError(err error) {
	line := max(r.lineno, 1)
	msg := err.Error()
	var pe syntax.ParseError
	var le syntax.LangError
	var xe *extglobError
	switch {
	case errors.As(err, &xe):
		prefix := r.name + ": "
		if r.invocation == 'c' {
			prefix += "-c: "
		}
		fmt.Fprintf(r.stderr(), "%sline %d: syntax error near unexpected token `('\n", prefix, xe.line)
		fmt.Fprintf(r.stderr(), "%sline %d: `%s'\n", prefix, xe.line, xe.text)
		return
	case errors.As(err, &pe):
		line = int(pe.Pos.Line())
		msg = "syntax error: " + pe.Text
	case errors.As(err, &le):
		line = int(le.Pos.Line())
		msg = "syntax error: " + le.Feature + " is not supported"
	}
	fmt.Fprintf(r.stderr(), "%s: line %d: %s\n", r.name, line, msg)
}

// runExitTrap runs the EXIT trap once, keeping the exit status.
func (r *runner) runExitTrap() {
	if r.exitTrap {
		return
	}
	r.exitTrap = true
	code, ok := r.traps["EXIT"]
	if !ok || code == "" {
		return
	}
	st := r.status
	r.exiting = false
	r.returning = false
	r.breakN, r.contN = 0, 0
	r.evalString(code)
	if !r.exiting {
		r.status = st
	}
	r.exiting = true
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// runSource parses src and runs its statements line by line: a statement
// runs once the parser has moved past its last line (so that here-document
// bodies are read). after is called after each statement and reports
// whether to stop. It returns the syntax error, if any.
func (r *runner) runSource(src string, top bool, after func() bool) error {
	if expansion.TooDeep(src) {
		return errTooDeep
	}
	oldSrc := r.curSrc
	r.curSrc = src
	defer func() { r.curSrc = oldSrc }()
	var pending []*syntax.Stmt
	stop := false
	done := -1 // the end of the last statement run (or dropped)
	read := 0  // the lines read so far, for set -v
	var xerr error
	flush := func() {
		if top && len(pending) > 0 && !r.opts.extglob {
			// bash reads a line before it runs it: without extglob, an
			// extended pattern on it is a syntax error
			if err := extglobOff(src, pending); err != nil {
				xerr, stop = err, true
				pending = pending[:0]
				return
			}
		}
		if len(pending) > 0 {
			end := int(pending[len(pending)-1].End().Line())
			if r.opts.verbose {
				r.echoLines(src, read, end)
			}
			read = end
		}
		for _, st := range pending {
			if stop || r.aborting {
				break
			}
			r.stmt(st)
			stop = after()
		}
		if len(pending) > 0 {
			done = int(pending[len(pending)-1].End().Offset())
		}
		pending = pending[:0]
		if top {
			r.aborting = false
		}
	}
	var perr error
	for attempt := 0; ; attempt++ {
		perr = nil
		pending = pending[:0]
		p := expansion.NewParser()
		// The loop never breaks early: mvdan's iterator may call yield
		// again after a false return (when it reports a trailing error).
		for stmt, err := range p.StmtsSeq(strings.NewReader(src)) {
			if stop || perr != nil {
				continue
			}
			if err != nil {
				perr = err
				continue
			}
			if int(stmt.End().Offset()) <= done {
				continue // ran before the source was rewritten
			}
			if len(pending) > 0 && stmt.Pos().Line() > pending[len(pending)-1].End().Line() {
				flush()
				if stop {
					continue
				}
			}
			pending = append(pending, stmt)
		}
		if perr == nil || stop || attempt == maxDeferrals {
			break
		}
		// arithmetic or a subscript bash would parse only when it runs
		fixed, ok := deferParse(src, perr)
		if !ok {
			break
		}
		src = fixed
		r.curSrc = fixed
	}
	flush()
	if xerr != nil {
		return xerr
	}
	if r.opts.verbose && !stop && perr == nil {
		r.echoLines(src, read, -1)
	}
	if stop {
		return nil
	}
	return perr
}

// echoLines writes lines from+1 to to (to the end if to < 0) of src to
// standard error, as set -v does when bash reads them.
func (r *runner) echoLines(src string, from, to int) {
	start := 0
	for i := 0; i < from && start < len(src); i++ {
		j := strings.IndexByte(src[start:], '\n')
		if j < 0 {
			return
		}
		start += j + 1
	}
	end := len(src)
	if to >= 0 {
		end = start
		for i := from; i < to && end < len(src); i++ {
			j := strings.IndexByte(src[end:], '\n')
			if j < 0 {
				end = len(src)
				break
			}
			end += j + 1
		}
	}
	if end <= start {
		return
	}
	text := src[start:end]
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	io.WriteString(r.stderr(), text)
}

// deadlineCtx is the context given to commands. Its Err also compares the
// clock with the deadline and yields now and then: on wasm there is no
// preemption, so the parent's timer may not fire while a command loops
// polling Err.
type deadlineCtx struct {
	context.Context
	sh *shared
}

// Err returns the parent's error, or DeadlineExceeded once the deadline
// has passed.
func (c deadlineCtx) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	sh := c.sh
	if sh.expired.Load() {
		return context.DeadlineExceeded
	}
	if sh.polls.Add(1)%256 == 0 {
		yieldCPU()
		if time.Now().After(sh.deadline) {
			sh.expired.Store(true)
			return context.DeadlineExceeded
		}
	}
	return nil
}

// commandCtx returns the context for a command.
func (sh *shared) commandCtx() context.Context {
	if sh.deadline.IsZero() {
		return sh.ctx
	}
	return deadlineCtx{Context: sh.ctx, sh: sh}
}
