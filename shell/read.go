package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/internal/expansion"
)

// readByte reads one byte from rd (no read-ahead, so that the rest of the
// input stays for the next command).
func readByte(rd io.Reader, buf []byte) (byte, error) {
	for {
		n, err := rd.Read(buf[:1])
		if n == 1 {
			return buf[0], nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// maxReadLine bounds one line read by the read builtin.
const maxReadLine = 64 << 20

// rchar is a byte read by read, and whether a backslash escaped it.
type rchar struct {
	c   byte
	esc bool
}

// readBuiltin implements read (-r -a -d -n -N -p -s -t -u).
func readBuiltin(r *runner, args []string) int {
	raw := false
	arrName := ""
	delim := byte('\n')
	nchars := -1
	exactN := false
	fd := 0
	silent := false
	_ = silent
	// pollOnly is read -t 0: whether input is there, which it always
	// is (data or the end of it) for the sandbox's readers.
	pollOnly := false
	a := args[1:]
	usage := func(msg string) int {
		r.builtinErr(2, "read", "%s", msg)
		fmt.Fprintln(r.stderr(), "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]")
		return 2
	}
	for len(a) > 0 && len(a[0]) > 1 && a[0][0] == '-' {
		opt := a[0]
		a = a[1:]
		if opt == "--" {
			break
		}
		for i := 1; i < len(opt); i++ {
			c := opt[i]
			needArg := strings.IndexByte("adinNptu", c) >= 0
			val := ""
			if needArg {
				if i+1 < len(opt) {
					val = opt[i+1:]
				} else if len(a) > 0 {
					val = a[0]
					a = a[1:]
				} else {
					return usage(fmt.Sprintf("-%c: option requires an argument", c))
				}
			}
			switch c {
			case 'r':
				raw = true
			case 's', 'e':
				silent = true
			case 'a':
				arrName = val
			case 'd':
				if val == "" {
					delim = 0
				} else {
					delim = val[0]
				}
			case 'n', 'N':
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 {
					return r.builtinErr(1, "read", "%s: invalid number", val)
				}
				nchars = n
				exactN = c == 'N'
			case 'p':
				// The prompt is shown only when the input is a
				// terminal, which the sandbox never has.
			case 't':
				t, err := strconv.ParseFloat(val, 64)
				if err != nil || t < 0 || strings.ContainsAny(val, "eExXpPnN") {
					return r.builtinErr(1, "read", "%s: invalid timeout specification", val)
				}
				pollOnly = t == 0
			case 'u':
				n, err := strconv.Atoi(val)
				if err != nil || r.fds[n] == nil {
					return r.builtinErr(1, "read", "%s: invalid file descriptor specification", val)
				}
				fd = n
			case 'i':
			default:
				return usage(fmt.Sprintf("-%c: invalid option", c))
			}
			if needArg {
				break
			}
		}
	}
	for _, n := range a {
		if !syntax.ValidName(n) {
			return r.builtinErr(1, "read", "`%s': not a valid identifier", n)
		}
	}
	if arrName != "" && !syntax.ValidName(arrName) {
		return r.builtinErr(1, "read", "`%s': not a valid identifier", arrName)
	}
	if pollOnly {
		return 0
	}
	rd := r.reader(fd)
	var line []rchar
	buf := make([]byte, 1)
	status := 0
	count := 0
	for {
		if nchars >= 0 && count >= nchars {
			break
		}
		if len(line)%4096 == 0 && r.ctxErr() != nil {
			return 1
		}
		c, err := readByte(rd, buf)
		if err != nil {
			if err != io.EOF {
				r.builtinErr(1, "read", "read error: %d: %s", fd, err)
			}
			status = 1
			break
		}
		if c == delim && !exactN {
			break
		}
		if !raw && c == '\\' && !exactN {
			c2, err := readByte(rd, buf)
			if err != nil {
				status = 1
				break
			}
			if c2 == '\n' {
				continue
			}
			line = append(line, rchar{c2, true})
			count++
			continue
		}
		line = append(line, rchar{c: c})
		if c < 0x80 || utf8.RuneStart(c) {
			count++
		}
		if len(line) > maxReadLine {
			return r.builtinErr(1, "read", "line too long")
		}
	}
	ifs := r.getVar("IFS")
	if !r.isSetVar("IFS") {
		ifs = " \t\n"
	}
	if arrName != "" {
		fields := splitRead(line, ifs, -1)
		idx := make([]int, len(fields))
		for i := range idx {
			idx[i] = i
		}
		r.unsetVar(arrName)
		v := r.varFor(arrName, false)
		v.Variable = expansion.MakeIndexed(idx, fields)
		return status
	}
	if len(a) == 0 {
		var b strings.Builder
		for _, rc := range line {
			b.WriteByte(rc.c)
		}
		if err := r.assign("REPLY", vstr(b.String()), false); err != nil {
			r.builtinErr(1, "read", "%s", err)
			return 1
		}
		return status
	}
	if exactN {
		var b strings.Builder
		for _, rc := range line {
			b.WriteByte(rc.c)
		}
		ifs = ""
		line = line[:0]
		for i := 0; i < b.Len(); i++ {
			line = append(line, rchar{c: b.String()[i], esc: true})
		}
	}
	fields := splitRead(line, ifs, len(a))
	for i, name := range a {
		val := ""
		if i < len(fields) {
			val = fields[i]
		}
		if err := r.assign(name, vstr(val), false); err != nil {
			r.builtinErr(1, "read", "%s", err)
			return 1
		}
	}
	return status
}

// splitRead splits a line read by read into at most n fields (n < 0: all).
// IFS characters of several bytes (IFS='é') stand for one separator each.
func splitRead(line []rchar, ifs string, n int) []string {
	if isASCIIString(ifs) {
		return splitReadBytes(line, ifs, n)
	}
	// Each multibyte separator becomes a byte that is in neither the line
	// nor IFS, and back in the fields.
	var used [256]bool
	for _, rc := range line {
		used[rc.c] = true
	}
	for i := 0; i < len(ifs); i++ {
		used[ifs[i]] = true
	}
	subst := map[byte]string{}
	var nifs strings.Builder
	free := 0xff
	for _, c := range ifs {
		if c < utf8.RuneSelf {
			nifs.WriteRune(c)
			continue
		}
		for free > 0 && used[free] {
			free--
		}
		if free == 0 {
			break // no byte left: the separator is ignored
		}
		b := byte(free)
		used[free] = true
		subst[b] = string(c)
		nifs.WriteByte(b)
		enc := string(c)
		var nl []rchar
		for i := 0; i < len(line); i++ {
			if !line[i].esc && i+len(enc) <= len(line) && matchRchars(line[i:i+len(enc)], enc) {
				nl = append(nl, rchar{c: b})
				i += len(enc) - 1
				continue
			}
			nl = append(nl, line[i])
		}
		line = nl
	}
	out := splitReadBytes(line, nifs.String(), n)
	for i, f := range out {
		for b, s := range subst {
			f = strings.ReplaceAll(f, string([]byte{b}), s)
		}
		out[i] = f
	}
	return out
}

// matchRchars reports whether the unescaped characters l spell s.
func matchRchars(l []rchar, s string) bool {
	for i := range l {
		if l[i].esc || l[i].c != s[i] {
			return false
		}
	}
	return true
}

// isASCIIString reports whether s has only ASCII bytes.
func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// splitReadBytes is splitRead for separators of one byte each.
func splitReadBytes(line []rchar, ifs string, n int) []string {
	isWS := func(rc rchar) bool {
		return !rc.esc && (rc.c == ' ' || rc.c == '\t' || rc.c == '\n') && strings.IndexByte(ifs, rc.c) >= 0
	}
	isIFS := func(rc rchar) bool {
		return !rc.esc && strings.IndexByte(ifs, rc.c) >= 0
	}
	// trim IFS whitespace at both ends
	s, e := 0, len(line)
	for s < e && isWS(line[s]) {
		s++
	}
	for e > s && isWS(line[e-1]) {
		e--
	}
	line = line[s:e]
	var out []string
	i := 0
	str := func(l []rchar) string {
		b := make([]byte, len(l))
		for k, rc := range l {
			b[k] = rc.c
		}
		return string(b)
	}
	for i < len(line) {
		if n > 0 && len(out) == n-1 {
			rest := line[i:]
			// a single trailing non-whitespace delimiter is dropped
			if len(rest) > 0 && isIFS(rest[len(rest)-1]) && !isWS(rest[len(rest)-1]) {
				cnt := 0
				for _, rc := range rest {
					if isIFS(rc) && !isWS(rc) {
						cnt++
					}
				}
				if cnt == 1 {
					rest = rest[:len(rest)-1]
					for len(rest) > 0 && isWS(rest[len(rest)-1]) {
						rest = rest[:len(rest)-1]
					}
				}
			}
			out = append(out, str(rest))
			return out
		}
		j := i
		for j < len(line) && !isIFS(line[j]) {
			j++
		}
		out = append(out, str(line[i:j]))
		// consume the delimiter
		for j < len(line) && isWS(line[j]) {
			j++
		}
		if j < len(line) && isIFS(line[j]) && !isWS(line[j]) {
			j++
			for j < len(line) && isWS(line[j]) {
				j++
			}
			if j >= len(line) && (n < 0 || len(out) < n) {
				// "a:" gives one field; "a::" gives two
			}
		}
		i = j
	}
	return out
}

// mapfileBuiltin implements mapfile/readarray (-t -d -n -s -O -u).
func mapfileBuiltin(r *runner, args []string) int {
	a := args[1:]
	strip := false
	delim := byte('\n')
	count, skip, origin := 0, 0, -1
	fd := 0
	callback, quantum := "", 5000
	for len(a) > 0 && len(a[0]) > 1 && a[0][0] == '-' {
		opt := a[0]
		a = a[1:]
		if opt == "--" {
			break
		}
		c := opt[1]
		val := opt[2:]
		usage := func(format string, args2 ...any) int {
			r.builtinErr(2, args[0], format, args2...)
			fmt.Fprintf(r.stderr(), "%s: usage: %s [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\n", args[0], args[0])
			return 2
		}
		if strings.IndexByte("dnOsuCc", c) >= 0 && val == "" {
			if len(a) == 0 {
				return usage("-%c: option requires an argument", c)
			}
			val = a[0]
			a = a[1:]
		}
		num := func(what string) (int, bool) {
			n, ok := legalNumber(val)
			if !ok || n < 0 {
				r.builtinErr(1, args[0], "%s: invalid %s", val, what)
				return 0, false
			}
			return n, true
		}
		var ok bool
		switch c {
		case 't':
			strip = true
			ok = true
		case 'd':
			if val == "" {
				delim = 0
			} else {
				delim = val[0]
			}
			ok = true
		case 'n':
			count, ok = num("line count")
		case 's':
			skip, ok = num("line count")
		case 'O':
			origin, ok = num("array origin")
		case 'u':
			fd, ok = legalNumber(val)
			if !ok || fd < 0 || r.fds[fd] == nil {
				r.builtinErr(1, args[0], "%s: invalid file descriptor: Bad file descriptor", val)
				ok = false
			}
		case 'C':
			callback, ok = val, true
		case 'c':
			quantum, ok = legalNumber(val)
			if !ok || quantum <= 0 {
				r.builtinErr(1, args[0], "%s: invalid callback quantum", val)
				ok = false
			}
		default:
			return usage("-%c: invalid option", c)
		}
		if !ok {
			return 1
		}
	}
	name := "MAPFILE"
	if len(a) > 0 {
		name = a[0]
		if !syntax.ValidName(name) {
			return r.builtinErr(1, args[0], "`%s': not a valid identifier", name)
		}
	}
	if v, _ := r.lookup(name); v != nil && v.Kind == expand.Associative {
		return r.builtinErr(1, args[0], "%s: not an indexed array", name)
	}
	rd := r.reader(fd)
	var idx []int
	var vals []string
	start := 0
	if origin >= 0 {
		v, _ := r.lookup(name)
		if v != nil {
			idx, vals = expansion.ArrayItems(v.Variable)
		}
		start = origin
	}
	buf := make([]byte, 1)
	var cur []byte
	n := 0
	lines := 0
	total := 0
	flush := func(withDelim bool) {
		s := string(cur)
		if withDelim && !strip {
			s += string(delim)
		}
		cur = cur[:0]
		if lines < skip {
			lines++
			return
		}
		lines++
		if callback != "" && (n+1)%quantum == 0 {
			r.evalString(callback + " " + strconv.Itoa(start+n) + " " + shQuote(s))
		}
		idx, vals = expansion.SetItem(idx, vals, start+n, s)
		n++
	}
	for count == 0 || n < count {
		if total%4096 == 0 && r.ctxErr() != nil {
			return 1
		}
		c, err := readByte(rd, buf)
		if err != nil {
			if len(cur) > 0 {
				flush(false)
			}
			break
		}
		total++
		if total > maxReadLine {
			return r.builtinErr(1, args[0], "input too long")
		}
		if c == delim {
			flush(true)
			continue
		}
		cur = append(cur, c)
	}
	v := r.varFor(name, false)
	if v.readonly {
		return r.builtinErr(1, args[0], "%s: readonly variable", name)
	}
	v.Variable = expansion.MakeIndexed(idx, vals)
	return 0
}
