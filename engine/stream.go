package engine

import (
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/cordonhq/cordon/trace"
)

// ExecuteOption configures one execution: pass any number to Execute or
// Start.
type ExecuteOption func(*execOptions)

// execOptions is what the ExecuteOptions given to one execution set.
type execOptions struct {
	name           string
	stdout, stderr io.Writer
	record         *trace.Trace // WithRecord
	recordOpts     recordOptions
	play           *player // Engine.Replay's
}

// WithScriptName sets the name the script has in its own error messages,
// stack traces and syntax errors, and the shell's $0 (default "script.js"
// for JavaScript, "script.sh" for the shell). The CLI passes the file name
// it runs, "[eval]" for -e and "[stdin]" for -. A name holds no control
// characters and is at most MaxScriptName bytes of UTF-8; Start refuses
// others with an error of KindInvalid.
func WithScriptName(name string) ExecuteOption {
	return func(o *execOptions) { o.name = name }
}

// WithStdout streams the script's stdout to w as the script writes it, in
// place of [SandboxConfig.Stdout] for this execution; nil streams nothing.
// See [SandboxConfig.Stdout] for how writes are made.
func WithStdout(w io.Writer) ExecuteOption {
	return func(o *execOptions) { o.stdout = w }
}

// WithStderr is WithStdout for stderr.
func WithStderr(w io.Writer) ExecuteOption {
	return func(o *execOptions) { o.stderr = w }
}

// MaxScriptName bounds the length of a script name (WithScriptName).
const MaxScriptName = 4096

// execOptionsOf applies opts over the sandbox's defaults.
func (sb *Sandbox) execOptionsOf(lang Language, opts []ExecuteOption) (execOptions, error) {
	o := execOptions{stdout: sb.stdout, stderr: sb.stderr}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if o.name == "" {
		o.name = scriptName(lang)
	}
	if err := checkScriptName(o.name); err != nil {
		return o, err
	}
	return o, nil
}

// checkScriptName refuses a script name that would garble the messages it
// appears in.
func checkScriptName(name string) error {
	if len(name) > MaxScriptName {
		return errorf(KindInvalid, "script name of %d bytes is longer than %d", len(name), MaxScriptName)
	}
	if !utf8.ValidString(name) {
		return errorf(KindInvalid, "script name %q is not UTF-8", name)
	}
	if i := strings.IndexFunc(name, unicode.IsControl); i >= 0 {
		return errorf(KindInvalid, "script name %q holds a control character", name)
	}
	return nil
}

// scriptName is the default file name errors and $0 show for a script.
func scriptName(lang Language) string {
	if lang == Shell {
		return "script.sh"
	}
	return "script.js"
}

// streamer hands the output of one execution to the host's writers, one
// write at a time and in the order the guest made them, on a goroutine of
// its own (pump). The guest waits for each write to end, so a slow writer
// slows the script down, and that time counts against its time limit. When
// the limit is reached (or the execution is canceled, or the sandbox
// closes), abandon stops the waiting: a write in progress no longer holds
// the guest, which goes on to its stop; the writer keeps the pump until it
// returns, and a later write is made only if the pump is free by then.
type streamer struct {
	w       [3]io.Writer  // by file descriptor: 1 stdout, 2 stderr
	work    chan chunk    // to the pump; room for one, which busy guards
	done    chan struct{} // from the pump: a write ended
	stopped chan struct{} // closed by abandon

	mu        sync.Mutex
	started   bool    // the pump runs
	busy      bool    // a write was handed to the pump and has not ended
	failed    [3]bool // the writer returned an error, or panicked
	abandoned bool
	closed    bool
}

type chunk struct {
	fd int
	p  []byte
}

// newStreamer returns a streamer for the given writers, or nil when both
// are nil.
func newStreamer(stdout, stderr io.Writer) *streamer {
	if stdout == nil && stderr == nil {
		return nil
	}
	s := &streamer{work: make(chan chunk, 1), done: make(chan struct{}, 1), stopped: make(chan struct{})}
	s.w[1], s.w[2] = stdout, stderr
	return s
}

// write hands a copy of p (the guest's memory changes once the guest goes
// on) to fd's writer and, unless abandon was called, waits until the
// writer returns or abandon is called. It is called by one goroutine at a
// time, the guest's, and never after close.
func (s *streamer) write(fd int, p []byte) {
	if len(p) == 0 {
		return
	}
	s.mu.Lock()
	if s.w[fd] == nil || s.failed[fd] || s.busy || s.closed {
		s.mu.Unlock()
		return
	}
	if !s.started {
		s.started = true
		go s.pump()
	}
	s.busy = true
	s.work <- chunk{fd: fd, p: append([]byte(nil), p...)} // room: busy was false
	abandoned := s.abandoned
	s.mu.Unlock()
	if abandoned {
		return
	}
	select {
	case <-s.done:
	case <-s.stopped:
	}
}

// pump makes the writes, until close.
func (s *streamer) pump() {
	for c := range s.work {
		ok := s.call(c)
		s.mu.Lock()
		s.busy = false
		if !ok {
			s.failed[c.fd] = true
		}
		s.mu.Unlock()
		select {
		case s.done <- struct{}{}:
		default: // nobody waits: the write was abandoned
		}
	}
}

// call writes c and reports whether the writer took all of it; a writer
// that panics has failed.
func (s *streamer) call(c chunk) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	n, err := s.w[c.fd].Write(c.p)
	return err == nil && n == len(c.p)
}

// abandon ends the waiting for writes (see streamer).
func (s *streamer) abandon() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.abandoned {
		s.abandoned = true
		close(s.stopped)
	}
}

// close ends the stream once the execution has finished; the pump exits
// after the write it is in, if any.
func (s *streamer) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	if s.started {
		close(s.work)
	}
}
