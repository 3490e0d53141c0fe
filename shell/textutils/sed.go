package textutils

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/cordonhq/cordon/shell/command"
)

// errNoEnt stands for ENOENT where there is no file system error to report.
var errNoEnt error = syscall.ENOENT

const sedUsage = "[OPTION]... {script-only-if-no-other-script} [input-file]..."

// spaceSlack is how far the pattern and hold spaces may grow beyond twice
// the input read so far (scripts like ":a;G;H;ba" double them forever).
const spaceSlack = 32 << 20

var sedLong = []string{
	"quiet", "silent", "expression=", "file=", "in-place", "in-place-suffix=", "regexp-extended",
	"separate", "null-data", "zero-terminated", "line-length=", "unbuffered", "posix", "debug",
	"sandbox", "follow-symlinks", "help",
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
		if v, ok := strings.CutPrefix(a, "--in-place="); ok {
			out = append(out, "--in-place-suffix="+v)
			continue
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

func sedMain(env *command.Env) int {
	opts, operands, err := command.Getopt(sedPreprocess(env.Args[1:]), "nse:f:ErzuEl:", sedLong, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "sed: %s\nUsage: sed %s\n", err, sedUsage)
		return 1
	}
	r := &sedRun{env: env, lineLen: 70, delim: '\n'}
	var parts []scriptPart
	for _, o := range opts {
		switch o.Name {
		case "n", "quiet", "silent":
			r.quiet = true
		case "e", "expression":
			parts = append(parts, scriptPart{text: o.Value})
		case "f", "file":
			f, err := openFile(env, o.Value)
			if err != nil {
				return env.Errorf(1, "couldn't open file %s: %s", o.Value, command.Strerror(err))
			}
			data, err := readAll(env.Ctx, f)
			f.Close()
			if err != nil {
				return env.Errorf(1, "couldn't read %s: %s", o.Value, command.Strerror(err))
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
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				return env.Errorf(1, "invalid line length: %s", o.Value)
			}
			r.lineLen = n
		case "help":
			fmt.Fprintf(env.Stdout, "Usage: sed %s\n", sedUsage)
			return 0
		}
	}
	if len(parts) == 0 {
		if len(operands) == 0 {
			fmt.Fprintf(env.Stderr, "Usage: sed %s\n", sedUsage)
			return 1
		}
		parts = append(parts, scriptPart{text: operands[0]})
		operands = operands[1:]
	}
	script, err := parseSed(parts, r.ere)
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
}

func (o *sedOut) raw(b []byte) {
	if o.missing {
		o.w.WriteByte(o.delim)
		o.missing = false
	}
	o.w.Write(b)
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

	names   []string
	idx     int
	lr      *lineReader
	closer  io.Closer
	curName string
	la      []byte // lookahead line of the current file
	laNL    bool
	laOK    bool

	lineNo  int64
	inBytes int64 // input read so far
	ps      []byte
	psNL    bool
	hold    []byte
	tflag   bool
	lastRE  *regexp.Regexp

	stdout  *sedOut
	out     *sedOut
	appendQ [][]byte
	rfiles  map[string]*lineReader
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
	w := bufio.NewWriterSize(r.env.Stdout, writeBufSize)
	r.stdout = &sedOut{w: w, delim: r.delim}
	r.out = r.stdout
	defer w.Flush()
	if st := r.openWFiles(); st != 0 {
		return st
	}
	restart := false
	for {
		if r.env.Ctx.Err() != nil {
			return 1
		}
		if !restart {
			if !r.readCycle() {
				break
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
			if !r.quiet {
				r.out.line(r.ps, r.psNL)
			}
		}
		r.dumpAppend()
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
	if r.errFile && r.status == 0 {
		return 2
	}
	return r.status
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
			r.wfiles[name] = &sedOut{w: bufio.NewWriter(r.env.Stderr), delim: r.delim}
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
			err = errNoEnt
		} else {
			f, err = openFile(r.env, name)
		}
		if err != nil {
			r.env.Errorf(2, "can't read %s: %s", name, command.Strerror(err))
			r.errFile = true
			continue
		}
		r.closer = f
		r.lr = newLineReader(r.env.Ctx, f)
		r.lr.delim = r.delim
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
	line, nl, ok := r.lr.next()
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
					r.env.Errorf(4, "couldn't open file %s: %s", bak, command.Strerror(err))
					r.status = 4
				}
			}
		}
		if err := r.env.FS.WriteFile(name, r.out.buf.Bytes(), 0); err != nil {
			r.env.Errorf(4, "couldn't open file %s: %s", r.curName, command.Strerror(err))
			r.status = 4
		}
		r.out = r.stdout
	}
}

// readCycle loads the next input line into the pattern space.
func (r *sedRun) readCycle() bool {
	for !r.laOK {
		if r.lr != nil {
			if r.lr.err == errCanceled {
				return false
			}
			r.finishFile()
			if r.separate {
				r.lineNo = 0
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
			if r.lr.err == errCanceled {
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

func (r *sedRun) match(re *regexp.Regexp, b []byte) (bool, bool) {
	if re == nil {
		re = r.lastRE
		if re == nil {
			r.env.Errorf(1, "-e expression #1, char 0: no previous regular expression")
			r.status = 1
			return false, false
		}
	}
	r.lastRE = re
	return re.Match(b), true
}

// selected reports whether c applies to the current line.
func (r *sedRun) selected(c *sedCmd) (bool, bool) {
	if c.a1 == nil {
		return !c.neg, true
	}
	m, ok := r.inRange(c)
	return m != c.neg, ok
}

func (r *sedRun) addr(a *sedAddr) (bool, bool) {
	switch a.kind {
	case addrLine:
		return r.lineNo == a.n, true
	case addrLast:
		return !r.more(), true
	case addrRE:
		return r.match(a.re, r.ps)
	case addrStep:
		if a.step <= 0 {
			return r.lineNo == a.n, true
		}
		return r.lineNo >= a.n && (r.lineNo-a.n)%a.step == 0, true
	}
	return false, true
}

func (r *sedRun) inRange(c *sedCmd) (bool, bool) {
	a2 := c.a2
	if a2 == nil {
		return r.addr(c.a1)
	}
	if c.active {
		switch a2.kind {
		case addrLine:
			if r.lineNo >= a2.n {
				c.active = false
			}
		case addrPlus, addrMult:
			if r.lineNo >= c.end {
				c.active = false
			}
		default:
			m, ok := r.addr(a2)
			if !ok {
				return false, false
			}
			if m {
				c.active = false
			}
		}
		return true, true
	}
	if c.a1.kind == addrZero {
		if c.end != 0 {
			return false, true
		}
		c.end = -1
		m, ok := r.addr(a2)
		c.active = !m
		return true, ok
	}
	m, ok := r.addr(c.a1)
	if !m || !ok {
		return false, ok
	}
	switch a2.kind {
	case addrLine:
		c.active = a2.n > r.lineNo
	case addrPlus:
		c.end = r.lineNo + a2.n
		c.active = a2.n > 0
	case addrMult:
		if a2.n > 0 && r.lineNo%a2.n != 0 {
			c.end = (r.lineNo/a2.n + 1) * a2.n
			c.active = true
		}
	case addrLast:
		c.active = r.more()
	default:
		c.active = true
	}
	return true, true
}

// rangeEnding reports whether c's range just ended (for c with a range).
func rangeEnded(c *sedCmd) bool { return c.a2 == nil || !c.active }

// exec runs the script over the pattern space.
func (r *sedRun) exec() sedStop {
	cmds := r.s.cmds
	for pc := 0; pc < len(cmds); {
		r.steps++
		if r.steps&255 == 0 && r.env.Ctx.Err() != nil {
			r.status = 1
			return stopError
		}
		c := cmds[pc]
		sel, ok := r.selected(c)
		if !ok {
			return stopError
		}
		if !sel {
			if c.name == '{' {
				pc = c.jump
				continue
			}
			pc++
			continue
		}
		pc++
		switch c.name {
		case '{', '}', ':':
		case '=':
			r.out.line([]byte(strconv.FormatInt(r.lineNo, 10)), true)
		case 'a':
			if c.text != "" {
				r.appendQ = append(r.appendQ, []byte(c.text+string(r.delim)))
			}
		case 'i':
			r.out.line([]byte(c.text), true)
		case 'c':
			if (c.neg || rangeEnded(c)) && c.text != "" {
				r.out.line([]byte(c.text), true)
			}
			return stopDelete
		case 'b':
			pc = c.jump
		case 't', 'T':
			if r.tflag == (c.name == 't') {
				pc = c.jump
			}
			r.tflag = false
		case 'd':
			return stopDelete
		case 'D':
			k := bytes.IndexByte(r.ps, '\n')
			if k < 0 {
				return stopDelete
			}
			r.ps = append(r.ps[:0], r.ps[k+1:]...)
			r.dumpAppend()
			return stopRestart
		case 'e':
		case 'F':
			name := r.curName
			r.out.line([]byte(name), true)
		case 'g':
			r.ps = append(r.ps[:0], r.hold...)
		case 'G':
			r.ps = append(append(r.ps, '\n'), r.hold...)
		case 'h':
			r.hold = append(r.hold[:0], r.ps...)
		case 'H':
			r.hold = append(append(r.hold, '\n'), r.ps...)
		case 'x':
			r.ps, r.hold = r.hold, r.ps
		case 'z':
			r.ps = r.ps[:0]
		case 'l':
			r.list(c.num)
		case 'n':
			if !r.more() {
				return stopEOF
			}
			if !r.quiet {
				r.out.line(r.ps, r.psNL)
			}
			r.dumpAppend()
			line, nl, _ := r.nextLine()
			r.ps = append(r.ps[:0], line...)
			r.psNL = nl
		case 'N':
			if !r.more() {
				return stopEOF
			}
			r.dumpAppend()
			line, nl, _ := r.nextLine()
			r.ps = append(append(r.ps, '\n'), line...)
			r.psNL = nl
		case 'p':
			r.out.line(r.ps, r.psNL)
		case 'P':
			k := bytes.IndexByte(r.ps, '\n')
			if k < 0 {
				k = len(r.ps)
			}
			r.out.line(r.ps[:k], true)
		case 'q':
			r.status = max(c.num, 0)
			return stopQuit
		case 'Q':
			r.status = max(c.num, 0)
			return stopQuitNow
		case 'r':
			if data, err := r.readWhole(c.fname); err == nil && len(data) > 0 {
				r.appendQ = append(r.appendQ, data)
			}
		case 'R':
			r.readOneLine(c.fname)
		case 's':
			if !r.subst(c) {
				return stopError
			}
		case 'w':
			r.wfiles[c.fname].line(r.ps, true)
		case 'W':
			k := bytes.IndexByte(r.ps, '\n')
			if k < 0 {
				k = len(r.ps)
			}
			r.wfiles[c.fname].line(r.ps[:k], true)
		case 'y':
			r.ps = bytes.Map(func(x rune) rune {
				if y, ok := c.ymap[x]; ok {
					return y
				}
				return x
			}, r.ps)
		}
		if max(len(r.ps), len(r.hold)) > r.maxSpace() {
			r.env.Errorf(4, "pattern space too large")
			r.status = 4
			return stopError
		}
	}
	return stopNone
}

func (r *sedRun) readWhole(name string) ([]byte, error) {
	if name == "/dev/stdin" {
		name = "-"
	}
	f, err := openFile(r.env, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(r.env.Ctx, f)
}

func (r *sedRun) readOneLine(name string) {
	if r.rfiles == nil {
		r.rfiles = map[string]*lineReader{}
	}
	lr, ok := r.rfiles[name]
	if !ok {
		f, err := openFile(r.env, name)
		if err != nil {
			r.rfiles[name] = nil
			return
		}
		lr = newLineReader(r.env.Ctx, f)
		r.rfiles[name] = lr
	}
	if lr == nil {
		return
	}
	line, _, ok := lr.next()
	if ok {
		r.appendQ = append(r.appendQ, append(append([]byte(nil), line...), '\n'))
	}
}

// list implements l: the pattern space with escapes, wrapped.
func (r *sedRun) list(n int) {
	width := r.lineLen
	if n >= 0 {
		width = n
	}
	var b []byte
	col := 0
	for _, c := range r.ps {
		var esc string
		switch c {
		case '\\':
			esc = `\\`
		case '\a':
			esc = `\a`
		case '\b':
			esc = `\b`
		case '\f':
			esc = `\f`
		case '\n':
			esc = `\n`
		case '\r':
			esc = `\r`
		case '\t':
			esc = `\t`
		case '\v':
			esc = `\v`
		default:
			if c < 32 || c >= 127 {
				esc = fmt.Sprintf(`\%03o`, c)
			} else {
				esc = string(c)
			}
		}
		if width > 1 && col+len(esc) > width-1 {
			b = append(b, '\\', '\n')
			col = 0
		}
		b = append(b, esc...)
		col += len(esc)
	}
	b = append(b, '$')
	r.out.line(b, true)
}

// subst runs an s command; it returns false on a fatal error.
func (r *sedRun) subst(c *sedCmd) bool {
	re := c.re
	if re == nil {
		if r.lastRE == nil {
			r.env.Errorf(1, "-e expression #1, char 0: no previous regular expression")
			r.status = 1
			return false
		}
		re = r.lastRE
	}
	r.lastRE = re
	limit := -1
	if !c.global {
		limit = max(c.nth, 1)
	}
	locs := re.FindAllSubmatchIndex(r.ps, limit)
	if len(locs) == 0 {
		return true
	}
	first := max(c.nth, 1)
	if len(locs) < first {
		return true
	}
	var out []byte
	prev := 0
	for i, loc := range locs {
		if i+1 < first {
			continue
		}
		out = append(out, r.ps[prev:loc[0]]...)
		out = expandRepl(out, c.repl, r.ps, loc)
		prev = loc[1]
		if len(out) > r.maxSpace() {
			break
		}
	}
	out = append(out, r.ps[prev:]...)
	r.ps = out
	r.tflag = true
	if c.print > 0 {
		r.out.line(r.ps, r.psNL)
	}
	if c.wfile != "" {
		r.wfiles[c.wfile].line(r.ps, r.psNL)
	}
	return true
}

// expandRepl appends the replacement for the match loc in src to out.
func expandRepl(out []byte, repl []sedRepl, src []byte, loc []int) []byte {
	mode, once := byte(0), byte(0)
	for _, p := range repl {
		switch p.conv {
		case 'U', 'L':
			mode, once = p.conv, 0
		case 'E':
			mode, once = 0, 0
		case 'u', 'l':
			once = p.conv
		}
		var text []byte
		if p.group < 0 {
			text = []byte(p.lit)
		} else if 2*p.group+1 < len(loc) && loc[2*p.group] >= 0 {
			text = src[loc[2*p.group]:loc[2*p.group+1]]
		}
		if len(text) == 0 {
			continue
		}
		start := len(out)
		out = append(out, text...)
		if mode != 0 {
			convCase(out[start:], mode == 'U')
		}
		if once != 0 {
			convCase(out[start:start+1], once == 'u')
			once = 0
		}
	}
	return out
}

// convCase converts ASCII letters in b to upper or lower case in place.
func convCase(b []byte, upper bool) {
	for i, c := range b {
		if upper && c >= 'a' && c <= 'z' {
			b[i] = c - 32
		} else if !upper && c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
}
