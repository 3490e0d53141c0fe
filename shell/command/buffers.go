package command

import (
	"bufio"
	"io"
	"sync"
)

// Commands buffer their input and output in large blocks (64-256 KiB),
// which is what makes a 10 MB pipeline fast. A fresh block for every
// command of every script made a short script pay for clearing and
// collecting them: half the instructions of `sort f | uniq -c | head` in
// the guest. So the blocks are reused: a command takes them from its Env,
// and the shell gives them back when the command returns.

// bufPool is one pool per (kind, size).
type bufPool struct {
	kind byte // 'r' reader, 'w' writer, 'b' plain
	size int
}

var pools sync.Map // bufPool -> *sync.Pool

func poolFor(kind byte, size int) *sync.Pool {
	key := bufPool{kind, size}
	if p, ok := pools.Load(key); ok {
		return p.(*sync.Pool)
	}
	p, _ := pools.LoadOrStore(key, &sync.Pool{})
	return p.(*sync.Pool)
}

type taken struct {
	pool *sync.Pool
	v    any
}

// maxTaken bounds the blocks one command holds from the pools. A command
// that opens a new reader per file (grep PATTERN *) would otherwise hold
// every one until it returns; past the bound it gets blocks the garbage
// collector takes back, as before there were pools.
const maxTaken = 8

// take returns a pooled value of the pool (nil when there is none free, or
// when the command holds maxTaken already) and records what it must give
// back.
func (e *Env) take(kind byte, size int, v func(pooled any) any) any {
	if len(e.taken) >= maxTaken {
		return v(nil)
	}
	p := poolFor(kind, size)
	x := v(p.Get())
	e.taken = append(e.taken, taken{p, x})
	return x
}

// NewReader returns a bufio.Reader of size bytes on r. It belongs to the
// command until the command returns; do not keep it, or anything it
// returned, past that.
func (e *Env) NewReader(r io.Reader, size int) *bufio.Reader {
	return e.take('r', size, func(pooled any) any {
		if br, ok := pooled.(*bufio.Reader); ok {
			br.Reset(r)
			return br
		}
		return bufio.NewReaderSize(r, size)
	}).(*bufio.Reader)
}

// NewWriter returns a bufio.Writer of size bytes on w, on the same terms as
// NewReader. Flush it before returning: what is still buffered then is
// lost. After OrderStderr, every write to Stderr flushes it first.
func (e *Env) NewWriter(w io.Writer, size int) *bufio.Writer {
	bw := e.take('w', size, func(pooled any) any {
		if bw, ok := pooled.(*bufio.Writer); ok {
			bw.Reset(w)
			return bw
		}
		return bufio.NewWriterSize(w, size)
	}).(*bufio.Writer)
	e.track(bw, w)
	return bw
}

// Buffer returns a scratch slice of size bytes (not cleared), on the same
// terms as NewReader.
func (e *Env) Buffer(size int) []byte {
	return *e.take('b', size, func(pooled any) any {
		if b, ok := pooled.(*[]byte); ok {
			return b
		}
		b := make([]byte, size)
		return &b
	}).(*[]byte)
}

// Release gives back the buffers the command took. The shell calls it when
// the command has returned; an Env that is never released only loses the
// reuse. A copy of an Env (made to rewrite Args for getopt, say) shares
// the record of what was taken: only the shell's own Env is released.
func (e *Env) Release() {
	e.untrack()
	for _, t := range e.taken {
		switch v := t.v.(type) {
		case *bufio.Reader:
			v.Reset(nil) // drop the stream
		case *bufio.Writer:
			v.Reset(nil)
		}
		t.pool.Put(t.v)
	}
	e.taken = nil
}
