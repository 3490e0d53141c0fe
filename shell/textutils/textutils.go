// Package textutils implements cordon's text-processing shell commands:
// grep (with egrep and fgrep), sed, sort, uniq, cut, tr and column. They
// follow GNU grep 3.8, GNU sed 4.9, GNU coreutils 9.1 and util-linux 2.38
// (column) in their options, output and exit statuses, and run inside the
// WebAssembly guest over the sandbox's in-memory file system.
//
// All commands assume the C locale (LC_ALL=C): sort compares bytes, case
// folding and character classes are those of ASCII, and cut -c counts
// bytes. Regular expressions are translated from POSIX syntax (basic or
// extended) to Go's RE2 syntax and matched leftmost-longest, so they run in
// linear time; POSIX back-references, which RE2 cannot express, are
// rejected with an error, as are sed's e command and the e flag of s,
// which would execute commands.
//
// grep -P takes Go's RE2 syntax, which covers Perl's common constructs
// (\d, \w, \s, non-greedy quantifiers, (?i)) but not look-around or \K.
// Other known differences from GNU: grep -r lists directories in name
// order where GNU uses the on-disk order, and \< and \> both mean a word
// boundary (\b).
//
// Every command polls Env.Ctx while it reads or loops, yielding to the
// scheduler when it does so, and stops with a non-zero status once the
// context is done. Inputs are streamed line by line except where the
// command needs them whole (sort; sed -i buffers each file's output).
package textutils

import (
	"bufio"
	"bytes"
	"context"
	"io"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// Commands returns the text-processing commands, keyed by name.
func Commands() command.Registry {
	return command.RecoverAll(command.Registry{
		"grep":   cmdGrep,
		"egrep":  cmdGrep,
		"fgrep":  cmdGrep,
		"sed":    cmdSed,
		"sort":   cmdSort,
		"uniq":   cmdUniq,
		"cut":    cmdCut,
		"tr":     cmdTr,
		"column": cmdColumn,
	})
}

const (
	readBufSize  = 256 << 10
	writeBufSize = 64 << 10
	// ctxBytes is how many bytes may pass between two polls of Ctx.
	ctxBytes = 64 << 10
)

// writeFile stores data in the named file; /dev/stdout, /dev/stderr and
// /dev/null are the command's streams and the bit bucket.
func writeFile(env *command.Env, name string, data []byte) error {
	if name == "-" {
		_, err := env.Stdout.Write(data)
		return err
	}
	// Create emulates /dev/stdout, /dev/stderr, /dev/null and /dev/fd/N
	// (a process substitution >(cmd)).
	f, err := env.Create(name, vfs.O_CREATE|vfs.O_TRUNC)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readAll reads all of r, polling ctx every 64 KiB.
func readAll(ctx context.Context, r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	err := readInto(ctx, &buf, r)
	return buf.Bytes(), err
}

// readInto appends all of r to buf, polling ctx every 64 KiB. It reads in
// growing chunks, from 4 KiB: most inputs are small, and a first 64 KiB
// block is a lot to clear for a few lines.
func readInto(ctx context.Context, buf *bytes.Buffer, r io.Reader) error {
	for {
		if command.Done(ctx) {
			return command.ErrCanceled
		}
		buf.Grow(min(max(buf.Len(), 4<<10), ctxBytes))
		b := buf.AvailableBuffer()
		n, err := r.Read(b[:min(cap(b), ctxBytes)])
		buf.Write(b[:n])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// output is a buffered writer on Stdout that remembers the first error.
type output struct {
	*bufio.Writer
}

// newOutput returns an output on w, the command's until it returns.
func newOutput(env *command.Env, w io.Writer) output {
	return output{env.NewWriter(w, writeBufSize)}
}

// failed reports whether a write failed (for example a closed pipe).
func (o output) failed() bool {
	_, err := o.Write(nil)
	return err != nil
}
