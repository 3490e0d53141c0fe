package shell

import (
	"fmt"
	"io"
	"maps"
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// Process substitution. "<(cmd)" as a word runs cmd in a subshell whose
// standard output is a pipe, and expands to /dev/fd/N, N being the
// descriptor of the pipe's reading end in the shell (63 and down, as bash
// numbers them). ">(cmd)" is the other way round: cmd reads the pipe, and
// /dev/fd/N is its writing end. cmd runs concurrently with the command
// that names the path, streaming, so an endless producer works
// ("head -1 <(yes)"). The shell resolves /dev/fd/N itself (redirections),
// and commands reach it through command.Env.FD (command.Env.Open resolves
// /dev/fd/N for reading). Once the command that used the words ends, the
// descriptors are closed and the shell waits for cmd: a producer still
// writing ends as if by SIGPIPE; a consumer sees the end of its input.
// The number of process substitutions running at once counts against the
// bound on concurrent pipeline stages.

// procSubstReader is the reading end of "<(cmd)": cmd runs concurrently
// in a subshell writing into a pipe.
type procSubstReader struct {
	*io.PipeReader
	done chan struct{}
	job  *job
}

// Close closes the pipe (the writer then ends as if by SIGPIPE) and waits
// for the subshell to finish, so that no goroutine outlives the command.
func (p *procSubstReader) Close() error {
	p.PipeReader.CloseWithError(errBrokenPipe)
	<-p.done
	return nil
}

// procSubstWriter is the writing end of ">(cmd)": cmd runs concurrently in
// a subshell reading the pipe.
type procSubstWriter struct {
	*pipeWriter
	done chan struct{}
	job  *job
}

// Close ends cmd's input and waits for it to finish.
func (p *procSubstWriter) Close() error {
	p.pipeWriter.Flush()
	p.pw.Close()
	<-p.done
	return nil
}

// startProcSubst starts the command of an input process substitution and
// returns its output.
func (r *runner) startProcSubst(ps *syntax.ProcSubst) *procSubstReader {
	pr, pw := io.Pipe()
	child := r.procSubshell()
	w := &pipeWriter{pw: pw}
	child.fds[1] = &fdesc{w: w}
	child.pipeOut = w
	p := &procSubstReader{PipeReader: pr, done: make(chan struct{})}
	p.job = r.procSubstJob(p.done)
	r.sh.stages.Add(1)
	go func() {
		defer r.sh.stages.Add(-1)
		defer close(p.done)
		defer pw.Close()
		defer w.Flush()
		child.runProcSubst(ps)
		p.job.status = child.status
	}()
	return p
}

// startProcSubstOut starts the command of an output process substitution
// and returns the pipe to its input.
func (r *runner) startProcSubstOut(ps *syntax.ProcSubst) *procSubstWriter {
	pr, pw := io.Pipe()
	child := r.procSubshell()
	child.fds[0] = &fdesc{r: pr}
	p := &procSubstWriter{pipeWriter: &pipeWriter{pw: pw}, done: make(chan struct{})}
	p.job = r.procSubstJob(p.done)
	r.sh.stages.Add(1)
	go func() {
		defer r.sh.stages.Add(-1)
		defer close(p.done)
		defer pr.CloseWithError(errBrokenPipe)
		child.runProcSubst(ps)
		p.job.status = child.status
	}()
	return p
}

// procSubstJob gives a process substitution a process ID: it becomes $!,
// and "wait $!" waits for the command and returns its status, as in bash.
// It is not a job: jobs does not list it.
func (r *runner) procSubstJob(done chan struct{}) *job {
	j := &job{pid: int(r.sh.pids.Add(1)), done: done}
	r.lastBg = j.pid
	r.lastProcSubst = j
	return j
}

// procSubshell returns the subshell of a process substitution: it has the
// descriptors from before the statement's redirections, as bash expands
// words before it redirects ("tee >(cmd) > /dev/null": cmd writes to the
// script's output).
func (r *runner) procSubshell() *runner {
	child := r.subshell()
	if r.wordFds != nil {
		child.fds = maps.Clone(r.wordFds)
	}
	return child
}

// runProcSubst runs the statements of a process substitution in the
// subshell r, recovering a panic as a pipeline stage does.
func (r *runner) runProcSubst(ps *syntax.ProcSubst) {
	defer func() {
		if e := recover(); e != nil {
			fmt.Fprintf(r.stderr(), "%s: internal error: %v\n", r.name, e)
		}
	}()
	r.stmts(ps.Stmts)
	r.runExitTrap()
	r.closeAll()
}

// procSubst expands a process substitution used as a word: it starts cmd,
// opens the pipe on a free descriptor and returns its /dev/fd name. The
// descriptor stays open until the simple command being expanded ends
// (endProcSubsts), or the shell does.
func (r *runner) procSubst(ps *syntax.ProcSubst) (string, error) {
	if err := r.ctxErr(); err != nil {
		return "", err
	}
	if int(r.sh.stages.Load()) >= maxStages {
		return "", fmt.Errorf("process substitution: too many concurrent pipeline stages (%d)", maxStages)
	}
	n := 63
	for r.fds[n] != nil {
		n--
		if n < 10 {
			return "", fmt.Errorf("process substitution: no free file descriptor")
		}
	}
	var c io.Closer
	if ps.Op == syntax.CmdIn {
		p := r.startProcSubst(ps)
		r.fds[n] = &fdesc{r: p}
		c = p
	} else {
		p := r.startProcSubstOut(ps)
		r.fds[n] = &fdesc{w: p}
		c = p
	}
	r.psubs = append(r.psubs, psub{fd: n, c: c})
	return "/dev/fd/" + strconv.Itoa(n), nil
}

// isProcSubstFd reports whether descriptor n is that of a process
// substitution (a pipe).
func (r *runner) isProcSubstFd(n int) bool {
	for _, p := range r.psubs {
		if p.fd == n {
			return true
		}
	}
	return false
}

// psub is a process substitution whose descriptor is open.
type psub struct {
	fd int
	c  io.Closer
}

// endProcSubsts closes the descriptors of the process substitutions
// opened since mark and waits for their commands.
func (r *runner) endProcSubsts(mark int) {
	if len(r.psubs) <= mark {
		return
	}
	for _, p := range r.psubs[mark:] {
		if d := r.fds[p.fd]; d != nil && (any(d.r) == any(p.c) || any(d.w) == any(p.c)) {
			delete(r.fds, p.fd)
		}
		p.c.Close()
	}
	r.psubs = r.psubs[:mark]
}
