package textutils

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/internal/escape"
)

// sedAddrKind is the kind of a sed address.
type sedAddrKind int

const (
	addrLine sedAddrKind = iota // a line number
	addrLast                    // $
	addrRE                      // /re/
	addrStep                    // first~step
	addrZero                    // 0 (only as 0,/re/)
	addrPlus                    // +N (second address only)
	addrMult                    // ~N (second address only)
)

// sedAddr is one address.
type sedAddr struct {
	kind sedAddrKind
	n    int64
	step int64
	re   *sedRegex // nil with kind addrRE: the last regex used
}

// sedRepl is one piece of an s command's replacement.
type sedRepl struct {
	lit   string
	group int    // -1: literal; 0: &; 1-9: \N
	conv  string // case conversions before this piece, in order: 'U', 'L', 'u', 'l', 'E'
}

// sedCmd is one parsed command.
type sedCmd struct {
	a1, a2 *sedAddr
	neg    bool
	name   byte

	// Range state.
	active bool
	closed bool // a range whose first address is a line number has ended
	end    int64

	re     *sedRegex // s: nil means the last regex used
	repl   []sedRepl
	global bool
	nth    int
	print  int
	wfile  string
	eval   bool // s///e: run the pattern space as a command

	text    string // a, i, c
	hasText bool   // a, i, c: a text was given (even an empty one)
	label   string // :, b, t, T
	jump    int    // b, t, T: target index; { : index of the matching }
	fname   string // r, R, w, W
	ymap    map[rune]rune
	num     int // q, Q: exit code; l: line length (-1 when unset)
}

// sedScript is a parsed script.
type sedScript struct {
	cmds    []*sedCmd
	quiet   bool // "#n" on the first line
	wfiles  []string
	needsRE bool
	zeroR   []string // the files of 0r, read before the first line
}

// scriptPart is one -e expression or -f file of the script.
type scriptPart struct {
	text string
	file string // "" for -e expressions
}

// sedSyntaxError is a script error with GNU's location prefix.
type sedSyntaxError struct {
	msg string
}

func (e *sedSyntaxError) Error() string { return e.msg }

// sedParser parses the concatenation of the script parts.
type sedParser struct {
	src    string
	pos    int
	parts  []scriptPart
	starts []int
	d      sedDialect
	script *sedScript
	blocks []int
	// blockPos holds where each open block's "{" is (just after it).
	blockPos []int
}

// sedDialect is what the options change in how a script reads.
type sedDialect struct {
	ere     bool // -E
	posix   bool // --posix: GNU's extensions refused
	sandbox bool // --sandbox: e, r, w refused
	nul     bool // -z: the M flag's lines end at NUL
}

func parseSed(parts []scriptPart, d sedDialect) (*sedScript, error) {
	p := &sedParser{parts: parts, d: d, script: &sedScript{}}
	var b strings.Builder
	for i, part := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		p.starts = append(p.starts, b.Len())
		b.WriteString(part.text)
	}
	p.src = b.String()
	// As GNU sed 4.9: a first script piece that starts with "#n" turns
	// off the automatic printing.
	if len(parts) > 0 && strings.HasPrefix(parts[0].text, "#n") {
		p.script.quiet = true
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	if len(p.blocks) > 0 {
		return nil, p.errAt(p.blockPos[len(p.blockPos)-1], "unmatched `{'", true)
	}
	// Resolve labels.
	labels := map[string]int{}
	for i, c := range p.script.cmds {
		if c.name == ':' {
			if _, dup := labels[c.label]; !dup {
				labels[c.label] = i
			}
		}
	}
	for _, c := range p.script.cmds {
		if c.name == 'b' || c.name == 't' || c.name == 'T' {
			if c.label == "" {
				c.jump = len(p.script.cmds)
				continue
			}
			k, ok := labels[c.label]
			if !ok {
				return nil, &sedSyntaxError{fmt.Sprintf("can't find label for jump to `%s'", c.label)}
			}
			c.jump = k
		}
	}
	return p.script, nil
}

// errAt builds an error located at src offset pos (the count of characters
// consumed). zero makes GNU's "char 0" (an unmatched "{", located in the
// expression or at the line that holds it).
func (p *sedParser) errAt(pos int, msg string, zero bool) error {
	k := 0
	for i := range p.starts {
		if p.starts[i] <= pos-1 || (pos == 0 && i == 0) {
			k = i
		}
	}
	local := pos - p.starts[k]
	part := p.parts[k]
	if part.file != "" {
		line := strings.Count(part.text[:max(0, min(local, len(part.text)))], "\n") + 1
		return &sedSyntaxError{fmt.Sprintf("file %s line %d: %s", part.file, line, msg)}
	}
	if zero {
		local = 0
	}
	n := 0
	for i := 0; i <= k; i++ {
		if p.parts[i].file == "" {
			n++
		}
	}
	return &sedSyntaxError{fmt.Sprintf("-e expression #%d, char %d: %s", n, local, msg)}
}

// isSep reports whether src[i] is the newline that joins two parts.
func (p *sedParser) isSep(i int) bool {
	for _, st := range p.starts[1:] {
		if st-1 == i {
			return true
		}
	}
	return false
}

func (p *sedParser) fail(msg string) error { return p.errAt(p.pos, msg, false) }

func (p *sedParser) eof() bool { return p.pos >= len(p.src) }

func (p *sedParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *sedParser) get() (byte, bool) {
	if p.eof() {
		return 0, false
	}
	c := p.src[p.pos]
	p.pos++
	return c, true
}

func (p *sedParser) skipSpace() {
	for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func (p *sedParser) parse() error {
	for {
		for !p.eof() && strings.IndexByte(" \t\n\r\v\f;", p.peek()) >= 0 {
			p.pos++
		}
		if p.eof() {
			return nil
		}
		if p.peek() == '#' {
			for !p.eof() && p.peek() != '\n' {
				p.pos++
			}
			continue
		}
		if err := p.command(); err != nil {
			return err
		}
	}
}

func (p *sedParser) command() error {
	c := &sedCmd{num: -1}
	a1, err := p.address(false)
	if err != nil {
		return err
	}
	if a1 != nil {
		c.a1 = a1
		p.skipSpace()
		if p.peek() == ',' {
			p.pos++
			p.skipSpace()
			a2, err := p.address(true)
			if err != nil {
				return err
			}
			if a2 == nil {
				if !p.eof() {
					p.pos++
				}
				return p.fail("unexpected `,'")
			}
			c.a2 = a2
		}
	}
	p.skipSpace()
	if p.peek() == '!' {
		p.pos++
		c.neg = true
		p.skipSpace()
		if p.peek() == '!' {
			p.pos++
			return p.fail("multiple `!'s")
		}
	}
	name, ok := p.get()
	if !ok {
		return p.fail("missing command")
	}
	c.name = name
	if p.d.posix && strings.IndexByte("eFvzLQRTW", name) >= 0 {
		return p.fail(fmt.Sprintf("unknown command: `%c'", name))
	}
	if p.d.sandbox && strings.IndexByte("rRwW", name) >= 0 {
		return p.fail("e/r/w commands disabled in sandbox mode")
	}
	if c.a1 != nil && c.a1.kind == addrZero && c.a2 == nil && name == 'r' && !p.d.posix {
		// GNU's 0rFILE: the file is read before the first line.
		f, err := p.fileArg()
		if err != nil {
			return err
		}
		c.fname = f
		p.script.zeroR = append(p.script.zeroR, f)
		return nil
	}
	if c.a1 != nil && c.a1.kind == addrZero && (c.a2 == nil || c.a2.kind != addrRE || p.d.posix) {
		return p.fail("invalid usage of line address 0")
	}
	oneAddr := func() error {
		if c.a2 != nil {
			return p.fail("command only uses one address")
		}
		return nil
	}
	switch name {
	case '{':
		p.blocks = append(p.blocks, len(p.script.cmds))
		p.blockPos = append(p.blockPos, p.pos)
		p.script.cmds = append(p.script.cmds, c)
		return nil
	case '}':
		if len(p.blocks) == 0 {
			return p.fail("unexpected `}'")
		}
		if c.a1 != nil {
			return p.fail("`}' doesn't want any addresses")
		}
		open := p.blocks[len(p.blocks)-1]
		p.blocks = p.blocks[:len(p.blocks)-1]
		p.blockPos = p.blockPos[:len(p.blockPos)-1]
		p.script.cmds[open].jump = len(p.script.cmds) + 1
		p.script.cmds = append(p.script.cmds, c)
		return p.endCommand()
	case '#':
		return p.fail("comments don't accept any addresses")
	case ':':
		if c.a1 != nil {
			return p.fail(": doesn't want any addresses")
		}
		p.skipSpace()
		c.label = p.labelText()
		if c.label == "" {
			return p.fail("\":\" lacks a label")
		}
		// As in GNU sed, what follows the label is the next command.
		p.script.cmds = append(p.script.cmds, c)
		return nil
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
	case 'l', 'L', 'q', 'Q':
		if name == 'q' || name == 'Q' {
			if err := oneAddr(); err != nil {
				return err
			}
		}
		if p.d.posix {
			break
		}
		p.skipSpace()
		start := p.pos
		for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
			p.pos++
		}
		if p.pos > start {
			n, err := strconv.Atoi(p.src[start:p.pos])
			if err != nil || n > 1<<20 {
				n = 1 << 20
			}
			c.num = n
		}
	case 'b', 't', 'T':
		p.skipSpace()
		c.label = p.labelText()
	case 'a', 'i', 'c':
		start := p.pos
		t, err := p.textArg()
		if err != nil && err != errNoText {
			return err
		}
		if escape.RecursiveCtrl(p.src[start:p.pos]) {
			if p.pos > start && p.src[p.pos-1] == '\n' {
				p.pos--
			}
			return p.fail("recursive escaping after \\c not allowed")
		}
		c.text, c.hasText = t, err == nil
		p.script.cmds = append(p.script.cmds, c)
		return nil
	case 'r', 'R', 'w', 'W':
		f, err := p.fileArg()
		if err != nil {
			return err
		}
		c.fname = f
		if name == 'w' || name == 'W' {
			p.script.wfiles = append(p.script.wfiles, f)
		}
		p.script.cmds = append(p.script.cmds, c)
		return nil
	case 's':
		if err := p.substitute(c); err != nil {
			return err
		}
		p.script.cmds = append(p.script.cmds, c)
		if c.wfile != "" {
			return nil
		}
		return p.endCommand()
	case 'y':
		if err := p.translit(c); err != nil {
			return err
		}
	case 'e':
		if p.d.sandbox {
			return p.fail("e/r/w commands disabled in sandbox mode")
		}
		p.skipSpace()
		start := p.pos
		for !p.eof() && p.peek() != '\n' {
			p.pos++
		}
		c.text = p.src[start:p.pos]
		p.script.cmds = append(p.script.cmds, c)
		return nil
	case 'v':
		p.skipSpace()
		if v := p.labelText(); v != "" && versionAfter(v, "4.9") {
			return p.fail("expected newer version of sed")
		}
	default:
		return p.fail(fmt.Sprintf("unknown command: `%c'", name))
	}
	p.script.cmds = append(p.script.cmds, c)
	return p.endCommand()
}

// endCommand accepts what may follow a command: spaces, then ; newline } #
// or the end.
func (p *sedParser) endCommand() error {
	p.skipSpace()
	switch p.peek() {
	case 0:
		if p.eof() {
			return nil
		}
	case ';', '\n':
		p.pos++
		return nil
	case '}', '#':
		return nil
	}
	p.pos++
	return p.fail("extra characters after command")
}

// labelText reads a label: as in GNU sed 4.9, it ends at a blank, ';',
// '}', '#' or a newline, so "b l}" branches to l and closes the block.
func (p *sedParser) labelText() string {
	start := p.pos
	for !p.eof() && strings.IndexByte("\n; \t}#", p.peek()) < 0 {
		p.pos++
	}
	return p.src[start:p.pos]
}

// versionAfter reports whether the version v (as "4.2.1") is later than
// have.
func versionAfter(v, have string) bool {
	a, b := strings.Split(v, "."), strings.Split(have, ".")
	for i := 0; i < max(len(a), len(b)); i++ {
		x, y := 0, 0
		if i < len(a) {
			x, _ = strconv.Atoi(a[i])
		}
		if i < len(b) {
			y, _ = strconv.Atoi(b[i])
		}
		if x != y {
			return x > y
		}
	}
	return false
}

func (p *sedParser) fileArg() (string, error) {
	p.skipSpace()
	start := p.pos
	for !p.eof() && p.peek() != '\n' {
		p.pos++
	}
	name := p.src[start:p.pos]
	if name == "" {
		return "", p.fail("missing filename in r/R/w/W commands")
	}
	return name, nil
}

// textArg reads the text of a, i or c in its one-line or a\ forms.
func (p *sedParser) textArg() (string, error) {
	p.skipSpace()
	if p.eof() {
		return "", p.fail("expected \\ after `a', `c' or `i'")
	}
	if p.d.posix && p.peek() != '\\' {
		p.pos++
		return "", p.fail("expected \\ after `a', `c' or `i'")
	}
	if p.peek() == '\\' {
		p.pos++
		if p.eof() {
			return "", errNoText // "a\" at the very end: no text at all
		}
		if p.peek() == '\n' {
			p.pos++
		}
	}
	var b strings.Builder
	for !p.eof() {
		c, _ := p.get()
		if c == '\n' {
			break
		}
		if c == '\\' {
			d, ok := p.get()
			if !ok {
				break
			}
			p.textEscape(&b, d)
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// errNoText is textArg's answer for "a\" at the end of the script, which
// GNU takes as a command without text (it outputs nothing).
var errNoText = errors.New("no text")

// textEscape writes the character that "\d" (just read) stands for in
// the text of a, i and c, as GNU sed reads it (escape.SedText).
func (p *sedParser) textEscape(b *strings.Builder, d byte) {
	var buf [1]byte
	out, next, _ := escape.Append(escape.SedText, buf[:0], p.src, p.pos-2)
	b.Write(out)
	p.pos = next
}

// address parses an optional address; second allows +N and ~N.
func (p *sedParser) address(second bool) (*sedAddr, error) {
	c := p.peek()
	switch {
	case c >= '0' && c <= '9':
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		if p.peek() == '~' && !second && !p.d.posix {
			p.pos++
			step := int64(0)
			if d := p.peek(); d >= '0' && d <= '9' {
				if step, err = p.number(); err != nil {
					return nil, err
				}
			}
			return &sedAddr{kind: addrStep, n: n, step: step}, nil
		}
		if n == 0 && !second {
			return &sedAddr{kind: addrZero}, nil
		}
		return &sedAddr{kind: addrLine, n: n}, nil
	case c == '$':
		p.pos++
		return &sedAddr{kind: addrLast}, nil
	case (c == '+' || c == '~') && second && !p.d.posix:
		p.pos++
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		if c == '+' {
			return &sedAddr{kind: addrPlus, n: n}, nil
		}
		return &sedAddr{kind: addrMult, n: n}, nil
	case c == '/' || c == '\\':
		p.pos++
		delim := byte('/')
		if c == '\\' {
			d, ok := p.get()
			if !ok || d == '\n' || d == '\\' {
				return nil, p.fail("unterminated address regex")
			}
			delim = d
		}
		body, ok := p.delimited(delim, true)
		if !ok {
			return nil, p.fail("unterminated address regex")
		}
		flags := ""
		for !p.d.posix && (p.peek() == 'I' || p.peek() == 'M') {
			flags += string(p.src[p.pos])
			p.pos++
		}
		re, err := p.compile(body, flags)
		if err != nil {
			return nil, err
		}
		return &sedAddr{kind: addrRE, re: re}, nil
	}
	return nil, nil
}

func (p *sedParser) number() (int64, error) {
	start := p.pos
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		p.pos++
	}
	if start == p.pos {
		return 0, p.fail("expected a number")
	}
	n, err := strconv.ParseInt(p.src[start:p.pos], 10, 64)
	if err != nil {
		n = 1<<63 - 1
	}
	return n, nil
}
