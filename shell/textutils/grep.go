package textutils

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

const grepUsage = "[OPTION]... PATTERNS [FILE]..."

var grepLong = []string{
	"extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "ignore-case", "no-ignore-case",
	"invert-match", "count", "line-number", "only-matching", "files-with-matches",
	"files-without-match", "recursive", "dereference-recursive", "word-regexp",
	"line-regexp", "quiet", "silent", "no-messages", "no-filename", "with-filename",
	"max-count=", "after-context=", "before-context=", "context=", "regexp=", "file=",
	"include=", "exclude=", "exclude-dir=", "text", "byte-offset", "label=", "null", "help",
}

// grepOpts holds grep's parsed options.
type grepOpts struct {
	mode                     byte // 'G', 'E' or 'F'
	icase, invert, count     bool
	lineNum, only, quiet     bool
	listMatch, listNoMatch   bool
	recursive, word, line    bool
	byteOff                  bool
	noMsgs, text, null       bool
	withName                 int // -1 -h, 0 default, 1 -H
	maxCount                 int64
	after, before            int
	context                  bool
	patterns                 []string
	havePat                  bool
	include, exclude, exdirs []string
	label                    string
}

// grep is one run of the grep command.
type grep struct {
	env      *command.Env
	o        grepOpts
	m        *matcher
	out      output
	showName bool
	errs     bool
	matched  bool
	stop     bool // -q matched or the output failed: stop everything
}

func grepMain(env *command.Env) int {
	g := &grep{env: env}
	g.o.mode = 'G'
	g.o.maxCount = -1
	switch path.Base(env.Args[0]) {
	case "egrep":
		g.o.mode = 'E'
	case "fgrep":
		g.o.mode = 'F'
	}
	args, err := grepPreprocess(env.Args[1:])
	if err != nil {
		return usageError(env, 2, err.Error(), grepUsage)
	}
	opts, operands, err := command.Getopt(args, "EFGPiyvcnolLrRwxqshHbm:A:B:C:e:f:aIZUz", grepLong, false)
	if err != nil {
		return usageError(env, 2, err.Error(), grepUsage)
	}
	if st, ok := g.parseOpts(opts); !ok {
		return st
	}
	if !g.o.havePat {
		if len(operands) == 0 {
			return usageError(env, 2, "", grepUsage)
		}
		g.o.patterns = strings.Split(operands[0], "\n")
		operands = operands[1:]
	}
	g.m, err = newMatcher(g.o)
	if err != nil {
		return env.Errorf(2, "%s", err)
	}
	g.out = newOutput(env.Stdout)
	defer g.out.Flush()
	if len(operands) == 0 {
		if g.o.recursive {
			g.showName = g.o.withName >= 0
			return g.finish(g.walk(".", "", true))
		}
		operands = []string{"-"}
	}
	multi := len(operands) > 1
	if g.o.recursive && !multi && operands[0] != "-" {
		fi, err := env.FS.Stat(env.Abs(operands[0]))
		multi = err == nil && fi.IsDir()
	}
	g.showName = multi && g.o.withName >= 0 || g.o.withName > 0
	for _, name := range operands {
		if g.stop {
			break
		}
		if env.Ctx.Err() != nil {
			g.errs = true
			break
		}
		if g.o.recursive && name != "-" {
			g.walk(name, name, true)
			continue
		}
		g.searchFile(name, name)
	}
	return g.finish(nil)
}

func (g *grep) finish(error) int {
	g.out.Flush()
	if g.env.Ctx.Err() != nil {
		return 2
	}
	switch {
	case g.o.quiet && g.matched:
		return 0
	case g.errs:
		return 2
	case g.matched:
		return 0
	}
	return 1
}

// grepPreprocess handles the forms Getopt does not know: -NUM (context)
// and --color/--colour with an optional argument.
func grepPreprocess(args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' && strings.Trim(a[1:], "0123456789") == "" {
			out = append(out, "-C"+a[1:])
			continue
		}
		if a == "--color" || a == "--colour" {
			continue
		}
		if v, ok := strings.CutPrefix(a, "--color="); ok || strings.HasPrefix(a, "--colour=") {
			if !ok {
				v = a[len("--colour="):]
			}
			switch v {
			case "never", "always", "auto", "none", "no", "yes", "force", "tty", "if-tty":
				continue
			}
			return nil, fmt.Errorf("invalid argument '%s' for '--color'", v)
		}
		out = append(out, a)
	}
	return out, nil
}

func (g *grep) parseOpts(opts []command.Opt) (int, bool) {
	o := &g.o
	for _, op := range opts {
		switch op.Name {
		case "E", "extended-regexp":
			o.mode = 'E'
		case "F", "fixed-strings":
			o.mode = 'F'
		case "G", "basic-regexp":
			o.mode = 'G'
		case "P", "perl-regexp":
			o.mode = 'E'
		case "i", "y", "ignore-case":
			o.icase = true
		case "no-ignore-case":
			o.icase = false
		case "v", "invert-match":
			o.invert = true
		case "c", "count":
			o.count = true
		case "n", "line-number":
			o.lineNum = true
		case "o", "only-matching":
			o.only = true
		case "l", "files-with-matches":
			o.listMatch, o.listNoMatch = true, false
		case "L", "files-without-match":
			o.listNoMatch, o.listMatch = true, false
		case "r", "R", "recursive", "dereference-recursive":
			o.recursive = true
		case "w", "word-regexp":
			o.word = true
		case "x", "line-regexp":
			o.line = true
		case "q", "quiet", "silent":
			o.quiet = true
		case "s", "no-messages":
			o.noMsgs = true
		case "h", "no-filename":
			o.withName = -1
		case "H", "with-filename":
			o.withName = 1
		case "b", "byte-offset":
			o.byteOff = true
		case "a", "text":
			o.text = true
		case "Z", "null":
			o.null = true
		case "label":
			o.label = op.Value
		case "m", "max-count":
			n, err := strconv.ParseInt(op.Value, 10, 64)
			if err != nil {
				return g.env.Errorf(2, "invalid max count"), false
			}
			o.maxCount = n
		case "A", "B", "C", "after-context", "before-context", "context":
			n, err := strconv.Atoi(op.Value)
			if err != nil || n < 0 {
				return g.env.Errorf(2, "%s: invalid context length argument", op.Value), false
			}
			o.context = true
			switch op.Name {
			case "A", "after-context":
				o.after = n
			case "B", "before-context":
				o.before = n
			default:
				o.after, o.before = n, n
			}
		case "e", "regexp":
			o.patterns = append(o.patterns, strings.Split(op.Value, "\n")...)
			o.havePat = true
		case "f", "file":
			if st, ok := g.patternFile(op.Value); !ok {
				return st, false
			}
			o.havePat = true
		case "include":
			o.include = append(o.include, op.Value)
		case "exclude":
			o.exclude = append(o.exclude, op.Value)
		case "exclude-dir":
			o.exdirs = append(o.exdirs, op.Value)
		case "help":
			fmt.Fprintf(g.env.Stdout, "Usage: %s %s\nSearch for PATTERNS in each FILE.\n", g.env.Args[0], grepUsage)
			return 0, false
		}
	}
	return 0, true
}

func (g *grep) patternFile(name string) (int, bool) {
	f, err := openFile(g.env, name)
	if err != nil {
		return g.env.FileError(2, name, err), false
	}
	defer f.Close()
	data, err := readAll(g.env.Ctx, f)
	if err != nil {
		if err == errCanceled {
			return 2, false
		}
		return g.env.FileError(2, name, err), false
	}
	s := string(data)
	if s == "" {
		return 0, true
	}
	s = strings.TrimSuffix(s, "\n")
	g.o.patterns = append(g.o.patterns, strings.Split(s, "\n")...)
	return 0, true
}

// walk searches a file or, recursively, a directory. display is the name
// used in output ("" for the implicit "." of a bare -r).
func (g *grep) walk(name, display string, top bool) error {
	if g.stop || g.env.Ctx.Err() != nil {
		return nil
	}
	fi, err := g.env.FS.Stat(g.env.Abs(name))
	if err != nil {
		g.fileErr(display, name, err)
		return nil
	}
	if !fi.IsDir() {
		if !top && !g.included(path.Base(name)) {
			return nil
		}
		if top && !g.includedTop(path.Base(name)) {
			return nil
		}
		g.searchFile(name, display)
		return nil
	}
	if !top && g.excludedDir(path.Base(name)) {
		return nil
	}
	entries, err := g.env.FS.ReadDir(g.env.Abs(name))
	if err != nil {
		g.fileErr(display, name, err)
		return nil
	}
	for _, e := range entries {
		child := path.Join(name, e.Name())
		cdisp := e.Name()
		if display != "" {
			cdisp = strings.TrimSuffix(display, "/") + "/" + e.Name()
			if display == "/" {
				cdisp = "/" + e.Name()
			}
		}
		g.walk(child, cdisp, false)
	}
	return nil
}

func (g *grep) included(base string) bool {
	for _, p := range g.o.exclude {
		if ok, _ := path.Match(p, base); ok {
			return false
		}
	}
	if len(g.o.include) == 0 {
		return true
	}
	for _, p := range g.o.include {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}

func (g *grep) includedTop(base string) bool { return g.included(base) }

func (g *grep) excludedDir(base string) bool {
	for _, p := range g.o.exdirs {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}

func (g *grep) fileErr(display, name string, err error) {
	g.errs = true
	if !g.o.noMsgs {
		if display == "" {
			display = name
		}
		g.out.Flush()
		g.env.FileError(2, display, err)
	}
}

// searchFile opens and searches one file operand.
func (g *grep) searchFile(name, display string) {
	if name == "-" {
		display = "(standard input)"
		if g.o.label != "" {
			display = g.o.label
		}
	} else if !g.o.recursive {
		if fi, err := g.env.FS.Stat(g.env.Abs(name)); err == nil && fi.IsDir() {
			g.errs = true
			if !g.o.noMsgs {
				g.out.Flush()
				g.env.Errorf(2, "%s: Is a directory", name)
			}
			return
		}
	}
	f, err := openFile(g.env, name)
	if err != nil {
		g.fileErr(display, name, err)
		return
	}
	defer f.Close()
	g.search(f, display)
}

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
	buf := make([]byte, readBufSize)
	n := 0
	eof := false
	for !eof && !g.stop {
		if g.env.Ctx.Err() != nil {
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
		if !st.binary && !g.o.text && bytes.IndexByte(buf[:end], 0) >= 0 {
			st.binary = true
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
		g.out.Flush()
		fmt.Fprintf(g.env.Stderr, "%s: %s: binary file matches\n", g.env.Args[0], st.name)
	}
	if g.out.failed() {
		g.stop = true
	}
}

func (g *grep) nameEnd(sep byte) {
	if g.o.null {
		g.out.WriteByte(0)
		if sep == '\n' {
			return
		}
	}
	g.out.WriteByte(sep)
}

// chunk processes buf, which holds whole lines each ending in '\n'. It
// reports whether the file is done (-m reached, -l/-q decided).
func (g *grep) chunk(buf []byte, st *lineOut) bool {
	o := &g.o
	perLine := o.invert || o.context && !o.only && !o.count && !o.listMatch && !o.listNoMatch && !o.quiet
	pos := 0
	lines := 0
	for pos < len(buf) {
		lines++
		if lines&1023 == 0 && g.env.Ctx.Err() != nil {
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
		} else if o.before > 0 && !o.only {
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
	if o.only {
		if !o.invert {
			g.emitOnly(text, st)
		}
	} else {
		for i := range st.ring {
			g.emit(st.ring[i], st.ringNo[i], st.ringOff[i], '-', st)
		}
		st.ring, st.ringNo, st.ringOff = st.ring[:0], st.ringNo[:0], st.ringOff[:0]
		g.emit(text, st.lineNo, st.lineOff, ':', st)
		st.afterLeft = o.after
	}
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

func (g *grep) emit(text []byte, no, off int64, sep byte, st *lineOut) {
	if g.o.context && st.lastOut > 0 && no > st.lastOut+1 {
		g.out.WriteString("--\n")
	}
	st.lastOut = no
	g.prefix(no, off, sep, st)
	g.out.Write(text)
	g.out.WriteByte('\n')
}

func (g *grep) emitOnly(text []byte, st *lineOut) {
	g.m.eachMatch(text, func(s, e int) {
		if e > s {
			g.prefix(st.lineNo, st.lineOff+int64(s), ':', st)
			g.out.Write(text[s:e])
			g.out.WriteByte('\n')
		}
	})
}

// matcher finds matching lines.
type matcher struct {
	re    *regexp.Regexp // combined pattern, (?m), for chunks and lines
	mid   *regexp.Regexp // -w: the pattern without the start-of-line case
	lit   []byte         // a single literal pattern: bytes.Index fast path
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
	if o.mode == 'F' && len(o.patterns) == 1 && !o.icase && !o.word && !o.line && o.patterns[0] != "" {
		m.lit = []byte(o.patterns[0])
	}
	parts := make([]string, len(o.patterns))
	for i, p := range o.patterns {
		if o.mode == 'F' {
			parts[i] = regexp.QuoteMeta(p)
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
	switch {
	case o.line:
		m.re, err = compileRE2(flags + "^" + body + "$")
	case m.word:
		m.re, err = compileRE2(flags + "(?:^|" + wordClass + ")(" + body + ")(?:" + wordClass + "|$)")
		if err == nil {
			m.mid, err = compileRE2(flags + wordClass + "(" + body + ")(?:" + wordClass + "|$)")
		}
	default:
		m.re, err = compileRE2(flags + body)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// next finds the first line at or after pos in buf (whole lines ending in
// '\n') that matches; it returns the line's bounds without the newline.
func (m *matcher) next(buf []byte, pos int) (ls, le int, found bool) {
	if m.empty {
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
