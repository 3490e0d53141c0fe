package shell

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// errReported is returned when the message has already been printed.
var errReported = expansion.ErrReported

// errnoText is an error whose text is a C library error message.
type errnoText string

// Error returns the message.
func (e errnoText) Error() string { return string(e) }

// fdesc is an open file descriptor of the shell.
type fdesc struct {
	r io.Reader
	w io.Writer
}

// saveFds returns a copy of the descriptor table.
func (r *runner) saveFds() map[int]*fdesc {
	m := make(map[int]*fdesc, len(r.fds))
	for k, v := range r.fds {
		m[k] = v
	}
	return m
}

// restoreFds closes the files opened since openedBefore and puts back a
// saved descriptor table.
func (r *runner) restoreFds(saved map[int]*fdesc, openedBefore int) {
	for _, c := range r.opened[openedBefore:] {
		c.Close()
	}
	r.opened = r.opened[:openedBefore]
	r.fds = saved
}

// reader returns the reader of fd n (an empty reader when closed).
func (r *runner) reader(n int) io.Reader {
	if d := r.fds[n]; d != nil && d.r != nil {
		return d.r
	}
	return badFdReader{n}
}

// writer returns the writer of fd n (one that fails when closed).
func (r *runner) writer(n int) io.Writer {
	if d := r.fds[n]; d != nil && d.w != nil {
		return d.w
	}
	return badFdWriter{n}
}

// stdout returns the writer of descriptor 1.
func (r *runner) stdout() io.Writer { return r.writer(1) }

// stderr returns the writer of descriptor 2.
func (r *runner) stderr() io.Writer { return r.writer(2) }

// badFdReader is a closed descriptor being read.
type badFdReader struct{ n int }

// Read fails.
func (b badFdReader) Read([]byte) (int, error) { return 0, errnoText("Bad file descriptor") }

// badFdWriter is a closed descriptor being written.
type badFdWriter struct{ n int }

// Write fails.
func (b badFdWriter) Write([]byte) (int, error) { return 0, errnoText("Bad file descriptor") }

// zeroReader reads zero bytes forever (/dev/zero).
type zeroReader struct{}

// Read fills p with zeros.
func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// redirect applies one redirection to r.fds.
func (r *runner) redirect(rd *syntax.Redirect) error {
	fd := -1
	if rd.N != nil {
		n, err := strconv.Atoi(rd.N.Value)
		if err != nil {
			// {varname}>file: the shell picks a free descriptor >= 10
			// and stores it in varname; {varname}>&- closes it.
			name := strings.TrimSuffix(strings.TrimPrefix(rd.N.Value, "{"), "}")
			if !syntax.ValidName(name) {
				return fmt.Errorf("%s: bad variable name", rd.N.Value)
			}
			if (rd.Op == syntax.DplOut || rd.Op == syntax.DplIn) && rd.Word != nil && rd.Word.Lit() == "-" {
				k, err := strconv.Atoi(r.getVar(name))
				if err != nil {
					return fmt.Errorf("%s: ambiguous redirect", r.getVar(name))
				}
				delete(r.fds, k)
				return nil
			}
			n = 10
			for r.fds[n] != nil {
				n++
			}
			if err := r.assign(name, vstr(strconv.Itoa(n)), false); err != nil {
				return err
			}
		}
		fd = n
	}
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if fd < 0 {
			fd = 0
		}
		s := ""
		if rd.Hdoc != nil {
			if hdocQuoted(rd.Word) {
				var b strings.Builder
				for _, p := range rd.Hdoc.Parts {
					if l, ok := p.(*syntax.Lit); ok {
						b.WriteString(l.Value)
					}
				}
				s = b.String()
			} else {
				var err error
				s, err = r.xp().Document(rd.Hdoc)
				if err != nil {
					r.expandErr(err)
					return errReported
				}
			}
			if rd.Op == syntax.DashHdoc {
				lines := strings.SplitAfter(s, "\n")
				for i, l := range lines {
					lines[i] = strings.TrimLeft(l, "\t")
				}
				s = strings.Join(lines, "")
			}
		}
		r.fds[fd] = &fdesc{r: strings.NewReader(s)}
		return nil
	case syntax.WordHdoc:
		if fd < 0 {
			fd = 0
		}
		s, ok := r.literal(rd.Word)
		if !ok {
			return errReported
		}
		r.fds[fd] = &fdesc{r: strings.NewReader(s + "\n")}
		return nil
	}
	if rd.Op == syntax.RdrIn && rd.Word != nil && len(rd.Word.Parts) == 1 {
		if ps, ok := rd.Word.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn {
			if fd < 0 {
				fd = 0
			}
			p := r.startProcSubst(ps)
			r.opened = append(r.opened, p)
			r.fds[fd] = &fdesc{r: p}
			return nil
		}
	}
	target, ok := r.redirTarget(rd.Word)
	if !ok {
		return errReported
	}
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		if fd < 0 {
			fd = 0
			if rd.Op == syntax.DplOut {
				fd = 1
			}
		}
		if target == "-" {
			delete(r.fds, fd)
			return nil
		}
		move := strings.HasSuffix(target, "-")
		num := strings.TrimSuffix(target, "-")
		if n, err := strconv.Atoi(num); err == nil && num != "" && num[0] != '+' {
			src := r.fds[n]
			if src == nil {
				return fmt.Errorf("%s: Bad file descriptor", num)
			}
			r.fds[fd] = src
			if move {
				delete(r.fds, n)
			}
			return nil
		}
		if rd.Op == syntax.DplIn {
			return fmt.Errorf("%s: ambiguous redirect", target)
		}
		// ">& file" is "&> file"; "N>& file" opens file on N.
		d, err := r.openFile(target, vfs.O_WRONLY|vfs.O_CREATE|vfs.O_TRUNC, true)
		if err != nil {
			return err
		}
		if rd.N != nil {
			r.fds[fd] = d
			return nil
		}
		r.fds[1], r.fds[2] = d, d
		return nil
	case syntax.RdrAll, syntax.AppAll:
		flag := vfs.O_WRONLY | vfs.O_CREATE | vfs.O_TRUNC
		if rd.Op == syntax.AppAll {
			flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_APPEND
		}
		d, err := r.openFile(target, flag, rd.Op == syntax.RdrAll)
		if err != nil {
			return err
		}
		r.fds[1], r.fds[2] = d, d
		return nil
	}
	var flag int
	def := 1
	clobberCheck := false
	switch rd.Op {
	case syntax.RdrOut:
		flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_TRUNC
		clobberCheck = true
	case syntax.RdrClob:
		flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_TRUNC
	case syntax.AppOut:
		flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_APPEND
	case syntax.RdrIn:
		flag = vfs.O_RDONLY
		def = 0
	case syntax.RdrInOut:
		flag = vfs.O_RDWR | vfs.O_CREATE
		def = 0
	default:
		return fmt.Errorf("redirection %s is not supported in this sandbox", rd.Op)
	}
	if fd < 0 {
		fd = def
	}
	d, err := r.openFile(target, flag, clobberCheck)
	if err != nil {
		return err
	}
	r.fds[fd] = d
	return nil
}

// redirTarget expands the word of a redirection to exactly one field.
func (r *runner) redirTarget(w *syntax.Word) (string, bool) {
	fields, ok := r.fields(w)
	if !ok {
		return "", false
	}
	if len(fields) != 1 {
		src := wordSource(w)
		r.errf("%s: ambiguous redirect", src)
		return "", false
	}
	return fields[0], true
}

// wordSourceNode prints a node back as source text.
func wordSourceNode(n syntax.Node) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, n)
	return b.String()
}

// wordSource prints a word back as source text.
func wordSource(w *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// openFile opens a redirection target, emulating the /dev names.
func (r *runner) openFile(name string, flag int, clobberCheck bool) (*fdesc, error) {
	switch name {
	case "/dev/null":
		return &fdesc{r: strings.NewReader(""), w: io.Discard}, nil
	case "/dev/stdin":
		return r.dupFd(0)
	case "/dev/stdout":
		return r.dupFd(1)
	case "/dev/stderr":
		return r.dupFd(2)
	case "/dev/zero":
		return &fdesc{r: zeroReader{}, w: io.Discard}, nil
	}
	if rest, ok := strings.CutPrefix(name, "/dev/fd/"); ok {
		if n, err := strconv.Atoi(rest); err == nil {
			return r.dupFd(n)
		}
	}
	if name == "" {
		return nil, fmt.Errorf(": No such file or directory")
	}
	p := r.abs(name)
	if clobberCheck && r.opts.noclobber {
		if fi, err := r.sh.fs.Stat(p); err == nil && !fi.IsDir() {
			return nil, fmt.Errorf("%s: cannot overwrite existing file", name)
		}
	}
	perm := fs.FileMode(0o666 &^ r.umaskValue())
	fresh := false
	if perm == 0 && flag&vfs.O_CREATE != 0 {
		// The VFS reads zero bits as its default: set them after.
		_, err := r.sh.fs.Stat(p)
		fresh = err != nil
	}
	f, err := r.sh.fs.OpenFile(p, flag, perm)
	if err == nil && fresh {
		r.sh.fs.Chmod(p, 0)
	}
	if err != nil {
		if _, serr := r.sh.fs.Stat(path.Dir(p)); serr != nil {
			err = serr
		}
		return nil, fmt.Errorf("%s: %s", name, command.Strerror(err))
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: Is a directory", name)
	}
	r.opened = append(r.opened, f)
	d := &fdesc{}
	if flag&(vfs.O_WRONLY|vfs.O_RDWR) != 0 {
		d.w = f
	}
	if flag&vfs.O_WRONLY == 0 {
		d.r = f
	}
	return d, nil
}

// dupFd returns descriptor n for /dev/fd/n and friends.
func (r *runner) dupFd(n int) (*fdesc, error) {
	d := r.fds[n]
	if d == nil {
		return nil, fmt.Errorf("/dev/fd/%d: No such file or directory", n)
	}
	return d, nil
}

// hdocQuoted reports whether a here-document delimiter was quoted (then
// the body is taken literally).
func hdocQuoted(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				return true
			}
		}
	}
	return false
}
