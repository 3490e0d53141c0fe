package coreutils

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// cmdTouch implements touch [-acm] [-d DATE] [-t STAMP] [-r FILE] FILE...
func cmdTouch(env *command.Env) int {
	opts, names, st, ok := getopt(env, "acmd:t:r:hf", []string{"no-create", "date=", "reference=", "time=", "no-dereference"}, false)
	if !ok {
		return st
	}
	noCreate := false
	t := env.Now()
	for _, o := range opts {
		switch o.Name {
		case "c", "no-create":
			noCreate = true
		case "d", "date":
			v, err := parseDate(o.Value, env.Now())
			if err != nil {
				return env.Errorf(1, "invalid date format ‘%s’", o.Value)
			}
			t = v
		case "t":
			v, err := parseTouchStamp(o.Value, env.Now())
			if err != nil {
				return env.Errorf(1, "invalid date format ‘%s’", o.Value)
			}
			t = v
		case "r", "reference":
			fi, err := stat(env, o.Value)
			if err != nil {
				return env.Errorf(1, "failed to get attributes of '%s': %s", o.Value, command.Strerror(err))
			}
			t = fi.ModTime()
		}
	}
	if len(names) == 0 {
		return usage(env, 1, "missing file operand")
	}
	status := 0
	for _, name := range names {
		if canceled(env) {
			return canceledStatus
		}
		p := env.Abs(name)
		if _, err := env.FS.Stat(p); err != nil {
			if noCreate {
				continue
			}
			f, err := env.FS.OpenFile(p, vfs.O_WRONLY|vfs.O_CREATE, 0o644)
			if err != nil {
				status = env.Errorf(1, "cannot touch '%s': %s", name, command.Strerror(err))
				continue
			}
			f.Close()
		}
		if err := env.FS.Chtimes(p, t); err != nil {
			status = env.Errorf(1, "setting times of '%s': %s", name, command.Strerror(err))
		}
	}
	return status
}

// parseTouchStamp parses touch -t's [[CC]YY]MMDDhhmm[.ss].
func parseTouchStamp(s string, now time.Time) (time.Time, error) {
	main, sec, hasSec := strings.Cut(s, ".")
	bad := fmt.Errorf("bad stamp")
	if hasSec && len(sec) != 2 {
		return time.Time{}, bad
	}
	for _, c := range main + sec {
		if c < '0' || c > '9' {
			return time.Time{}, bad
		}
	}
	year := now.UTC().Year()
	switch len(main) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(main[:2])
		if yy < 69 {
			year = 2000 + yy
		} else {
			year = 1900 + yy
		}
		main = main[2:]
	case 12:
		year, _ = strconv.Atoi(main[:4])
		main = main[4:]
	default:
		return time.Time{}, bad
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	ss := 0
	if hasSec {
		ss = n(sec)
	}
	mo, d, h, mi := n(main[0:2]), n(main[2:4]), n(main[4:6]), n(main[6:8])
	t := time.Date(year, time.Month(mo), d, h, mi, ss, 0, time.UTC)
	if t.Month() != time.Month(mo) || t.Day() != d || h > 23 || mi > 59 || ss > 60 {
		return time.Time{}, bad
	}
	return t, nil
}

// cmdMktemp implements mktemp [-d] [-u] [-q] [-p DIR] [-t] [TEMPLATE].
func cmdMktemp(env *command.Env) int {
	opts, args, st, ok := getopt(env, "duqp:t", []string{"directory", "dry-run", "quiet", "tmpdir=", "suffix="}, false)
	if !ok {
		return st
	}
	dir, dirSet, mkDir, dry, quiet, useTmp := "", false, false, false, false, false
	suffix := ""
	for _, o := range opts {
		switch o.Name {
		case "d", "directory":
			mkDir = true
		case "u", "dry-run":
			dry = true
		case "q", "quiet":
			quiet = true
		case "p", "tmpdir":
			dir, dirSet = o.Value, true
		case "t":
			useTmp = true
		case "suffix":
			suffix = o.Value
		}
	}
	fail := func(format string, a ...any) int {
		if quiet {
			return 1
		}
		return env.Errorf(1, format, a...)
	}
	if len(args) > 1 {
		return usage(env, 1, "too many templates")
	}
	template := "tmp.XXXXXXXXXX"
	if len(args) == 1 {
		template = args[0]
	} else {
		useTmp = true
	}
	if useTmp || dirSet {
		if strings.Contains(template, "/") && len(args) == 1 && (useTmp || dirSet) {
			return fail("invalid template, ‘%s’, contains directory separator", template)
		}
		if dir == "" {
			dir = "/tmp"
			if v, ok := env.Getenv("TMPDIR"); ok && v != "" && !dirSet {
				dir = v
			}
		}
		template = joinName(dir, template)
	}
	template += suffix
	base := template[:len(template)-len(suffix)]
	nx := len(base) - len(strings.TrimRight(base, "X"))
	if nx < 3 {
		return fail("too few X's in template ‘%s’", strings.TrimPrefix(template, joinName(dir, "")))
	}
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	for try := 0; try < 100; try++ {
		b := []byte(base)
		for i := len(b) - nx; i < len(b); i++ {
			b[i] = letters[rand.IntN(len(letters))]
		}
		name := string(b) + suffix
		if exists(env, name) {
			continue
		}
		if !dry {
			var err error
			if mkDir {
				err = env.FS.Mkdir(env.Abs(name), 0o700)
			} else {
				var f vfs.File
				f, err = env.FS.OpenFile(env.Abs(name), vfs.O_WRONLY|vfs.O_CREATE|vfs.O_EXCL, 0o600)
				if err == nil {
					f.Close()
				}
			}
			if err != nil {
				if vfs.Code(err) == "EEXIST" {
					continue
				}
				what := "file"
				if mkDir {
					what = "directory"
				}
				return fail("failed to create %s via template ‘%s’: %s", what, template, command.Strerror(err))
			}
		}
		fmt.Fprintln(env.Stdout, name)
		return 0
	}
	return fail("failed to create file via template ‘%s’: File exists", template)
}

// resolveMode says which components must exist for realpath.
type resolveMode int

const (
	resolveParent  resolveMode = iota // all but the last component
	resolveAll                        // every component (-e)
	resolveMissing                    // none (-m)
)

// resolvePath returns the absolute form of name, checking existence as mode
// asks. The file system has no symbolic links, so this only cleans the path.
func resolvePath(env *command.Env, name string, mode resolveMode) (string, error) {
	if name == "" {
		return "", &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	if mode == resolveMissing {
		return env.Abs(name), nil
	}
	raw := name
	if !strings.HasPrefix(raw, "/") {
		raw = env.Dir + "/" + raw
	}
	var comps []string
	for _, c := range strings.Split(raw, "/") {
		if c != "" && c != "." {
			comps = append(comps, c)
		}
	}
	p := "/"
	for i, c := range comps {
		if c == ".." {
			p = path.Dir(p)
			continue
		}
		p = path.Join(p, c)
		fi, err := env.FS.Stat(p)
		last := i == len(comps)-1
		switch {
		case err != nil && last && mode == resolveParent:
			return p, nil
		case err != nil:
			return "", err
		case !last && !fi.IsDir():
			return "", &fs.PathError{Op: "stat", Path: p, Err: errNotDir}
		}
	}
	return p, nil
}

// cmdRealpath implements realpath [-e|-m] [-s] [-q] [-z] FILE...
func cmdRealpath(env *command.Env) int {
	opts, names, st, ok := getopt(env, "emsqzL P", []string{"canonicalize-existing", "canonicalize-missing", "strip", "no-symlinks", "quiet", "zero", "relative-to=", "relative-base=", "logical", "physical"}, false)
	if !ok {
		return st
	}
	mode, quiet, end := resolveParent, false, "\n"
	relTo := ""
	for _, o := range opts {
		switch o.Name {
		case "e", "canonicalize-existing":
			mode = resolveAll
		case "m", "canonicalize-missing":
			mode = resolveMissing
		case "q", "quiet":
			quiet = true
		case "z", "zero":
			end = "\x00"
		case "relative-to":
			relTo = env.Abs(o.Value)
		}
	}
	if len(names) == 0 {
		return usage(env, 1, "missing operand")
	}
	status := 0
	for _, name := range names {
		p, err := resolvePath(env, name, mode)
		if err != nil {
			if !quiet {
				env.FileError(1, name, err)
			}
			status = 1
			continue
		}
		if relTo != "" {
			p = relativePath(relTo, p)
		}
		fmt.Fprint(env.Stdout, p+end)
	}
	return status
}

// relativePath returns target relative to the directory base.
func relativePath(base, target string) string {
	bs := strings.Split(strings.Trim(base, "/"), "/")
	ts := strings.Split(strings.Trim(target, "/"), "/")
	if base == "/" {
		bs = nil
	}
	if target == "/" {
		ts = nil
	}
	i := 0
	for i < len(bs) && i < len(ts) && bs[i] == ts[i] {
		i++
	}
	var parts []string
	for range bs[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, ts[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

// cmdReadlink implements readlink [-f|-e|-m] [-n] [-z] FILE... Without -f,
// -e or -m it fails, as there are no symbolic links.
func cmdReadlink(env *command.Env) int {
	opts, names, st, ok := getopt(env, "femnqsvz", []string{"canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "verbose", "zero"}, false)
	if !ok {
		return st
	}
	mode, canon, end, verbose := resolveParent, false, "\n", false
	for _, o := range opts {
		switch o.Name {
		case "f", "canonicalize":
			mode, canon = resolveParent, true
		case "e", "canonicalize-existing":
			mode, canon = resolveAll, true
		case "m", "canonicalize-missing":
			mode, canon = resolveMissing, true
		case "n", "no-newline":
			end = ""
		case "z", "zero":
			end = "\x00"
		case "v", "verbose":
			verbose = true
		}
	}
	if len(names) == 0 {
		return usage(env, 1, "missing operand")
	}
	status := 0
	for _, name := range names {
		if !canon {
			if verbose {
				if _, err := stat(env, name); err != nil {
					env.FileError(1, name, err)
				} else {
					env.Errorf(1, "%s: Invalid argument", name)
				}
			}
			status = 1
			continue
		}
		p, err := resolvePath(env, name, mode)
		if err != nil {
			if verbose {
				env.FileError(1, name, err)
			}
			status = 1
			continue
		}
		fmt.Fprint(env.Stdout, p+end)
	}
	return status
}

// cmdStat implements stat [-c FORMAT | --printf FORMAT] [-t] FILE... with the
// %n %N %s %b %B %F %a %A %f %h %i %u %U %g %G %x %X %y %Y %z %Z %w %W %o
// %d %D %t %T directives.
func cmdStat(env *command.Env) int {
	opts, names, st, ok := getopt(env, "c:tLf", []string{"format=", "printf=", "terse", "dereference", "file-system"}, false)
	if !ok {
		return st
	}
	format, printf, terse := "", false, false
	for _, o := range opts {
		switch o.Name {
		case "c", "format":
			format, printf = o.Value, false
		case "printf":
			format, printf = o.Value, true
		case "t", "terse":
			terse = true
		}
	}
	if len(names) == 0 {
		return usage(env, 1, "missing operand")
	}
	w := newWriter(env)
	defer w.Flush()
	status := 0
	for _, name := range names {
		fi, err := stat(env, name)
		if err != nil {
			w.Flush()
			status = env.Errorf(1, "cannot statx '%s': %s", name, command.Strerror(err))
			continue
		}
		switch {
		case format != "":
			f := format
			if printf {
				f = unescapeC(f)
			} else {
				f += "\n"
			}
			w.WriteString(statFormat(f, name, fi))
		case terse:
			w.WriteString(statFormat("%n %s %b %f 0 0 0 %i %h 0 0 %X %Y %Z %W 4096\n", name, fi))
		default:
			w.WriteString(statFormat("  File: %n\n  Size: %-10s\tBlocks: %-10b IO Block: 4096   %F\nDevice: 0,0\tInode: %-11i Links: %h\nAccess: (%04a/%A)  Uid: (    0/    user)   Gid: (    0/    user)\nAccess: %x\nModify: %y\nChange: %z\n Birth: -\n", name, fi))
		}
	}
	return status
}

// statFormat expands a stat format for one file.
func statFormat(f, name string, fi fs.FileInfo) string {
	var sb strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' || i+1 >= len(f) {
			sb.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			sb.WriteString(f[i:])
			break
		}
		flags := f[i+1 : j]
		i = j
		var s string
		num := true
		mt := fi.ModTime().UTC()
		switch f[j] {
		case '%':
			sb.WriteByte('%')
			continue
		case 'n':
			s, num = name, false
		case 'N':
			s, num = "'"+name+"'", false
		case 's':
			s = strconv.FormatInt(lsSize(fi), 10)
		case 'b':
			s = strconv.FormatInt(lsBlocks(fi)*2, 10)
			if fi.IsDir() {
				s = "8"
			}
		case 'B':
			s = "512"
		case 'o':
			s = "4096"
		case 'F':
			s, num = "regular file", false
			if fi.IsDir() {
				s = "directory"
			} else if fi.Size() == 0 {
				s = "regular empty file"
			}
		case 'a':
			s = strconv.FormatUint(uint64(fi.Mode().Perm()), 8)
		case 'A':
			s, num = modeString(fi), false
		case 'f':
			m := uint64(fi.Mode().Perm()) | 0o100000
			if fi.IsDir() {
				m = uint64(fi.Mode().Perm()) | 0o40000
			}
			s, num = strconv.FormatUint(m, 16), false
		case 'h':
			s = "1"
			if fi.IsDir() {
				s = "2"
			}
		case 'i', 'u', 'g', 'd', 't', 'T':
			s = "0"
		case 'D':
			s, num = "0", false
		case 'U', 'G':
			s, num = "user", false
		case 'x', 'y', 'z':
			s, num = mt.Format("2006-01-02 15:04:05.000000000 -0700"), false
		case 'X', 'Y', 'Z':
			s = strconv.FormatInt(mt.Unix(), 10)
		case 'w':
			s, num = "-", false
		case 'W':
			s = "0"
		default:
			sb.WriteByte('?')
			continue
		}
		sb.WriteString(padField(s, flags, num))
	}
	return sb.String()
}

// padField applies printf-style flags and width to a field.
func padField(s, flags string, num bool) string {
	left := strings.Contains(flags, "-")
	zero := strings.HasPrefix(strings.TrimLeft(flags, "-+ #"), "0") && num && !left
	ws := strings.TrimLeft(flags, "-+ #0")
	if k := strings.IndexByte(ws, '.'); k >= 0 {
		ws = ws[:k]
	}
	width, _ := strconv.Atoi(ws)
	width = min(width, 4096)
	for len(s) < width {
		switch {
		case left:
			s += " "
		case zero:
			s = "0" + s
		default:
			s = " " + s
		}
	}
	return s
}

// unescapeC interprets the backslash escapes of stat --printf.
func unescapeC(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			sb.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case '\\':
			sb.WriteByte('\\')
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'r':
			sb.WriteByte('\r')
		case 'v':
			sb.WriteByte('\v')
		case '"':
			sb.WriteByte('"')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			for n < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' {
				v = v*8 + int(s[i]-'0')
				i++
				n++
			}
			i--
			sb.WriteByte(byte(v))
		default:
			sb.WriteByte('\\')
			sb.WriteByte(s[i])
		}
	}
	return sb.String()
}

// cmdDu implements du [-a] [-s] [-h] [-c] [-b] [-k] [-d N] [FILE]... Sizes
// are in 1 KiB blocks with 4 KiB allocation units (directories count 4).
func cmdDu(env *command.Env) int {
	opts, names, st, ok := getopt(env, "ashcbkd:mx", []string{"all", "summarize", "human-readable", "total", "bytes", "max-depth=", "apparent-size", "one-file-system"}, false)
	if !ok {
		return st
	}
	var o duOptions
	o.maxDepth = -1
	total := false
	for _, op := range opts {
		switch op.Name {
		case "a", "all":
			o.all = true
		case "s", "summarize":
			o.maxDepth = 0
		case "h", "human-readable":
			o.human = true
		case "c", "total":
			total = true
		case "b", "bytes":
			o.bytes = true
		case "apparent-size":
			o.apparent = true
		case "m":
			o.mega = true
		case "d", "max-depth":
			n, err := strconv.Atoi(op.Value)
			if err != nil || n < 0 {
				return env.Errorf(1, "invalid maximum depth ‘%s’", op.Value)
			}
			o.maxDepth = n
		}
	}
	if len(names) == 0 {
		names = []string{"."}
	}
	w := newWriter(env)
	o.w = w
	status := 0
	var sum int64
	for _, name := range names {
		fi, err := stat(env, name)
		if err != nil {
			w.Flush()
			status = env.Errorf(1, "cannot access '%s': %s", name, command.Strerror(err))
			continue
		}
		n, st := duWalk(env, &o, name, fi, 0)
		if st == canceledStatus {
			return st
		}
		if st != 0 {
			status = st
		}
		sum += n
	}
	if total {
		o.print("total", sum)
	}
	if err := w.Flush(); err != nil {
		return writeError(env, err)
	}
	return status
}

// duOptions are the options of du.
type duOptions struct {
	all, human, bytes, apparent, mega bool
	maxDepth                          int
	w                                 interface{ WriteString(string) (int, error) }
}

func (o *duOptions) size(fi fs.FileInfo) int64 {
	if o.bytes || o.apparent {
		if fi.IsDir() {
			return 4096
		}
		return fi.Size()
	}
	return lsBlocks(fi) * 1024
}

func (o *duOptions) print(name string, n int64) {
	var s string
	switch {
	case o.human:
		s = humanSize(n)
	case o.bytes:
		s = strconv.FormatInt(n, 10)
	case o.mega:
		s = strconv.FormatInt((n+(1<<20)-1)>>20, 10)
	default:
		s = strconv.FormatInt((n+1023)/1024, 10)
	}
	o.w.WriteString(s + "\t" + name + "\n")
}

// duWalk returns the size of name and its contents in bytes, printing
// lines as du does.
func duWalk(env *command.Env, o *duOptions, name string, fi fs.FileInfo, depth int) (int64, int) {
	if canceled(env) {
		return 0, canceledStatus
	}
	n := o.size(fi)
	status := 0
	if fi.IsDir() {
		list, err := env.FS.ReadDir(env.Abs(name))
		if err != nil {
			status = env.Errorf(1, "cannot read directory '%s': %s", name, command.Strerror(err))
		}
		for _, de := range list {
			cfi, err := de.Info()
			if err != nil {
				continue
			}
			c, st := duWalk(env, o, joinName(name, de.Name()), cfi, depth+1)
			if st == canceledStatus {
				return 0, st
			}
			if st != 0 {
				status = st
			}
			n += c
		}
	}
	if (fi.IsDir() || o.all || depth == 0) && (o.maxDepth < 0 || depth <= o.maxDepth) {
		o.print(name, n)
	}
	return n, status
}
