// Package archive implements the archive commands of cordon's sandbox
// shell in Go, over the sandbox's in-memory file system: tar (create, list
// and extract ustar/GNU/pax archives, optionally gzip-compressed) and
// gzip, gunzip and zcat. They use archive/tar and compress/gzip from the
// standard library, so that what they write is readable by GNU tar and
// gzip, and what those write is readable here.
//
// Archives are hostile input. Extraction obeys the rules of the host's
// engine.Sandbox.ImportTar: an entry whose name is absolute, holds a ".."
// element or a NUL byte, or has an element that vfs.CheckName refuses is
// not extracted; links, devices and FIFOs are not extracted either. Each
// refusal is reported on stderr with the entry's name and the reason, the
// other entries are still extracted, and tar exits with status 2. Nothing
// is ever written outside the target directory. Contents stream from the
// archive (and the decompressor) into the file system, so a huge declared
// size or a gzip bomb stops at the file system's quota (ENOSPC, EFBIG),
// never in the host's memory; a truncated archive is an error. Creation
// stores relative names, as GNU tar does: leading "/" and "../" are
// removed, with GNU's message.
//
// The differences from GNU: directories are archived in byte-wise order of
// names; owners are stored and listed as user/user (uid and gid 1000), the
// sandbox having no users; bzip2, xz and other compressions are refused;
// gzip's compressed bytes differ from GNU gzip's (another deflate
// encoder), though they decompress to the same data.
//
// Every command polls Env.Ctx and stops with status 130, without a
// message, once it is canceled; a command whose output is closed by its
// reader stops with status 141.
package archive

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cordonhq/cordon/shell/command"
)

// Commands returns the commands of this package, keyed by name.
func Commands() command.Registry {
	reg := command.Registry{
		"tar":    cmdTar,
		"gzip":   cmdGzip,
		"gunzip": cmdGunzip,
		"zcat":   cmdZcat,
	}
	for name, f := range reg {
		reg[name] = recoverPanics(f)
	}
	return reg
}

// Exit statuses shared by the commands.
const (
	statusCanceled = 130
	statusPipe     = 141
	// internalErrorStatus is returned by a command that hit a bug (a panic).
	internalErrorStatus = 70
)

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

// ErrCanceled is the error of reads and writes once Env.Ctx is canceled.
var ErrCanceled = errors.New("archive: canceled")

// isCanceled reports whether err comes from a canceled context.
func isCanceled(err error) bool {
	return errors.Is(err, ErrCanceled) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// ctxReader fails once the context is canceled and bounds each read to
// 64 KiB so that the check happens regularly.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if command.Err(c.ctx) != nil {
		return 0, ErrCanceled
	}
	if len(p) > 64<<10 {
		p = p[:64<<10]
	}
	return c.r.Read(p)
}

// ctxWriter fails once the context is canceled.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if command.Err(c.ctx) != nil {
		return 0, ErrCanceled
	}
	return c.w.Write(p)
}

// writeStatus returns the status for a failed write of standard output.
func writeStatus(env *command.Env, err error) int {
	if isCanceled(err) || command.Err(env.Ctx) != nil {
		return statusCanceled
	}
	if errors.Is(err, io.ErrClosedPipe) {
		return statusPipe
	}
	return env.Errorf(2, "write error: %s", command.Strerror(err))
}

// usage reports a usage error with GNU's "Try" line and returns status.
func usage(env *command.Env, status int, msg string) int {
	fmt.Fprintf(env.Stderr, "%s: %s\nTry '%s --help' for more information.\n", env.Args[0], msg, env.Args[0])
	return status
}
