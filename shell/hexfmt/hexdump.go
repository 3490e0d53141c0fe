package hexfmt

import (
	"fmt"
	"io"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// cmdHexdump implements hexdump [-bcCdovx] [-n LENGTH] [-s OFFSET]
// [FILE]... with util-linux's output for its display formats: the default
// (two-byte hexadecimal words), -C (canonical hex+ASCII), -b, -c, -d, -o
// and -x; several formats print one line each per block. Repeated lines
// show as "*" unless -v. Custom formats (-e, -f) are refused.
func cmdHexdump(env *command.Env) int {
	opts, files, st, ok := env.ParseOptions("bcCdovxn:s:e:f:L", []string{"canonical", "length=", "skip=", "no-squeezing", "format=", "format-file=", "color"}, false)
	if !ok {
		return st
	}
	var formats []byte
	verbose := false
	var skip, limit int64 = 0, -1
	for _, o := range opts {
		switch o.Name {
		case "b", "c", "C", "d", "o", "x":
			formats = append(formats, o.Name[0])
		case "canonical":
			formats = append(formats, 'C')
		case "v", "no-squeezing":
			verbose = true
		case "n", "length":
			n, ok := parseSize(o.Value)
			if !ok {
				return env.Errorf(1, "invalid length argument: '%s'", o.Value)
			}
			limit = n
		case "s", "skip":
			n, ok := parseSize(o.Value)
			if !ok {
				return env.Errorf(1, "invalid skip argument: '%s'", o.Value)
			}
			skip = n
		case "e", "f", "format", "format-file":
			return env.Errorf(1, "custom formats (-e, -f) are not supported in this sandbox")
		}
	}
	if len(formats) == 0 {
		formats = []byte{'h'}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	in := &multiInput{env: env, names: files}
	w := env.NewOutput()
	if skip > 0 {
		if _, err := io.CopyN(io.Discard, in, skip); err != nil && err != io.EOF {
			return env.ReadError(files[0], err)
		}
	}
	var r io.Reader = in
	if limit >= 0 {
		r = io.LimitReader(in, limit)
	}
	addr, any, st, ok := dumpLines(env, w, r, files[0], skip, 16, verbose, func(addr int64, line []byte) {
		for _, f := range formats {
			w.WriteString(hexdumpLine(f, addr, line))
		}
	})
	if !ok {
		return st
	}
	if any {
		// The final address takes the form of the last format's.
		if formats[len(formats)-1] == 'C' {
			fmt.Fprintf(w, "%08x\n", addr)
		} else {
			fmt.Fprintf(w, "%07x\n", addr)
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	if in.failed {
		if !any && len(in.names) == 0 {
			env.Errorf(1, "all input file arguments failed")
		}
		return 1
	}
	return 0
}

// hexdumpLine formats one 16-byte block (or the short last one) in a
// display format, padded to the full width as util-linux pads it.
func hexdumpLine(f byte, addr int64, line []byte) string {
	var b strings.Builder
	if f == 'C' {
		fmt.Fprintf(&b, "%08x ", addr)
		for i := range 16 {
			if i == 8 {
				b.WriteByte(' ')
			}
			if i < len(line) {
				fmt.Fprintf(&b, " %02x", line[i])
			} else {
				b.WriteString("   ")
			}
		}
		b.WriteString("  |")
		for _, c := range line {
			b.WriteByte(printable(c))
		}
		b.WriteString("|\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%07x", addr)
	switch f {
	case 'b', 'c':
		for i := range 16 {
			if i >= len(line) {
				b.WriteString("    ")
				continue
			}
			c := line[i]
			if f == 'b' {
				fmt.Fprintf(&b, " %03o", c)
				continue
			}
			fmt.Fprintf(&b, "%4s", hexdumpChar(c))
		}
	default:
		for i := 0; i < 16; i += 2 {
			if i >= len(line) {
				b.WriteString(strings.Repeat(" ", map[byte]int{'h': 5, 'x': 8, 'd': 8, 'o': 8}[f]))
				continue
			}
			v := uint16(line[i])
			if i+1 < len(line) {
				v |= uint16(line[i+1]) << 8
			}
			switch f {
			case 'h':
				fmt.Fprintf(&b, " %04x", v)
			case 'x':
				fmt.Fprintf(&b, "    %04x", v)
			case 'd':
				fmt.Fprintf(&b, "   %05d", v)
			case 'o':
				fmt.Fprintf(&b, "  %06o", v)
			}
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// hexdumpChar is a byte as hexdump -c and od -c show it: a C escape, the
// character itself when printable, else three octal digits.
func hexdumpChar(c byte) string {
	switch c {
	case 0:
		return `\0`
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if c >= 0x20 && c < 0x7f {
		return string(rune(c))
	}
	return fmt.Sprintf("%03o", c)
}

// printable returns c when it is printable ASCII, else '.', as the
// character columns of hexdump -C, od -z and xxd show a byte.
func printable(c byte) byte {
	if c >= 0x20 && c < 0x7f {
		return c
	}
	return '.'
}
