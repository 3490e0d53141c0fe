// Package command defines the contract between cordon's shell evaluator and
// the commands it runs (cat, grep, sed, awk, jq, tool, ...), and small
// helpers that commands share.
//
// A command is a Go function that gets an *Env and returns an exit status.
// It reads and writes only through the Env: its standard streams, the
// sandbox's in-memory file system, and the callbacks the shell provides.
// Commands never touch the host: the whole shell runs inside the
// WebAssembly guest, over the guest's VFS.
//
// Commands must treat their arguments and input as hostile. They report bad
// usage on Stderr in the style of GNU tools ("grep: invalid option -- 'Z'")
// and return status 2 (or 1 where GNU does), never panic, and check
// Env.Ctx regularly (for example once per line or per 64 KiB of input) so
// that a timeout stops them: Go on WebAssembly has no preemption, so a
// command that loops without checking cannot be stopped except by killing
// the whole sandbox.
package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cordonhq/cordon/vfs"
)

// Func is a command. It returns the command's exit status (0-255).
type Func func(env *Env) int

// Env is everything a command may use.
type Env struct {
	// Ctx is canceled (Err returns non-nil) when the execution must stop,
	// for example on a timeout. Long-running commands poll Ctx.Err().
	Ctx context.Context
	// Args holds the command name in Args[0] and its arguments after it.
	Args []string
	// Stdin, Stdout and Stderr are the command's standard streams. Stdin is
	// never nil (an empty reader when there is no input).
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Dir is the absolute working directory.
	Dir string
	// FS is the sandbox file system (the unprivileged view).
	FS *vfs.FS
	// Environ lists the exported variables as "NAME=value", sorted.
	Environ []string
	// Now returns the current time (the host clock; fixed in tests).
	Now func() time.Time
	// Exec runs another command line (for xargs, find -exec and env): args[0]
	// is looked up like any other command (builtins and functions
	// included). environ, when not nil, replaces the exported variables the
	// command sees ("NAME=value" pairs, as env passes them). It returns the
	// exit status; 127 means "command not found" and the message has
	// already been written to stderr.
	Exec func(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int
	// Lookup, when not nil, reports whether Exec could run the command
	// name as execvp would find it: nil, or an error matching
	// fs.ErrNotExist ("No such file or directory") or fs.ErrPermission
	// (a directory, or a file without execute permission), so that a
	// command like timeout can report it in its own words.
	Lookup func(name string) error
	// FDs holds the file descriptors above 2 that the shell had open when
	// it started the command (as after "cmd 3<file", or the /dev/fd/N a
	// process substitution <(...) expands to), by number; nil when there
	// are none. Read them with FD; Open and Create resolve /dev/fd/N
	// through it.
	FDs map[int]Descriptor

	taken []taken // buffers to give back on Release (buffers.go)
}

// Descriptor is an open file descriptor: R is nil when it is not open for
// reading, W when it is not open for writing.
type Descriptor struct {
	R io.Reader
	W io.Writer
}

// FD returns the reader and writer of file descriptor n: Stdin for 0,
// Stdout for 1, Stderr for 2 and the entry of FDs above. ok is false when
// the descriptor is not open.
func (e *Env) FD(n int) (r io.Reader, w io.Writer, ok bool) {
	switch n {
	case 0:
		return e.Stdin, nil, true
	case 1:
		return nil, e.Stdout, true
	case 2:
		return nil, e.Stderr, true
	}
	d, ok := e.FDs[n]
	return d.R, d.W, ok
}

// Getenv returns the value of an exported variable and whether it is set.
func (e *Env) Getenv(name string) (string, bool) {
	for _, kv := range e.Environ {
		if len(kv) > len(name) && kv[len(name)] == '=' && kv[:len(name)] == name {
			return kv[len(name)+1:], true
		}
	}
	return "", false
}

// Abs resolves name against the working directory and cleans it.
func (e *Env) Abs(name string) string {
	if path.IsAbs(name) {
		return path.Clean(name)
	}
	return path.Join(e.Dir, name)
}

// Open opens a file for reading, resolving it against the working
// directory. The name "-" (and /dev/stdin) means Stdin; closing it then
// does nothing. The VFS has no /dev, so /dev/null (empty) and /dev/zero
// (endless zero bytes) are emulated here, as the shell emulates them for
// redirections.
func (e *Env) Open(name string) (io.ReadCloser, error) {
	switch name {
	case "-", "/dev/stdin", "/dev/fd/0":
		return io.NopCloser(e.Stdin), nil
	case "/dev/null":
		return io.NopCloser(strings.NewReader("")), nil
	case "/dev/zero":
		return io.NopCloser(zeros{}), nil
	}
	if rest, ok := strings.CutPrefix(name, "/dev/fd/"); ok {
		return e.openFD(name, rest)
	}
	f, err := e.FS.OpenFile(e.Abs(name), vfs.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && fi.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: name, Err: errIsDir}
	}
	return f, nil
}

var errIsDir = errors.New("is a directory")

// openFD opens /dev/fd/N for reading: the shell's descriptor N, through FD
// (descriptors 1 and 2 are Stdout and Stderr, which cannot be read).
// Closing it leaves the descriptor open.
func (e *Env) openFD(name, num string) (io.ReadCloser, error) {
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || num[0] == '+' {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if n == 0 {
		return io.NopCloser(e.Stdin), nil
	}
	var r io.Reader
	ok := false
	if n > 2 {
		r, _, ok = e.FD(n)
	}
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if r == nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errBadFD}
	}
	return io.NopCloser(r), nil
}

var errBadFD = errors.New("bad file descriptor")

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Errorf writes "NAME: message" and a newline to Stderr, where NAME is
// Args[0], and returns status. It is the usual way to fail:
//
//	return env.Errorf(1, "%s: No such file or directory", name)
func (e *Env) Errorf(status int, format string, args ...any) int {
	fmt.Fprintf(e.Stderr, "%s: %s\n", e.Args[0], fmt.Sprintf(format, args...))
	return status
}

// FileError writes a GNU-style message for an error from the file system,
// "NAME: FILE: No such file or directory", and returns status.
func (e *Env) FileError(status int, name string, err error) int {
	return e.Errorf(status, "%s: %s", name, Strerror(err))
}

// Strerror returns the C library's text for the errno behind err ("No such
// file or directory"), or err's own text when it has no errno.
func Strerror(err error) string {
	switch vfs.Code(err) {
	case "ENOENT":
		return "No such file or directory"
	case "EEXIST":
		return "File exists"
	case "ENOTDIR":
		return "Not a directory"
	case "EISDIR":
		return "Is a directory"
	case "EACCES":
		return "Permission denied"
	case "EPERM":
		return "Operation not permitted"
	case "ENOTEMPTY":
		return "Directory not empty"
	case "ENOSPC":
		return "No space left on device"
	case "ENAMETOOLONG":
		return "File name too long"
	case "EINVAL":
		return "Invalid argument"
	}
	if errors.Is(err, errIsDir) {
		return "Is a directory"
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "No such file or directory"
	}
	if errors.Is(err, errBadFD) {
		return "Bad file descriptor"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Registry maps command names to commands.
type Registry map[string]Func

// Merge copies every command of others into r (later ones win) and returns r.
func (r Registry) Merge(others ...Registry) Registry {
	for _, o := range others {
		for k, v := range o {
			r[k] = v
		}
	}
	return r
}

// polls counts Err calls across all commands.
var polls atomic.Uint32

// Err returns ctx.Err() (nil for a nil ctx). Every 256th call also yields
// the processor: WebAssembly has no preemption, so a command that never
// blocks would otherwise keep every other goroutine, the timer behind a
// context deadline included, from running. Commands poll it once per line
// or buffer.
func Err(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	if polls.Add(1)&255 == 0 {
		runtime.Gosched()
	}
	return ctx.Err()
}
