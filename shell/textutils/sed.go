package textutils

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"syscall"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

const sedUsage = "[OPTION]... {script-only-if-no-other-script} [input-file]..."

// spaceSlack is how far the pattern and hold spaces may grow beyond twice
// the input read so far (scripts like ":a;G;H;ba" double them forever).
const spaceSlack = 32 << 20

// sedLong is GNU sed's table of long options, in its order (which shows in
// the message for an ambiguous abbreviation).
var sedLong = []string{
	"regexp-extended", "debug", "in-place", "in-place-suffix=", "expression=", "file=",
	"line-length=", "null-data", "zero-terminated", "quiet", "posix", "silent", "sandbox",
	"separate", "unbuffered", "version", "help", "follow-symlinks",
}

// sedPreprocess rewrites -i[SUFFIX] and --in-place[=SUFFIX], whose argument
// is optional, into forms Getopt understands.
func sedPreprocess(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if long, ok := strings.CutPrefix(a, "--"); ok {
			// --in-place and its abbreviations (--i, --in, ...).
			name, v, hasV := strings.Cut(long, "=")
			if name != "" && strings.HasPrefix("in-place", name) {
				if hasV {
					out = append(out, "--in-place-suffix="+v)
				} else {
					out = append(out, "--in-place")
				}
				continue
			}
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			out = append(out, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if c == 'i' {
				if j > 1 {
					out = append(out, "-"+a[1:j])
				}
				if j+1 < len(a) {
					out = append(out, "--in-place-suffix="+a[j+1:])
				} else {
					out = append(out, "--in-place")
				}
				break
			}
			if c == 'e' || c == 'f' || c == 'l' {
				out = append(out, a)
				if j == len(a)-1 && i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
				break
			}
			if j == len(a)-1 {
				out = append(out, a)
			}
		}
	}
	return out
}

// sedHelp is the text of --help after the usage line, as GNU sed 4.9
// writes it after an error in the options (its --help adds GNU's address
// for bug reports, which is not the place for cordon's).
const sedHelp = `
  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the ` + "`" + `l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
`

// sedUsageErr writes a usage error and GNU's whole help, and returns 1.
func sedUsageErr(env *command.Env, msg string) int {
	if msg != "" {
		fmt.Fprintf(env.Stderr, "sed: %s\n", msg)
	}
	fmt.Fprintf(env.Stderr, "Usage: sed %s\n%s", sedUsage, sedHelp)
	return 1
}

// sedVersion is the text of --version: cordon's sed follows GNU sed 4.9,
// and scripts test the first line to know which sed they have.
const sedVersion = `sed (GNU sed) 4.9
This is cordon's implementation of sed, in the sandbox, which follows
GNU sed 4.9 (differences: see cordon's docs/shell.md).
`

// atoiPrefix reads the leading decimal digits of s as C's atoi does (0
// when there are none).
func atoiPrefix(s string) int {
	n := 0
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9' && n < 1<<30; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func cmdSed(env *command.Env) int {
	// With POSIXLY_CORRECT, the options end at the first operand.
	_, posixEnv := env.Getenv("POSIXLY_CORRECT")
	opts, operands, err := command.Getopt(sedPreprocess(env.Args[1:]), "nse:f:ErzuEl:", sedLong, posixEnv)
	if err != nil {
		return sedUsageErr(env, err.Error())
	}
	r := &sedRun{env: env, lineLen: 70, delim: '\n', holdNL: true}
	if v, ok := env.Getenv("COLS"); ok {
		// GNU: the width of l is COLS less one, when COLS is above 1.
		if n := atoiPrefix(v); n > 1 {
			r.lineLen = n - 1
		}
	}
	r.posixEnv = posixEnv
	var parts []scriptPart
	for _, o := range opts {
		switch o.Name {
		case "n", "quiet", "silent":
			r.quiet = true
		case "e", "expression":
			parts = append(parts, scriptPart{text: o.Value})
		case "f", "file":
			var f io.ReadCloser
			var err error
			if o.Value == "-" {
				f = io.NopCloser(env.Stdin)
			} else {
				f, err = env.Open(o.Value)
			}
			if err != nil {
				return env.Errorf(4, "couldn't open file %s: %s", o.Value, command.Strerror(err))
			}
			data, err := readAll(env.Ctx, f)
			f.Close()
			if err != nil {
				return env.Errorf(4, "couldn't read %s: %s", o.Value, command.Strerror(err))
			}
			parts = append(parts, scriptPart{text: strings.TrimSuffix(string(data), "\n"), file: o.Value})
		case "in-place":
			r.inPlace, r.separate = true, true
		case "in-place-suffix":
			r.inPlace, r.separate, r.suffix = true, true, o.Value
		case "E", "r", "regexp-extended":
			r.ere = true
		case "s", "separate":
			r.separate = true
		case "z", "null-data", "zero-terminated":
			r.delim = 0
		case "l", "line-length":
			r.lineLen = atoiPrefix(o.Value)
		case "posix":
			r.posix = true
		case "sandbox":
			r.sandbox = true
		case "help":
			fmt.Fprintf(env.Stdout, "Usage: sed %s\n%s", sedUsage, sedHelp)
			return 0
		case "version":
			fmt.Fprint(env.Stdout, sedVersion)
			return 0
		}
	}
	if len(parts) == 0 {
		if len(operands) == 0 {
			return sedUsageErr(env, "")
		}
		parts = append(parts, scriptPart{text: operands[0]})
		operands = operands[1:]
	}
	script, err := parseSed(parts, sedDialect{ere: r.ere, posix: r.posix, sandbox: r.sandbox, nul: r.delim == 0})
	if err != nil {
		if strings.HasPrefix(err.Error(), "can't find label") {
			return env.Errorf(4, "%s", err)
		}
		return env.Errorf(1, "%s", err)
	}
	if script.quiet {
		r.quiet = true
	}
	r.s = script
	if len(operands) == 0 {
		if r.inPlace {
			return env.Errorf(4, "no input files")
		}
		operands = []string{"-"}
	}
	r.names = operands
	return r.run()
}

// sedOut writes lines, adding the newline a previous line lacked.
type sedOut struct {
	w       *bufio.Writer
	buf     *bytes.Buffer // in-place output, else nil
	missing bool
	delim   byte
	direct  bool // flushed after every write (/dev/stderr, unbuffered as in GNU sed)
}

func (o *sedOut) line(b []byte, nl bool) {
	if o.missing {
		o.w.WriteByte(o.delim)
		o.missing = false
	}
	o.w.Write(b)
	if nl {
		o.w.WriteByte(o.delim)
	} else {
		o.missing = true
	}
	if o.direct {
		o.w.Flush()
	}
}

func (o *sedOut) raw(b []byte) {
	if o.missing {
		o.w.WriteByte(o.delim)
		o.missing = false
	}
	o.w.Write(b)
	if o.direct {
		o.w.Flush()
	}
}

// sedRun is one execution of a sed script.
type sedRun struct {
	env      *command.Env
	s        *sedScript
	quiet    bool
	ere      bool
	separate bool
	inPlace  bool
	suffix   string
	lineLen  int
	delim    byte
	posix    bool // --posix: GNU's extensions refused
	posixEnv bool // POSIXLY_CORRECT is set: N at the end quits silently
	sandbox  bool // --sandbox: no e, r, w
	// silentEOF: N met the end of input in POSIX mode, so the pattern
	// space is not printed.
	silentEOF bool
	fatal     bool // a read or edit error ends the run, status 4

	names   []string
	idx     int
	lr      *command.LineReader
	closer  io.Closer
	curName string
	la      []byte // lookahead line of the current file
	laNL    bool
	laOK    bool

	lineNo  int64
	inBytes int64 // input read so far
	ps      []byte
	holdNL  bool // the hold space's text ends with a newline (see x)
	psNL    bool
	hold    []byte
	scratch []byte // the previous pattern space, reused by s
	tflag   bool
	lastRE  *sedRegex

	stdout  *sedOut
	out     *sedOut
	appendQ [][]byte
	rfiles  map[string]*command.LineReader
	wfiles  map[string]*sedOut
	worder  []string
	status  int
	steps   int
	errFile bool
}

// sedStop tells how the script ended for the current cycle.
type sedStop int

const (
	stopNone    sedStop = iota
	stopDelete          // d, D without newline, c: no autoprint
	stopRestart         // D with newline: restart without reading
	stopQuit            // q: autoprint then exit
	stopQuitNow         // Q: exit without printing
	stopEOF             // n or N at the end of input: autoprint then exit
	stopError
)

func (r *sedRun) run() int {
	w := r.env.NewWriter(r.env.Stdout, writeBufSize)
	r.stdout = &sedOut{w: w, delim: r.delim}
	r.out = r.stdout
	defer w.Flush()
	if st := r.openWFiles(); st != 0 {
		return st
	}
	restart := false
	for cycles := 1; ; cycles++ {
		if cycles&255 == 0 && command.Done(r.env.Ctx) {
			return command.StatusCanceled
		}
		if !restart {
			if !r.readCycle() {
				break
			}
			if r.lineNo == 1 {
				// 0rFILE: the files go out before the first line.
				for _, name := range r.s.zeroR {
					if data, err := r.readWhole(name); err == nil {
						r.out.raw(data)
					}
				}
			}
		}
		restart = false
		stop := r.exec()
		switch stop {
		case stopError:
			r.finishFile()
			r.flushW()
			return r.status
		case stopQuitNow:
			r.finishFile()
			r.flushW()
			return r.status
		case stopDelete:
		case stopRestart:
			restart = true
		default:
			if !r.quiet && !r.silentEOF {
				r.out.line(r.ps, r.psNL)
			}
		}
		r.dumpAppend()
		if stop == stopQuit && r.out.missing {
			// GNU ends the output of q with a newline, even for a last
			// line that had none.
			r.out.w.WriteByte(r.delim)
			r.out.missing = false
		}
		if stop == stopQuit || stop == stopEOF && !r.separate {
			r.finishFile()
			break
		}
		if r.out.w.Flush() != nil && r.out == r.stdout {
			return 4
		}
	}
	r.finishFile()
	r.flushW()
	if r.fatal {
		return 4
	}
	if r.errFile && r.status == 0 {
		return 2
	}
	return r.status
}

// resetRanges makes every range inactive again, as GNU does at the start
// of each file with -s and -i.
func (r *sedRun) resetRanges() {
	for _, c := range r.s.cmds {
		c.active, c.closed, c.end = false, false, 0
	}
}

// maxSpace bounds the pattern and hold spaces.
func (r *sedRun) maxSpace() int {
	return int(min(spaceSlack+2*r.inBytes, 1<<30))
}

// openWFiles truncates the files named by w commands.
func (r *sedRun) openWFiles() int {
	r.wfiles = map[string]*sedOut{}
	for _, name := range r.s.wfiles {
		if _, ok := r.wfiles[name]; ok {
			continue
		}
		switch name {
		case "/dev/stdout":
			r.wfiles[name] = r.stdout
			continue
		case "/dev/stderr":
			r.wfiles[name] = &sedOut{w: bufio.NewWriter(r.env.Stderr), delim: r.delim, direct: true}
			r.worder = append(r.worder, name)
			continue
		}
		if strings.HasPrefix(name, "/dev/fd/") {
			// A shell descriptor, such as the pipe of a process
			// substitution >(cmd): written as the script runs.
			w, err := r.env.Create(name, vfs.O_CREATE|vfs.O_TRUNC)
			if err != nil {
				return r.env.Errorf(4, "couldn't open file %s: %s", name, command.Strerror(err))
			}
			r.wfiles[name] = &sedOut{w: bufio.NewWriter(w), delim: r.delim, direct: true}
			r.worder = append(r.worder, name)
			continue
		}
		if err := r.env.FS.WriteFile(r.env.Abs(name), nil, 0); err != nil {
			return r.env.Errorf(4, "couldn't open file %s: %s", name, command.Strerror(err))
		}
		buf := &bytes.Buffer{}
		r.wfiles[name] = &sedOut{w: bufio.NewWriter(buf), buf: buf, delim: r.delim}
		r.worder = append(r.worder, name)
	}
	return 0
}

func (r *sedRun) flushW() {
	for _, name := range r.worder {
		o := r.wfiles[name]
		o.w.Flush()
		if o.buf != nil {
			if err := r.env.FS.WriteFile(r.env.Abs(name), o.buf.Bytes(), 0); err != nil {
				r.env.Errorf(4, "couldn't write %s: %s", name, command.Strerror(err))
				r.status = 4
			}
		}
	}
}

// openNext opens the next input file; it returns false when none is left.
func (r *sedRun) openNext() bool {
	for r.idx < len(r.names) {
		name := r.names[r.idx]
		r.idx++
		var f io.ReadCloser
		var err error
		if r.inPlace && name == "-" {
			f, err = r.env.Open("./-") // -i edits the file named -
		} else {
			f, err = r.env.Open(name)
		}
		if err != nil && (errors.Is(err, syscall.EISDIR) || command.Strerror(err) == "Is a directory") {
			// GNU stops there, with status 4.
			if r.inPlace {
				r.env.Errorf(4, "couldn't edit %s: not a regular file", name)
			} else {
				r.env.Errorf(4, "read error on %s: %s", name, command.Strerror(err))
			}
			r.fatal, r.status = true, 4
			return false
		}
		if err != nil {
			r.env.Errorf(2, "can't read %s: %s", name, command.Strerror(err))
			r.errFile = true
			continue
		}
		r.closer = f
		r.lr = r.env.NewLineReader(f, readBufSize)
		r.lr.Delim = r.delim
		r.curName = name
		if r.inPlace {
			buf := &bytes.Buffer{}
			r.out = &sedOut{w: bufio.NewWriter(buf), buf: buf, delim: r.delim}
		}
		r.advance()
		return true
	}
	return false
}

// advance reads the lookahead line of the current file.
func (r *sedRun) advance() {
	line, nl, ok := r.lr.Next()
	r.la = append(r.la[:0], line...)
	r.laNL, r.laOK = nl, ok
}

// finishFile closes the current file and, with -i, writes it back.
func (r *sedRun) finishFile() {
	if r.lr == nil {
		return
	}
	r.closer.Close()
	r.lr = nil
	r.laOK = false
	if r.inPlace && r.out.buf != nil {
		r.out.w.Flush()
		name := r.env.Abs(r.curName)
		if r.suffix != "" {
			bak := r.suffix
			if strings.Contains(bak, "*") {
				bak = strings.ReplaceAll(bak, "*", path.Base(name))
				if !strings.Contains(bak, "/") {
					bak = path.Join(path.Dir(name), bak)
				}
			} else {
				bak = name + bak
			}
			if old, err := r.env.FS.ReadFile(name); err == nil {
				if err := r.env.FS.WriteFile(r.env.Abs(bak), old, 0); err != nil {
					// GNU renames the file to its backup, and stops
					// when it cannot, the file left as it was.
					r.env.Errorf(4, "cannot rename %s: %s", r.curName, command.Strerror(err))
					r.fatal, r.status = true, 4
					r.out = r.stdout
					return
				}
			}
		}
		if err := replaceFile(r.env, name, r.out.buf.Bytes()); err != nil {
			r.env.Errorf(4, "couldn't open file %s: %s", r.curName, command.Strerror(err))
			r.status = 4
		}
		r.out = r.stdout
	}
}

// readCycle loads the next input line into the pattern space.
func (r *sedRun) readCycle() bool {
	for !r.laOK {
		if r.fatal {
			return false
		}
		if r.lr != nil {
			if r.lr.Err() == command.ErrCanceled {
				return false
			}
			r.finishFile()
			if r.separate {
				// Like GNU: each file starts afresh, except that the
				// emptied hold space keeps its newline state.
				r.lineNo = 0
				r.hold = r.hold[:0]
				r.rfiles = nil
				r.resetRanges()
			}
		}
		if !r.openNext() {
			return false
		}
	}
	r.ps = append(r.ps[:0], r.la...)
	r.psNL = r.laNL
	r.inBytes += int64(len(r.la)) + 1
	r.lineNo++
	r.tflag = false
	r.advance()
	return true
}

// more reports whether another input line exists for n, N and $.
func (r *sedRun) more() bool {
	if r.laOK {
		return true
	}
	if r.separate {
		return false
	}
	for !r.laOK {
		if r.lr != nil {
			if r.lr.Err() == command.ErrCanceled {
				return false
			}
			r.finishFile()
		}
		if !r.openNext() {
			return false
		}
	}
	return true
}

// nextLine reads the next line for n and N; ok is false at the end.
func (r *sedRun) nextLine() ([]byte, bool, bool) {
	if !r.more() {
		return nil, false, false
	}
	line := r.la
	nl := r.laNL
	r.inBytes += int64(len(line)) + 1
	r.lineNo++
	r.la = nil
	r.advance()
	return line, nl, true
}

func (r *sedRun) dumpAppend() {
	for _, a := range r.appendQ {
		r.out.raw(a)
	}
	r.appendQ = r.appendQ[:0]
}

func (r *sedRun) match(re *sedRegex, b []byte) (bool, bool) {
	if re == nil {
		re = r.lastRE
		if re == nil {
			r.env.Errorf(1, "-e expression #1, char 0: no previous regular expression")
			r.status = 1
			return false, false
		}
	}
	r.lastRE = re
	m, err := re.Match(b)
	if err != nil {
		r.env.Errorf(4, "%s", err)
		r.status = 4
		return false, false
	}
	return m, true
}
