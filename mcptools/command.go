package mcptools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stallTimeout is how long a server may leave a message unread on its
// stdin before it is taken for stalled: the connection ends and the
// server is started again at the next call. (A variable for the tests.)
var stallTimeout = 15 * time.Second

// Times of a stdio server's process.
const (
	// terminateWait is how long Close waits for the server to exit after
	// closing its stdin, and then after SIGTERM, before it kills it.
	terminateWait = 2 * time.Second
)

// commandTransport is the [mcp.Transport] of a stdio server: it starts the
// command with its minimal environment (commandEnv), reads its stdout
// through a frameReader, gives up on a write the server does not read
// within stallTimeout, and reports the end of the connection to lost.
type commandTransport struct {
	cmd    *exec.Cmd
	limit  int
	nonce  string
	lost   func(error)
	stderr *lineWriter
	// stops counts the processes being stopped: a connection's Close
	// returns at once (the SDK may call it while it holds a lock that
	// calls wait on), and the process stops in the background.
	stops *inflight
}

// Connect implements [mcp.Transport].
func (t *commandTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	t.cmd.Stdin, t.cmd.Stdout = inR, outW
	if t.stderr != nil {
		t.cmd.Stderr = t.stderr
	}
	// Bound the wait for the stderr copy when a child of the server keeps
	// it open after the server exits.
	t.cmd.WaitDelay = terminateWait
	if err := t.cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	// The child's ends are the child's.
	inR.Close()
	outW.Close()
	p := &process{cmd: t.cmd, stdin: inW, stdout: outR, exited: make(chan struct{}), stderr: t.stderr}
	go func() {
		p.waitErr = t.cmd.Wait()
		close(p.exited)
	}()
	w := &stallWriter{f: inW, lost: t.lost}
	conn, err := (&mcp.IOTransport{
		Reader:        io.NopCloser(newFrameReader(outR, t.limit, t.nonce)),
		Writer:        w,
		MaxLineLength: t.limit + 1<<20, // a backstop: frameReader holds no more than limit
	}).Connect(ctx)
	if err != nil {
		p.stop()
		return nil, err
	}
	return &watchedConn{Connection: conn, p: p, lost: t.lost, stops: t.stops}, nil
}

// process is a started stdio server.
type process struct {
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *os.File
	stderr  *lineWriter
	exited  chan struct{}
	waitErr error
	once    sync.Once
}

// stop ends the process as the MCP specification says a client does:
// close its stdin, wait, SIGTERM, wait, kill. Its stdout is closed once it
// is gone.
func (p *process) stop() {
	p.once.Do(func() {
		p.stdin.Close()
		wait := func() bool {
			select {
			case <-p.exited:
				return true
			case <-time.After(terminateWait):
				return false
			}
		}
		if !wait() {
			if p.cmd.Process.Signal(syscall.SIGTERM) != nil || !wait() {
				_ = p.cmd.Process.Kill()
				wait()
			}
		}
		p.stdout.Close()
		if p.stderr != nil {
			p.stderr.Flush()
		}
	})
}

// watchedConn is the connection to a stdio server: it reports a failed
// read (the server exited, closed its stdout, or wrote something that is
// not JSON-RPC) before the SDK fails the calls in flight, so that the next
// call finds the connection lost; Close stops the process.
type watchedConn struct {
	mcp.Connection
	p     *process
	lost  func(error)
	stops *inflight
}

// Read implements [mcp.Connection].
func (c *watchedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil && ctx.Err() == nil {
		c.lost(fmt.Errorf("the connection ended: %w", err))
	}
	return msg, err
}

// Close implements [mcp.Connection]. The process is stopped in the
// background (process.stop), counted in stops.
func (c *watchedConn) Close() error {
	err := c.Connection.Close()
	c.stops.Add(1)
	go func() {
		defer c.stops.Done()
		c.p.stop()
	}()
	return err
}

// stallWriter writes to a server's stdin, and gives up on a write that
// does not complete within stallTimeout (where the pipe supports
// deadlines: not on Windows), which ends the connection.
type stallWriter struct {
	f    *os.File
	lost func(error)
}

// Write implements [io.Writer].
func (w *stallWriter) Write(p []byte) (int, error) {
	deadline := w.f.SetWriteDeadline(time.Now().Add(stallTimeout)) == nil
	n, err := w.f.Write(p)
	if err != nil {
		if deadline && errors.Is(err, os.ErrDeadlineExceeded) {
			err = fmt.Errorf("mcptools: the server did not read its input for %v", stallTimeout)
		}
		w.lost(err)
	}
	return n, err
}

// Close implements [io.Closer]: the process's stdin is closed when it
// stops.
func (w *stallWriter) Close() error { return nil }
