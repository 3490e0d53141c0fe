package mcptools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configures Start.
type Options struct {
	// Dir is the directory relative cwd paths start from (the config
	// file's, config.Config.Dir, when the servers come from a config).
	Dir string
	// Stderr receives the stderr of stdio servers, line by line, each
	// line prefixed with "[NAME] " (default: discarded). Give it a writer
	// that neutralizes terminal escapes when it is a terminal: the
	// servers are not trusted.
	Stderr io.Writer
	// StartTimeout bounds the start of each server, its initialization and
	// its tool list, and each reconnection (default 30s).
	StartTimeout time.Duration
	// Client is the implementation info sent to the servers (default
	// cordon).
	Client *mcp.Implementation
	// MaxResultBytes is the sandboxes' Limits.MaxResultBytes (default
	// [engine.DefaultMaxResultBytes]): the frame limit of each connection
	// is FrameLimit(MaxResultBytes).
	MaxResultBytes int
	// MaxSchemaBytes and MaxSchemaDepth are the budget of each tool's
	// input and output schema (default DefaultMaxSchemaBytes and
	// DefaultMaxSchemaDepth); a tool over it is left out, and
	// [Upstreams.Warnings] says so.
	MaxSchemaBytes int
	MaxSchemaDepth int
}

// FrameLimit returns the largest message that a connection to an upstream
// server reads, for sandboxes whose results may have maxResultBytes
// ([engine.DefaultMaxResultBytes] when 0 or less): twice that, since a tool
// result may carry its value both as structuredContent and as text, plus
// 64 KiB for the message around it. A message over the limit is not read
// whole: the call it answers fails with ErrTooLarge (a ToolError of kind
// "too_large"), and the connection goes on. A result within the limit that
// is still over maxResultBytes fails as "too_large" too, in the engine.
func FrameLimit(maxResultBytes int) int {
	if maxResultBytes <= 0 {
		maxResultBytes = engine.DefaultMaxResultBytes
	}
	return 2*maxResultBytes + 64<<10
}

// Backoff of reconnections: a connection that ends is reconnected at the
// next call, at once the first time; when connections keep ending within
// healthyAfter of their start, or attempts to connect keep failing, each
// next attempt waits twice as long as the one before, from firstBackoff up
// to maxBackoff. A call made while the server waits is refused at once
// (ErrUnavailable).
const (
	healthyAfter = 10 * time.Second
	maxBackoff   = 30 * time.Second
)

// firstBackoff is the first wait (a variable for the tests).
var firstBackoff = 250 * time.Millisecond

// backoff is the wait before an attempt after failures ended connections
// or failed attempts in a row.
func backoff(failures int) time.Duration {
	if failures <= 1 {
		return 0
	}
	d := firstBackoff
	for i := 2; i < failures && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// Upstreams are connected MCP servers and their imported tools.
type Upstreams struct {
	tools    []engine.Tool
	infos    map[string]Info
	warnings []error
	servers  []*upstream
	once     sync.Once
}

// Start connects to each server, at once, and imports its tools
// ([Upstream.Import]). An error names the server; the servers started are
// then stopped. A tool Import leaves out is a warning (Warnings), not an
// error: the server's other tools are there.
//
// Each server's connection is its own: a stdio server is started with
// its minimal environment ([Upstream.Command]), a url server is reached with
// its headers under the rules of [Upstream.URL]. A message of a server over
// FrameLimit(opts.MaxResultBytes) fails the call it answers, and no other.
// A server whose connection ends (it exits, closes its output, writes what
// is not JSON-RPC, leaves its input unread for 15s, or its HTTP session
// fails) is connected again at the next call, with backoff; the calls in
// flight on the lost connection fail, and a call made while the server
// waits to be reconnected fails at once (ErrUnavailable).
func Start(ctx context.Context, servers []Upstream, opts Options) (*Upstreams, error) {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 30 * time.Second
	}
	if opts.Client == nil {
		opts.Client = &mcp.Implementation{Name: "cordon", Version: "dev"}
	}
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	u := &Upstreams{infos: map[string]Info{}}
	type started struct {
		tools    []engine.Tool
		infos    map[string]Info
		warnings []error
		err      error
	}
	out := make([]started, len(servers))
	for _, s := range servers {
		up := &upstream{s: s, opts: opts, nonce: hex.EncodeToString(nonce[:]), stderr: newLineWriter(opts.Stderr, s.Name)}
		up.ctx, up.cancel = context.WithCancel(context.WithoutCancel(ctx))
		u.servers = append(u.servers, up)
	}
	var wg sync.WaitGroup
	for i, up := range u.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := up.s
			sctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
			defer cancel()
			l, err := up.dial(sctx)
			if err != nil {
				out[i].err = fmt.Errorf("mcptools: mcp_servers[%d] (%s): cannot start: %w", i, s.Name, err)
				return
			}
			up.mu.Lock()
			up.cur = l
			up.mu.Unlock()
			out[i].infos = map[string]Info{}
			tools, skipped, err := s.importTools(sctx, l.cs, up.call, budget{opts.MaxSchemaBytes, opts.MaxSchemaDepth}, out[i].infos)
			if err != nil {
				out[i].err = fmt.Errorf("mcptools: mcp_servers[%d] (%s): %w", i, s.Name, err)
				return
			}
			out[i].tools, out[i].warnings = tools, skipped
			// A pin of a tool the server does not have pins nothing.
			names := map[string]bool{}
			for _, info := range out[i].infos {
				names[info.Upstream] = true
			}
			for _, sk := range skipped {
				var se *SkipError
				if errors.As(sk, &se) {
					names[se.Tool] = true
				}
			}
			var unknown []string
			for tool := range s.Annotations {
				if !names[tool] {
					unknown = append(unknown, tool)
				}
			}
			sort.Strings(unknown)
			for _, tool := range unknown {
				out[i].warnings = append(out[i].warnings, fmt.Errorf("mcptools: mcp_servers[%d] (%s): annotations pins %s, which is not a tool of the server", i, s.Name, quoteName(tool)))
			}
		}()
	}
	wg.Wait()
	var errs []error
	for _, o := range out {
		if o.err != nil {
			errs = append(errs, o.err)
			continue
		}
		u.tools = append(u.tools, o.tools...)
		u.warnings = append(u.warnings, o.warnings...)
		for k, v := range o.infos {
			u.infos[k] = v
		}
	}
	if err := errors.Join(errs...); err != nil {
		u.Close()
		return nil, err
	}
	return u, nil
}

// Tools returns the imported tools of every server, in the servers' order.
func (u *Upstreams) Tools() []engine.Tool { return append([]engine.Tool(nil), u.tools...) }

// Info returns what is known of the imported tool name.
func (u *Upstreams) Info(name string) (Info, bool) {
	i, ok := u.infos[name]
	return i, ok
}

// Warnings returns what Start found wrong without failing: each tool it
// left out (a *SkipError), and each pinned annotation that names no tool of
// its server.
func (u *Upstreams) Warnings() []error { return append([]error(nil), u.warnings...) }

// Close ends the sessions with the servers; stdio servers are stopped.
// Calls made after it fail with ErrClosed.
func (u *Upstreams) Close() error {
	u.once.Do(func() {
		var wg sync.WaitGroup
		for _, up := range u.servers {
			wg.Add(1)
			go func() { defer wg.Done(); up.close() }()
		}
		wg.Wait()
	})
	return nil
}

// upstream is one server's connection, connected again when it ends.
type upstream struct {
	s      Upstream
	opts   Options
	nonce  string
	stderr *lineWriter
	ctx    context.Context // of the connections; canceled by close
	cancel context.CancelFunc

	mu       sync.Mutex
	cur      *link         // the live connection, or nil
	dialing  chan struct{} // closed when the attempt under way ends
	failures int           // connections that ended early, or attempts that failed, in a row
	next     time.Time     // no attempt before
	lastErr  error         // why the last connection ended, or the last attempt failed
	closed   bool
	closing  inflight // connections being closed, processes being stopped
}

// link is one connection to the server.
type link struct {
	cs   *mcp.ClientSession
	born time.Time
	done chan struct{} // closed when the connection is lost
	once sync.Once
}

func (l *link) dead() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// dial connects to the server.
func (up *upstream) dial(ctx context.Context) (*link, error) {
	l := &link{born: time.Now(), done: make(chan struct{})}
	limit := FrameLimit(up.opts.MaxResultBytes)
	var t mcp.Transport
	if up.s.URL != "" {
		hc, err := httpClient(up.s, limit, up.nonce)
		if err != nil {
			return nil, err
		}
		t = &mcp.StreamableClientTransport{Endpoint: up.s.URL, HTTPClient: hc, MaxEventSize: limit + 1<<20,
			// cordon asks; it needs no messages the server starts.
			DisableStandaloneSSE: true}
	} else {
		if len(up.s.Command) == 0 {
			return nil, errors.New("mcptools: no command")
		}
		cmd := exec.Command(up.s.Command[0], up.s.Command[1:]...)
		cmd.Env = commandEnv(up.s, os.Environ())
		if up.s.Cwd != "" {
			cmd.Dir = up.s.Cwd
			if !filepath.IsAbs(up.s.Cwd) && up.opts.Dir != "" {
				cmd.Dir = filepath.Join(up.opts.Dir, up.s.Cwd)
			}
		}
		t = &commandTransport{cmd: cmd, limit: limit, nonce: up.nonce, stderr: up.stderr, stops: &up.closing,
			lost: func(err error) { up.lost(l, err) }}
	}
	cs, err := mcp.NewClient(up.opts.Client, nil).Connect(ctx, t, nil)
	if err != nil {
		return nil, err
	}
	up.mu.Lock()
	l.cs = cs // lost reads it under the lock
	up.mu.Unlock()
	go func() {
		err := cs.Wait()
		if err == nil {
			err = errors.New("the connection ended")
		}
		up.lost(l, err)
	}()
	if l.dead() {
		// Lost while it was being made.
		_ = cs.Close()
		return nil, fmt.Errorf("mcptools: the connection ended as it started: %w", up.lastError())
	}
	return l, nil
}

func (up *upstream) lastError() error {
	up.mu.Lock()
	defer up.mu.Unlock()
	if up.lastErr == nil {
		return errors.New("no reason given")
	}
	return up.lastErr
}

// lost records that l's connection ended for err: the next call connects
// again, after the backoff.
func (up *upstream) lost(l *link, err error) {
	up.mu.Lock()
	first := false
	l.once.Do(func() {
		first = true
		close(l.done)
	})
	if !first {
		up.mu.Unlock()
		return
	}
	if up.cur == l {
		up.cur = nil
	}
	if time.Since(l.born) >= healthyAfter {
		up.failures = 0
	}
	up.failures++
	up.next = time.Now().Add(backoff(up.failures))
	up.lastErr = err
	if l.cs != nil {
		// Stop the process, if it is still there; close waits for it.
		up.closing.Add(1)
		go func() {
			defer up.closing.Done()
			_ = l.cs.Close()
		}()
	}
	up.mu.Unlock()
}

// session returns the live connection, connecting again if it was lost,
// within ctx. Its errors are ToolErrors whose message the script sees.
func (up *upstream) session(ctx context.Context) (*link, error) {
	name := up.s.Name
	for {
		up.mu.Lock()
		if up.closed {
			up.mu.Unlock()
			return nil, &engine.ToolError{Message: "MCP server " + name + " is closed", Err: ErrClosed}
		}
		if l := up.cur; l != nil && !l.dead() {
			up.mu.Unlock()
			return l, nil
		}
		ch := up.dialing
		if ch == nil {
			if wait := time.Until(up.next); wait > 0 {
				err := &engine.ToolError{
					Message: fmt.Sprintf("MCP server %s is unavailable: its connection ended, and it is connected again in %v", name, wait.Round(time.Millisecond)),
					Err:     fmt.Errorf("%w: %v", ErrUnavailable, up.lastErr),
				}
				up.mu.Unlock()
				return nil, err
			}
			ch = make(chan struct{})
			up.dialing = ch
			go up.redial(ch)
		}
		up.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, &engine.ToolError{Message: "MCP server " + name + " is being connected again and was not ready in time",
				Err: fmt.Errorf("%w: %v", ErrUnavailable, context.Cause(ctx))}
		}
		up.mu.Lock()
		failed := up.cur == nil && up.dialing == nil && time.Until(up.next) > 0
		err := up.lastErr
		up.mu.Unlock()
		if failed {
			return nil, &engine.ToolError{Message: "MCP server " + name + " is unavailable: connecting to it again failed",
				Err: fmt.Errorf("%w: %v", ErrUnavailable, err)}
		}
	}
}

// redial makes one attempt to connect again, and closes ch when it ends.
func (up *upstream) redial(ch chan struct{}) {
	ctx, cancel := context.WithTimeout(up.ctx, up.opts.StartTimeout)
	l, err := up.dial(ctx)
	cancel()
	up.mu.Lock()
	up.dialing = nil
	switch {
	case err != nil:
		up.failures++
		up.next = time.Now().Add(backoff(up.failures))
		up.lastErr = err
	case up.closed:
		up.closing.Add(1)
		go func() {
			defer up.closing.Done()
			_ = l.cs.Close()
		}()
	default:
		up.cur = l
	}
	up.mu.Unlock()
	close(ch)
}

// call calls the upstream tool name. Its errors are ToolErrors: the
// script sees what the server said and what happened to the connection;
// the host keeps the cause.
func (up *upstream) call(ctx context.Context, name string, params json.RawMessage) (any, error) {
	l, err := up.session(ctx)
	if err != nil {
		return nil, err
	}
	res, err := l.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: params})
	if err == nil {
		return Value(res)
	}
	server := up.s.Name
	var we *jsonrpc.Error
	switch {
	case errors.As(err, &we) && we.Code == tooLargeCode && up.ours(we.Data):
		limit := FrameLimit(up.opts.MaxResultBytes)
		return nil, &engine.ToolError{Kind: "too_large",
			Message: fmt.Sprintf("MCP server %s: its answer is over the limit of %d bytes (limits.max_result_bytes sets it)", server, limit),
			Err:     fmt.Errorf("%w: %d bytes", ErrTooLarge, limit)}
	case errors.As(err, &we):
		// The server answered with an error: the connection is fine.
		return nil, &engine.ToolError{Message: "MCP server " + server + ": " + we.Message, Err: err}
	case ctx.Err() != nil:
		return nil, &engine.ToolError{Message: "MCP server " + server + " did not answer in time", Err: context.Cause(ctx)}
	}
	// The call failed without an answer: the connection broke (the
	// process ended, the HTTP session is gone, a request failed), and
	// the SDK does not use it again.
	up.lost(l, err)
	return nil, &engine.ToolError{Message: "MCP server " + server + ": the connection ended during the call; the next call connects again", Err: err}
}

// ours reports whether the data of an error response are those of a
// replacement this connection's frame filter made (it knows the nonce).
func (up *upstream) ours(data json.RawMessage) bool {
	var d struct {
		Nonce string `json:"nonce"`
	}
	return json.Unmarshal(data, &d) == nil && d.Nonce == up.nonce
}

// close ends the connection for good.
func (up *upstream) close() {
	up.mu.Lock()
	up.closed = true
	l := up.cur
	up.cur = nil
	up.mu.Unlock()
	up.cancel()
	if l != nil && l.cs != nil {
		_ = l.cs.Close()
	}
	up.closing.Wait()
	if up.stderr != nil {
		up.stderr.Flush()
	}
}
