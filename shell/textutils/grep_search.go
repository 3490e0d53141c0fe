package textutils

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// lineOut is the per-file output state (context, counts).
type lineOut struct {
	name       string
	lineNo     int64
	selected   int64
	lastOut    int64 // number of the last line written, 0 when none
	afterLeft  int
	ring       [][]byte
	ringNo     []int64
	ringOff    []int64
	lineOff    int64 // byte offset of the current line in the file
	base       int64 // byte offset of the current chunk
	binary     bool
	binaryDone bool
}

// search reads r in large chunks of whole lines and processes them.
func (g *grep) search(r io.Reader, name string) {
	st := &lineOut{name: name}
	// Regular expressions get smaller chunks: one search of a chunk cannot
	// be interrupted, and RE2's slowest engine may take a while over it.
	size := readBufSize
	if g.m.lit == nil {
		size = ctxBytes
	}
	buf := g.env.Buffer(size)
	n := 0
	eof := false
	for !eof && !g.stop {
		if command.Done(g.env.Ctx) {
			g.errs = true
			g.stop = true
			return
		}
		if n == len(buf) {
			nb := make([]byte, 2*len(buf))
			copy(nb, buf[:n])
			buf = nb
		}
		k, err := r.Read(buf[n:])
		if g.o.nullData {
			swapNulNewline(buf[n : n+k])
		}
		n += k
		if err == io.EOF {
			eof = true
		} else if err != nil {
			g.fileErr(name, name, err)
			return
		}
		end := bytes.LastIndexByte(buf[:n], '\n') + 1
		if eof && end < n {
			// A last line without newline: process it with one added.
			if n == len(buf) {
				nb := make([]byte, n+1)
				copy(nb, buf[:n])
				buf = nb
			}
			buf[n] = '\n'
			n++
			end = n
		}
		if end == 0 {
			continue
		}
		if !st.binary && !g.o.text && !g.o.nullData && bytes.IndexByte(buf[:end], 0) >= 0 {
			st.binary = true
			if g.o.skipBinary {
				break
			}
		}
		if st.binary && !g.o.text && !g.o.nullData {
			// Like GNU, treat NULs in a binary file as line ends.
			nulToNewline(buf[:end])
		}
		done := g.chunk(buf[:end], st)
		st.base += int64(end)
		copy(buf, buf[end:n])
		n -= end
		if done {
			break
		}
	}
	g.endFile(st)
}

func (g *grep) endFile(st *lineOut) {
	o := &g.o
	switch {
	case o.quiet:
	case o.listMatch:
		if st.selected > 0 {
			g.out.WriteString(st.name)
			g.nameEnd('\n')
		}
	case o.listNoMatch:
		if st.selected == 0 {
			g.out.WriteString(st.name)
			g.nameEnd('\n')
		}
	case o.count:
		if g.showName {
			g.out.WriteString(st.name)
			g.nameEnd(':')
		}
		g.out.WriteString(strconv.FormatInt(st.selected, 10))
		g.out.WriteByte('\n')
	}
	if st.binaryDone {
		g.printed = true
		g.out.Flush()
		fmt.Fprintf(g.env.Stderr, "%s: %s: binary file matches\n", g.env.Args[0], st.name)
	}
	if g.out.failed() {
		g.stop = true
	}
}

// nameEnd ends a file name in the output: with -Z a NUL replaces the
// separator.
func (g *grep) nameEnd(sep byte) {
	if g.o.null {
		sep = 0
	}
	g.out.WriteByte(sep)
}

// chunk processes buf, which holds whole lines each ending in '\n'. It
// reports whether the file is done (-m reached, -l/-q decided).
func (g *grep) chunk(buf []byte, st *lineOut) bool {
	o := &g.o
	perLine := o.invert || o.context && !o.count && !o.listMatch && !o.listNoMatch && !o.quiet
	pos := 0
	lines := 0
	g.m.startBuffer()
	for pos < len(buf) {
		lines++
		if lines&1023 == 0 && command.Done(g.env.Ctx) {
			g.stop, g.errs = true, true
			return true
		}
		ls, le, found := g.m.next(buf, pos)
		if !found {
			ls, le = len(buf), len(buf)
		}
		// Lines in buf[pos:ls] do not match.
		if perLine {
			for pos < ls {
				e := pos + bytes.IndexByte(buf[pos:ls], '\n')
				st.lineNo++
				st.lineOff = st.base + int64(pos)
				if g.line(buf[pos:e], st, o.invert) {
					return true
				}
				pos = e + 1
			}
		} else {
			if st.afterLeft > 0 || o.lineNum || o.byteOff {
				for pos < ls && st.afterLeft > 0 {
					e := pos + bytes.IndexByte(buf[pos:ls], '\n')
					st.lineNo++
					st.lineOff = st.base + int64(pos)
					if g.line(buf[pos:e], st, false) {
						return true
					}
					pos = e + 1
				}
				st.lineNo += int64(bytes.Count(buf[pos:ls], []byte{'\n'}))
			}
			pos = ls
		}
		if !found {
			return false
		}
		st.lineNo++
		st.lineOff = st.base + int64(ls)
		if g.line(buf[ls:le], st, !o.invert) {
			return true
		}
		pos = le + 1
	}
	return false
}

// line handles one line; sel tells whether it is selected. It reports
// whether the file is done.
func (g *grep) line(text []byte, st *lineOut, sel bool) bool {
	o := &g.o
	if !sel {
		if st.afterLeft > 0 {
			st.afterLeft--
			g.emit(text, st.lineNo, st.lineOff, '-', st)
			return st.afterLeft == 0 && o.maxCount >= 0 && st.selected >= o.maxCount
		} else if o.before > 0 {
			g.remember(text, st)
		}
		return false
	}
	if o.maxCount >= 0 && st.selected >= o.maxCount {
		if st.afterLeft == 0 {
			return true
		}
		st.afterLeft--
		g.emit(text, st.lineNo, st.lineOff, '-', st)
		return st.afterLeft == 0
	}
	st.selected++
	g.matched = true
	switch {
	case o.quiet:
		g.stop = true
		return true
	case o.listMatch:
		return true
	case o.listNoMatch:
		return true
	case o.count:
		return o.maxCount >= 0 && st.selected >= o.maxCount && true
	}
	if st.binary {
		st.binaryDone = true
		return true
	}
	for i := range st.ring {
		g.emit(st.ring[i], st.ringNo[i], st.ringOff[i], '-', st)
	}
	st.ring, st.ringNo, st.ringOff = st.ring[:0], st.ringNo[:0], st.ringOff[:0]
	g.emit(text, st.lineNo, st.lineOff, ':', st)
	st.afterLeft = o.after
	if g.out.failed() {
		g.stop = true
		return true
	}
	if o.maxCount >= 0 && st.selected >= o.maxCount && st.afterLeft == 0 {
		return true
	}
	return false
}

func (g *grep) remember(text []byte, st *lineOut) {
	if len(st.ring) < g.o.before {
		st.ring = append(st.ring, append([]byte(nil), text...))
		st.ringNo = append(st.ringNo, st.lineNo)
		st.ringOff = append(st.ringOff, st.lineOff)
		return
	}
	first := st.ring[0]
	copy(st.ring, st.ring[1:])
	copy(st.ringNo, st.ringNo[1:])
	copy(st.ringOff, st.ringOff[1:])
	st.ringOff[len(st.ringOff)-1] = st.lineOff
	st.ring[len(st.ring)-1] = append(first[:0], text...)
	st.ringNo[len(st.ringNo)-1] = st.lineNo
}

func (g *grep) prefix(no, off int64, sep byte, st *lineOut) {
	if g.showName {
		g.out.WriteString(st.name)
		g.nameEnd(sep)
	}
	if g.o.lineNum {
		g.out.WriteString(strconv.FormatInt(no, 10))
		g.out.WriteByte(sep)
	}
	if g.o.byteOff {
		g.out.WriteString(strconv.FormatInt(off, 10))
		g.out.WriteByte(sep)
	}
}

// emit writes a selected line (sep ':') or a context line (sep '-'),
// preceded by the group separator "--" when it does not follow the last
// line written. With -o only the matches are written, but the separators
// are placed as if whole lines were.
func (g *grep) emit(text []byte, no, off int64, sep byte, st *lineOut) {
	if g.o.context && (st.lastOut > 0 && no > st.lastOut+1 || st.lastOut == 0 && g.printed) {
		g.out.WriteString("--\n")
	}
	st.lastOut = no
	g.printed = true
	if g.o.only {
		// Like GNU, print the matches of selected lines, or with -v those
		// of context lines (which are the ones that match).
		if (sep == ':') != g.o.invert {
			g.emitOnly(text, no, off, sep, st)
		}
		return
	}
	g.prefix(no, off, sep, st)
	g.writeData(text)
}

func (g *grep) emitOnly(text []byte, no, off int64, sep byte, st *lineOut) {
	g.m.eachMatch(text, func(s, e int) {
		if e > s {
			g.prefix(no, off+int64(s), sep, st)
			g.writeData(text[s:e])
			if g.o.line && g.o.word && len(g.o.patterns) == 1 {
				// GNU grep 3.8 adds an empty line after each match when
				// given a single pattern with both -x and -w.
				g.out.WriteByte('\n')
			}
		}
	})
}

// matcher finds matching lines.
type matcher struct {
	re    *regexp.Regexp // combined pattern, (?m), for chunks and lines
	mid   *regexp.Regexp // -w: the pattern without the start-of-line case
	lit   []byte         // a single literal pattern: bytes.Index fast path
	pre   *prefilter     // literals every match holds (grep_prefilter.go)
	word  bool
	empty bool // no patterns at all: nothing matches
}

const wordClass = `[^0-9A-Za-z_\n]`

func newMatcher(o grepOpts) (*matcher, error) {
	m := &matcher{word: o.word && !o.line}
	if len(o.patterns) == 0 {
		m.empty = true
		return m, nil
	}
	if len(o.patterns) == 1 && !o.icase && !o.word && !o.line && isLiteral(o.patterns[0], o.mode) {
		m.lit = []byte(o.patterns[0])
	}
	parts := make([]string, len(o.patterns))
	for i, p := range o.patterns {
		switch o.mode {
		case 'F':
			parts[i] = regexp.QuoteMeta(p)
			continue
		case 'P':
			parts[i] = p
			continue
		}
		s, err := translateRE(p, reOpts{ere: o.mode == 'E'})
		if err != nil {
			return nil, err
		}
		parts[i] = s
	}
	body := "(?:" + strings.Join(parts, "|") + ")"
	flags := "(?m)"
	if o.icase {
		flags = "(?mi)"
	}
	var err error
	longest := o.mode != 'P'
	switch {
	case o.line:
		m.re, err = compileGo(flags+"^"+body+"$", longest)
	case m.word:
		m.re, err = compileGo(flags+"(?:^|"+wordClass+")("+body+")(?:"+wordClass+"|$)", longest)
		if err == nil {
			m.mid, err = compileGo(flags+wordClass+"("+body+")(?:"+wordClass+"|$)", longest)
		}
	default:
		m.re, err = compileGo(flags+body, longest)
	}
	if err != nil {
		return nil, err
	}
	if m.lit == nil && !o.icase {
		if lits := requiredLiterals(m.re.String()); lits != nil {
			m.pre = &prefilter{lits: lits}
		}
	}
	return m, nil
}

// startBuffer must be called before next is given a new buffer.
func (m *matcher) startBuffer() {
	if m.pre != nil {
		m.pre.reset()
	}
}

// next finds the first line at or after pos in buf (whole lines ending in
// '\n') that matches; it returns the line's bounds without the newline.
// Calls for one buffer come with increasing pos, after startBuffer.
func (m *matcher) next(buf []byte, pos int) (ls, le int, found bool) {
	if m.empty {
		return 0, 0, false
	}
	if m.pre != nil {
		for pos < len(buf) {
			ls, le, found := m.pre.candidate(buf, pos)
			if !found {
				return 0, 0, false
			}
			if m.re.Match(buf[ls:le]) {
				return ls, le, true
			}
			pos = le + 1
		}
		return 0, 0, false
	}
	for pos < len(buf) {
		var s, e int
		if m.lit != nil {
			k := bytes.Index(buf[pos:], m.lit)
			if k < 0 {
				return 0, 0, false
			}
			s = pos + k
			e = s + len(m.lit)
		} else {
			loc := m.re.FindIndex(buf[pos:])
			if loc == nil {
				return 0, 0, false
			}
			s, e = pos+loc[0], pos+loc[1]
		}
		if s == len(buf) {
			// An empty match after the last newline is not a line.
			return 0, 0, false
		}
		ls = bytes.LastIndexByte(buf[pos:s], '\n') + 1 + pos
		le = s + bytes.IndexByte(buf[s:], '\n')
		if m.lit != nil || e <= le || m.re.Match(buf[ls:le]) {
			return ls, le, true
		}
		pos = le + 1
	}
	return 0, 0, false
}

// eachMatch calls f with the bounds of each match in line, left to right.
func (m *matcher) eachMatch(line []byte, f func(s, e int)) {
	if m.empty {
		return
	}
	if !m.word {
		for _, loc := range m.re.FindAllIndex(line, -1) {
			f(loc[0], loc[1])
		}
		return
	}
	pos := 0
	re := m.re
	for pos <= len(line) {
		off := pos
		if pos > 0 {
			off = pos - 1
			re = m.mid
		}
		loc := re.FindSubmatchIndex(line[off:])
		if loc == nil {
			return
		}
		s, e := off+loc[2], off+loc[3]
		f(s, e)
		if e == s {
			e++
		}
		pos = e
	}
}

// isLiteral reports whether pat matches only itself in the given mode.
func isLiteral(pat string, mode byte) bool {
	if pat == "" {
		return false
	}
	special := `\[.*^$`
	switch mode {
	case 'F':
		return true
	case 'E', 'P':
		special += "+?(){}|"
	}
	return !strings.ContainsAny(pat, special)
}

// writeData writes a selected line or match and its terminator. With -z
// the data was read with NUL and newline swapped, so that lines end in
// newlines; writeData swaps them back.
func (g *grep) writeData(text []byte) {
	if !g.o.nullData {
		g.out.Write(text)
		g.out.WriteByte('\n')
		return
	}
	for len(text) > 0 {
		k := bytes.IndexByte(text, 0)
		if k < 0 {
			g.out.Write(text)
			break
		}
		g.out.Write(text[:k])
		g.out.WriteByte('\n')
		text = text[k+1:]
	}
	g.out.WriteByte(0)
}

// swapNulNewline exchanges NUL and newline bytes in b (grep -z).
func swapNulNewline(b []byte) {
	for i, c := range b {
		switch c {
		case 0:
			b[i] = '\n'
		case '\n':
			b[i] = 0
		}
	}
}

// nulToNewline replaces the NUL bytes of b by newlines.
func nulToNewline(b []byte) {
	for i := bytes.IndexByte(b, 0); i >= 0; i = bytes.IndexByte(b, 0) {
		b[i] = '\n'
	}
}
