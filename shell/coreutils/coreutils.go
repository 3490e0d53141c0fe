// Package coreutils implements the file, text, data and miscellaneous
// commands of cordon's sandbox shell (cat, head, tail, wc, ls, cp, find,
// date, seq, xargs, jq and others) in Go, over the sandbox's in-memory file
// system.
//
// The commands follow GNU coreutils (and findutils, jq 1.7) closely in their
// options, output and exit statuses, with these general differences:
//
//   - The file system has no users, links or special files: ls -l shows every
//     file as owned by "user user" with one link, realpath and readlink -f
//     only clean paths, and find -type l never matches.
//   - Directory listings (ls, find, du, cp -r) are in byte-wise lexical
//     order, where GNU find uses the unsorted directory order.
//   - Every command polls Env.Ctx and stops with status 130 (and no message)
//     once it is canceled.
//   - Times are shown in UTC.
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
	return command.Registry{
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
		"jq":        cmdJq,
	}
}

// errCanceled is returned by readers and loops when Env.Ctx is done.
var errCanceled = errors.New("canceled")

// canceled reports whether the command must stop.
func canceled(env *command.Env) bool {
	return env.Ctx != nil && env.Ctx.Err() != nil
}

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

func (c ctxReader) Read(p []byte) (int, error) {
	if c.ctx != nil && c.ctx.Err() != nil {
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

func (c ctxWriter) Write(p []byte) (int, error) {
	if c.ctx != nil && c.ctx.Err() != nil {
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
	return bufio.NewWriterSize(ctxWriter{env.Ctx, env.Stdout}, 32<<10)
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

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
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
