package textutils

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/ere"
)

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
	a1, a2 := c.a1, c.a2
	if a2 == nil {
		return r.addr(a1)
	}
	if !c.active {
		if a1.kind == addrZero {
			// 0,/re/ is active from the first line on, once per file.
			if c.end != 0 {
				return false, true
			}
			c.end, c.active = -1, true
		} else {
			// A numeric first address starts the range at the first line
			// at or after it that reaches the command (once), like GNU.
			m, ok := !c.closed && r.lineNo >= a1.n, true
			if a1.kind != addrLine {
				m, ok = r.addr(a1)
			}
			if !m || !ok {
				return false, ok
			}
			c.active = true
			switch a2.kind {
			case addrRE:
				return true, true // a range covers at least two lines
			case addrLine:
				if r.lineNo >= a2.n {
					c.active, c.closed = false, true
				}
				return r.lineNo <= a2.n || a1.kind != addrLine || r.lineNo == a1.n, true
			case addrPlus, addrMult:
				if a2.n <= 0 {
					c.active, c.closed = false, true
					return true, true
				}
				c.end = r.lineNo + a2.n
				if a2.kind == addrMult {
					c.end -= r.lineNo % a2.n
				}
				return true, true
			}
		}
	}
	// The range is active: does it end on this line?
	switch a2.kind {
	case addrLine:
		if r.lineNo >= a2.n {
			c.active, c.closed = false, true
		}
		return r.lineNo <= a2.n, true
	case addrPlus, addrMult:
		if c.end <= r.lineNo {
			c.active, c.closed = false, true
		}
		return true, true
	}
	m, ok := r.addr(a2)
	if !ok {
		return false, false
	}
	if m {
		c.active, c.closed = false, true
	}
	return true, true
}

// rangeEnded reports whether c has no range or its range just ended.
func rangeEnded(c *sedCmd) bool { return c.a2 == nil || !c.active }

// exec runs the script over the pattern space.
func (r *sedRun) exec() sedStop {
	cmds := r.s.cmds
	for pc := 0; pc < len(cmds); {
		r.steps++
		if r.steps&255 == 0 && command.Done(r.env.Ctx) {
			r.status = command.StatusCanceled
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
		// With -z, GNU ends the output of =, i and c with a NUL but the
		// text appended by a with a newline.
		case '=':
			r.out.line([]byte(strconv.FormatInt(r.lineNo, 10)), true)
		case 'a':
			if c.hasText {
				r.appendQ = append(r.appendQ, []byte(c.text+"\n"))
			}
		case 'i':
			if c.hasText {
				r.out.line([]byte(c.text), true)
			}
		case 'c':
			if (c.neg || rangeEnded(c)) && c.hasText {
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
			k := bytes.IndexByte(r.ps, r.delim)
			if k < 0 {
				return stopDelete
			}
			r.ps = append(r.ps[:0], r.ps[k+1:]...)
			r.dumpAppend()
			return stopRestart
		case 'e':
			if c.text != "" {
				r.out.raw(r.shell(c.text))
			} else {
				r.ps = append(r.ps[:0], bytes.TrimSuffix(r.shell(string(r.ps)), []byte{'\n'})...)
			}
		case 'F':
			name := r.curName
			r.out.line([]byte(name), true)
		// Like GNU, the "ends with a newline" state travels with the
		// text between the pattern and hold spaces.
		case 'g':
			r.ps, r.psNL = append(r.ps[:0], r.hold...), r.holdNL
		case 'G':
			r.ps, r.psNL = append(append(r.ps, r.delim), r.hold...), r.holdNL
		case 'h':
			r.hold, r.holdNL = append(r.hold[:0], r.ps...), r.psNL
		case 'H':
			r.hold, r.holdNL = append(append(r.hold, r.delim), r.ps...), r.psNL
		case 'x':
			r.ps, r.hold = r.hold, r.ps
			r.psNL, r.holdNL = r.holdNL, r.psNL
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
				// POSIX: N on the last line quits without printing;
				// GNU prints the pattern space first.
				r.silentEOF = r.posix || r.posixEnv
				return stopEOF
			}
			r.dumpAppend()
			line, nl, _ := r.nextLine()
			r.ps = append(append(r.ps, r.delim), line...)
			r.psNL = nl
		case 'p':
			r.out.line(r.ps, r.psNL)
		case 'P':
			if k := bytes.IndexByte(r.ps, r.delim); k >= 0 {
				r.out.line(r.ps[:k], true)
			} else {
				r.out.line(r.ps, r.psNL)
			}
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
			r.wfiles[c.fname].line(r.ps, r.psNL)
		case 'W':
			if k := bytes.IndexByte(r.ps, r.delim); k >= 0 {
				r.wfiles[c.fname].line(r.ps[:k], true)
			} else {
				r.wfiles[c.fname].line(r.ps, r.psNL)
			}
		case 'y':
			r.ps = r.translit(c.ymap)
		}
		if max(len(r.ps), len(r.hold)) > r.maxSpace() {
			r.env.Errorf(4, "pattern space too large")
			r.status = 4
			return stopError
		}
	}
	return stopNone
}

// translit maps the characters of the pattern space by m (y); bytes that
// are not UTF-8 stay as they are.
func (r *sedRun) translit(m map[rune]rune) []byte {
	out := r.scratch[:0]
	for i := 0; i < len(r.ps); {
		x, n := utf8.DecodeRune(r.ps[i:])
		if x == utf8.RuneError && n <= 1 {
			x = ere.ByteRune(r.ps[i])
		}
		y, ok := m[x]
		if b, isByte := ere.IsByteRune(y); ok && isByte {
			out = append(out, b)
		} else if ok {
			out = utf8.AppendRune(out, y)
		} else {
			out = append(out, r.ps[i:i+n]...)
		}
		i += n
	}
	r.scratch = r.ps
	return out
}

func (r *sedRun) readWhole(name string) ([]byte, error) {
	if name == "/dev/stdin" {
		name = "-"
	}
	f, err := r.env.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(r.env.Ctx, f)
}

func (r *sedRun) readOneLine(name string) {
	if r.rfiles == nil {
		r.rfiles = map[string]*command.LineReader{}
	}
	lr, ok := r.rfiles[name]
	if !ok {
		f, err := r.env.Open(name)
		if err != nil {
			r.rfiles[name] = nil
			return
		}
		lr = r.env.NewLineReader(f, readBufSize)
		r.rfiles[name] = lr
	}
	if lr == nil {
		return
	}
	line, _, ok := lr.Next()
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
		if width > 0 && col+len(esc) >= width {
			b = append(b, '\\', r.delim)
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
	locs, err := re.FindAll(r.ps, limit)
	if err != nil {
		r.env.Errorf(4, "%s", err)
		r.status = 4
		return false
	}
	if len(locs) == 0 {
		return true
	}
	first := max(c.nth, 1)
	if len(locs) < first {
		return true
	}
	out := r.scratch[:0]
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
	r.ps, r.scratch = out, r.ps
	r.tflag = true
	if c.eval {
		r.ps = append(r.ps[:0], bytes.TrimSuffix(r.shell(string(r.ps)), []byte{'\n'})...)
	}
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
		for i := 0; i < len(p.conv); i++ {
			switch c := p.conv[i]; c {
			case 'U', 'L':
				mode, once = c, 0
			case 'E':
				mode, once = 0, 0
			case 'u', 'l':
				once = c
			}
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
		if mode == 0 && once == 0 {
			out = append(out, text...)
			continue
		}
		out = appendCase(out, text, mode, once)
		once = 0
	}
	return out
}

// appendCase appends text to out with its letters converted: all of them
// to upper case (mode 'U') or lower case ('L'), then the first one by once
// ('u' or 'l'). Bytes that are not UTF-8 are copied as they are.
func appendCase(out, text []byte, mode, once byte) []byte {
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && n <= 1 {
			out = append(out, text[i])
			i++
			once = 0
			continue
		}
		switch {
		case once == 'u':
			r = unicode.ToUpper(r)
		case once == 'l':
			r = unicode.ToLower(r)
		case mode == 'U':
			r = unicode.ToUpper(r)
		case mode == 'L':
			r = unicode.ToLower(r)
		}
		once = 0
		out = utf8.AppendRune(out, r)
		i += n
	}
	return out
}

// shell runs cmd in the sandbox's own shell, as "sh -c CMD" (the e command
// and the e flag of s, which GNU runs with popen), and returns what it
// writes on its standard output; its standard error is sed's.
func (r *sedRun) shell(cmd string) []byte {
	r.out.w.Flush()
	if r.env.Exec == nil {
		r.env.Errorf(0, "cannot run `%s': running commands is not available", cmd)
		return nil
	}
	var out bytes.Buffer
	r.env.Exec(r.env.Ctx, []string{"sh", "-c", cmd}, nil, strings.NewReader(""), &limitWriter{w: &out, n: r.maxSpace()}, r.env.Stderr)
	return out.Bytes()
}

// limitWriter keeps up to n bytes and drops the rest.
type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	k := min(len(p), l.n)
	if k > 0 {
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
