package coreutils

import (
	"bufio"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
)

// findNode is one node of a find expression.
type findNode struct {
	kind  string // "and", "or", "not", "test"
	left  *findNode
	right *findNode
	test  func(f *findFile) bool
}

// findFile is the file being evaluated.
type findFile struct {
	name  string // path as printed
	abs   string
	info  fs.FileInfo
	depth int
	prune bool
}

// finder holds the state of one find run.
type finder struct {
	env       *command.Env
	w         *bufio.Writer
	maxDepth  int
	minDepth  int
	depthMode bool
	quit      bool
	status    int
	batches   []*execBatch
	now       time.Time
}

// execBatch accumulates the file names of one "-exec ... {} +".
type execBatch struct {
	args  []string
	names []string
	size  int
}

// findParser parses a find expression.
type findParser struct {
	f      *finder
	args   []string
	pos    int
	action bool // the expression has an action (-print, -exec, ...)
	err    string
	ere    bool // -regextype selected extended regular expressions
}

// cmdFind implements find [PATH...] [EXPRESSION]. Directory entries are
// visited in lexical order.
func cmdFind(env *command.Env) int {
	args := env.Args[1:]
	for len(args) > 0 && (args[0] == "-H" || args[0] == "-L" || args[0] == "-P") {
		args = args[1:]
	}
	i := 0
	for i < len(args) && !(strings.HasPrefix(args[i], "-") && len(args[i]) > 1) && args[i] != "(" && args[i] != "!" {
		i++
	}
	paths, exprArgs := args[:i], args[i:]
	if len(paths) == 0 {
		paths = []string{"."}
	}
	f := &finder{env: env, w: newWriter(env), maxDepth: -1, now: env.Now()}
	p := &findParser{f: f, args: exprArgs}
	var expr *findNode
	if len(exprArgs) > 0 {
		expr = p.parseOr()
		if p.err == "" && p.pos < len(p.args) {
			if p.args[p.pos] == ")" {
				p.err = "invalid expression; you have too many ')'"
			} else {
				p.err = fmt.Sprintf("paths must precede expression: `%s'", p.args[p.pos])
			}
		}
		if p.err != "" {
			return env.Errorf(1, "%s", p.err)
		}
	}
	if !p.action {
		print := &findNode{kind: "test", test: func(ff *findFile) bool {
			f.w.WriteString(ff.name)
			f.w.WriteByte('\n')
			return true
		}}
		if expr == nil {
			expr = print
		} else {
			expr = &findNode{kind: "and", left: expr, right: print}
		}
	}
	for _, root := range paths {
		if f.quit || canceled(env) {
			break
		}
		abs := env.Abs(root)
		fi, err := env.FS.Stat(abs)
		if err != nil {
			f.w.Flush()
			f.status = env.Errorf(1, "‘%s’: %s", root, command.Strerror(err))
			continue
		}
		f.walk(expr, &findFile{name: root, abs: abs, info: fi})
	}
	for _, b := range f.batches {
		if canceled(env) {
			break
		}
		f.runBatch(b)
	}
	if err := f.w.Flush(); err != nil {
		return writeError(env, err)
	}
	if canceled(env) {
		return canceledStatus
	}
	return f.status
}

// walk evaluates expr on ff and its descendants.
func (f *finder) walk(expr *findNode, ff *findFile) {
	if f.quit {
		return
	}
	if canceled(f.env) {
		f.quit = true
		return
	}
	inRange := ff.depth >= f.minDepth && (f.maxDepth < 0 || ff.depth <= f.maxDepth)
	if !f.depthMode && inRange {
		f.eval(expr, ff)
	}
	if ff.info.IsDir() && !ff.prune && (f.maxDepth < 0 || ff.depth < f.maxDepth) {
		list, err := f.env.FS.ReadDir(ff.abs)
		if err != nil {
			f.w.Flush()
			f.status = f.env.Errorf(1, "‘%s’: %s", ff.name, command.Strerror(err))
		}
		for _, de := range list {
			if f.quit {
				return
			}
			info, err := de.Info()
			if err != nil {
				continue
			}
			f.walk(expr, &findFile{name: joinName(ff.name, de.Name()), abs: path.Join(ff.abs, de.Name()), info: info, depth: ff.depth + 1})
		}
	}
	if f.depthMode && inRange && !f.quit {
		f.eval(expr, ff)
	}
}

func (f *finder) eval(n *findNode, ff *findFile) bool {
	if f.quit {
		return false
	}
	switch n.kind {
	case "and":
		return f.eval(n.left, ff) && f.eval(n.right, ff)
	case "or":
		return f.eval(n.left, ff) || f.eval(n.right, ff)
	case "not":
		return !f.eval(n.left, ff)
	case "comma":
		f.eval(n.left, ff)
		return f.eval(n.right, ff)
	}
	return n.test(ff)
}

func (p *findParser) peek() string {
	if p.pos < len(p.args) {
		return p.args[p.pos]
	}
	return ""
}

func (p *findParser) parseOr() *findNode {
	left := p.parseAnd()
	for p.err == "" && p.pos < len(p.args) {
		switch p.peek() {
		case "-o", "-or":
			p.pos++
			right := p.parseAnd()
			left = &findNode{kind: "or", left: left, right: right}
		case ",":
			p.pos++
			right := p.parseAnd()
			left = &findNode{kind: "comma", left: left, right: right}
		default:
			return left
		}
	}
	return left
}

func (p *findParser) parseAnd() *findNode {
	left := p.parseNot()
	for p.err == "" && p.pos < len(p.args) {
		switch p.peek() {
		case "-o", "-or", ")", ",":
			return left
		case "-a", "-and":
			p.pos++
		}
		right := p.parseNot()
		left = &findNode{kind: "and", left: left, right: right}
	}
	return left
}

func (p *findParser) parseNot() *findNode {
	if p.err != "" {
		return nil
	}
	switch p.peek() {
	case "!", "-not":
		p.pos++
		return &findNode{kind: "not", left: p.parseNot()}
	case "(":
		p.pos++
		e := p.parseOr()
		if p.err == "" && p.peek() != ")" {
			p.err = "invalid expression; I was expecting to find a ')' somewhere but did not see one."
		}
		p.pos++
		return e
	case "":
		p.err = "invalid expression; expected an expression"
		return nil
	}
	return p.parsePrimary()
}

// arg returns the argument of the primary at p.pos-1.
func (p *findParser) arg(name string) (string, bool) {
	if p.pos >= len(p.args) {
		p.err = fmt.Sprintf("missing argument to `%s'", name)
		return "", false
	}
	p.pos++
	return p.args[p.pos-1], true
}

func truth(ff *findFile) bool { return true }

func (p *findParser) parsePrimary() *findNode {
	f := p.f
	name := p.args[p.pos]
	p.pos++
	test := func(fn func(ff *findFile) bool) *findNode { return &findNode{kind: "test", test: fn} }
	switch name {
	case "-name", "-iname":
		pat, ok := p.arg(name)
		if !ok {
			return nil
		}
		fold := name == "-iname"
		return test(func(ff *findFile) bool { return fnmatch(pat, findBase(ff.name), fold) })
	case "-path", "-ipath", "-wholename", "-iwholename":
		pat, ok := p.arg(name)
		if !ok {
			return nil
		}
		fold := name[1] == 'i'
		return test(func(ff *findFile) bool { return fnmatch(pat, ff.name, fold) })
	case "-regex", "-iregex":
		pat, ok := p.arg(name)
		if !ok {
			return nil
		}
		expr := pat
		if !p.ere {
			expr = emacsToGoRegexp(pat)
		}
		expr = "^(?:" + expr + ")$"
		if name == "-iregex" {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			p.err = fmt.Sprintf("invalid regular expression `%s'", pat)
			return nil
		}
		return test(func(ff *findFile) bool { return re.MatchString(ff.name) })
	case "-regextype":
		t, ok := p.arg(name)
		if !ok {
			return nil
		}
		p.ere = strings.Contains(t, "extended") || t == "egrep" || t == "awk"
		return test(truth)
	case "-type", "-xtype":
		t, ok := p.arg(name)
		if !ok {
			return nil
		}
		types := strings.Split(t, ",")
		for _, c := range types {
			if len(c) != 1 || !strings.Contains("bcdpflsD", c) {
				p.err = fmt.Sprintf("Unknown argument to %s: %s", name, t)
				return nil
			}
		}
		return test(func(ff *findFile) bool {
			for _, c := range types {
				if (c == "d" && ff.info.IsDir()) || (c == "f" && ff.info.Mode().IsRegular()) {
					return true
				}
			}
			return false
		})
	case "-maxdepth", "-mindepth":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			p.err = fmt.Sprintf("Expected a positive decimal integer argument to %s, but got ‘%s’", name, v)
			return nil
		}
		if name == "-maxdepth" {
			f.maxDepth = n
		} else {
			f.minDepth = n
		}
		return test(truth)
	case "-depth", "-d":
		f.depthMode = true
		return test(truth)
	case "-true", "-follow", "-noleaf", "-mount", "-xdev", "-ignore_readdir_race", "-nowarn", "-warn", "-daystart":
		return test(truth)
	case "-false":
		return test(func(*findFile) bool { return false })
	case "-empty":
		return test(func(ff *findFile) bool {
			if ff.info.IsDir() {
				list, err := f.env.FS.ReadDir(ff.abs)
				return err == nil && len(list) == 0
			}
			return ff.info.Size() == 0
		})
	case "-readable", "-writable", "-executable":
		return test(func(ff *findFile) bool {
			switch name {
			case "-readable":
				return true
			case "-writable":
				return strings.HasPrefix(ff.abs+"/", "/workspace/") || strings.HasPrefix(ff.abs+"/", "/tmp/")
			}
			return ff.info.Mode()&0o111 != 0
		})
	case "-newer", "-anewer", "-cnewer":
		ref, ok := p.arg(name)
		if !ok {
			return nil
		}
		fi, err := stat(f.env, ref)
		if err != nil {
			p.err = fmt.Sprintf("‘%s’: %s", ref, command.Strerror(err))
			return nil
		}
		t := fi.ModTime()
		return test(func(ff *findFile) bool { return ff.info.ModTime().After(t) })
	case "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		cmp, n, ok := parseFindNumber(v)
		if !ok {
			p.err = fmt.Sprintf("invalid argument `%s' to `%s'", v, name)
			return nil
		}
		unit := 24 * time.Hour
		if strings.HasSuffix(name, "min") {
			unit = time.Minute
		}
		return test(func(ff *findFile) bool {
			age := f.now.Sub(ff.info.ModTime())
			units := int64(age / unit)
			if age < 0 && age%unit != 0 {
				units--
			}
			if unit == time.Minute {
				// -mmin rounds up.
				units = int64((age + unit - 1) / unit)
			}
			return compareFind(cmp, units, n)
		})
	case "-size":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		cmp, n, unit, ok := parseFindSize(v)
		if !ok {
			p.err = fmt.Sprintf("invalid -size type `%s'", v)
			return nil
		}
		return test(func(ff *findFile) bool {
			size := ff.info.Size()
			if ff.info.IsDir() {
				size = 4096
			}
			units := (size + unit - 1) / unit
			return compareFind(cmp, units, n)
		})
	case "-perm":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		mode, ok := parseFindPerm(v)
		if !ok {
			p.err = fmt.Sprintf("invalid mode ‘%s’", v)
			return nil
		}
		return test(func(ff *findFile) bool {
			perm := uint32(ff.info.Mode().Perm())
			switch v[0] {
			case '-':
				return perm&mode == mode
			case '/':
				return mode == 0 || perm&mode != 0
			}
			return perm == mode
		})
	case "-user", "-group", "-uid", "-gid":
		if _, ok := p.arg(name); !ok {
			return nil
		}
		return test(truth)
	case "-nouser", "-nogroup":
		return test(func(*findFile) bool { return false })
	case "-links":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		cmp, n, ok := parseFindNumber(v)
		if !ok {
			p.err = fmt.Sprintf("invalid argument `%s' to `%s'", v, name)
			return nil
		}
		return test(func(ff *findFile) bool { return compareFind(cmp, 1, n) })
	case "-prune":
		return test(func(ff *findFile) bool {
			if !f.depthMode {
				ff.prune = true
			}
			return true
		})
	case "-quit":
		p.action = true
		return test(func(*findFile) bool { f.quit = true; return true })
	case "-print", "-print0":
		p.action = true
		end := byte('\n')
		if name == "-print0" {
			end = 0
		}
		return test(func(ff *findFile) bool {
			f.w.WriteString(ff.name)
			f.w.WriteByte(end)
			return true
		})
	case "-printf", "-fprintf":
		p.action = true
		format, ok := p.arg(name)
		if !ok {
			return nil
		}
		return test(func(ff *findFile) bool {
			f.w.WriteString(findPrintf(format, ff))
			return true
		})
	case "-ls":
		p.action = true
		return test(func(ff *findFile) bool {
			fmt.Fprintf(f.w, "%9d %6d %s %3d %-8s %-8s %8d %s %s\n", 0, lsBlocks(ff.info), modeString(ff.info), 1, "user", "user", lsSize(ff.info), lsTime(ff.info.ModTime(), f.now), ff.name)
			return true
		})
	case "-delete":
		p.action = true
		f.depthMode = true
		return test(func(ff *findFile) bool {
			if ff.depth == 0 && (ff.name == "." || ff.name == "..") {
				return true
			}
			if err := f.env.FS.Remove(ff.abs); err != nil {
				f.w.Flush()
				f.status = f.env.Errorf(1, "cannot delete ‘%s’: %s", ff.name, command.Strerror(err))
				return false
			}
			return true
		})
	case "-exec", "-execdir", "-ok", "-okdir":
		p.action = true
		return p.parseExec(name)
	}
	if strings.HasPrefix(name, "-") {
		p.err = fmt.Sprintf("unknown predicate `%s'", name)
	} else {
		p.err = fmt.Sprintf("paths must precede expression: `%s'", name)
	}
	return nil
}

// parseExec parses the command of -exec up to ";" or "{} +".
func (p *findParser) parseExec(name string) *findNode {
	f := p.f
	start := p.pos
	for ; p.pos < len(p.args); p.pos++ {
		a := p.args[p.pos]
		if a == ";" {
			break
		}
		if a == "+" && p.pos > start && p.args[p.pos-1] == "{}" {
			break
		}
	}
	if p.pos >= len(p.args) || p.pos == start {
		p.err = fmt.Sprintf("missing argument to `%s'", name)
		return nil
	}
	cmd := append([]string(nil), p.args[start:p.pos]...)
	term := p.args[p.pos]
	p.pos++
	dirMode := name == "-execdir" || name == "-okdir"
	if term == "+" {
		b := &execBatch{args: cmd[:len(cmd)-1]}
		f.batches = append(f.batches, b)
		return &findNode{kind: "test", test: func(ff *findFile) bool {
			n := ff.name
			if dirMode {
				n = "./" + findBase(ff.name)
			}
			b.names = append(b.names, n)
			b.size += len(n) + 1
			if len(b.names) >= 4096 || b.size >= 128<<10 {
				f.runBatch(b)
			}
			return true
		}}
	}
	return &findNode{kind: "test", test: func(ff *findFile) bool {
		n := ff.name
		if dirMode {
			n = "./" + findBase(ff.name)
		}
		argv := make([]string, len(cmd))
		for i, a := range cmd {
			argv[i] = strings.ReplaceAll(a, "{}", n)
		}
		return f.exec(argv) == 0
	}}
}

// exec runs a command for -exec.
func (f *finder) exec(argv []string) int {
	if err := f.w.Flush(); err != nil {
		return 1
	}
	if f.env.Exec == nil {
		f.env.Errorf(1, "%s: command execution is not available", argv[0])
		return 127
	}
	return f.env.Exec(f.env.Ctx, argv, f.env.Stdin, f.env.Stdout, f.env.Stderr)
}

// runBatch runs the pending names of an "-exec ... {} +".
func (f *finder) runBatch(b *execBatch) {
	if len(b.names) == 0 {
		return
	}
	argv := append(append([]string(nil), b.args...), b.names...)
	b.names, b.size = nil, 0
	if f.exec(argv) != 0 {
		f.status = 1
	}
}

// findBase returns the last element of a printed path ("dd/" gives "dd").
func findBase(name string) string {
	t := strings.TrimRight(name, "/")
	if t == "" {
		return "/"
	}
	return path.Base(t)
}

// parseFindNumber parses "+N", "-N" or "N".
func parseFindNumber(v string) (byte, int64, bool) {
	var cmp byte
	if v != "" && (v[0] == '+' || v[0] == '-') {
		cmp, v = v[0], v[1:]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return cmp, n, err == nil && n >= 0
}

func parseFindSize(v string) (cmp byte, n, unit int64, ok bool) {
	unit = 512
	if v != "" {
		switch v[len(v)-1] {
		case 'c':
			unit = 1
		case 'w':
			unit = 2
		case 'b':
			unit = 512
		case 'k':
			unit = 1024
		case 'M':
			unit = 1 << 20
		case 'G':
			unit = 1 << 30
		}
		if v[len(v)-1] > '9' {
			v = v[:len(v)-1]
		}
	}
	cmp, n, ok = parseFindNumber(v)
	return cmp, n, unit, ok
}

func compareFind(cmp byte, v, n int64) bool {
	switch cmp {
	case '+':
		return v > n
	case '-':
		return v < n
	}
	return v == n
}

func parseFindPerm(v string) (uint32, bool) {
	s := strings.TrimLeft(v, "-/")
	n, err := strconv.ParseUint(s, 8, 32)
	return uint32(n), err == nil
}

// findPrintf expands a -printf format for one file.
func findPrintf(format string, ff *findFile) string {
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\' && i+1 < len(format):
			i++
			switch format[i] {
			case 'n':
				sb.WriteByte('\n')
			case 't':
				sb.WriteByte('\t')
			case '0':
				sb.WriteByte(0)
			case '\\':
				sb.WriteByte('\\')
			case 'r':
				sb.WriteByte('\r')
			default:
				sb.WriteByte('\\')
				sb.WriteByte(format[i])
			}
		case c == '%' && i+1 < len(format):
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				sb.WriteString(format[i:])
				return sb.String()
			}
			flags := format[i+1 : j]
			i = j
			var s string
			num := false
			switch format[j] {
			case '%':
				s = "%"
			case 'p':
				s = ff.name
			case 'f':
				s = findBase(ff.name)
			case 'h':
				s = path.Dir(strings.TrimRight(ff.name, "/"))
				if !strings.Contains(strings.TrimRight(ff.name, "/"), "/") {
					s = "."
				}
			case 'P':
				s = ff.name
				if ff.depth == 0 {
					s = ""
				} else if k := findRootLen(ff); k > 0 {
					s = ff.name[k:]
				}
			case 's':
				s, num = strconv.FormatInt(lsSize(ff.info), 10), true
			case 'd':
				s, num = strconv.Itoa(ff.depth), true
			case 'm':
				s = strconv.FormatUint(uint64(ff.info.Mode().Perm()), 8)
			case 'M':
				s = modeString(ff.info)
			case 'y', 'Y':
				s = "f"
				if ff.info.IsDir() {
					s = "d"
				}
			case 'u', 'g':
				s = "user"
			case 'U', 'G':
				s = "0"
			case 'n':
				s = "1"
			case 'k':
				s = strconv.FormatInt(lsBlocks(ff.info), 10)
			case 'b':
				s = strconv.FormatInt(lsBlocks(ff.info)*2, 10)
			case 't', 'a', 'c':
				s = ff.info.ModTime().UTC().Format("Mon Jan _2 15:04:05.0000000000 2006")
			case 'T', 'A', 'C':
				if j+1 < len(format) {
					i++
					s = findTimeField(format[i], ff.info.ModTime().UTC())
				}
			default:
				s = "%" + flags + string(format[j])
				flags = ""
			}
			sb.WriteString(padField(s, flags, num))
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// findRootLen returns the length of the starting point's prefix (with the
// following slash) in ff.name.
func findRootLen(ff *findFile) int {
	name := ff.name
	k := len(name)
	for d := ff.depth; d > 0; d-- {
		k = strings.LastIndexByte(name[:k], '/')
		if k < 0 {
			return 0
		}
	}
	return k + 1
}

// findTimeField formats one -printf %T field.
func findTimeField(c byte, t time.Time) string {
	switch c {
	case '@':
		return strconv.FormatInt(t.Unix(), 10) + "." + fmt.Sprintf("%09d0", t.Nanosecond())
	case '+':
		return t.Format("2006-01-02+15:04:05.0000000000")
	}
	return strftime("%"+string(c), t)
}

// emacsToGoRegexp converts a GNU Emacs-style regular expression (find's
// default -regextype) to Go syntax: \( \) \| \{ \} are operators and the
// bare characters are literals.
func emacsToGoRegexp(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case '(', ')', '|', '{', '}':
				sb.WriteByte(s[i])
			default:
				sb.WriteByte('\\')
				sb.WriteByte(s[i])
			}
			continue
		}
		switch c {
		case '(', ')', '|', '{', '}':
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
	}
	return sb.String()
}
