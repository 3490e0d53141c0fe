package shell

import (
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// errReported is returned when the message has already been printed.
var errReported = errors.New("error already reported")

// errBrokenPipe is what a writer to a pipe without reader gets.
var errBrokenPipe error = errnoText("Broken pipe")

// errnoText is an error whose text is a C library error message.
type errnoText string

// Error returns the message.
func (e errnoText) Error() string { return string(e) }

// fdesc is an open file descriptor of the shell.
type fdesc struct {
	r io.Reader
	w io.Writer
}

// saveFds returns a copy of the descriptor table.
func (r *runner) saveFds() map[int]*fdesc {
	m := make(map[int]*fdesc, len(r.fds))
	for k, v := range r.fds {
		m[k] = v
	}
	return m
}

// restoreFds closes the files opened since openedBefore and puts back a
// saved descriptor table.
func (r *runner) restoreFds(saved map[int]*fdesc, openedBefore int) {
	for _, c := range r.opened[openedBefore:] {
		c.Close()
	}
	r.opened = r.opened[:openedBefore]
	r.fds = saved
}

// reader returns the reader of fd n (an empty reader when closed).
func (r *runner) reader(n int) io.Reader {
	if d := r.fds[n]; d != nil && d.r != nil {
		return d.r
	}
	return badFdReader{n}
}

// writer returns the writer of fd n (one that fails when closed).
func (r *runner) writer(n int) io.Writer {
	if d := r.fds[n]; d != nil && d.w != nil {
		return d.w
	}
	return badFdWriter{n}
}

// stdout returns the writer of descriptor 1.
func (r *runner) stdout() io.Writer { return r.writer(1) }

// stderr returns the writer of descriptor 2.
func (r *runner) stderr() io.Writer { return r.writer(2) }

// badFdReader is a closed descriptor being read.
type badFdReader struct{ n int }

// Read fails.
func (b badFdReader) Read([]byte) (int, error) { return 0, errnoText("Bad file descriptor") }

// badFdWriter is a closed descriptor being written.
type badFdWriter struct{ n int }

// Write fails.
func (b badFdWriter) Write([]byte) (int, error) { return 0, errnoText("Bad file descriptor") }

// zeroReader reads zero bytes forever (/dev/zero).
type zeroReader struct{}

// Read fills p with zeros.
func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// redirect applies one redirection to r.fds.
func (r *runner) redirect(rd *syntax.Redirect) error {
	fd := -1
	if rd.N != nil {
		n, err := strconv.Atoi(rd.N.Value)
		if err != nil {
			// {varname}>file: the shell picks a free descriptor >= 10
			// and stores it in varname; {varname}>&- closes it.
			name := strings.TrimSuffix(strings.TrimPrefix(rd.N.Value, "{"), "}")
			if !syntax.ValidName(name) {
				return fmt.Errorf("%s: bad variable name", rd.N.Value)
			}
			if (rd.Op == syntax.DplOut || rd.Op == syntax.DplIn) && rd.Word != nil && rd.Word.Lit() == "-" {
				k, err := strconv.Atoi(r.getVar(name))
				if err != nil {
					return fmt.Errorf("%s: ambiguous redirect", r.getVar(name))
				}
				delete(r.fds, k)
				return nil
			}
			n = 10
			for r.fds[n] != nil {
				n++
			}
			if err := r.assign(name, vstr(strconv.Itoa(n)), false); err != nil {
				return err
			}
		}
		fd = n
	}
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if fd < 0 {
			fd = 0
		}
		s := ""
		if rd.Hdoc != nil {
			if hdocQuoted(rd.Word) {
				var b strings.Builder
				for _, p := range rd.Hdoc.Parts {
					if l, ok := p.(*syntax.Lit); ok {
						b.WriteString(l.Value)
					}
				}
				s = b.String()
			} else {
				var err error
				cfg := r.ecfg()
				s, err = expand.Document(cfg, rd.Hdoc)
				r.putEcfg(cfg)
				if err != nil {
					r.expandErr(err)
					return errReported
				}
			}
			if rd.Op == syntax.DashHdoc {
				lines := strings.SplitAfter(s, "\n")
				for i, l := range lines {
					lines[i] = strings.TrimLeft(l, "\t")
				}
				s = strings.Join(lines, "")
			}
		}
		r.fds[fd] = &fdesc{r: strings.NewReader(s)}
		return nil
	case syntax.WordHdoc:
		if fd < 0 {
			fd = 0
		}
		s, ok := r.literal(rd.Word)
		if !ok {
			return errReported
		}
		r.fds[fd] = &fdesc{r: strings.NewReader(s + "\n")}
		return nil
	}
	if rd.Op == syntax.RdrIn && rd.Word != nil && len(rd.Word.Parts) == 1 {
		if ps, ok := rd.Word.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn {
			if fd < 0 {
				fd = 0
			}
			r.fds[fd] = &fdesc{r: r.startProcSubst(ps)}
			return nil
		}
	}
	target, ok := r.redirTarget(rd.Word)
	if !ok {
		return errReported
	}
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		if fd < 0 {
			fd = 0
			if rd.Op == syntax.DplOut {
				fd = 1
			}
		}
		if target == "-" {
			delete(r.fds, fd)
			return nil
		}
		move := strings.HasSuffix(target, "-")
		num := strings.TrimSuffix(target, "-")
		if n, err := strconv.Atoi(num); err == nil && num != "" && num[0] != '+' {
			src := r.fds[n]
			if src == nil {
				return fmt.Errorf("%s: Bad file descriptor", num)
			}
			r.fds[fd] = src
			if move {
				delete(r.fds, n)
			}
			return nil
		}
		if rd.Op == syntax.DplIn {
			return fmt.Errorf("%s: ambiguous redirect", target)
		}
		// ">& file" is "&> file"; "N>& file" opens file on N.
		d, err := r.openFile(target, vfs.O_WRONLY|vfs.O_CREATE|vfs.O_TRUNC, true)
		if err != nil {
			return err
		}
		if rd.N != nil {
			r.fds[fd] = d
			return nil
		}
		r.fds[1], r.fds[2] = d, d
		return nil
	case syntax.RdrAll, syntax.AppAll:
		flag := vfs.O_WRONLY | vfs.O_CREATE | vfs.O_TRUNC
		if rd.Op == syntax.AppAll {
			flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_APPEND
		}
		d, err := r.openFile(target, flag, rd.Op == syntax.RdrAll)
		if err != nil {
			return err
		}
		r.fds[1], r.fds[2] = d, d
		return nil
	}
	var flag int
	def := 1
	clobberCheck := false
	switch rd.Op {
	case syntax.RdrOut:
		flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_TRUNC
		clobberCheck = true
	case syntax.RdrClob:
		flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_TRUNC
	case syntax.AppOut:
		flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_APPEND
	case syntax.RdrIn:
		flag = vfs.O_RDONLY
		def = 0
	case syntax.RdrInOut:
		flag = vfs.O_RDWR | vfs.O_CREATE
		def = 0
	default:
		return fmt.Errorf("redirection %s is not supported in this sandbox", rd.Op)
	}
	if fd < 0 {
		fd = def
	}
	d, err := r.openFile(target, flag, clobberCheck)
	if err != nil {
		return err
	}
	r.fds[fd] = d
	return nil
}

// redirTarget expands the word of a redirection to exactly one field.
func (r *runner) redirTarget(w *syntax.Word) (string, bool) {
	fields, ok := r.fields(w)
	if !ok {
		return "", false
	}
	if len(fields) != 1 {
		src := wordSource(w)
		r.errf("%s: ambiguous redirect", src)
		return "", false
	}
	return fields[0], true
}

// wordSourceNode prints a node back as source text.
func wordSourceNode(n syntax.Node) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, n)
	return b.String()
}

// wordSource prints a word back as source text.
func wordSource(w *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// openFile opens a redirection target, emulating the /dev names.
func (r *runner) openFile(name string, flag int, clobberCheck bool) (*fdesc, error) {
	switch name {
	case "/dev/null":
		return &fdesc{r: strings.NewReader(""), w: io.Discard}, nil
	case "/dev/stdin":
		return r.dupFd(0)
	case "/dev/stdout":
		return r.dupFd(1)
	case "/dev/stderr":
		return r.dupFd(2)
	case "/dev/zero":
		return &fdesc{r: zeroReader{}, w: io.Discard}, nil
	}
	if rest, ok := strings.CutPrefix(name, "/dev/fd/"); ok {
		if n, err := strconv.Atoi(rest); err == nil {
			return r.dupFd(n)
		}
	}
	if name == "" {
		return nil, fmt.Errorf(": No such file or directory")
	}
	p := r.abs(name)
	if clobberCheck && r.opts.noclobber {
		if fi, err := r.sh.fs.Stat(p); err == nil && !fi.IsDir() {
			return nil, fmt.Errorf("%s: cannot overwrite existing file", name)
		}
	}
	f, err := r.sh.fs.OpenFile(p, flag, 0o644)
	if err != nil {
		if _, serr := r.sh.fs.Stat(path.Dir(p)); serr != nil {
			err = serr
		}
		return nil, fmt.Errorf("%s: %s", name, command.Strerror(err))
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: Is a directory", name)
	}
	r.opened = append(r.opened, f)
	d := &fdesc{}
	if flag&(vfs.O_WRONLY|vfs.O_RDWR) != 0 {
		d.w = f
	}
	if flag&vfs.O_WRONLY == 0 {
		d.r = f
	}
	return d, nil
}

// dupFd returns descriptor n for /dev/fd/n and friends.
func (r *runner) dupFd(n int) (*fdesc, error) {
	d := r.fds[n]
	if d == nil {
		return nil, fmt.Errorf("/dev/fd/%d: No such file or directory", n)
	}
	return d, nil
}

// pipeWriter is the writing end of a pipe between pipeline stages. It
// records that the reader went away, so that the writer ends with
// status 141 as if killed by SIGPIPE.
//
// It buffers up to pipeBuffer bytes, as the kernel's pipe buffer does for
// processes: an io.Pipe hands every Write to the reader and switches
// goroutines, and a stage that writes line by line (grep, awk, a loop of
// echo) then spends most of its time switching, which in WebAssembly is
// expensive (a 10 MB grep | sort | uniq pipeline took 1.5 s unbuffered).
type pipeWriter struct {
	pw     *io.PipeWriter
	broken atomic.Bool

	mu  sync.Mutex
	buf []byte
}

// pipeBuffer is how much a pipeline stage's output is buffered.
const pipeBuffer = 32 << 10

// Write buffers b, passing full buffers to the pipe, and records a broken
// pipe.
func (p *pipeWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken.Load() {
		return 0, errBrokenPipe
	}
	if len(p.buf)+len(b) <= pipeBuffer {
		p.buf = append(p.buf, b...)
		return len(b), nil
	}
	if err := p.flushLocked(); err != nil {
		return 0, err
	}
	if len(b) >= pipeBuffer {
		if _, err := p.pw.Write(b); err != nil {
			p.broken.Store(true)
			return 0, errBrokenPipe
		}
		return len(b), nil
	}
	p.buf = append(p.buf, b...)
	return len(b), nil
}

// Flush passes the buffered output to the pipe.
func (p *pipeWriter) Flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.flushLocked()
}

func (p *pipeWriter) flushLocked() error {
	if len(p.buf) == 0 {
		return nil
	}
	_, err := p.pw.Write(p.buf)
	p.buf = p.buf[:0]
	if err != nil {
		p.broken.Store(true)
		return errBrokenPipe
	}
	return nil
}

// pipeGuardWriter drops a command's error output once its standard
// output pipe broke: a real process would have died of SIGPIPE.
type pipeGuardWriter struct {
	w  io.Writer
	pw *pipeWriter
}

// Write forwards b unless the command's output pipe broke.
func (g *pipeGuardWriter) Write(b []byte) (int, error) {
	if g.pw.broken.Load() {
		return len(b), nil
	}
	return g.w.Write(b)
}

// pipeline runs the stages of a pipeline concurrently.
func (r *runner) pipeline(c *syntax.BinaryCmd) {
	var stages []*syntax.Stmt
	var all []bool
	var flatten func(st *syntax.Stmt, pipeAll bool)
	flatten = func(st *syntax.Stmt, pipeAll bool) {
		if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !st.Negated && len(st.Redirs) == 0 && !st.Background {
			flatten(b.X, b.Op == syntax.PipeAll)
			flatten(b.Y, pipeAll)
			return
		}
		stages = append(stages, st)
		all = append(all, pipeAll)
	}
	flatten(c.X, c.Op == syntax.PipeAll)
	flatten(c.Y, false)

	n := len(stages)
	if int(r.sh.stages.Add(int32(n))) > maxStages {
		r.sh.stages.Add(int32(-n))
		r.errf("pipeline: too many concurrent pipeline stages (%d)", maxStages)
		r.status = 1
		return
	}
	defer r.sh.stages.Add(int32(-n))
	statuses := make([]int, n)
	readers := make([]*io.PipeReader, n-1)
	writers := make([]*io.PipeWriter, n-1)
	for i := range n - 1 {
		readers[i], writers[i] = io.Pipe()
	}
	closeAllPipes := func() {
		for i := range n - 1 {
			readers[i].CloseWithError(errBrokenPipe)
			writers[i].CloseWithError(errBrokenPipe)
		}
	}
	var wg sync.WaitGroup
	pws := make([]*pipeWriter, n)
	lastpipe := r.opts.lastpipe
	for i, st := range stages {
		if i == n-1 && lastpipe {
			break
		}
		child := r.subshell()
		if i > 0 {
			child.fds[0] = &fdesc{r: readers[i-1]}
		}
		if i < n-1 {
			// The buffer grows as the stage writes: most write a few lines.
			pw := &pipeWriter{pw: writers[i]}
			pws[i] = pw
			child.fds[1] = &fdesc{w: pw}
			child.pipeOut = pw
			if all[i] {
				child.fds[2] = child.fds[1]
			}
		} else {
			child.pipeOut = nil
		}
		wg.Add(1)
		go func(i int, child *runner, st *syntax.Stmt) {
			defer wg.Done()
			defer func() {
				if i < n-1 {
					pws[i].Flush()
					writers[i].Close()
				}
				if i > 0 {
					readers[i-1].CloseWithError(errBrokenPipe)
				}
			}()
			defer func() {
				if p := recover(); p != nil {
					fmt.Fprintf(r.stderr(), "%s: internal error: %v\n", r.name, p)
					statuses[i] = 2
				}
			}()
			child.stmt(st)
			child.runExitTrap()
			child.closeAll()
			statuses[i] = child.status
			if child.pipeOut != nil && child.pipeOut.broken.Load() {
				statuses[i] = 141
			}
		}(i, child, st)
	}
	done := make(chan struct{})
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		select {
		case <-r.done():
			closeAllPipes()
		case <-done:
		}
	}()
	var once sync.Once
	finish := func() {
		once.Do(func() {
			wg.Wait()
			close(done)
			<-watchDone
		})
	}
	defer finish()
	if lastpipe {
		func() {
			saved := r.fds[0]
			defer func() {
				r.fds[0] = saved
				readers[n-2].CloseWithError(errBrokenPipe)
			}()
			r.fds[0] = &fdesc{r: readers[n-2]}
			r.stmt(stages[n-1])
			statuses[n-1] = r.status
		}()
	}
	finish()
	r.pipestatus = statuses
	r.status = statuses[n-1]
	if r.opts.pipefail {
		for i := n - 1; i >= 0; i-- {
			if statuses[i] != 0 {
				r.status = statuses[i]
				break
			}
		}
	}
}

// limitWriter fails once more than max bytes were written.
type limitWriter struct {
	w   io.Writer
	n   int64
	max int64
}

// Write fails once the limit is reached.
func (l *limitWriter) Write(b []byte) (int, error) {
	if l.n+int64(len(b)) > l.max {
		return 0, errors.New("command substitution output too large")
	}
	l.n += int64(len(b))
	return l.w.Write(b)
}

// cmdSubst runs $(...) in a subshell, writing its output to w.
func (r *runner) cmdSubst(w io.Writer, cs *syntax.CmdSubst) error {
	if err := r.ctxErr(); err != nil {
		return err
	}
	if r.depth >= r.sh.maxDepth {
		r.errf("maximum function nesting level exceeded (%d)", r.sh.maxDepth)
		r.substStatus = 1
		return errReported
	}
	child := r.subshell()
	child.depth++
	child.inSubst = true
	child.substLevel++
	child.opts.errexit = false // bash's default without inherit_errexit
	child.fds[1] = &fdesc{w: &limitWriter{w: w, max: maxCaptured}}
	// $(< file)
	if len(cs.Stmts) == 1 {
		st := cs.Stmts[0]
		if st.Cmd == nil && len(st.Redirs) == 1 && st.Redirs[0].Op == syntax.RdrIn && st.Redirs[0].N == nil {
			name, ok := child.redirTarget(st.Redirs[0].Word)
			if !ok {
				r.substStatus = 1
				return nil
			}
			d, err := child.openFile(name, vfs.O_RDONLY, false)
			if err != nil {
				child.errf("%s", err)
				r.substStatus = 1
				return nil
			}
			_, err = io.Copy(child.fds[1].w, d.r)
			child.closeAll()
			r.substStatus = 0
			return err
		}
	}
	child.stmts(cs.Stmts)
	child.runExitTrap()
	child.closeAll()
	r.substStatus = child.status
	r.status = child.status
	if err := r.ctxErr(); err != nil {
		return err
	}
	return nil
}

// procSubst refuses process substitutions.
func (r *runner) procSubst(*syntax.ProcSubst) (string, error) {
	return "", errUnsupported("process substitution <(...) and >(...)")
}

// errUnsupported is an expansion error for unsupported constructs.
type errUnsupported string

// Error returns the message.
func (e errUnsupported) Error() string { return string(e) + " is not supported in this sandbox" }

// hdocQuoted reports whether a here-document delimiter was quoted (then
// the body is taken literally).
func hdocQuoted(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				return true
			}
		}
	}
	return false
}

// procSubstReader is the reading end of "< <(cmd)": cmd runs concurrently
// in a subshell writing into a pipe, as with bash's /dev/fd/N.
type procSubstReader struct {
	*io.PipeReader
	done chan struct{}
}

// Close closes the pipe (the writer then ends as if by SIGPIPE) and waits
// for the subshell to finish, so that no goroutine outlives the command.
func (p *procSubstReader) Close() error {
	p.PipeReader.CloseWithError(errBrokenPipe)
	<-p.done
	return nil
}

// startProcSubst starts the command of an input process substitution used
// as a redirection ("< <(cmd)") and returns its output.
func (r *runner) startProcSubst(ps *syntax.ProcSubst) io.Reader {
	pr, pw := io.Pipe()
	child := r.subshell()
	w := &pipeWriter{pw: pw}
	child.fds[1] = &fdesc{w: w}
	child.pipeOut = w
	p := &procSubstReader{PipeReader: pr, done: make(chan struct{})}
	r.opened = append(r.opened, p)
	go func() {
		defer close(p.done)
		defer pw.Close()
		defer w.Flush()
		defer func() {
			if e := recover(); e != nil {
				fmt.Fprintf(r.stderr(), "%s: internal error: %v\n", r.name, e)
			}
		}()
		child.stmts(ps.Stmts)
		child.runExitTrap()
		child.closeAll()
	}()
	return p
}
