// Package cmdutil holds what the sandbox shell's newer command packages
// (fileutils, textproc, sysutils, hexfmt) share: cancellation-aware
// readers and writers, GNU-style usage and error reporting, and the
// statuses for cancellation and broken pipes. It depends only on the
// exported API of shell/command.
package cmdutil

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cordonhq/cordon/shell/command"
)

// Statuses shared by the commands.
const (
	// StatusCanceled is returned, without a message, by a command stopped
	// because Env.Ctx was canceled.
	StatusCanceled = 130
	// StatusPipe is returned, without a message, by a command whose
	// standard output was closed by its reader (128 + SIGPIPE).
	StatusPipe = 141
	// StatusInternal is returned by a command that hit a bug (a panic).
	StatusInternal = 70
)

// ErrCanceled is the error of reads and writes once Env.Ctx is canceled.
var ErrCanceled = errors.New("cmdutil: canceled")

// Protect turns a panic of every command of reg into an error message and
// status 70, so that a bug triggered by hostile input cannot bring down
// the shell, and returns reg.
func Protect(reg command.Registry) command.Registry {
	for name, f := range reg {
		reg[name] = func(env *command.Env) (status int) {
			defer func() {
				if r := recover(); r != nil {
					status = env.Errorf(StatusInternal, "internal error: %v", r)
				}
			}()
			return f(env)
		}
	}
	return reg
}

// IsCanceled reports whether err comes from a canceled context.
func IsCanceled(err error) bool {
	return errors.Is(err, ErrCanceled) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Canceled reports whether the command must stop.
func Canceled(env *command.Env) bool { return command.Err(env.Ctx) != nil }

// Reader fails once the context is canceled and bounds each read to
// 64 KiB so that the check happens regularly.
type Reader struct {
	Ctx context.Context
	R   io.Reader
}

// Read reads at most 64 KiB, failing once the context is canceled.
func (c Reader) Read(p []byte) (int, error) {
	if command.Err(c.Ctx) != nil {
		return 0, ErrCanceled
	}
	if len(p) > 64<<10 {
		p = p[:64<<10]
	}
	return c.R.Read(p)
}

// Writer fails once the context is canceled.
type Writer struct {
	Ctx context.Context
	W   io.Writer
}

// Write writes p unless the context is canceled.
func (c Writer) Write(p []byte) (int, error) {
	if command.Err(c.Ctx) != nil {
		return 0, ErrCanceled
	}
	return c.W.Write(p)
}

// Stdout returns a buffered writer on standard output that fails once the
// context is canceled. Flush it before returning.
func Stdout(env *command.Env) *bufio.Writer {
	return env.NewWriter(Writer{env.Ctx, env.Stdout}, 32<<10)
}

// Getopt parses env.Args with command.Getopt; on a usage error it prints
// GNU's message and "Try" line and returns ok false with status.
func Getopt(env *command.Env, status int, short string, long []string, posixly bool) (opts []command.Opt, operands []string, st int, ok bool) {
	opts, operands, err := command.Getopt(env.Args[1:], short, long, posixly)
	if err != nil {
		return nil, nil, Usage(env, status, err.Error()), false
	}
	return opts, operands, 0, true
}

// Usage reports a usage error the way coreutils do and returns status.
func Usage(env *command.Env, status int, msg string) int {
	fmt.Fprintf(env.Stderr, "%s: %s\nTry '%s --help' for more information.\n", env.Args[0], msg, env.Args[0])
	return status
}

// WriteError returns the status for a failed write of standard output:
// 130 when canceled, 141 for a closed pipe, else 1 after a message.
func WriteError(env *command.Env, err error) int {
	if IsCanceled(err) || Canceled(env) {
		return StatusCanceled
	}
	if errors.Is(err, io.ErrClosedPipe) {
		return StatusPipe
	}
	return env.Errorf(1, "write error: %s", command.Strerror(err))
}

// ReadError returns the status for a failed read of name: 130 when
// canceled (without a message), else 1 after a message.
func ReadError(env *command.Env, name string, err error) int {
	if IsCanceled(err) || Canceled(env) {
		return StatusCanceled
	}
	return env.FileError(1, name, err)
}

// Open opens name ("-" is standard input) with cancellation checks.
func Open(env *command.Env, name string) (io.Reader, io.Closer, error) {
	rc, err := env.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return Reader{env.Ctx, rc}, rc, nil
}

// ReadAll reads all of name ("-" is standard input), with cancellation
// checks.
func ReadAll(env *command.Env, name string) ([]byte, error) {
	r, c, err := Open(env, name)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return io.ReadAll(r)
}
