// Package coreutils implements the file, text, data and miscellaneous
// commands of cordon's sandbox shell in Go, over the sandbox's in-memory
// file system: cat, head, tail, wc, tee, rev, nl, paste, comm, fold,
// expand, ls,
// mkdir, rm, rmdir, cp, mv, touch, mktemp, realpath, readlink, stat, du,
// find, xargs, basename, dirname, date, base64, sha256sum, sha1sum, md5sum,
// seq, env, sleep, yes and jq (with github.com/itchyny/gojq as the engine).
//
// The commands follow GNU coreutils 9, GNU findutils 4.9 and jq 1.7 in their
// options, output, messages and exit statuses, with these differences:
//
//   - The file system has no users, links or special files: ls -l shows every
//     file as owned by "user user", with one link (directories: two plus
//     their subdirectories), directory sizes are 4096 and block counts
//     assume 4 KiB blocks; realpath and readlink -f only resolve "." and
//     ".."; readlink without -f/-e/-m always fails; find -type l never
//     matches.
//   - Directory contents are listed in byte-wise lexical order everywhere
//     (ls, find, du, cp -r, rm -r), where GNU find, du, cp and rm use the
//     unsorted directory order.
//   - Times are in UTC. date cannot set the clock; date -d understands the
//     common forms listed at parseDate, not every GNU form.
//   - tail -f is refused; xargs runs commands one at a time (-P is ignored)
//     and -p is refused; env cannot run a command with a changed
//     environment (Env.Exec has no environment parameter).
//   - jq: objects built or changed by a program print with sorted keys
//     (gojq's objects are Go maps); objects read from the input keep their
//     order while unchanged. Error messages are gojq's where gojq words
//     them differently, --stream is not supported and modules cannot be
//     imported.
//   - Standard output is never a terminal: ls prints one name per line and
//     jq never colors its output.
//   - Every command polls Env.Ctx and stops with status 130, without a
//     message, once it is canceled; a command whose output is closed by
//     its reader stops with status 141, like a process killed by SIGPIPE.
package coreutils

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// canceledStatus is returned by a command stopped because Env.Ctx was canceled.
const canceledStatus = 130

// brokenPipeStatus is returned, without a message, by a command whose
// standard output was closed by its reader (128 + SIGPIPE, as in bash).
const brokenPipeStatus = 141

// Commands returns the commands of this package, keyed by name.
func Commands() command.Registry {
	reg := command.Registry{
		"cat":       cmdCat,
		"head":      cmdHead,
		"tail":      cmdTail,
		"wc":        cmdWc,
		"tee":       cmdTee,
		"ls":        cmdLs,
		"mkdir":     cmdMkdir,
		"rm":        cmdRm,
		"rmdir":     cmdRmdir,
		"cp":        cmdCp,
		"mv":        cmdMv,
		"touch":     cmdTouch,
		"find":      cmdFind,
		"basename":  cmdBasename,
		"dirname":   cmdDirname,
		"date":      cmdDate,
		"base64":    cmdBase64,
		"sha256sum": hashCommand("sha256"),
		"sha1sum":   hashCommand("sha1"),
		"md5sum":    hashCommand("md5"),
		"seq":       cmdSeq,
		"env":       cmdEnv,
		"printenv":  cmdPrintenv,
		"sleep":     cmdSleep,
		"yes":       cmdYes,
		"xargs":     cmdXargs,
		"mktemp":    cmdMktemp,
		"realpath":  cmdRealpath,
		"readlink":  cmdReadlink,
		"stat":      cmdStat,
		"du":        cmdDu,
		"rev":       cmdRev,
		"nl":        cmdNl,
		"paste":     cmdPaste,
		"comm":      cmdComm,
		"fold":      cmdFold,
		"expand":    cmdExpand,
		"jq":        cmdJq,
	}
	for name, f := range reg {
		reg[name] = recoverPanics(f)
	}
	return reg
}

// internalErrorStatus is returned by a command that hit a bug (a panic).
const internalErrorStatus = 70

// recoverPanics turns a panic of f into an error message and status 70, so
// that a bug triggered by hostile input cannot bring down the shell.
func recoverPanics(f command.Func) command.Func {
	return func(env *command.Env) (status int) {
		defer func() {
			if r := recover(); r != nil {
				status = env.Errorf(internalErrorStatus, "internal error: %v", r)
			}
		}()
		return f(env)
	}
}

// errCanceled is returned by readers and loops when Env.Ctx is done.
var errCanceled = errors.New("canceled")

// canceled reports whether the command must stop.
func canceled(env *command.Env) bool {
	return ctxErr(env.Ctx) != nil
}

// ctxErr returns ctx.Err(), yielding now and then (see command.Err).
func ctxErr(ctx context.Context) error { return command.Err(ctx) }

// getopt parses the options of env.Args with command.Getopt. On a usage error
// it prints the GNU message and the "Try ... --help" line and returns ok
// false with the status to return.
func getopt(env *command.Env, short string, long []string, posixly bool) (opts []command.Opt, operands []string, status int, ok bool) {
	opts, operands, err := command.Getopt(env.Args[1:], short, long, posixly)
	if err != nil {
		return nil, nil, usage(env, 1, err.Error()), false
	}
	return opts, operands, 0, true
}

// usage reports a usage error the way coreutils do and returns status.
func usage(env *command.Env, status int, msg string) int {
	fmt.Fprintf(env.Stderr, "%s: %s\nTry '%s --help' for more information.\n", env.Args[0], msg, env.Args[0])
	return status
}

// ctxReader makes every Read fail once the context is canceled, and bounds
// each Read to 64 KiB so that the check happens regularly.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// Read reads at most 64 KiB, failing once the context is canceled.
func (c ctxReader) Read(p []byte) (int, error) {
	if ctxErr(c.ctx) != nil {
		return 0, errCanceled
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

// Write writes p unless the context is canceled.
func (c ctxWriter) Write(p []byte) (int, error) {
	if ctxErr(c.ctx) != nil {
		return 0, errCanceled
	}
	return c.w.Write(p)
}

// input is an open operand: a file or standard input.
type input struct {
	name string
	r    io.Reader
	c    io.Closer
}

// openInput opens name ("-" is standard input) for reading, with
// cancellation checks. On failure it reports the error and returns ok false.
func openInput(env *command.Env, name string) (*input, bool) {
	rc, err := env.Open(name)
	if err != nil {
		env.FileError(1, name, err)
		return nil, false
	}
	return &input{name: name, r: ctxReader{env.Ctx, rc}, c: rc}, true
}

// Close closes the operand (standard input is left open).
func (in *input) Close() { in.c.Close() }

// isCanceled reports whether err comes from a canceled context.
func isCanceled(err error) bool {
	return errors.Is(err, errCanceled) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// readError reports a read error on name and returns the status for it:
// canceledStatus for a cancellation (without message), 1 otherwise.
func readError(env *command.Env, name string, err error) int {
	if isCanceled(err) {
		return canceledStatus
	}
	return env.FileError(1, name, err)
}

// writeError reports a failure to write standard output.
func writeError(env *command.Env, err error) int {
	if isCanceled(err) || canceled(env) {
		return canceledStatus
	}
	if errors.Is(err, io.ErrClosedPipe) {
		// The reader went away: like a process killed by SIGPIPE.
		return brokenPipeStatus
	}
	return env.Errorf(1, "write error: %s", command.Strerror(err))
}

// newWriter returns a buffered writer on standard output that fails once
// the context is canceled.
func newWriter(env *command.Env) *bufio.Writer {
	return env.NewWriter(ctxWriter{env.Ctx, env.Stdout}, 32<<10)
}

// stat returns the file information of a name relative to the working
// directory.
func stat(env *command.Env, name string) (fs.FileInfo, error) {
	return env.FS.Stat(env.Abs(name))
}

// exists reports whether name exists.
func exists(env *command.Env, name string) bool {
	_, err := stat(env, name)
	return err == nil
}

// isNotExist reports whether err means "no such file".
func isNotExist(err error) bool { return vfs.Code(err) == "ENOENT" }

// lineReader reads lines (including the '\n', when present) of arbitrary
// length from r.
type lineReader struct {
	br  *bufio.Reader
	buf []byte
}

// newLineReader returns a lineReader with a 64 KiB buffer, the command's
// until it returns.
func newLineReader(env *command.Env, r io.Reader) *lineReader {
	return &lineReader{br: env.NewReader(r, 64<<10)}
}

// next returns the next line with its terminator; the slice is valid until
// the next call. It returns io.EOF at the end, when the line is empty.
func (l *lineReader) next(delim byte) ([]byte, error) {
	line, err := l.br.ReadSlice(delim)
	if err != bufio.ErrBufferFull {
		if err == io.EOF && len(line) > 0 {
			err = nil
		}
		return line, err
	}
	l.buf = append(l.buf[:0], line...)
	for {
		line, err = l.br.ReadSlice(delim)
		l.buf = append(l.buf, line...)
		if err != bufio.ErrBufferFull {
			if err == io.EOF && len(l.buf) > 0 {
				err = nil
			}
			return l.buf, err
		}
	}
}
