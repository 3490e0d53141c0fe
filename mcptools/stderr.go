package mcptools

import (
	"bytes"
	"io"
	"sync"
)

// maxStderrLine is the longest line of a server's stderr that lineWriter
// holds: a longer one is written in pieces, each a line of its own.
const maxStderrLine = 4 << 10

// lineWriter writes a stdio server's stderr to w line by line, each line
// prefixed with the server's name, so that a reader can tell the server's
// lines from cordon's and from another server's. What reaches w is only
// ever whole lines; w itself neutralizes what a terminal would obey (the
// CLI gives the writer it gives the script's output).
type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix []byte
	buf    []byte
}

func newLineWriter(w io.Writer, name string) *lineWriter {
	if w == nil {
		return nil
	}
	return &lineWriter{w: w, prefix: []byte("[" + name + "] ")}
}

// Write implements [io.Writer]. It never fails: what the server writes to
// its stderr is not worth stopping it for.
func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			room := maxStderrLine - len(l.buf)
			if len(p) < room {
				l.buf = append(l.buf, p...)
				break
			}
			l.buf = append(l.buf, p[:room]...)
			p = p[room:]
			l.flushLocked()
			continue
		}
		l.buf = append(l.buf, p[:i]...)
		p = p[i+1:]
		l.flushLocked()
	}
	return n, nil
}

// Flush writes a line that is not finished yet.
func (l *lineWriter) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		l.flushLocked()
	}
}

func (l *lineWriter) flushLocked() {
	line := make([]byte, 0, len(l.prefix)+len(l.buf)+1)
	line = append(append(append(line, l.prefix...), l.buf...), '\n')
	_, _ = l.w.Write(line)
	l.buf = l.buf[:0]
}
