// Package diffutil implements the diff command of cordon's sandbox shell,
// in Go over the sandbox's in-memory file system.
//
// diff follows GNU diffutils 3.8: it finds the changed lines with GNU's
// algorithm (Myers' O(ND) comparison after setting aside the common ends
// and the lines that cannot match, then sliding the changes as GNU does),
// so that its hunks are GNU's hunks, and it prints them in the normal
// format or, with -u/-U N, the unified format with GNU's header lines
// ("--- NAME\tYYYY-MM-DD HH:MM:SS.NNNNNNNNN +0000", times in UTC). It
// supports the context format (-c, -C N), -q, -s, -r (with GNU's "Only in" lines and "diff -r a/x b/x"
// headers), -N, -a, -i, -b, -w, -d, -x/--exclude, --label and --color
// (never, auto, which is
// never because output is never a terminal, and always, with GNU's default
// colors). Files whose first 4096 bytes hold a NUL byte are binary: diff
// reports "Binary files A and B differ". The exit status is 0 when the
// inputs are the same, 1 when they differ and 2 on trouble.
//
// The differences from GNU: /dev/null and a file that -N treats as absent
// show the time 1970-01-01 00:00:00 in headers, standard input the current
// time; directories are read in byte-wise order of names.
package diffutil

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
)

// Commands returns the commands of this package, keyed by name.
func Commands() command.Registry {
	return command.Registry{"diff": command.Recover(cmdDiff)}
}

// Exit statuses of diff.
const (
	statusSame    = 0
	statusDiffer  = 1
	statusTrouble = 2
)

// binaryProbe is how much of a file is searched for a NUL byte to decide
// that it is binary (GNU reads one block of the file).
const binaryProbe = 4096

// options are diff's settings.
type options struct {
	unified    bool
	ctxFormat  bool // -c, -C N: the context format
	context    int
	brief      bool
	identical  bool
	recursive  bool
	newFile    bool
	text       bool
	ignoreCase bool
	spaceChg   bool
	allSpace   bool
	minimal    bool
	color      bool
	switches   string // the option words, for "diff -r a/x b/x" headers
	excludes   []string
	labels     []string
}

// differ runs one diff command.
type differ struct {
	env  *command.Env
	o    options
	out  *bytes.Buffer // output not yet written
	werr error
}

func cmdDiff(env *command.Env) int {
	args, err := normalizeOptional(env.Args[1:])
	if err != nil {
		return usage(env, err.Error())
	}
	opts, operands, err := command.Getopt(args, "uU:qsrNaibwdcC:x:",
		[]string{"brief", "report-identical-files", "recursive", "new-file", "text",
			"ignore-case", "ignore-space-change", "ignore-all-space", "minimal", "color=", "unified=", "normal", "exclude=", "label=", "context="}, false)
	if err != nil {
		return usage(env, err.Error())
	}
	d := &differ{env: env, out: &bytes.Buffer{}}
	d.o.context = 3
	for _, op := range opts {
		switch op.Name {
		case "u":
			d.o.unified, d.o.ctxFormat = true, false
		case "unified":
			n, ok := contextLines(op.Value)
			if !ok {
				return usage(env, fmt.Sprintf("invalid context length '%s'", op.Value))
			}
			d.o.unified, d.o.ctxFormat, d.o.context = true, false, n
		case "U":
			n, ok := contextLines(op.Value)
			if !ok {
				return usage(env, fmt.Sprintf("invalid context length '%s'", op.Value))
			}
			d.o.unified, d.o.ctxFormat, d.o.context = true, false, n
		case "c":
			d.o.ctxFormat, d.o.unified = true, false
		case "C", "context":
			n, ok := contextLines(op.Value)
			if !ok {
				return usage(env, fmt.Sprintf("invalid context length '%s'", op.Value))
			}
			d.o.ctxFormat, d.o.unified, d.o.context = true, false, n
		case "normal":
			d.o.unified, d.o.ctxFormat = false, false
		case "x", "exclude":
			d.o.excludes = append(d.o.excludes, op.Value)
		case "label":
			d.o.labels = append(d.o.labels, op.Value)
		case "q", "brief":
			d.o.brief = true
		case "s", "report-identical-files":
			d.o.identical = true
		case "r", "recursive":
			d.o.recursive = true
		case "N", "new-file":
			d.o.newFile = true
		case "a", "text":
			d.o.text = true
		case "i", "ignore-case":
			d.o.ignoreCase = true
		case "b", "ignore-space-change":
			d.o.spaceChg = true
		case "w", "ignore-all-space":
			d.o.allSpace = true
		case "d", "minimal":
			d.o.minimal = true
		case "color":
			switch op.Value {
			case "always", "yes", "force":
				d.o.color = true
			case "never", "no", "none", "auto", "tty", "if-tty":
				// Output is never a terminal, so auto means never.
				d.o.color = false
			default:
				return usage(env, fmt.Sprintf("invalid argument '%s' for '--color'", op.Value))
			}
		}
	}
	d.o.switches = switchString(env.Args[1:])
	if len(operands) < 2 {
		if len(operands) == 0 {
			return usage(env, "missing operand after 'diff'")
		}
		return usage(env, fmt.Sprintf("missing operand after '%s'", operands[0]))
	}
	if len(operands) > 2 {
		return usage(env, fmt.Sprintf("extra operand '%s'", operands[2]))
	}
	st := d.compareOperands(operands[0], operands[1])
	if err := d.flush(); err != nil {
		return env.WriteErrorStatus(err, statusTrouble)
	}
	if env.Canceled() {
		return command.StatusCanceled
	}
	return st
}

// normalizeOptional turns "--unified=N" and "--color=WHEN" (long options
// whose argument is optional, which command.Getopt does not model) into
// forms it parses: "--unified=N" stays (the long list has "unified="), and
// "--unified" alone is kept as the flag.
func normalizeOptional(args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		if strings.HasPrefix(a, "--") && len(a) > 2 {
			name, val, has := strings.Cut(a[2:], "=")
			for _, long := range []string{"unified", "color"} {
				if name != "" && strings.HasPrefix(long, name) && (len(name) >= 3 || long == "color" && len(name) >= 2) {
					switch {
					case has:
						a = "--" + long + "=" + val
					case long == "unified":
						a = "-u"
					default:
						a = "--color=auto"
					}
					if has && val == "" && long == "unified" {
						return nil, fmt.Errorf("invalid context length '%s'", val)
					}
				}
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// contextLines parses the argument of -U.
func contextLines(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, false
	}
	return min(n, 1<<20), true
}

// usage reports a usage error the way GNU diff does.
func usage(env *command.Env, msg string) int {
	fmt.Fprintf(env.Stderr, "%s: %s\n%s: Try '%s --help' for more information.\n", env.Args[0], msg, env.Args[0], env.Args[0])
	return statusTrouble
}

// switchString rebuilds GNU's record of the option words: every word
// before the operands, each quoted for the shell when it needs it, with a
// space before each.
func switchString(args []string) string {
	var b strings.Builder
	takesArg := func(c byte) bool { return c == 'U' || c == 'C' || c == 'x' }
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		b.WriteByte(' ')
		b.WriteString(shellQuote(a))
		if a[1] == '-' && !strings.Contains(a, "=") && i+1 < len(args) {
			// A long option whose argument is the next word.
			if name := a[2:]; len(name) >= 3 && (strings.HasPrefix("label", name) || strings.HasPrefix("exclude", name)) {
				i++
				b.WriteByte(' ')
				b.WriteString(shellQuote(args[i]))
			}
			continue
		}
		if a[1] != '-' {
			for j := 1; j < len(a); j++ {
				if takesArg(a[j]) {
					if j == len(a)-1 && i+1 < len(args) {
						i++
						b.WriteByte(' ')
						b.WriteString(shellQuote(args[i]))
					}
					break
				}
			}
		}
	}
	return b.String()
}

// shellQuote quotes s for the shell when it holds characters the shell
// treats specially, as GNU's quotearg does for option words.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	need := strings.HasPrefix(s, "~") || strings.HasPrefix(s, "#")
	for i := 0; i < len(s) && !need; i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte(" !\"$&'()*;<=>?[\\^`|{}", c) >= 0 {
			need = true
		}
	}
	if !need {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteName quotes a file name for a header line as GNU does: in double
// quotes with C escapes when it holds a space, a quote, a backslash or a
// control character.
func quoteName(s string) string {
	need := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == '"' || c == '\\' || c == 0x7f {
			need = true
			break
		}
	}
	if !need {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\v':
			b.WriteString(`\v`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// flush writes the buffered output.
func (d *differ) flush() error {
	if d.werr != nil {
		return d.werr
	}
	if d.out.Len() == 0 {
		return nil
	}
	_, err := d.env.Stdout.Write(d.out.Bytes())
	d.out.Reset()
	if err != nil {
		d.werr = err
	}
	return err
}

// maybeFlush writes the output once enough of it has piled up.
func (d *differ) maybeFlush() {
	if d.out.Len() >= 32<<10 {
		d.flush()
	}
}

// file is one side of a comparison.
type file struct {
	name   string // as given, for messages and headers
	isDir  bool
	absent bool // does not exist, and -N makes it empty
	info   fs.FileInfo
	data   []byte
	stdin  bool
}

// stat looks a file up; "-" is standard input, and /dev/fd/N (a process
// substitution) a stream like it.
func (d *differ) stat(name string) (*file, error) {
	if name == "-" || name == "/dev/stdin" || strings.HasPrefix(name, "/dev/fd/") {
		return &file{name: name, stdin: true}, nil
	}
	if name == "/dev/null" {
		return &file{name: name}, nil
	}
	fi, err := d.env.FS.Stat(d.env.Abs(name))
	if err != nil {
		return nil, err
	}
	return &file{name: name, isDir: fi.IsDir(), info: fi}, nil
}

// load reads the contents of a file (not a directory).
func (d *differ) load(f *file) error {
	if f.absent || f.data != nil {
		return nil
	}
	data, err := d.env.ReadAll(f.name)
	if err != nil {
		return err
	}
	f.data = data
	if f.data == nil {
		f.data = []byte{}
	}
	return nil
}

// fileError reports a file error and returns status 2 (130 when canceled).
func (d *differ) fileError(name string, err error) int {
	if command.IsCanceled(err) {
		return command.StatusCanceled
	}
	d.flush()
	d.env.FileError(statusTrouble, name, err)
	return statusTrouble
}

// compareOperands compares the two operands of the command line.
func (d *differ) compareOperands(n0, n1 string) int {
	f0, err := d.stat(n0)
	if err != nil && !(d.o.newFile && isNotExist(err)) {
		return d.fileError(n0, err)
	}
	f1, err1 := d.stat(n1)
	if err1 != nil && !(d.o.newFile && isNotExist(err1)) {
		return d.fileError(n1, err1)
	}
	if f0 == nil && f1 == nil {
		return d.fileError(n0, err)
	}
	if f0 == nil {
		f0 = &file{name: n0, absent: true, isDir: f1.isDir}
	}
	if f1 == nil {
		f1 = &file{name: n1, absent: true, isDir: f0.isDir}
	}
	switch {
	case f0.isDir && f1.isDir:
		return d.compareDirs(f0.name, f1.name, !f0.absent, !f1.absent, true)
	case f0.isDir:
		if f1.stdin {
			return d.env.Errorf(statusTrouble, "cannot compare '-' to a directory")
		}
		inner := path.Join(n0, path.Base(n1))
		g, err := d.stat(inner)
		if err != nil {
			return d.fileError(inner, err)
		}
		f0 = g
	case f1.isDir:
		if f0.stdin {
			return d.env.Errorf(statusTrouble, "cannot compare '-' to a directory")
		}
		inner := path.Join(n1, path.Base(n0))
		g, err := d.stat(inner)
		if err != nil {
			return d.fileError(inner, err)
		}
		f1 = g
	}
	if f0.isDir || f1.isDir {
		return d.mixed(f0, f1)
	}
	return d.compareFiles(f0, f1, false)
}

func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist)
}

// display returns the name shown for side i (0 or 1) of a comparison:
// the --label given for it, or the name.
func (d *differ) display(name string, i int) string {
	if i < len(d.o.labels) {
		return d.o.labels[i]
	}
	return name
}

// excluded reports whether a directory entry matches an --exclude
// pattern.
func (d *differ) excluded(name string) bool {
	for _, pat := range d.o.excludes {
		if ok, _ := path.Match(pat, name); ok {
			return true
		}
	}
	return false
}

// kind names a file's type as GNU does in "File A is a directory while
// file B is a regular file".
func kind(f *file) string {
	switch {
	case f.isDir:
		return "directory"
	case f.info != nil && f.info.Size() == 0:
		return "regular empty file"
	}
	return "regular file"
}

// mixed reports a directory compared with a file.
func (d *differ) mixed(f0, f1 *file) int {
	fmt.Fprintf(d.out, "File %s is a %s while file %s is a %s\n", d.display(f0.name, 0), kind(f0), d.display(f1.name, 1), kind(f1))
	return statusDiffer
}

// compareDirs compares two directories. exists0 and exists1 are false for
// a directory that -N treats as empty. top is true for the operands of the
// command line.
func (d *differ) compareDirs(dir0, dir1 string, exists0, exists1, top bool) int {
	if d.env.Canceled() {
		return command.StatusCanceled
	}
	var names0, names1 []string
	if exists0 {
		l, err := d.readDir(dir0)
		if err != nil {
			return d.fileError(dir0, err)
		}
		names0 = l
	}
	if exists1 {
		l, err := d.readDir(dir1)
		if err != nil {
			return d.fileError(dir1, err)
		}
		names1 = l
	}
	all := append(slices.Clone(names0), names1...)
	slices.Sort(all)
	all = slices.Compact(all)
	all = slices.DeleteFunc(all, d.excluded)
	status := statusSame
	for _, name := range all {
		if d.env.Canceled() {
			return command.StatusCanceled
		}
		p0, p1 := path.Join(dir0, name), path.Join(dir1, name)
		_, in0 := slices.BinarySearch(names0, name)
		_, in1 := slices.BinarySearch(names1, name)
		var st int
		switch {
		case in0 && in1:
			st = d.compareEntries(p0, p1)
		case !d.o.newFile:
			dir := dir0
			if in1 {
				dir = dir1
			}
			fmt.Fprintf(d.out, "Only in %s: %s\n", dir, name)
			st = statusDiffer
		default:
			st = d.compareAbsent(p0, p1, in0)
		}
		status = max(status, st)
		if st == command.StatusCanceled {
			return st
		}
		d.maybeFlush()
	}
	return status
}

// compareAbsent compares an entry with its absent counterpart under -N.
func (d *differ) compareAbsent(p0, p1 string, in0 bool) int {
	present := p0
	if !in0 {
		present = p1
	}
	f, err := d.stat(present)
	if err != nil {
		return d.fileError(present, err)
	}
	var f0, f1 *file
	if in0 {
		f0, f1 = f, &file{name: p1, absent: true, isDir: f.isDir}
	} else {
		f0, f1 = &file{name: p0, absent: true, isDir: f.isDir}, f
	}
	if f.isDir {
		if !d.o.recursive {
			return statusSame
		}
		return d.compareDirs(p0, p1, in0, !in0, false)
	}
	return d.compareFiles(f0, f1, true)
}

// compareEntries compares two entries found in both directories.
func (d *differ) compareEntries(p0, p1 string) int {
	f0, err := d.stat(p0)
	if err != nil {
		return d.fileError(p0, err)
	}
	f1, err := d.stat(p1)
	if err != nil {
		return d.fileError(p1, err)
	}
	switch {
	case f0.isDir && f1.isDir:
		if d.o.recursive {
			return d.compareDirs(p0, p1, true, true, false)
		}
		fmt.Fprintf(d.out, "Common subdirectories: %s and %s\n", p0, p1)
		return statusSame
	case f0.isDir || f1.isDir:
		return d.mixed(f0, f1)
	}
	return d.compareFiles(f0, f1, true)
}

// readDir lists a directory's names in byte order.
func (d *differ) readDir(dir string) ([]string, error) {
	ents, err := d.env.FS.ReadDir(d.env.Abs(dir))
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	slices.Sort(names)
	return names, nil
}

// compareFiles compares two regular files (or standard input). inDir is
// true within a directory comparison, where a header line names the pair.
func (d *differ) compareFiles(f0, f1 *file, inDir bool) int {
	if err := d.load(f0); err != nil {
		return d.fileError(f0.name, err)
	}
	if err := d.load(f1); err != nil {
		return d.fileError(f1.name, err)
	}
	same := bytes.Equal(f0.data, f1.data)
	if same {
		if d.o.identical {
			fmt.Fprintf(d.out, "Files %s and %s are identical\n", d.display(f0.name, 0), d.display(f1.name, 1))
		}
		return statusSame
	}
	binary := !d.o.text && (isBinary(f0.data) || isBinary(f1.data))
	if binary || d.o.brief && !d.ignoring() {
		if binary && !d.o.brief {
			fmt.Fprintf(d.out, "Binary files %s and %s differ\n", d.display(f0.name, 0), d.display(f1.name, 1))
		} else {
			fmt.Fprintf(d.out, "Files %s and %s differ\n", d.display(f0.name, 0), d.display(f1.name, 1))
		}
		return statusDiffer
	}
	a, b := splitLines(f0.data), splitLines(f1.data)
	changes, ok := diffLines(a, b, d.keys(a), d.keys(b), d.horizon(), d.o.minimal, func() bool { return d.env.Canceled() })
	if !ok {
		return command.StatusCanceled
	}
	if len(changes) == 0 {
		if d.o.identical {
			fmt.Fprintf(d.out, "Files %s and %s are identical\n", d.display(f0.name, 0), d.display(f1.name, 1))
		}
		return statusSame
	}
	if d.o.brief {
		fmt.Fprintf(d.out, "Files %s and %s differ\n", d.display(f0.name, 0), d.display(f1.name, 1))
		return statusDiffer
	}
	if inDir {
		n0, n1 := quoteName(f0.name), quoteName(f1.name)
		if len(d.o.labels) > 0 {
			n0 = d.o.labels[0]
		}
		if len(d.o.labels) > 1 {
			n1 = d.o.labels[1]
		}
		fmt.Fprintf(d.out, "diff%s %s %s\n", d.o.switches, n0, n1)
	}
	switch {
	case d.o.unified:
		d.fileHeaders(f0, f1, "---", "+++")
		d.printUnified(a, b, changes)
	case d.o.ctxFormat:
		d.fileHeaders(f0, f1, "***", "---")
		d.printContext(a, b, changes)
	default:
		d.printNormal(a, b, changes)
	}
	return statusDiffer
}

// ignoring reports whether lines are compared loosely, so that different
// bytes may still be the same text.
func (d *differ) ignoring() bool {
	return d.o.ignoreCase || d.o.spaceChg || d.o.allSpace
}

// horizon is the number of lines of the common ends kept in the
// comparison: the context, so that changes can slide into it.
func (d *differ) horizon() int {
	if d.o.unified || d.o.ctxFormat {
		return d.o.context
	}
	return 0
}

// isBinary reports whether data looks binary: a NUL in its first block.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binaryProbe)], 0) >= 0
}

// splitLines splits data into lines, each with its newline (the last may
// lack one).
func splitLines(data []byte) []string {
	s := string(data)
	lines := make([]string, 0, bytes.Count(data, []byte{'\n'})+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// keys returns the lines as compared: themselves, or normalized for -i,
// -b and -w (nil when lines are compared exactly).
func (d *differ) keys(lines []string) []string {
	if !d.ignoring() {
		return nil
	}
	keys := make([]string, len(lines))
	for i, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		if d.o.ignoreCase {
			body = strings.ToLower(body)
		}
		switch {
		case d.o.allSpace:
			body = strings.Map(func(r rune) rune {
				if isSpace(r) {
					return -1
				}
				return r
			}, body)
		case d.o.spaceChg:
			// Runs of white space compare as one space; trailing white
			// space is ignored.
			var b strings.Builder
			pending := false
			for _, r := range body {
				if isSpace(r) {
					pending = true
					continue
				}
				if pending {
					b.WriteByte(' ')
				}
				pending = false
				b.WriteRune(r)
			}
			body = b.String()
		}
		if d.o.spaceChg || d.o.allSpace {
			// The newline is white space too: an incomplete last line
			// equals a complete one.
			nl = false
		}
		if nl {
			body += "\n"
		}
		keys[i] = body
	}
	return keys
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\v' || r == '\f' || r == '\r'
}

// timestamp formats a header time as GNU does, in UTC.
func (d *differ) timestamp(f *file) string {
	var t time.Time
	switch {
	case f.stdin:
		t = d.env.Now()
	case f.absent || f.info == nil:
		t = time.Unix(0, 0)
	default:
		t = f.info.ModTime()
	}
	return t.UTC().Format("2006-01-02 15:04:05.000000000 -0700")
}

// bold writes what f writes in the header color when colors are on.
func (d *differ) bold(f func()) { d.colored("\033[1m", f) }

// colored writes what f writes between the color's start sequence and the
// reset sequence when colors are on.
func (d *differ) colored(seq string, f func()) {
	if d.o.color {
		d.out.WriteString(seq)
		f()
		d.out.WriteString("\033[0m")
		return
	}
	f()
}

// fileHeaders writes the two lines naming the files above the hunks: mark0
// then the old file's name and time, mark1 then the new one's ("---" and
// "+++" in the unified format, "***" and "---" in the context format).
func (d *differ) fileHeaders(f0, f1 *file, mark0, mark1 string) {
	h0 := quoteName(f0.name) + "\t" + d.timestamp(f0)
	h1 := quoteName(f1.name) + "\t" + d.timestamp(f1)
	// --label replaces the name and the time.
	if len(d.o.labels) > 0 {
		h0 = d.o.labels[0]
	}
	if len(d.o.labels) > 1 {
		h1 = d.o.labels[1]
	}
	d.bold(func() { fmt.Fprintf(d.out, "%s %s", mark0, h0) })
	d.out.WriteByte('\n')
	d.bold(func() { fmt.Fprintf(d.out, "%s %s", mark1, h1) })
	d.out.WriteByte('\n')
}

// line writes one line of a file with its prefix, then GNU's note when it
// lacks a newline. seq colors it (when colors are on).
func (d *differ) line(prefix, l, seq string) {
	body, nl := strings.CutSuffix(l, "\n")
	if seq == "" {
		d.out.WriteString(prefix)
		d.out.WriteString(body)
	} else {
		d.colored(seq, func() {
			d.out.WriteString(prefix)
			d.out.WriteString(body)
		})
	}
	d.out.WriteByte('\n')
	if !nl {
		d.out.WriteString("\\ No newline at end of file\n")
	}
	d.maybeFlush()
}

// lineRange formats lines [a, b] (1-based, b = a-1 for none) as the
// normal format and the context format's hunk headers do: "b" alone when
// the range holds one line or none, "a,b" otherwise.
func lineRange(a, b int) string {
	if b <= a {
		return strconv.Itoa(b)
	}
	return strconv.Itoa(a) + "," + strconv.Itoa(b)
}

// printNormal writes the changes in the normal format.
func (d *differ) printNormal(a, b []string, changes []change) {
	for _, c := range changes {
		op := byte('c')
		switch {
		case c.deleted == 0:
			op = 'a'
		case c.inserted == 0:
			op = 'd'
		}
		d.colored("\033[36m", func() {
			fmt.Fprintf(d.out, "%s%c%s", lineRange(c.line0+1, c.line0+c.deleted), op, lineRange(c.line1+1, c.line1+c.inserted))
		})
		d.out.WriteByte('\n')
		for _, l := range a[c.line0 : c.line0+c.deleted] {
			d.line("< ", l, d.seq("\033[31m"))
		}
		if c.deleted > 0 && c.inserted > 0 {
			d.out.WriteString("---\n")
		}
		for _, l := range b[c.line1 : c.line1+c.inserted] {
			d.line("> ", l, d.seq("\033[32m"))
		}
	}
}

// seq returns the color sequence when colors are on.
func (d *differ) seq(s string) string {
	if d.o.color {
		return s
	}
	return ""
}

// unifiedRange formats lines [a, b] (1-based) of a unified hunk header.
func unifiedRange(a, b int) string {
	switch {
	case b < a:
		return strconv.Itoa(b) + ",0"
	case b == a:
		return strconv.Itoa(b)
	}
	return strconv.Itoa(a) + "," + strconv.Itoa(b-a+1)
}

// hunk is a group of changes printed together with their context: lines
// first0 to last0 of the old file and first1 to last1 of the new one
// (from 0).
type hunk struct {
	changes                      []change
	first0, last0, first1, last1 int
}

// groupHunks groups changes into hunks with ctx lines of context, merging
// changes whose context would touch or overlap, as GNU does.
func groupHunks(a, b []string, changes []change, ctx int) []hunk {
	var hunks []hunk
	for len(changes) > 0 {
		n := 1
		for n < len(changes) {
			prev, next := changes[n-1], changes[n]
			if next.line0-(prev.line0+prev.deleted) >= 2*ctx+1 {
				break
			}
			n++
		}
		first, last := changes[0], changes[n-1]
		hunks = append(hunks, hunk{
			changes: changes[:n],
			first0:  max(first.line0-ctx, 0),
			first1:  max(first.line1-ctx, 0),
			last0:   min(last.line0+last.deleted-1+ctx, len(a)-1),
			last1:   min(last.line1+last.inserted-1+ctx, len(b)-1),
		})
		changes = changes[n:]
	}
	return hunks
}

// printUnified writes the changes as unified hunks, merging changes whose
// context would touch or overlap, as GNU does.
func (d *differ) printUnified(a, b []string, changes []change) {
	for _, h := range groupHunks(a, b, changes, d.o.context) {
		group, first0, last0, first1, last1 := h.changes, h.first0, h.last0, h.first1, h.last1
		d.colored("\033[36m", func() {
			fmt.Fprintf(d.out, "@@ -%s +%s @@", unifiedRange(first0+1, last0+1), unifiedRange(first1+1, last1+1))
		})
		d.out.WriteByte('\n')
		i := first0
		for _, c := range group {
			for ; i < c.line0; i++ {
				d.line(" ", a[i], "")
			}
			for _, l := range a[c.line0 : c.line0+c.deleted] {
				d.line("-", l, d.seq("\033[31m"))
			}
			for _, l := range b[c.line1 : c.line1+c.inserted] {
				d.line("+", l, d.seq("\033[32m"))
			}
			i = c.line0 + c.deleted
		}
		for ; i <= last0; i++ {
			d.line(" ", a[i], "")
		}
	}
}

// printContext writes the changes as context-format hunks, grouped as
// unified hunks are: the old lines (when the hunk deletes any) marked
// "- " or "! ", then the new ones (when it inserts any) marked "+ " or
// "! ".
func (d *differ) printContext(a, b []string, changes []change) {
	for _, h := range groupHunks(a, b, changes, d.o.context) {
		group, first0, last0, first1, last1 := h.changes, h.first0, h.last0, h.first1, h.last1
		deletes, inserts := false, false
		for _, c := range group {
			deletes = deletes || c.deleted > 0
			inserts = inserts || c.inserted > 0
		}
		d.out.WriteString("***************\n")
		d.colored("\033[36m", func() { fmt.Fprintf(d.out, "*** %s ****", lineRange(first0+1, last0+1)) })
		d.out.WriteByte('\n')
		if deletes {
			d.contextSide(a, group, first0, last0, func(c change) (int, int, int) { return c.line0, c.deleted, c.inserted }, "- ", "\033[31m")
		}
		d.colored("\033[36m", func() { fmt.Fprintf(d.out, "--- %s ----", lineRange(first1+1, last1+1)) })
		d.out.WriteByte('\n')
		if inserts {
			d.contextSide(b, group, first1, last1, func(c change) (int, int, int) { return c.line1, c.inserted, c.deleted }, "+ ", "\033[32m")
		}
	}
}

// contextSide writes one side of a context-format hunk: its lines from
// first to last, those of the changes (side gives a change's first line,
// its count of lines and the count on the other side) marked with mark, or
// "! " where the other side changed too, in color with --color.
func (d *differ) contextSide(lines []string, group []change, first, last int, side func(change) (at, n, other int), mark, color string) {
	i := first
	for _, c := range group {
		at, n, other := side(c)
		for ; i < at; i++ {
			d.line("  ", lines[i], d.seq(color))
		}
		m := mark
		if other > 0 {
			m = "! "
		}
		for _, l := range lines[at : at+n] {
			d.line(m, l, d.seq(color))
		}
		i = at + n
	}
	for ; i <= last; i++ {
		d.line("  ", lines[i], d.seq(color))
	}
}
