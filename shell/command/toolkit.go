package command

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

// The toolkit below is what every command package of the sandbox shares: exit statuses, cancellation, GNU-style usage errors, opened
// operands, a line reader and a cancelable output writer.

const (
	// StatusInternalError is returned by a command that hit a bug (a
	// recovered panic).
	StatusInternalError = 70
	// StatusCanceled is returned, without a message, by a command stopped
	// because Env.Ctx was canceled (128 + SIGINT, as in bash).
	StatusCanceled = 130
	// StatusBrokenPipe is returned, without a message, by a command whose
	// standard output was closed by its reader (128 + SIGPIPE, as in
	// bash).
	StatusBrokenPipe = 141
)

// ErrCanceled is returned by the toolkit's readers and writers once
// Env.Ctx is done.
var ErrCanceled = errors.New("canceled")

// Done reports whether ctx is canceled, yielding now and then (see Err).
func Done(ctx context.Context) bool { return Err(ctx) != nil }

// Canceled reports whether the command must stop because Env.Ctx is done.
func (e *Env) Canceled() bool { return Done(e.Ctx) }

// IsCanceled reports whether err comes from a canceled context: ErrCanceled,
// context.Canceled or context.DeadlineExceeded.
func IsCanceled(err error) bool {
	return errors.Is(err, ErrCanceled) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Recover wraps f so that a panic of f becomes the message "NAME: internal
// error: ..." and StatusInternalError: a bug triggered by hostile input
// must not bring down the shell.
func Recover(f Func) Func {
	return func(env *Env) (status int) {
		defer func() {
			if r := recover(); r != nil {
				status = env.Errorf(StatusInternalError, "internal error: %v", r)
			}
		}()
		return f(env)
	}
}

// RecoverAll wraps every command of reg with Recover, in place, and returns
// reg.
func RecoverAll(reg Registry) Registry {
	for name, f := range reg {
		reg[name] = Recover(f)
	}
	return reg
}

// Usage reports a usage error the way GNU tools do and returns status: the
// line "NAME: msg" (left out when msg is empty), the line "Usage: NAME
// synopsis" (left out when synopsis is empty) and "Try 'NAME --help' for
// more information.".
func (e *Env) Usage(status int, msg, synopsis string) int {
	name := e.Args[0]
	if msg != "" {
		fmt.Fprintf(e.Stderr, "%s: %s\n", name, msg)
	}
	if synopsis != "" {
		fmt.Fprintf(e.Stderr, "Usage: %s %s\n", name, synopsis)
	}
	fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", name)
	return status
}

// ParseOptions parses the options of Args with Getopt. On a usage error it
// reports it with Usage (status 1) and returns ok false with the status to
// return.
func (e *Env) ParseOptions(short string, long []string, posixly bool) (opts []Opt, operands []string, status int, ok bool) {
	opts, operands, err := Getopt(e.Args[1:], short, long, posixly)
	if err != nil {
		return nil, nil, e.Usage(1, err.Error(), ""), false
	}
	return opts, operands, 0, true
}

// ctxReader makes every Read fail once the context is canceled, and bounds
// each Read to 64 KiB so that the check happens regularly.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// NewCtxReader returns a reader on r whose every Read fails with
// ErrCanceled once ctx is canceled. Each Read reads at most 64 KiB, so that
// the check happens regularly.
func NewCtxReader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

// Read reads at most 64 KiB, failing once the context is canceled.
func (c ctxReader) Read(p []byte) (int, error) {
	if Err(c.ctx) != nil {
		return 0, ErrCanceled
	}
	if len(p) > 64<<10 {
		p = p[:64<<10]
	}
	return c.r.Read(p)
}

// ctxWriter makes every Write fail once the context is canceled.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

// NewCtxWriter returns a writer on w whose every Write fails with
// ErrCanceled once ctx is canceled.
func NewCtxWriter(ctx context.Context, w io.Writer) io.Writer { return ctxWriter{ctx, w} }

// Write writes p unless the context is canceled.
func (c ctxWriter) Write(p []byte) (int, error) {
	if Err(c.ctx) != nil {
		return 0, ErrCanceled
	}
	return c.w.Write(p)
}

// NewOutput returns a 32 KiB buffered writer on Stdout that fails once Ctx
// is canceled, on the same terms as NewWriter: flush it before returning.
func (e *Env) NewOutput() *bufio.Writer {
	return e.NewWriter(ctxWriter{e.Ctx, e.Stdout}, 32<<10)
}

// Input is an opened operand: a file, or standard input for "-".
type Input struct {
	// Name is the operand as given.
	Name string
	// R reads the operand; every Read fails with ErrCanceled once Ctx is
	// canceled.
	R io.Reader
	c io.Closer
}

// OpenInput opens name with Open, with cancellation checks. On failure it
// reports the error with FileError and returns ok false.
func (e *Env) OpenInput(name string) (*Input, bool) {
	rc, err := e.Open(name)
	if err != nil {
		e.FileError(1, name, err)
		return nil, false
	}
	return &Input{Name: name, R: ctxReader{e.Ctx, rc}, c: rc}, true
}

// Close closes the operand (standard input is left open).
func (in *Input) Close() { in.c.Close() }

// ReadAll reads all of name ("-" is standard input), opened with Open, with
// cancellation checks: once Ctx is done it fails with ErrCanceled. Unlike
// OpenInput it reports nothing; the caller words the error.
func (e *Env) ReadAll(name string) ([]byte, error) {
	rc, err := e.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(ctxReader{e.Ctx, rc})
}

// ReadError reports a read error on name and returns the status for it:
// StatusCanceled, without a message, for a cancellation (err from a
// canceled context, or Ctx done); 1 otherwise.
func (e *Env) ReadError(name string, err error) int {
	if IsCanceled(err) || e.Canceled() {
		return StatusCanceled
	}
	return e.FileError(1, name, err)
}

// WriteError reports a failure to write standard output and returns the
// status for it: StatusCanceled for a cancellation and StatusBrokenPipe for
// a closed pipe (both without a message), 1 with "write error: ..."
// otherwise.
func (e *Env) WriteError(err error) int { return e.WriteErrorStatus(err, 1) }

// WriteErrorStatus is WriteError for a command whose status for a plain
// write error is status rather than 1 (diff and tar: 2).
func (e *Env) WriteErrorStatus(err error, status int) int {
	if IsCanceled(err) || e.Canceled() {
		return StatusCanceled
	}
	if errors.Is(err, io.ErrClosedPipe) {
		return StatusBrokenPipe
	}
	return e.Errorf(status, "write error: %s", Strerror(err))
}

// Line reading polls the context every lineEvery lines or lineBytes bytes.
const (
	lineEvery = 256
	lineBytes = 64 << 10
)

// LineReader reads lines of any length, polling the command's context every
// 256 lines or 64 KiB.
type LineReader struct {
	br    *bufio.Reader
	ctx   context.Context
	long  []byte
	lines int
	bytes int
	err   error
	// Delim ends a line: '\n' unless changed (sort -z, sed -z: 0).
	Delim byte
}

// NewLineReader returns a LineReader with a size-byte buffer on r, the
// command's until it returns (see NewReader).
func (e *Env) NewLineReader(r io.Reader, size int) *LineReader {
	return &LineReader{br: e.NewReader(r, size), ctx: e.Ctx, Delim: '\n'}
}

// ReadLine returns the next line with its delimiter, when it has one. The
// slice is valid until the next call. At the end of the input it returns
// io.EOF; once the context is done, ErrCanceled; on a read error, that
// error. Lines are never returned with an error.
func (l *LineReader) ReadLine() ([]byte, error) {
	if l.err != nil {
		return nil, l.err
	}
	l.lines++
	if l.lines >= lineEvery || l.bytes >= lineBytes {
		l.lines, l.bytes = 0, 0
		if Done(l.ctx) {
			l.err = ErrCanceled
			return nil, l.err
		}
	}
	b, err := l.br.ReadSlice(l.Delim)
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], b...)
		for err == bufio.ErrBufferFull {
			if Done(l.ctx) {
				l.err = ErrCanceled
				return nil, l.err
			}
			b, err = l.br.ReadSlice(l.Delim)
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	l.bytes += len(b)
	if err != nil && err != io.EOF {
		l.err = err
		return nil, err
	}
	if len(b) == 0 {
		l.err = io.EOF
		return nil, io.EOF
	}
	return b, nil
}

// Next returns the next line without its delimiter and whether the
// delimiter was present. The line is valid until the next call. ok is false
// at the end of the input or on an error; Err then tells which.
func (l *LineReader) Next() (line []byte, delim bool, ok bool) {
	b, err := l.ReadLine()
	if err != nil {
		return nil, false, false
	}
	if b[len(b)-1] == l.Delim {
		return b[:len(b)-1], true, true
	}
	return b, false, true
}

// Err returns the error that ended the input: nil at its end (io.EOF is not
// an error), ErrCanceled once the context was done, or the read error.
func (l *LineReader) Err() error {
	if l.err == io.EOF {
		return nil
	}
	return l.err
}
