package command

import (
	"bufio"
	"io"
)

// Commands buffer their standard output (NewWriter) and write error
// messages to Stderr directly. When both streams reach the same place (2>&1,
// &>, |&, or the host reading them as one), an error would then come out
// before the output written ahead of it. OrderStderr closes that gap for
// every command at once: Stderr first flushes what the command's writers
// hold.

// orderedStderr is the Stderr of an Env on which OrderStderr was called.
type orderedStderr struct {
	w        io.Writer
	bufs     []*bufio.Writer // the writers NewWriter handed out
	flushing bool            // a flush in progress (a buffered Stderr re-enters)
}

// Write flushes the command's buffered output, then writes p.
func (o *orderedStderr) Write(p []byte) (int, error) {
	o.flush()
	return o.w.Write(p)
}

// flush writes out every buffered writer of the command. A writer's error
// stays in it: the command sees it on its next write or flush.
func (o *orderedStderr) flush() {
	if o.flushing {
		return
	}
	o.flushing = true
	for _, b := range o.bufs {
		b.Flush()
	}
	o.flushing = false
}

// OrderStderr makes every write to e.Stderr first flush the writers that
// NewWriter returned for e or for a copy of e, so that what a command wrote
// before an error message comes out before it, as from a command that
// buffers nothing. The shell calls it on every Env it makes. Flush does the
// same on demand.
//
// The writers are flushed on the goroutine that writes to Stderr: a command
// that writes to Stderr from a goroutine of its own while another writes
// its output must not take its output writer from NewWriter (awk keeps its
// own writer and flushes it itself).
func (e *Env) OrderStderr() {
	if _, ok := e.Stderr.(*orderedStderr); ok || e.Stderr == nil {
		return
	}
	e.Stderr = &orderedStderr{w: e.Stderr}
}

// Flush writes out what the writers NewWriter returned for e (or a copy of
// e) hold, when OrderStderr was called on e. Run before another command
// that writes to the same streams (Exec does), it keeps their output in
// order.
func (e *Env) Flush() {
	if o, ok := e.Stderr.(*orderedStderr); ok {
		o.flush()
	}
}

// track records a writer NewWriter made, for OrderStderr.
func (e *Env) track(bw *bufio.Writer, w io.Writer) {
	o, ok := e.Stderr.(*orderedStderr)
	if !ok || w == e.Stderr || w == o.w {
		return
	}
	o.bufs = append(o.bufs, bw)
}

// untrack forgets the writers (on Release: they go back to the pool).
func (e *Env) untrack() {
	if o, ok := e.Stderr.(*orderedStderr); ok {
		o.bufs = nil
	}
}
