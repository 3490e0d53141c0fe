package coreutils

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"io/fs"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/command"
)

// wcCounts are the counts of one input.
type wcCounts struct {
	lines, words, chars, bytes, maxLine int64
}

// wcCount counts r. Words are maximal runs of non-space bytes; characters are
// UTF-8 sequences (invalid bytes are not counted, as in GNU wc).
// maxLine asks for the longest line's width; without it, ASCII text is
// counted eight bytes at a time (wcASCII).
func wcCount(ctx context.Context, buf []byte, r io.Reader, linesOnly, maxLine bool) (wcCounts, error) {
	var c wcCounts
	if linesOnly {
		// Lines and bytes only: count newlines a chunk at a time (much
		// faster than the byte loop below, above all in WebAssembly).
		for {
			if err := command.Err(ctx); err != nil {
				return c, err
			}
			n, err := r.Read(buf)
			c.bytes += int64(n)
			c.lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
			if err == io.EOF {
				return c, nil
			}
			if err != nil {
				return c, err
			}
		}
	}
	inWord := false
	var lineLen int64
	var carry []byte
	for {
		if err := command.Err(ctx); err != nil {
			return c, err
		}
		n, err := r.Read(buf)
		chunk := buf[:n]
		c.bytes += int64(n)
		if len(carry) > 0 {
			chunk = append(carry, chunk...)
			carry = nil
		}
		for i := 0; i < len(chunk); {
			if !maxLine && i+8 <= len(chunk) {
				if n := wcASCII(chunk[i:], &c, &inWord); n > 0 {
					i += n
					continue
				}
			}
			// A run of bytes that are neither spaces nor multibyte: one
			// table lookup a byte.
			if start := i; wcClass[chunk[i]] == wcOther {
				for i++; i < len(chunk) && wcClass[chunk[i]] == wcOther; i++ {
				}
				c.chars += int64(i - start)
				lineLen += int64(i - start)
				if !inWord {
					inWord = true
					c.words++
				}
				continue
			}
			b := chunk[i]
			size := 1
			if b >= utf8.RuneSelf {
				if !utf8.FullRune(chunk[i:]) && err == nil {
					carry = append([]byte(nil), chunk[i:]...)
					break
				}
				r, sz := utf8.DecodeRune(chunk[i:])
				size = sz
				if r != utf8.RuneError || sz > 1 {
					c.chars++
					lineLen++
				}
				if !inWord {
					inWord = true
					c.words++
				}
				i += size
				continue
			}
			c.chars++
			switch b {
			case '\n':
				c.lines++
				if lineLen > c.maxLine {
					c.maxLine = lineLen
				}
				lineLen = 0
				inWord = false
			case '\t':
				lineLen += 8 - lineLen%8
				inWord = false
			case ' ', '\v', '\f', '\r':
				if b == ' ' {
					lineLen++
				}
				inWord = false
			default:
				lineLen++
				if !inWord {
					inWord = true
					c.words++
				}
			}
			i++
		}
		if err == io.EOF {
			if lineLen > c.maxLine {
				c.maxLine = lineLen
			}
			return c, nil
		}
		if err != nil {
			return c, err
		}
	}
}

// wcClass sorts bytes for wcCount: wcOther for the bytes that only extend
// a word and the line (printable ASCII and the other control characters).
var wcClass = func() (t [256]uint8) {
	for b := range t {
		switch {
		case b >= utf8.RuneSelf:
			t[b] = wcSpecial
		case b == '\n', b == '\t', b == ' ', b == '\v', b == '\f', b == '\r':
			t[b] = wcSpecial
		default:
			t[b] = wcOther
		}
	}
	return t
}()

// SWAR constants: a one and a high bit in every byte of a word.
const (
	wcOnes = 0x0101010101010101
	wcHigh = 0x8080808080808080
)

// wcBetween returns the high bit of every byte b of x with lo < b < hi,
// for words whose bytes are all below 0x80 (Bit Twiddling Hacks,
// "hasbetween", which is exact for such bytes).
func wcBetween(x, lo, hi uint64) uint64 {
	return (wcOnes*(127+hi) - x) & ^x & (x + wcOnes*(127-lo)) & wcHigh
}

// wcASCII counts the words, lines and characters of the longest prefix of
// b made of whole 8-byte words of ASCII, and returns its length. A word
// starts at a byte that is not a space (\t \n \v \f \r or ' ') after one
// that is, or after the start when inWord is false; inWord is updated to
// whether the last byte counted was in a word.
func wcASCII(b []byte, c *wcCounts, inWord *bool) int {
	n := 0
	prevSpace := uint64(wcHigh >> 56) // the byte before b: a space unless in a word
	if *inWord {
		prevSpace = 0
	}
	for ; n+8 <= len(b); n += 8 {
		x := binary.LittleEndian.Uint64(b[n:])
		if x&wcHigh != 0 {
			break
		}
		space := wcBetween(x, 0x08, 0x0e) | wcBetween(x, 0x1f, 0x21)
		starts := ^space & wcHigh & (space<<8 | prevSpace)
		c.words += int64(bits.OnesCount64(starts))
		c.lines += int64(bits.OnesCount64(wcBetween(x, 0x09, 0x0b)))
		c.chars += 8
		prevSpace = space >> 56
	}
	if n > 0 {
		*inWord = prevSpace == 0
	}
	return n
}

// Byte classes of wcClass.
const (
	wcOther = iota
	wcSpecial
)

// cmdWc implements wc [-clmwL] [FILE]...
func cmdWc(env *command.Env) int {
	opts, files, st, ok := env.ParseOptions("clmwL", []string{"bytes", "chars", "lines", "words", "max-line-length", "files0-from="}, false)
	if !ok {
		return st
	}
	var show [5]bool // lines, words, chars, bytes, max
	any := false
	for _, o := range opts {
		any = true
		switch o.Name {
		case "l", "lines":
			show[0] = true
		case "w", "words":
			show[1] = true
		case "m", "chars":
			show[2] = true
		case "c", "bytes":
			show[3] = true
		case "L", "max-line-length":
			show[4] = true
		case "files0-from":
			return env.Errorf(1, "option --files0-from is not supported")
		}
	}
	if !any {
		show[0], show[1], show[3] = true, true, true
	}
	nshow := 0
	for _, s := range show {
		if s {
			nshow++
		}
	}
	noNames := len(files) == 0
	if noNames {
		files = []string{"-"}
	}
	width := wcWidth(env, files, nshow)
	w := env.NewOutput()
	buf := env.Buffer(64 << 10)
	status := 0
	var total wcCounts
	for _, name := range files {
		if env.Canceled() {
			return command.StatusCanceled
		}
		label := name
		if noNames {
			label = ""
		}
		in, ok := env.OpenInput(name)
		if !ok {
			status = 1
			if fi, err := stat(env, name); err == nil && fi.IsDir() {
				wcPrint(w, wcCounts{}, show, width, label)
			}
			continue
		}
		c, err := wcCount(env.Ctx, buf, in.R, !show[1] && !show[2] && !show[4], show[4])
		in.Close()
		if err != nil {
			if command.IsCanceled(err) {
				return command.StatusCanceled
			}
			w.Flush()
			env.FileError(1, name, err)
			status = 1
		}
		total.lines += c.lines
		total.words += c.words
		total.chars += c.chars
		total.bytes += c.bytes
		total.maxLine = max(total.maxLine, c.maxLine)
		wcPrint(w, c, show, width, label)
	}
	if len(files) > 1 {
		wcPrint(w, total, show, width, "total")
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return status
}

// wcWidth computes the column width the way GNU wc does: 1 for a single
// count of a single input; otherwise the digits of the total size of the
// regular files, at least 7 when some input is not a regular file, and 1 when
// the first input cannot be read.
func wcWidth(env *command.Env, files []string, nshow int) int {
	if nshow == 1 && len(files) == 1 {
		return 1
	}
	minWidth := 1
	var total int64
	for i, name := range files {
		var size int64
		regular := false
		if name == "-" {
			if s, ok := env.Stdin.(interface {
				Stat() (fs.FileInfo, error)
			}); ok {
				if fi, err := s.Stat(); err == nil && fi.Mode().IsRegular() {
					regular, size = true, fi.Size()
				}
			}
		} else {
			fi, err := stat(env, name)
			if err != nil {
				if i == 0 {
					return 1
				}
				continue
			}
			regular, size = fi.Mode().IsRegular(), fi.Size()
		}
		if regular {
			total += size
		} else {
			minWidth = 7
		}
	}
	return max(len(strconv.FormatInt(total, 10)), minWidth)
}

// wcPrint prints one line of counts.
func wcPrint(w io.StringWriter, c wcCounts, show [5]bool, width int, label string) {
	vals := [5]int64{c.lines, c.words, c.chars, c.bytes, c.maxLine}
	var sb strings.Builder
	for i, s := range show {
		if !s {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		num := strconv.FormatInt(vals[i], 10)
		for k := len(num); k < width; k++ {
			sb.WriteByte(' ')
		}
		sb.WriteString(num)
	}
	if label != "" {
		sb.WriteByte(' ')
		sb.WriteString(label)
	}
	sb.WriteByte('\n')
	w.WriteString(sb.String())
}
