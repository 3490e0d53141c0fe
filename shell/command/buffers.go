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

// NewReader returns a bufio.Reader of size bytes on r. It belongs to the
// command until the command returns; do not keep it, or anything it
// returned, past that.
func (e *Env) NewReader(r io.Reader, size int) *bufio.Reader {
	p := poolFor('r', size)
	br, _ := p.Get().(*bufio.Reader)
	if br == nil {
		br = bufio.NewReaderSize(r, size)
	} else {
		br.Reset(r)
	}
	e.taken = append(e.taken, taken{p, br})
	return br
}

// NewWriter returns a bufio.Writer of size bytes on w, on the same terms as
// NewReader. Flush it before returning: what is still buffered then is
// lost.
func (e *Env) NewWriter(w io.Writer, size int) *bufio.Writer {
	p := poolFor('w', size)
	bw, _ := p.Get().(*bufio.Writer)
	if bw == nil {
		bw = bufio.NewWriterSize(w, size)
	} else {
		bw.Reset(w)
	}
	e.taken = append(e.taken, taken{p, bw})
	return bw
}

// Buffer returns a scratch slice of size bytes (not cleared), on the same
// terms as NewReader.
func (e *Env) Buffer(size int) []byte {
	p := poolFor('b', size)
	b, _ := p.Get().(*[]byte)
	if b == nil {
		s := make([]byte, size)
		b = &s
	}
	e.taken = append(e.taken, taken{p, b})
	return *b
}

// Release gives back the buffers the command took. The shell calls it when
// the command has returned; an Env that is never released only loses the
// reuse.
func (e *Env) Release() {
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
