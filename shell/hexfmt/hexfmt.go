// Package hexfmt implements the commands of cordon's sandbox shell that
// show or encode bytes, in Go over the sandbox's in-memory file system:
// od (GNU coreutils 9), xxd (vim's), hexdump (util-linux's), base32 and
// base64 (GNU coreutils 9). Their output matches those tools byte for byte for
// the options they support; the differences are listed on each command.
//
// Every command polls Env.Ctx and stops with status 130, without a
// message, once it is canceled; a command whose output is closed by its
// reader stops with status 141.
package hexfmt

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// Commands returns the commands of this package, keyed by name.
func Commands() command.Registry {
	return command.RecoverAll(command.Registry{
		"od":      cmdOd,
		"xxd":     cmdXxd,
		"hexdump": cmdHexdump,
		"base32":  cmdBase32,
		"base64":  cmdBase64,
	})
}

// multiInput reads the named inputs one after the other ("-" is standard
// input), reporting the ones that cannot be opened and going on.
type multiInput struct {
	env    *command.Env
	names  []string
	cur    *command.Input
	failed bool
}

func (m *multiInput) Read(p []byte) (int, error) {
	for {
		if m.cur == nil {
			if len(m.names) == 0 {
				return 0, io.EOF
			}
			name := m.names[0]
			m.names = m.names[1:]
			in, ok := m.env.OpenInput(name)
			if !ok {
				m.failed = true
				continue
			}
			m.cur = in
		}
		n, err := m.cur.R.Read(p)
		if err == io.EOF {
			m.cur.Close()
			m.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// readFull reads up to len(p) bytes, fewer only at the end of the input.
func readFull(r io.Reader, p []byte) (int, error) {
	n, err := io.ReadFull(r, p)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return n, io.EOF
	}
	return n, err
}

// parseSize parses a byte count as GNU does for od -j/-N and similar
// options: decimal, 0x hexadecimal or 0 octal, with an optional suffix
// b (512), k/K (1024), kB (1000), m/M (1024²), MB, g/G, GB.
func parseSize(s string) (int64, bool) {
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"kB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"KiB", 1024}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
		{"b", 512}, {"k", 1024}, {"K", 1024}, {"m", 1 << 20}, {"M", 1 << 20}, {"g", 1 << 30}, {"G", 1 << 30}} {
		if strings.HasSuffix(s, suf.s) && !(suf.s == "b" && strings.HasPrefix(s, "0x")) {
			s, mult = strings.TrimSuffix(s, suf.s), suf.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 0, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, false
	}
	return n * mult, true
}

// dumpLines reads r in lines of width bytes (the last may be shorter) and
// writes each with emit, the first at address addr. Unless verbose, a run
// of full lines equal to the one before is written as one line "*", as od
// and hexdump do. It returns the address after the last byte and whether
// there was any; on a read or write error it reports it (a read error as
// one of name) and returns ok false with the status.
func dumpLines(env *command.Env, w *bufio.Writer, r io.Reader, name string, addr int64, width int, verbose bool, emit func(addr int64, line []byte)) (end int64, any bool, status int, ok bool) {
	buf := make([]byte, width)
	var prev []byte
	starred := false
	for {
		n, err := readFull(r, buf)
		if err != nil && err != io.EOF {
			w.Flush()
			return addr, any, env.ReadError(name, err), false
		}
		if n == 0 {
			break
		}
		any = true
		line := buf[:n]
		if !verbose && n == width && prev != nil && bytes.Equal(prev, line) {
			if !starred {
				w.WriteString("*\n")
				starred = true
			}
		} else {
			starred = false
			emit(addr, line)
			prev = append(prev[:0], line...)
		}
		addr += int64(n)
		if _, werr := w.Write(nil); werr != nil {
			return addr, any, env.WriteError(werr), false
		}
		if err == io.EOF {
			break
		}
	}
	return addr, any, 0, true
}
