package archive

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// gzipOptions are the settings of one gzip command.
type gzipOptions struct {
	decompress, stdout, keep, force, list, test, quiet, verbose bool
	level                                                       int
	suffix                                                      string
}

func cmdGunzip(env *command.Env) int { return runGzip(env, gzipOptions{decompress: true}) }
func cmdZcat(env *command.Env) int {
	return runGzip(env, gzipOptions{decompress: true, stdout: true})
}
func cmdGzip(env *command.Env) int { return runGzip(env, gzipOptions{}) }

// gzipRun is one gzip command.
type gzipRun struct {
	env    *command.Env
	o      gzipOptions
	status int
}

// runGzip implements gzip [-cdfklqtv1-9] [-S SUF] [FILE]...; gunzip and
// zcat start with -d and -dc.
func runGzip(env *command.Env, o gzipOptions) int {
	opts, files, err := command.Getopt(env.Args[1:], "cdfklqtvnNrS:123456789", []string{"stdout", "to-stdout", "decompress", "uncompress",
		"force", "keep", "list", "quiet", "test", "verbose", "no-name", "name", "suffix=", "fast", "best", "recursive"}, false)
	if err != nil {
		return env.Usage(1, err.Error(), "")
	}
	o.level = gzip.DefaultCompression
	o.suffix = ".gz"
	for _, op := range opts {
		switch op.Name {
		case "c", "stdout", "to-stdout":
			o.stdout = true
		case "d", "decompress", "uncompress":
			o.decompress = true
		case "f", "force":
			o.force = true
		case "k", "keep":
			o.keep = true
		case "l", "list":
			o.list = true
		case "q", "quiet":
			o.quiet = true
		case "t", "test":
			o.test = true
		case "v", "verbose":
			o.verbose = true
		case "r", "recursive":
			return env.Errorf(1, "-r is not supported in this sandbox")
		case "S", "suffix":
			if op.Value == "" || strings.Contains(op.Value, "/") {
				return env.Errorf(1, "invalid suffix '%s'", op.Value)
			}
			o.suffix = op.Value
		case "fast":
			o.level = 1
		case "best":
			o.level = 9
		default:
			if len(op.Name) == 1 && op.Name[0] >= '1' && op.Name[0] <= '9' {
				o.level = int(op.Name[0] - '0')
			}
		}
	}
	g := &gzipRun{env: env, o: o}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if o.list {
		return g.listAll(files)
	}
	for _, name := range files {
		if env.Canceled() {
			return command.StatusCanceled
		}
		var st int
		if name == "-" {
			st = g.stream()
		} else {
			st = g.file(name)
		}
		if st == command.StatusCanceled || st == command.StatusBrokenPipe {
			return st
		}
		if st == 1 || g.status == 0 {
			g.status = max(g.status, st)
		}
	}
	return g.status
}

// warn reports a warning: gzip exits with status 2 unless an error (1)
// happened.
func (g *gzipRun) warn(format string, args ...any) {
	if !g.o.quiet {
		fmt.Fprintf(g.env.Stderr, "%s: "+format+"\n", append([]any{g.env.Args[0]}, args...)...)
	}
	if g.status == 0 {
		g.status = 2
	}
}

// stream compresses or decompresses standard input to standard output.
func (g *gzipRun) stream() int {
	env := g.env
	in := command.NewCtxReader(env.Ctx, env.Stdin)
	w := bufio.NewWriterSize(command.NewCtxWriter(env.Ctx, env.Stdout), 64<<10)
	var err error
	if g.o.decompress || g.o.test {
		var dst io.Writer = w
		if g.o.test {
			dst = io.Discard
		}
		err = g.decompress(dst, in, "stdin")
	} else {
		err = g.compress(w, in, "", time.Time{})
	}
	if err == nil {
		err = w.Flush()
	}
	return g.errorStatus(err, "stdin")
}

// errorStatus reports err (unless it is nil) and returns the status.
func (g *gzipRun) errorStatus(err error, name string) int {
	if err == nil {
		return 0
	}
	if command.IsCanceled(err) || g.env.Canceled() {
		return command.StatusCanceled
	}
	var fe *formatError
	if errors.As(err, &fe) {
		fmt.Fprintf(g.env.Stderr, "%s: %s: %s\n", g.env.Args[0], name, fe.msg)
		return 1
	}
	if errors.Is(err, io.ErrClosedPipe) {
		return command.StatusBrokenPipe
	}
	fmt.Fprintf(g.env.Stderr, "%s: %s: %s\n", g.env.Args[0], name, command.Strerror(err))
	return 1
}

// formatError is a problem with the compressed data.
type formatError struct{ msg string }

func (e *formatError) Error() string { return e.msg }

// compress writes r gzip-compressed to w.
func (g *gzipRun) compress(w io.Writer, r io.Reader, name string, mtime time.Time) error {
	zw, err := gzip.NewWriterLevel(w, g.o.level)
	if err != nil {
		return err
	}
	zw.Name = name
	if !mtime.IsZero() {
		zw.ModTime = mtime
	}
	if _, err := io.CopyBuffer(zw, r, g.env.Buffer(64<<10)); err != nil {
		return err
	}
	return zw.Close()
}

// decompress writes the data of the gzip stream r (one member or more) to w.
func (g *gzipRun) decompress(w io.Writer, r io.Reader, name string) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		if command.IsCanceled(err) {
			return err
		}
		return &formatError{"not in gzip format"}
	}
	defer zr.Close()
	rerr, werr := copyData(w, zr, g.env.Buffer(64<<10))
	switch {
	case werr != nil:
		return werr
	case rerr == nil:
		return nil
	case command.IsCanceled(rerr):
		return rerr
	case errors.Is(rerr, io.ErrUnexpectedEOF):
		return &formatError{"unexpected end of file"}
	case errors.Is(rerr, gzip.ErrChecksum):
		return &formatError{"invalid compressed data--crc error"}
	case errors.Is(rerr, gzip.ErrHeader):
		return &formatError{"decompression OK, trailing garbage ignored"}
	}
	return &formatError{"invalid compressed data--format violated"}
}

// outputName returns the name gzip writes for a file, or "" (after a
// warning) when it must skip it.
func (g *gzipRun) outputName(name string) string {
	if !g.o.decompress {
		if strings.HasSuffix(name, g.o.suffix) {
			g.warn("%s already has %s suffix -- unchanged", name, g.o.suffix)
			return ""
		}
		return name + g.o.suffix
	}
	base := path.Base(name)
	for _, suf := range []string{g.o.suffix, ".gz", "-gz", ".z", "-z", "_z", ".Z"} {
		if strings.HasSuffix(base, suf) && len(base) > len(suf) {
			return strings.TrimSuffix(name, suf)
		}
	}
	if strings.HasSuffix(base, ".tgz") && len(base) > 4 {
		return strings.TrimSuffix(name, ".tgz") + ".tar"
	}
	g.warn("%s: unknown suffix -- ignored", name)
	return ""
}

// file compresses or decompresses one named file.
func (g *gzipRun) file(name string) int {
	env := g.env
	fi, err := env.FS.Stat(env.Abs(name))
	if err != nil {
		if !g.o.decompress || strings.HasSuffix(name, g.o.suffix) {
			return env.FileError(1, name, err)
		}
		// gunzip x finds x.gz.
		alt := name + g.o.suffix
		fi2, err2 := env.FS.Stat(env.Abs(alt))
		if err2 != nil {
			return env.FileError(1, alt, err2)
		}
		name, fi = alt, fi2
	}
	if fi.IsDir() {
		g.warn("%s is a directory -- ignored", name)
		return 0
	}
	in, err := env.Open(name)
	if err != nil {
		return env.FileError(1, name, err)
	}
	defer in.Close()
	src := command.NewCtxReader(env.Ctx, in)
	if g.o.stdout || g.o.test {
		w := bufio.NewWriterSize(command.NewCtxWriter(env.Ctx, env.Stdout), 64<<10)
		var dst io.Writer = w
		if g.o.test {
			dst = io.Discard
		}
		if g.o.decompress || g.o.test {
			err = g.decompress(dst, src, name)
		} else {
			err = g.compress(dst, src, path.Base(name), fi.ModTime())
		}
		if err == nil {
			err = w.Flush()
		}
		return g.errorStatus(err, name)
	}
	out := g.outputName(name)
	if out == "" {
		return 0
	}
	outAbs := env.Abs(out)
	if _, err := env.FS.Stat(outAbs); err == nil && !g.o.force {
		g.warn("%s already exists;\tnot overwritten", out)
		return 0
	}
	f, err := env.FS.OpenFile(outAbs, vfs.O_WRONLY|vfs.O_CREATE|vfs.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return env.FileError(1, out, err)
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	if g.o.decompress {
		err = g.decompress(bw, src, name)
	} else {
		err = g.compress(bw, src, path.Base(name), fi.ModTime())
	}
	if err == nil {
		err = bw.Flush()
	}
	f.Close()
	if err != nil {
		// Never leave a partial output behind.
		env.FS.Remove(outAbs)
		return g.errorStatus(err, name)
	}
	env.FS.Chtimes(outAbs, fi.ModTime())
	if g.o.verbose {
		fmt.Fprintf(env.Stderr, "%s:\t -- replaced with %s\n", name, out)
	}
	if !g.o.keep {
		if err := env.FS.Remove(env.Abs(name)); err != nil {
			return env.FileError(1, name, err)
		}
	}
	return 0
}

// listAll implements gzip -l: the compressed and uncompressed sizes (the
// latter from the trailer, modulo 2^32, as gzip reads it), the ratio and
// the name.
func (g *gzipRun) listAll(files []string) int {
	env := g.env
	w := bufio.NewWriter(command.NewCtxWriter(env.Ctx, env.Stdout))
	fmt.Fprintf(w, "         compressed        uncompressed  ratio uncompressed_name\n")
	var totC, totU, totSaved int64
	n := 0
	st := 0
	for _, name := range files {
		data, err := g.readAll(name)
		if err != nil {
			if command.IsCanceled(err) {
				return command.StatusCanceled
			}
			env.FileError(1, name, err)
			st = 1
			continue
		}
		if len(data) < 18 || data[0] != 0x1f || data[1] != 0x8b {
			fmt.Fprintf(env.Stderr, "%s: %s: not in gzip format\n", env.Args[0], name)
			st = 1
			continue
		}
		c := int64(len(data))
		t := data[len(data)-4:]
		u := int64(uint32(t[0]) | uint32(t[1])<<8 | uint32(t[2])<<16 | uint32(t[3])<<24)
		out := "stdout"
		if name != "-" {
			out = strings.TrimSuffix(name, g.o.suffix)
		}
		saved := u - (c - headerBytes(data))
		fmt.Fprintf(w, "%19d %19d %s %s\n", c, u, ratio(saved, u), out)
		totSaved += saved
		totC += c
		totU += u
		n++
	}
	if n > 1 {
		fmt.Fprintf(w, "%19d %19d %s (totals)\n", totC, totU, ratio(totSaved, totU))
	}
	if err := w.Flush(); err != nil {
		return writeStatus(env, err)
	}
	return st
}

// readAll reads a whole (compressed) file, bounded by the file system.
func (g *gzipRun) readAll(name string) ([]byte, error) {
	rc, err := g.env.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(command.NewCtxReader(g.env.Ctx, io.LimitReader(rc, vfs.MaxFileSize)))
}

// headerBytes returns the size of a gzip member's header (with its
// optional fields) plus its 8-byte trailer, which gzip -l leaves out of
// the ratio.
func headerBytes(data []byte) int64 {
	n := 10
	flg := data[3]
	if flg&4 != 0 && n+2 <= len(data) {
		n += 2 + int(data[n]) | int(data[n+1])<<8
	}
	for _, bit := range []byte{8, 16} {
		if flg&bit != 0 {
			for n < len(data) && data[n] != 0 {
				n++
			}
			n++
		}
	}
	if flg&2 != 0 {
		n += 2
	}
	return int64(min(n, len(data)) + 8)
}

// ratio formats gzip -l's ratio: the share of the uncompressed size saved,
// not counting the header and trailer ("-66.7%", " 50.0%").
func ratio(saved, u int64) string {
	if u == 0 {
		return "  0.0%"
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(saved)/float64(u))
}
