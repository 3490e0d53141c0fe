package archive

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// tarOptions are the settings of one tar command.
type tarOptions struct {
	mode      byte // 'c', 'x' or 't'
	file      string
	dir       string
	gzip      bool
	verbose   int
	toStdout  bool
	keepOld   bool
	strip     int
	excludes  []string
	noMtime   bool
	operands  []string
	fileGiven bool
}

// tarRun is one tar command.
type tarRun struct {
	env    *command.Env
	o      tarOptions
	failed bool // an error was reported; exit with status 2
	// archiveAbs is the absolute path of the archive being created, which
	// is never archived into itself.
	archiveAbs string
	warned     map[string]bool
	// ugsWidth is the width of the owner and size columns of long
	// listings, which grows as GNU's does.
	ugsWidth int
}

// tarShort lists tar's short options (for command.Getopt).
const tarShort = "cxtzf:C:vOkmpo"

var tarLong = []string{"create", "extract", "get", "list", "gzip", "gunzip", "ungzip", "file=", "directory=",
	"verbose", "to-stdout", "keep-old-files", "strip-components=", "exclude=", "touch", "no-same-owner",
	"preserve-permissions", "same-permissions", "bzip2", "xz", "zstd", "lzma", "auto-compress"}

// expandOldStyle turns tar's old option style ("tar czf out.tgz dir": a
// first word of letters without a dash, whose letters' arguments follow in
// order) into the usual one.
func expandOldStyle(args []string) []string {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") || args[0] == "" {
		return args
	}
	first := args[0]
	for i := 0; i < len(first); i++ {
		if !strings.ContainsRune("cxtzfCvOkmpojJ", rune(first[i])) {
			return args
		}
	}
	var out []string
	rest := args[1:]
	for i := 0; i < len(first); i++ {
		c := first[i]
		out = append(out, "-"+string(c))
		if (c == 'f' || c == 'C') && len(rest) > 0 {
			out = append(out, rest[0])
			rest = rest[1:]
		}
	}
	return append(out, rest...)
}

func cmdTar(env *command.Env) int {
	args := expandOldStyle(env.Args[1:])
	opts, operands, err := command.Getopt(args, tarShort+"jJ", tarLong, false)
	if err != nil {
		return tarUsage(env, err.Error())
	}
	t := &tarRun{env: env, warned: map[string]bool{}}
	t.o.operands = operands
	setMode := func(m byte) bool {
		if t.o.mode != 0 && t.o.mode != m {
			return false
		}
		t.o.mode = m
		return true
	}
	for _, op := range opts {
		ok := true
		switch op.Name {
		case "c", "create":
			ok = setMode('c')
		case "x", "extract", "get":
			ok = setMode('x')
		case "t", "list":
			ok = setMode('t')
		case "z", "gzip", "gunzip", "ungzip":
			t.o.gzip = true
		case "j", "J", "bzip2", "xz", "zstd", "lzma":
			return env.Errorf(2, "only gzip compression (-z) is supported in this sandbox")
		case "f", "file":
			t.o.file, t.o.fileGiven = op.Value, true
		case "C", "directory":
			t.o.dir = op.Value
		case "v", "verbose":
			t.o.verbose++
		case "O", "to-stdout":
			t.o.toStdout = true
		case "k", "keep-old-files":
			t.o.keepOld = true
		case "m", "touch":
			t.o.noMtime = true
		case "strip-components":
			n, err := strconv.Atoi(op.Value)
			if err != nil || n < 0 {
				return tarUsage(env, fmt.Sprintf("Invalid number of elements: '%s'", op.Value))
			}
			t.o.strip = n
		case "exclude":
			t.o.excludes = append(t.o.excludes, op.Value)
		}
		if !ok {
			return tarUsage(env, "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option")
		}
	}
	if t.o.mode == 0 {
		return tarUsage(env, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
	}
	if !t.o.fileGiven || t.o.file == "" {
		t.o.file = "-"
	}
	var st int
	switch t.o.mode {
	case 'c':
		st = t.create()
	default:
		st = t.read()
	}
	if st == 0 && t.failed {
		fmt.Fprintf(env.Stderr, "tar: Exiting with failure status due to previous errors\n")
		st = 2
	}
	return st
}

// tarUsage reports a usage error as GNU tar does (status 2).
func tarUsage(env *command.Env, msg string) int {
	fmt.Fprintf(env.Stderr, "tar: %s\nTry 'tar --help' or 'tar --usage' for more information.\n", msg)
	return 2
}

// warn reports a non-fatal error; tar will exit with status 2.
func (t *tarRun) warn(format string, args ...any) {
	fmt.Fprintf(t.env.Stderr, "tar: "+format+"\n", args...)
	t.failed = true
}

// fatal reports an error that stops tar, GNU's way.
func (t *tarRun) fatal(format string, args ...any) int {
	fmt.Fprintf(t.env.Stderr, "tar: "+format+"\n", args...)
	fmt.Fprintf(t.env.Stderr, "tar: Error is not recoverable: exiting now\n")
	return 2
}

// base returns the absolute directory that names are relative to.
func (t *tarRun) base() string {
	if t.o.dir == "" {
		return t.env.Dir
	}
	return t.env.Abs(t.o.dir)
}

// verboseOut is where -v writes: standard error when the archive goes to
// standard output, standard output otherwise.
func (t *tarRun) verboseOut() io.Writer {
	if t.o.mode == 'c' && t.o.file == "-" {
		return t.env.Stderr
	}
	return t.env.Stdout
}

// excluded reports whether a member name matches an --exclude pattern
// (the whole name or any of its elements).
func (t *tarRun) excluded(name string) bool {
	name = strings.TrimSuffix(name, "/")
	for _, pat := range t.o.excludes {
		if ok, _ := path.Match(pat, name); ok {
			return true
		}
		for _, elem := range strings.Split(name, "/") {
			if ok, _ := path.Match(pat, elem); ok {
				return true
			}
		}
	}
	return false
}

// memberName turns an operand into the name stored in the archive:
// relative, without "." elements, leading "/" or "../" removed with GNU's
// message.
func (t *tarRun) memberName(op string) string {
	name := op
	if strings.HasPrefix(name, "/") {
		name = strings.TrimLeft(name, "/")
		t.removing("/")
	}
	name = path.Clean(name)
	if name == "." || name == "" {
		return "."
	}
	if name == ".." || strings.HasPrefix(name, "../") {
		for name == ".." || strings.HasPrefix(name, "../") {
			name = strings.TrimPrefix(strings.TrimPrefix(name, ".."), "/")
		}
		t.removing("../")
		if name == "" {
			return "."
		}
	}
	return name
}

// removing prints GNU's note about a removed prefix, once per prefix.
func (t *tarRun) removing(prefix string) {
	if t.warned[prefix] {
		return
	}
	t.warned[prefix] = true
	fmt.Fprintf(t.env.Stderr, "tar: Removing leading `%s' from member names\n", prefix)
}

// create writes an archive of the operands.
func (t *tarRun) create() int {
	env := t.env
	if len(t.o.operands) == 0 {
		return t.fatal("Cowardly refusing to create an empty archive")
	}
	var out io.Writer
	var file vfs.File
	if t.o.file == "-" {
		out = env.Stdout
	} else {
		t.archiveAbs = env.Abs(t.o.file)
		f, err := env.FS.OpenFile(t.archiveAbs, vfs.O_WRONLY|vfs.O_CREATE|vfs.O_TRUNC, 0o644)
		if err != nil {
			return t.fatal("%s: Cannot open: %s", t.o.file, command.Strerror(err))
		}
		file = f
		out = f
	}
	bw := bufio.NewWriterSize(command.NewCtxWriter(env.Ctx, out), 64<<10)
	var gz *gzip.Writer
	var w io.Writer = bw
	if t.o.gzip {
		gz = gzip.NewWriter(bw)
		w = gz
	}
	tw := tar.NewWriter(w)
	st := 0
	for _, op := range t.o.operands {
		if err := t.add(tw, op); err != nil {
			st = t.createError(err)
			break
		}
	}
	if st == 0 {
		err := tw.Close()
		if err == nil && gz != nil {
			err = gz.Close()
		}
		if err == nil {
			err = bw.Flush()
		}
		if err != nil {
			st = t.createError(err)
		}
	}
	if file != nil {
		file.Close()
	}
	return st
}

// createError returns the status for an error while writing the archive.
func (t *tarRun) createError(err error) int {
	if command.IsCanceled(err) || t.env.Canceled() {
		return command.StatusCanceled
	}
	if t.o.file == "-" {
		if errors.Is(err, io.ErrClosedPipe) {
			return command.StatusBrokenPipe
		}
	}
	var fe *fileError
	if errors.As(err, &fe) {
		return t.fatal("%s", fe.Error())
	}
	return t.fatal("%s: Cannot write: %s", t.o.file, command.Strerror(err))
}

// fileError is an error reading a file being archived, already worded.
type fileError struct{ msg string }

func (e *fileError) Error() string { return e.msg }

// add archives one operand, recursively.
func (t *tarRun) add(tw *tar.Writer, op string) error {
	abs := path.Join(t.base(), op)
	if path.IsAbs(op) {
		abs = path.Clean(op)
	}
	fi, err := t.env.FS.Stat(abs)
	if err != nil {
		t.warn("%s: Cannot stat: %s", op, command.Strerror(err))
		return nil
	}
	return t.addEntry(tw, abs, t.memberName(op), fi)
}

// addEntry archives abs under the member name, and a directory's entries
// after it.
func (t *tarRun) addEntry(tw *tar.Writer, abs, name string, fi fs.FileInfo) error {
	if t.env.Canceled() {
		return command.ErrCanceled
	}
	if t.excluded(name) {
		return nil
	}
	if !fi.IsDir() && abs == t.archiveAbs {
		fmt.Fprintf(t.env.Stderr, "tar: %s: file is the archive; not dumped\n", name)
		return nil
	}
	hdr := &tar.Header{
		Name:    name,
		Mode:    int64(fi.Mode().Perm()),
		ModTime: fi.ModTime().Truncate(time.Second),
		Uid:     1000, Gid: 1000, Uname: "user", Gname: "user",
		Format: tar.FormatGNU,
	}
	if fi.IsDir() {
		hdr.Typeflag = tar.TypeDir
		if name != "." {
			hdr.Name = name + "/"
		} else {
			hdr.Name = "./"
		}
	} else {
		hdr.Typeflag = tar.TypeReg
		hdr.Size = fi.Size()
	}
	if t.o.verbose > 0 {
		t.listEntry(t.verboseOut(), hdr)
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if !fi.IsDir() {
		f, err := t.env.FS.OpenFile(abs, vfs.O_RDONLY, 0)
		if err != nil {
			return &fileError{fmt.Sprintf("%s: Cannot open: %s", name, command.Strerror(err))}
		}
		_, err = io.CopyN(tw, command.NewCtxReader(t.env.Ctx, f), hdr.Size)
		f.Close()
		if err != nil {
			if command.IsCanceled(err) {
				return err
			}
			return &fileError{fmt.Sprintf("%s: Read error: %s", name, command.Strerror(err))}
		}
		return nil
	}
	ents, err := t.env.FS.ReadDir(abs)
	if err != nil {
		t.warn("%s: Cannot open: %s", name, command.Strerror(err))
		return nil
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	slices.Sort(names)
	for _, n := range names {
		child := path.Join(abs, n)
		cfi, err := t.env.FS.Stat(child)
		if err != nil {
			t.warn("%s: Cannot stat: %s", path.Join(name, n), command.Strerror(err))
			continue
		}
		member := n
		if name != "." {
			member = name + "/" + n
		} else {
			member = "./" + n
		}
		if err := t.addEntry(tw, child, member, cfi); err != nil {
			return err
		}
	}
	return nil
}

// listEntry writes a member's name, or with -vv (and for -tv) GNU's long
// listing line.
func (t *tarRun) listEntry(w io.Writer, hdr *tar.Header) {
	long := t.o.verbose > 1 || t.o.mode == 't' && t.o.verbose > 0
	if !long {
		fmt.Fprintf(w, "%s\n", hdr.Name)
		return
	}
	mode := fs.FileMode(hdr.Mode).Perm()
	typ := byte('-')
	switch hdr.Typeflag {
	case tar.TypeDir:
		typ = 'd'
	case tar.TypeSymlink:
		typ = 'l'
	case tar.TypeLink:
		typ = 'h'
	case tar.TypeChar:
		typ = 'c'
	case tar.TypeBlock:
		typ = 'b'
	case tar.TypeFifo:
		typ = 'p'
	}
	perm := mode.String()[1:]
	user, group := hdr.Uname, hdr.Gname
	if user == "" {
		user = strconv.Itoa(hdr.Uid)
	}
	if group == "" {
		group = strconv.Itoa(hdr.Gid)
	}
	size := strconv.FormatInt(hdr.Size, 10)
	ug := len(user) + 1 + len(group)
	if t.ugsWidth == 0 {
		t.ugsWidth = 18
	}
	if ug+len(size) > t.ugsWidth {
		t.ugsWidth = ug + len(size)
	}
	width := t.ugsWidth - ug
	suffix := ""
	switch hdr.Typeflag {
	case tar.TypeSymlink:
		suffix = " -> " + hdr.Linkname
	case tar.TypeLink:
		suffix = " link to " + hdr.Linkname
	}
	fmt.Fprintf(w, "%c%s %s/%s %*s %s %s%s\n", typ, perm, user, group, width, size,
		hdr.ModTime.UTC().Format("2006-01-02 15:04"), hdr.Name, suffix)
}

// read lists or extracts an archive.
func (t *tarRun) read() int {
	env := t.env
	var in io.Reader
	if t.o.file == "-" {
		in = env.Stdin
	} else {
		rc, err := env.Open(t.o.file)
		if err != nil {
			return t.fatal("%s: Cannot open: %s", t.o.file, command.Strerror(err))
		}
		defer rc.Close()
		in = rc
	}
	if t.o.mode == 'x' && t.o.dir != "" {
		fi, err := env.FS.Stat(t.base())
		if err != nil {
			return t.fatal("%s: Cannot open: %s", t.o.dir, command.Strerror(err))
		}
		if !fi.IsDir() {
			return t.fatal("%s: Cannot open: Not a directory", t.o.dir)
		}
	}
	br := bufio.NewReaderSize(command.NewCtxReader(env.Ctx, in), 64<<10)
	var r io.Reader = br
	magic, _ := br.Peek(2)
	if t.o.gzip || len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			if command.IsCanceled(err) {
				return command.StatusCanceled
			}
			fmt.Fprintf(env.Stderr, "tar: Child returned status 1\n")
			return t.fatal("%s: not in gzip format", t.archiveName())
		}
		defer zr.Close()
		r = zr
	}
	tr := tar.NewReader(r)
	found := make([]bool, len(t.o.operands))
	var out io.Writer
	if t.o.mode == 't' || t.o.toStdout {
		out = bufio.NewWriterSize(command.NewCtxWriter(env.Ctx, env.Stdout), 32<<10)
		defer out.(*bufio.Writer).Flush()
	}
	for {
		if env.Canceled() {
			return command.StatusCanceled
		}
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if command.IsCanceled(err) {
				return command.StatusCanceled
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return t.fatal("Unexpected EOF in archive")
			}
			if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
				return t.fatal("Unexpected EOF in archive")
			}
			return t.fatal("This does not look like a tar archive (%v)", err)
		}
		if !t.selected(hdr.Name, found) {
			continue
		}
		if t.o.mode == 't' {
			t.listEntry(out, hdr)
			if err := out.(*bufio.Writer).Flush(); err != nil {
				return writeStatus(env, err)
			}
			continue
		}
		if st := t.extract(tr, hdr, out); st != 0 {
			return st
		}
	}
	for i, ok := range found {
		if !ok {
			t.warn("%s: Not found in archive", t.o.operands[i])
		}
	}
	if out != nil {
		if err := out.(*bufio.Writer).Flush(); err != nil {
			return writeStatus(env, err)
		}
	}
	return 0
}

// archiveName names the archive in messages.
func (t *tarRun) archiveName() string {
	if t.o.file == "-" {
		return "stdin"
	}
	return t.o.file
}

// selected reports whether a member is wanted: every member when there
// are no operands, else those named by an operand or below one.
func (t *tarRun) selected(name string, found []bool) bool {
	if len(t.o.operands) == 0 {
		return !t.excluded(name)
	}
	clean := strings.TrimSuffix(path.Clean(name), "/")
	for i, op := range t.o.operands {
		o := strings.TrimSuffix(path.Clean(op), "/")
		if clean == o || strings.HasPrefix(clean, o+"/") {
			found[i] = true
			return !t.excluded(name)
		}
	}
	return false
}

// safeName checks a member name against the rules of ImportTar and returns
// it relative to the target directory (after --strip-components), or the
// reason it is refused. skip is true for a name stripped away entirely.
func (t *tarRun) safeName(name string) (rel string, skip bool, reason string) {
	switch {
	case strings.ContainsRune(name, 0):
		return "", false, "name contains a NUL byte"
	case strings.HasPrefix(name, "/"):
		return "", false, "absolute name"
	}
	for _, elem := range strings.Split(name, "/") {
		if elem == ".." {
			return "", false, "name contains '..'"
		}
	}
	clean := path.Clean(name)
	if clean == "." {
		return ".", t.o.strip > 0, ""
	}
	elems := strings.Split(clean, "/")
	if t.o.strip > 0 {
		if len(elems) <= t.o.strip {
			return "", true, ""
		}
		elems = elems[t.o.strip:]
	}
	rel = strings.Join(elems, "/")
	if len(rel) > vfs.MaxPathLen {
		return "", false, fmt.Sprintf("name is longer than %d bytes", vfs.MaxPathLen)
	}
	for _, elem := range elems {
		if err := vfs.CheckName(elem); err != nil {
			return "", false, err.Error()
		}
	}
	return rel, false, ""
}

// extract extracts one member. It returns a nonzero status when tar must
// stop.
func (t *tarRun) extract(tr *tar.Reader, hdr *tar.Header, out io.Writer) int {
	env := t.env
	rel, skip, reason := t.safeName(hdr.Name)
	if reason != "" {
		t.warn("%s: refusing to extract: %s", quoteTar(hdr.Name), reason)
		return 0
	}
	if skip {
		return 0
	}
	switch hdr.Typeflag {
	case tar.TypeReg, tar.TypeDir: // the reader reports the old '\x00' type as TypeReg
	case tar.TypeSymlink, tar.TypeLink:
		t.warn("%s: refusing to extract: links are not allowed (link to %s)", quoteTar(hdr.Name), quoteTar(hdr.Linkname))
		return 0
	default:
		t.warn("%s: refusing to extract: entry type %q is not a file or directory", quoteTar(hdr.Name), hdr.Typeflag)
		return 0
	}
	if t.o.verbose > 0 {
		w := io.Writer(env.Stdout)
		if t.o.toStdout {
			w = env.Stderr
		}
		t.listEntry(w, hdr)
	}
	if t.o.toStdout {
		if hdr.Typeflag == tar.TypeDir {
			return 0
		}
		if _, err := io.Copy(out, tr); err != nil {
			return t.readFailure(err, hdr.Name)
		}
		return 0
	}
	target := path.Join(t.base(), rel)
	if hdr.Typeflag == tar.TypeDir {
		if err := env.FS.MkdirAll(target, 0o755); err != nil {
			t.warn("%s: Cannot mkdir: %s", hdr.Name, command.Strerror(err))
			return 0
		}
		if !t.o.noMtime {
			env.FS.Chtimes(target, hdr.ModTime)
		}
		return 0
	}
	if err := env.FS.MkdirAll(path.Dir(target), 0o755); err != nil {
		t.warn("%s: Cannot mkdir: %s", hdr.Name, command.Strerror(err))
		return 0
	}
	if fi, err := env.FS.Stat(target); err == nil {
		if t.o.keepOld {
			t.warn("%s: Cannot open: File exists", hdr.Name)
			return 0
		}
		if fi.IsDir() {
			t.warn("%s: Cannot open: Is a directory", hdr.Name)
			return 0
		}
	}
	perm := fs.FileMode(hdr.Mode).Perm()
	f, err := env.FS.OpenFile(target, vfs.O_WRONLY|vfs.O_CREATE|vfs.O_TRUNC, perm)
	if err != nil {
		t.warn("%s: Cannot open: %s", hdr.Name, command.Strerror(err))
		return 0
	}
	rerr, werr := copyData(f, tr, env.Buffer(64<<10))
	f.Close()
	switch {
	case rerr != nil:
		return t.readFailure(rerr, hdr.Name)
	case werr != nil:
		if command.IsCanceled(werr) {
			return command.StatusCanceled
		}
		// The file system refused the data (quota, size): stop, since
		// what follows would hit the same wall.
		return t.fatal("%s: Cannot write: %s", hdr.Name, command.Strerror(werr))
	}
	if !t.o.noMtime {
		env.FS.Chtimes(target, hdr.ModTime)
	}
	return 0
}

// copyData copies r to w through buf and tells read errors from write
// errors.
func copyData(w io.Writer, r io.Reader, buf []byte) (rerr, werr error) {
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if _, e := w.Write(buf[:n]); e != nil {
				return nil, e
			}
		}
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return err, nil
		}
	}
}

// readFailure reports an error reading a member's data.
func (t *tarRun) readFailure(err error, name string) int {
	if command.IsCanceled(err) {
		return command.StatusCanceled
	}
	if errors.Is(err, io.ErrClosedPipe) {
		return command.StatusBrokenPipe
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) {
		return t.fatal("Unexpected EOF in archive")
	}
	return t.fatal("%s: %s", name, command.Strerror(err))
}

// quoteTar quotes a member name for a message when it holds control
// characters.
func quoteTar(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] < 0x20 || name[i] == 0x7f {
			return strconv.Quote(name)
		}
	}
	return name
}
