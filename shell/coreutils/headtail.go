package coreutils

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// maxCount caps line and byte counts; larger values behave as "everything".
const maxCount = math.MaxInt64 / 4

// legacyCount matches the obsolete count options "-5", "-5c" and "+5".
var legacyCount = regexp.MustCompile(`^[-+][0-9]+[cbkmlqv]*$`)

// rewriteLegacyCount turns the obsolete "-5" / "-5c" / "+5" forms of head and
// tail into "-n 5" / "-c 5" / "-n +5".
func rewriteLegacyCount(args []string, allowPlus bool) []string {
	out := []string{args[0]}
	for i, a := range args[1:] {
		if a == "--" {
			return append(out, args[1+i:]...)
		}
		prev := args[i]
		takesValue := i > 0 && (prev == "-n" || prev == "-c" || prev == "--lines" || prev == "--bytes")
		if !takesValue && legacyCount.MatchString(a) && (a[0] == '-' || (allowPlus && i == 0)) {
			digits := strings.TrimRight(a[1:], "cbkmlqv")
			flags := a[1+len(digits):]
			opt := "-n"
			if strings.ContainsRune(flags, 'c') {
				opt = "-c"
			}
			if a[0] == '+' {
				digits = "+" + digits
			}
			out = append(out, opt, digits)
			if strings.ContainsRune(flags, 'q') {
				out = append(out, "-q")
			}
			if strings.ContainsRune(flags, 'v') {
				out = append(out, "-v")
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// sizeSuffixes are the multipliers of head and tail counts.
var sizeSuffixes = map[string]int64{
	"": 1, "b": 512, "c": 1, "w": 2,
	"k": 1 << 10, "K": 1 << 10, "KiB": 1 << 10, "kB": 1000, "KB": 1000,
	"M": 1 << 20, "MiB": 1 << 20, "MB": 1000 * 1000,
	"G": 1 << 30, "GiB": 1 << 30, "GB": 1000 * 1000 * 1000,
	"T": 1 << 40, "TiB": 1 << 40, "TB": 1e12,
	"P": 1 << 50, "PiB": 1 << 50, "PB": 1e15,
	"E": 1 << 60, "EiB": 1 << 60, "EB": 1e18,
}

// parseSize parses a count with an optional multiplier suffix ("2k", "1MiB").
// Values too large for the sandbox are clamped to maxCount.
func parseSize(s string) (int64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	mult, ok := sizeSuffixes[s[i:]]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil || n > maxCount/mult {
		return maxCount, true
	}
	return n * mult, true
}

// countSpec is a parsed -n or -c argument of head or tail.
type countSpec struct {
	n     int64
	bytes bool
	sign  byte // '-' or '+' when given, else 0
}

// parseCountSpec parses the argument of -n or -c.
func parseCountSpec(env *command.Env, v string, bytes bool) (countSpec, bool) {
	c := countSpec{bytes: bytes}
	if v != "" && (v[0] == '-' || v[0] == '+') {
		c.sign = v[0]
		v = v[1:]
	}
	n, ok := parseSize(v)
	if !ok {
		what := "lines"
		if bytes {
			what = "bytes"
		}
		env.Errorf(1, "invalid number of %s: ‘%s’", what, strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+"))
		return c, false
	}
	c.n = n
	return c, true
}

// headerWriter prints "==> NAME <==" headers between files.
type headerWriter struct {
	w     *bufio.Writer
	first bool
}

// header prints the "==> NAME <==" line, after a blank line but for the first.
func (h *headerWriter) header(name string) {
	if name == "-" {
		name = "standard input"
	}
	if !h.first {
		h.w.WriteByte('\n')
	}
	h.first = false
	fmt.Fprintf(h.w, "==> %s <==\n", name)
}

// headTail holds what head and tail share.
type headTail struct {
	count   countSpec
	verbose bool
	quiet   bool
	files   []string
}

// parseHeadTail parses the options of head (tail when tail is true).
func parseHeadTail(env *command.Env, tail bool) (headTail, int, bool) {
	env2 := *env
	env2.Args = rewriteLegacyCount(env.Args, tail)
	short := "c:n:qvz"
	long := []string{"bytes=", "lines=", "quiet", "silent", "verbose", "zero-terminated"}
	if tail {
		short = "c:n:qvzfF"
		long = append(long, "follow", "retry", "pid=", "sleep-interval=", "max-unchanged-stats=")
	}
	opts, files, st, ok := env2.ParseOptions(short, long, false)
	ht := headTail{count: countSpec{n: 10}, files: files}
	if !ok {
		return ht, st, false
	}
	for _, o := range opts {
		switch o.Name {
		case "c", "bytes", "n", "lines":
			c, ok := parseCountSpec(env, o.Value, o.Name == "c" || o.Name == "bytes")
			if !ok {
				return ht, 1, false
			}
			ht.count = c
		case "q", "quiet", "silent":
			ht.quiet, ht.verbose = true, false
		case "v", "verbose":
			ht.verbose, ht.quiet = true, false
		case "z", "zero-terminated":
			return ht, env.Errorf(1, "option -z is not supported"), false
		case "f", "F", "follow", "retry", "pid", "sleep-interval", "max-unchanged-stats":
			return ht, env.Errorf(1, "following files (-f) is not supported in the sandbox"), false
		}
	}
	if len(ht.files) == 0 {
		ht.files = []string{"-"}
	}
	return ht, 0, true
}

// cmdHead implements head [-n [-]N] [-c [-]N] [-qv] [FILE]...
func cmdHead(env *command.Env) int {
	return runHeadTail(env, false)
}

// cmdTail implements tail [-n [+]N] [-c [+]N] [-qv] [FILE]... (no -f).
func cmdTail(env *command.Env) int {
	return runHeadTail(env, true)
}

// runHeadTail runs head or tail over the operands.
func runHeadTail(env *command.Env, tail bool) int {
	ht, st, ok := parseHeadTail(env, tail)
	if !ok {
		return st
	}
	w := env.NewOutput()
	hw := &headerWriter{w: w, first: true}
	status := 0
	for _, name := range ht.files {
		if env.Canceled() {
			return command.StatusCanceled
		}
		rc, err := env.Open(name)
		if err != nil && command.Strerror(err) != "Is a directory" {
			env.Errorf(1, "cannot open '%s' for reading: %s", name, command.Strerror(err))
			status = 1
			continue
		}
		if (len(ht.files) > 1 && !ht.quiet) || ht.verbose {
			hw.header(name)
		}
		if err != nil {
			// GNU opens directories and fails on the first read.
			if werr := w.Flush(); werr != nil {
				return env.WriteError(werr)
			}
			env.Errorf(1, "error reading '%s': Is a directory", name)
			status = 1
			continue
		}
		r := command.NewCtxReader(env.Ctx, rc)
		if tail {
			if f, ok := rc.(regularFile); ok && ht.count.sign != '+' {
				err = tailFile(env, w, f, ht.count)
			} else {
				err = doTail(env, w, r, ht.count)
			}
		} else {
			err = doHead(env, w, r, ht.count)
		}
		rc.Close()
		if err != nil {
			if command.IsCanceled(err) || env.Canceled() {
				return command.StatusCanceled
			}
			if werr := w.Flush(); werr != nil {
				return env.WriteError(werr)
			}
			env.Errorf(1, "error reading '%s': %s", name, command.Strerror(err))
			status = 1
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return status
}

// doHead copies the head of r described by c.
func doHead(env *command.Env, w *bufio.Writer, r io.Reader, c countSpec) error {
	switch {
	case c.bytes && c.sign != '-':
		_, err := io.Copy(w, io.LimitReader(r, c.n))
		return err
	case c.bytes:
		return allButLastBytes(w, r, c.n)
	case c.sign != '-':
		lr := env.NewLineReader(r, 64<<10)
		for i := int64(0); i < c.n; i++ {
			line, err := lr.ReadLine()
			if err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	}
	return allButLastLines(w, r, c.n)
}

// allButLastBytes copies all of r except its last n bytes.
func allButLastBytes(w *bufio.Writer, r io.Reader, n int64) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if int64(len(data)) <= n {
		return nil
	}
	_, err = w.Write(data[:int64(len(data))-n])
	return err
}

// allButLastLines copies all lines of r except the last n.
func allButLastLines(w *bufio.Writer, r io.Reader, n int64) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	end := len(data)
	if end > 0 && data[end-1] == '\n' {
		end--
	}
	for i := int64(0); i < n; i++ {
		k := lastIndexByte(data[:end], '\n')
		if k < 0 {
			return nil
		}
		end = k
	}
	if n == 0 {
		end = len(data)
	} else {
		end++
	}
	_, err = w.Write(data[:end])
	return err
}

// lastIndexByte returns the index of the last c in b, or -1.
func lastIndexByte(b []byte, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// doTail copies the tail of r described by c.
func doTail(env *command.Env, w *bufio.Writer, r io.Reader, c countSpec) error {
	if c.sign == '+' {
		skip := c.n - 1
		if skip < 0 {
			skip = 0
		}
		if c.bytes {
			if _, err := io.CopyN(io.Discard, r, skip); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			_, err := io.Copy(w, r)
			return err
		}
		lr := env.NewLineReader(r, 64<<10)
		for i := int64(0); ; i++ {
			line, err := lr.ReadLine()
			if err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
			if i >= skip {
				if _, err := w.Write(line); err != nil {
					return err
				}
			}
		}
	}
	data, err := readTail(r, c)
	if err != nil {
		return err
	}
	return writeTail(w, data, c)
}

// regularFile is what tail needs to read a file from its end.
type regularFile interface {
	io.ReaderAt
	Stat() (fs.FileInfo, error)
}

// tailFile is doTail for the last lines or bytes of a regular file: it
// reads blocks backwards from the end until they hold what is printed,
// instead of reading the whole file.
func tailFile(env *command.Env, w *bufio.Writer, f regularFile, c countSpec) error {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return doTail(env, w, command.NewCtxReader(env.Ctx, io.NewSectionReader(f, 0, 1<<62)), c)
	}
	// Blocks are read from the end, each twice the last (up to 16 MiB),
	// until they hold the bytes asked for, or more newlines than the lines
	// asked for (the file's final newline ends the last line and does not
	// count); they are joined once.
	var chunks [][]byte
	var total, newlines int64
	need := c.n
	off := fi.Size()
	block := int64(64 << 10)
	for off > 0 {
		if err := command.Err(env.Ctx); err != nil {
			return err
		}
		n := min(block, off)
		chunk := make([]byte, n)
		if _, err := f.ReadAt(chunk, off-n); err != nil && err != io.EOF {
			return err
		}
		if len(chunks) == 0 && chunk[n-1] == '\n' {
			need++
		}
		off -= n
		total += n
		chunks = append(chunks, chunk)
		if c.bytes {
			if total >= c.n {
				break
			}
		} else if newlines += int64(bytes.Count(chunk, []byte{'\n'})); c.n == 0 || newlines >= need {
			break
		}
		block = min(2*block, 16<<20)
	}
	data := make([]byte, 0, total)
	for i := len(chunks) - 1; i >= 0; i-- {
		data = append(data, chunks[i]...)
	}
	return writeTail(w, data, c)
}

// writeTail writes the last lines or bytes of data that c asks for.
func writeTail(w *bufio.Writer, data []byte, c countSpec) error {
	if c.bytes {
		if int64(len(data)) > c.n {
			data = data[int64(len(data))-c.n:]
		}
		_, err := w.Write(data)
		return err
	}
	_, err := w.Write(data[tailLinesStart(data, c.n):])
	return err
}

// tailLinesStart returns the offset where the last n lines of data begin.
func tailLinesStart(data []byte, n int64) int {
	if n == 0 {
		return len(data)
	}
	end := len(data)
	if end > 0 && data[end-1] == '\n' {
		end--
	}
	for i := int64(0); i < n; i++ {
		k := lastIndexByte(data[:end], '\n')
		if k < 0 {
			return 0
		}
		if i == n-1 {
			return k + 1
		}
		end = k
	}
	return 0
}

// readTail reads r to the end, keeping only enough of the end to hold the
// last c.n lines or bytes, so that memory stays bounded by what is printed
// (plus a constant) even on an endless input.
func readTail(r io.Reader, c countSpec) ([]byte, error) {
	var buf []byte
	chunk := make([]byte, 64<<10)
	limit := 256 << 10
	for {
		n, err := r.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if len(buf) > limit {
			var keep int
			if c.bytes {
				keep = len(buf) - int(min(c.n, int64(len(buf))))
			} else {
				keep = tailLinesStart(buf, c.n)
			}
			if keep > 0 {
				buf = append(buf[:0:0], buf[keep:]...)
			}
			limit = max(256<<10, 2*len(buf))
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
