package shell

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/vfs"
)

// errBrokenPipe is what a writer to a pipe without reader gets.
var errBrokenPipe error = errnoText("Broken pipe")

// pipeWriter is the writing end of a pipe between pipeline stages. It
// records that the reader went away, so that the writer ends with
// status 141 as if killed by SIGPIPE.
//
// It buffers up to pipeBuffer bytes, as the kernel's pipe buffer does for
// processes: an io.Pipe hands every Write to the reader and switches
// goroutines, and a stage that writes line by line (grep, awk, a loop of
// echo) then spends most of its time switching, which in WebAssembly is
// expensive (BENCHMARKS.md has a grep | sort | uniq pipeline, unbuffered).
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

// limitWriter fails once more than max bytes were written. Background jobs
// may write to it at the same time as the shell.
type limitWriter struct {
	mu  sync.Mutex
	w   io.Writer
	n   int64
	max int64
}

// Write fails once the limit is reached.
func (l *limitWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
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
	if !child.opts.shopt(shoptInheritErrexit) {
		child.opts.errexit = false // bash's default without inherit_errexit
	}
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

// errUnsupported is an expansion error for unsupported constructs.
type errUnsupported string

// Error returns the message.
func (e errUnsupported) Error() string { return string(e) + " is not supported in this sandbox" }
