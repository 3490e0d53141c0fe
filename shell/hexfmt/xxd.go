package hexfmt

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/escape"

	"github.com/cordonhq/cordon/vfs"
)

// xxdOptions are the settings of one xxd command.
type xxdOptions struct {
	cols, group             int
	plain, reverse, include bool
	bits, little, upper     bool
	decimal, autoskip       bool
	length                  int64 // -1: all
	seek                    string
	offset                  int64
	name                    string
	capitalize              bool
}

// cmdXxd implements xxd [-a] [-b] [-c COLS] [-C] [-d] [-e] [-g BYTES] [-i]
// [-l LEN] [-n NAME] [-o OFF] [-p] [-r] [-s [+-]SEEK] [-u] [INFILE
// [OUTFILE]] as vim's xxd 2022 prints: the hex dump, -p plain hex, -i a C
// array, -b bits, -e little-endian groups, and -r (with or without -p)
// turning a dump back into bytes. -E (EBCDIC) is refused.
func cmdXxd(env *command.Env) int {
	o := xxdOptions{length: -1}
	colsSet, groupSet := false, false
	args := env.Args[1:]
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") {
			files = append(files, a)
			continue
		}
		if a == "--" {
			files = append(files, args[i+1:]...)
			break
		}
		opt := strings.TrimLeft(a, "-")
		value := func() (string, bool) {
			// The value is attached (-c8) or the next argument.
			for _, name := range []string{"cols", "groupsize", "len", "name", "seek", "offset", "c", "g", "l", "n", "s", "o"} {
				if strings.HasPrefix(opt, name) {
					if v := opt[len(name):]; v != "" {
						return strings.TrimPrefix(v, "="), true
					}
					if i+1 < len(args) {
						i++
						return args[i], true
					}
					return "", false
				}
			}
			return "", false
		}
		// number returns the value as a number (decimal, 0x hex or 0
		// octal), reporting false when it is missing or not a number.
		number := func() (int64, bool) {
			v, ok := value()
			if !ok {
				return 0, false
			}
			n, err := strconv.ParseInt(v, 0, 64)
			return n, err == nil
		}
		switch {
		case opt == "a" || opt == "autoskip":
			o.autoskip = !o.autoskip
		case opt == "b" || opt == "bits":
			o.bits = true
		case opt == "C" || opt == "capitalize":
			o.capitalize = true
		case opt == "d":
			o.decimal = true
		case opt == "e":
			o.little = true
		case opt == "i" || opt == "include":
			o.include = true
		case opt == "p" || opt == "ps" || opt == "postscript" || opt == "plain":
			o.plain = true
		case opt == "r" || opt == "revert":
			o.reverse = true
		case opt == "u" || opt == "uppercase":
			o.upper = true
		case opt == "E" || opt == "EBCDIC":
			return env.Errorf(1, "EBCDIC (-E) is not supported in this sandbox")
		case opt == "v" || opt == "version":
			fmt.Fprintln(env.Stderr, "xxd 2022-01-14 by Juergen Weigert et al.")
			return 0
		case strings.HasPrefix(opt, "c"):
			n, ok := number()
			if !ok || n < 0 || n > 256 {
				return xxdUsage(env)
			}
			o.cols, colsSet = int(n), n != 0
		case strings.HasPrefix(opt, "g"):
			n, ok := number()
			if !ok || n < 0 {
				return xxdUsage(env)
			}
			o.group, groupSet = int(n), true
		case strings.HasPrefix(opt, "l"):
			n, ok := number()
			if !ok || n < 0 {
				return xxdUsage(env)
			}
			o.length = n
		case strings.HasPrefix(opt, "n"):
			v, ok := value()
			if !ok {
				return xxdUsage(env)
			}
			o.name = v
		case strings.HasPrefix(opt, "o"):
			n, ok := number()
			if !ok {
				return xxdUsage(env)
			}
			o.offset = n
		case strings.HasPrefix(opt, "s"):
			v, ok := value()
			if !ok {
				return xxdUsage(env)
			}
			o.seek = v
		default:
			return xxdUsage(env)
		}
	}
	if len(files) > 2 {
		return xxdUsage(env)
	}
	switch {
	case !colsSet && o.plain:
		o.cols = 30
	case !colsSet && o.include:
		o.cols = 12
	case !colsSet && o.bits:
		o.cols = 6
	case !colsSet:
		o.cols = 16
	}
	if !groupSet {
		switch {
		case o.bits:
			o.group = 1
		case o.little:
			o.group = 4
		default:
			o.group = 2
		}
	}
	if o.group == 0 || o.group > o.cols {
		o.group = o.cols
	}
	in := "-"
	if len(files) > 0 {
		in = files[0]
	}
	data, err := env.ReadAll(in)
	if err != nil {
		if command.IsCanceled(err) {
			return command.StatusCanceled
		}
		fmt.Fprintf(env.Stderr, "xxd: %s: %s\n", in, command.Strerror(err))
		return 2
	}
	var out bytes.Buffer
	st := 0
	if o.reverse {
		st = xxdReverse(env, &out, data, o)
	} else {
		start := int64(0)
		if o.seek != "" {
			s := strings.TrimPrefix(o.seek, "+")
			neg := strings.HasPrefix(s, "-")
			n, err := strconv.ParseInt(strings.TrimPrefix(s, "-"), 0, 64)
			if err != nil {
				return xxdUsage(env)
			}
			if neg {
				n = int64(len(data)) - n
				if n < 0 {
					fmt.Fprintf(env.Stderr, "xxd: Sorry, cannot seek.\n")
					return 4
				}
			}
			start = max(0, min(n, int64(len(data))))
		}
		data = data[start:]
		if o.length >= 0 && int64(len(data)) > o.length {
			data = data[:o.length]
		}
		switch {
		case o.include:
			xxdInclude(&out, data, in, o)
		case o.plain:
			xxdPlain(&out, data, o)
		default:
			xxdDump(&out, data, start+o.offset, o)
		}
	}
	if len(files) == 2 && files[1] != "-" {
		if err := env.FS.WriteFile(env.Abs(files[1]), out.Bytes(), 0o644); err != nil {
			fmt.Fprintf(env.Stderr, "xxd: %s: %s\n", files[1], command.Strerror(err))
			return 2
		}
		return st
	}
	w := bufio.NewWriter(command.NewCtxWriter(env.Ctx, env.Stdout))
	w.Write(out.Bytes())
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return st
}

func xxdUsage(env *command.Env) int {
	fmt.Fprintf(env.Stderr, "Usage:\n       xxd [options] [infile [outfile]]\n    or\n       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]\n")
	return 1
}

// xxdDump writes the classic dump.
func xxdDump(w *bytes.Buffer, data []byte, addr int64, o xxdOptions) {
	digits := "0123456789abcdef"
	if o.upper {
		digits = "0123456789ABCDEF"
	}
	per := 2
	if o.bits {
		per = 8
	}
	groups := (o.cols + o.group - 1) / o.group
	hexWidth := o.cols*per + groups
	// -a follows xxd's own state machine: the first zero line of a run
	// is shown, a second one only when the run ends there, longer runs
	// become "*"; a run at the very end shows its last line.
	zeroSeen := 0
	var saved bytes.Buffer
	emit := func(line []byte, lineAddr int64, nz int) {
		var cur bytes.Buffer
		xxdLine(&cur, line, lineAddr, o, digits, per, hexWidth)
		if nz == 0 && zeroSeen == 1 {
			saved.Reset()
			saved.Write(cur.Bytes())
		}
		if nz != 0 || zeroSeen == 0 {
			zeroSeen0 := zeroSeen
			if nz == 0 {
				zeroSeen++
			}
			if nz != 0 {
				if nz < 0 {
					zeroSeen0--
				}
				if zeroSeen0 == 2 {
					w.Write(saved.Bytes())
				}
				if zeroSeen0 > 2 {
					w.WriteString("*\n")
				}
			}
			if nz >= 0 || zeroSeen0 > 0 {
				w.Write(cur.Bytes())
			}
			if nz != 0 {
				zeroSeen = 0
			}
			return
		}
		zeroSeen++
	}
	var last []byte
	var lastAddr int64
	for off := 0; off < len(data); off += o.cols {
		line := data[off:min(off+o.cols, len(data))]
		lineAddr := addr + int64(off)
		if !o.autoskip {
			xxdLine(w, line, lineAddr, o, digits, per, hexWidth)
			continue
		}
		if len(line) < o.cols {
			emit(line, lineAddr, 1)
			last = nil
			continue
		}
		nz := 0
		if bytes.Count(line, []byte{0}) != len(line) {
			nz = 1
		}
		emit(line, lineAddr, nz)
		last, lastAddr = line, lineAddr
	}
	if o.autoskip && last != nil {
		emit(last, lastAddr, -1)
	}
}

// xxdLine writes one line of the dump.
func xxdLine(w *bytes.Buffer, line []byte, addr int64, o xxdOptions, digits string, per, hexWidth int) {
	if o.decimal {
		fmt.Fprintf(w, "%08d: ", addr)
	} else {
		fmt.Fprintf(w, "%08x: ", addr)
	}
	start := w.Len()
	for g := 0; g*o.group < len(line); g++ {
		grp := line[g*o.group : min((g+1)*o.group, len(line))]
		if o.little {
			// The group's bytes reversed, right-aligned in the group.
			w.WriteString(strings.Repeat(" ", (o.group-len(grp))*per))
			for i := len(grp) - 1; i >= 0; i-- {
				writeByteDigits(w, grp[i], digits, o.bits)
			}
		} else {
			for _, c := range grp {
				writeByteDigits(w, c, digits, o.bits)
			}
		}
		w.WriteByte(' ')
	}
	w.WriteString(strings.Repeat(" ", hexWidth-(w.Len()-start)))
	w.WriteByte(' ')
	for _, c := range line {
		w.WriteByte(printable(c))
	}
	w.WriteByte('\n')
}

func writeByteDigits(w *bytes.Buffer, c byte, digits string, bits bool) {
	if bits {
		for i := 7; i >= 0; i-- {
			w.WriteByte('0' + c>>i&1)
		}
		return
	}
	w.WriteByte(digits[c>>4])
	w.WriteByte(digits[c&15])
}

// xxdPlain writes -p's plain hex.
func xxdPlain(w *bytes.Buffer, data []byte, o xxdOptions) {
	digits := "0123456789abcdef"
	if o.upper {
		digits = "0123456789ABCDEF"
	}
	for off := 0; off < len(data); off += o.cols {
		for _, c := range data[off:min(off+o.cols, len(data))] {
			w.WriteByte(digits[c>>4])
			w.WriteByte(digits[c&15])
		}
		w.WriteByte('\n')
	}
}

// xxdInclude writes -i's C array (only the bytes when reading standard
// input).
func xxdInclude(w *bytes.Buffer, data []byte, in string, o xxdOptions) {
	name := o.name
	lenSuffix := "_len"
	if name == "" && in != "-" {
		var b strings.Builder
		for i, r := range in {
			switch {
			case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r >= '0' && r <= '9' && i > 0:
				b.WriteRune(r)
			case r >= '0' && r <= '9':
				b.WriteString("__")
				b.WriteRune(r)
			default:
				b.WriteByte('_')
			}
		}
		name = b.String()
		if o.capitalize {
			name = strings.ToUpper(name)
			lenSuffix = "_LEN"
		}
	}
	hexfmt := "0x%02x"
	if o.upper {
		hexfmt = "0X%02X"
	}
	if name != "" {
		fmt.Fprintf(w, "unsigned char %s[] = {\n", name)
	}
	for off := 0; off < len(data); off += o.cols {
		w.WriteString("  ")
		end := min(off+o.cols, len(data))
		for i := off; i < end; i++ {
			fmt.Fprintf(w, hexfmt, data[i])
			if i < len(data)-1 {
				w.WriteByte(',')
				if i < end-1 {
					w.WriteByte(' ')
				}
			}
		}
		w.WriteByte('\n')
	}
	if name != "" {
		fmt.Fprintf(w, "};\nunsigned int %s%s = %d;\n", name, lenSuffix, len(data))
	}
}

// xxdReverse turns a dump (or with -p plain hex) back into bytes.
func xxdReverse(env *command.Env, w *bytes.Buffer, data []byte, o xxdOptions) int {
	if o.plain {
		hi := -1
		for _, c := range data {
			v := escape.DigitValue(c)
			if v < 0 {
				continue
			}
			if hi < 0 {
				hi = v
				continue
			}
			w.WriteByte(byte(hi<<4 | v))
			hi = -1
		}
		return 0
	}
	var base int64
	if o.seek != "" {
		base, _ = strconv.ParseInt(strings.TrimPrefix(o.seek, "+"), 0, 64)
	}
	for _, line := range strings.Split(string(data), "\n") {
		addrStr, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		addr, err := strconv.ParseInt(strings.TrimSpace(addrStr), 16, 64)
		if err != nil {
			continue
		}
		addr += base
		var bytesOut []byte
		hi, spaces := -1, 0
		for i := 0; i < len(rest) && len(bytesOut) < o.cols; i++ {
			c := rest[i]
			if c == ' ' {
				spaces++
				if spaces >= 2 && i > 1 {
					break
				}
				continue
			}
			spaces = 0
			v := escape.DigitValue(c)
			if v < 0 {
				break
			}
			if hi < 0 {
				hi = v
				continue
			}
			bytesOut = append(bytesOut, byte(hi<<4|v))
			hi = -1
		}
		if addr < 0 || addr+int64(len(bytesOut)) > maxOutput(env) {
			// The output could not be stored anyway: refuse before
			// allocating it.
			return env.Errorf(2, "sorry, cannot seek.")
		}
		pos := int64(w.Len())
		switch {
		case addr > pos:
			w.Write(make([]byte, addr-pos))
		case addr < pos:
			// Overwrite what was written, as xxd -r does on a file.
			b := w.Bytes()
			n := copy(b[addr:], bytesOut)
			bytesOut = bytesOut[n:]
		}
		w.Write(bytesOut)
	}
	return 0
}

// maxOutput bounds what xxd -r builds in memory: no more than the file
// system could hold.
func maxOutput(env *command.Env) int64 {
	if m := env.FS.Limits().MaxBytes; m > 0 && m < vfs.MaxFileSize {
		return m
	}
	return vfs.MaxFileSize
}
