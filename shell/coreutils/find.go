package coreutils

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/escape"
	"github.com/cordonhq/cordon/vfs"
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
	// outputs are the files of -fprint, -fprint0 and -fprintf, by
	// absolute name: one stream for each file however often it is named.
	outputs map[string]*findOutput
}

// findOutput is a file that -fprint, -fprint0 or -fprintf writes.
type findOutput struct {
	name string
	w    *bufio.Writer
	f    io.Closer
}

// openOutput opens (creating or truncating) a file that an action prints
// to, as GNU find does while it parses the expression, before any output.
func (f *finder) openOutput(name string) (*bufio.Writer, error) {
	abs := f.env.Abs(name)
	if abs == "/dev/stdout" || abs == "/dev/fd/1" {
		return f.w, nil // in order with -print's output
	}
	if o, ok := f.outputs[abs]; ok {
		return o.w, nil
	}
	file, err := f.env.Create(name, vfs.O_WRONLY|vfs.O_CREATE|vfs.O_TRUNC)
	if err != nil {
		return nil, err
	}
	if f.outputs == nil {
		f.outputs = map[string]*findOutput{}
	}
	o := &findOutput{name: name, w: bufio.NewWriter(file), f: file}
	f.outputs[abs] = o
	return o.w, nil
}

// closeOutputs flushes and closes the files actions printed to, reporting
// a failure of each as GNU find does.
func (f *finder) closeOutputs() {
	names := make([]string, 0, len(f.outputs))
	for abs := range f.outputs {
		names = append(names, abs)
	}
	sort.Strings(names)
	for _, abs := range names {
		o := f.outputs[abs]
		err := o.w.Flush()
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			f.status = f.env.Errorf(1, "‘%s’: %s", o.name, command.Strerror(err))
		}
	}
}

// warnEscapes warns, as GNU find does when it reads a -printf format, of
// each escape the format has that means nothing.
func (f *finder) warnEscapes(format string) {
	for i := 0; i < len(format); i++ {
		if format[i] != '\\' {
			continue
		}
		if i+1 == len(format) {
			fmt.Fprintf(f.env.Stderr, "find: warning: escape `\\' followed by nothing at all\n")
			break
		}
		if e := format[i+1]; !escape.Known(escape.Find, e) {
			fmt.Fprintf(f.env.Stderr, "find: warning: unrecognized escape `\\%c'\n", e)
		}
		i++
	}
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
	f := &finder{env: env, w: env.NewOutput(), maxDepth: -1, now: env.Now()}
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
			f.closeOutputs()
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
		if f.quit || env.Canceled() {
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
		if env.Canceled() {
			break
		}
		f.runBatch(b)
	}
	f.closeOutputs()
	if err := f.w.Flush(); err != nil {
		return env.WriteError(err)
	}
	if env.Canceled() {
		return command.StatusCanceled
	}
	return f.status
}

// walk evaluates expr on ff and its descendants.
func (f *finder) walk(expr *findNode, ff *findFile) {
	if f.quit {
		return
	}
	if f.env.Canceled() {
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

// eval evaluates the expression n on ff.
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

// peek returns the next word of the expression, or "".
func (p *findParser) peek() string {
	if p.pos < len(p.args) {
		return p.args[p.pos]
	}
	return ""
}

// parseOr parses EXPR [-o|, EXPR]...
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

// parseAnd parses EXPR [[-a] EXPR]...
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

// parseNot parses ! EXPR, ( EXPR ) and primaries.
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

// parsePrimary parses one test or action.
func (p *findParser) parsePrimary() *findNode {
	name := p.args[p.pos]
	p.pos++
	switch name {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-regextype", "-type", "-xtype":
		return p.parseMatch(name)
	case "-maxdepth", "-mindepth", "-depth", "-d", "-true", "-follow", "-noleaf", "-mount", "-xdev", "-ignore_readdir_race", "-nowarn", "-warn", "-daystart", "-false":
		return p.parseOption(name)
	case "-prune", "-quit", "-print", "-print0", "-printf", "-fprintf", "-fprint", "-fprint0", "-ls", "-delete", "-exec", "-execdir", "-ok", "-okdir":
		return p.parseAction(name)
	case "-newer", "-anewer", "-cnewer", "-newermt", "-newerct", "-newerat", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin":
		return p.parseTimeTest(name)
	case "-empty", "-readable", "-writable", "-executable", "-size", "-perm", "-user", "-group", "-uid", "-gid", "-nouser", "-nogroup", "-links":
		return p.parseFileTest(name)
	}
	if strings.HasPrefix(name, "-") {
		p.err = fmt.Sprintf("unknown predicate `%s'", name)
	} else {
		p.err = fmt.Sprintf("paths must precede expression: `%s'", name)
	}
	return nil
}

// confirm asks whether to run a command for -ok and -okdir, as GNU find
// does: the prompt "< CMD ... NAME > ? " on standard error, and a line of
// standard input that starts with 'y' or 'Y' for yes (no more is read, so
// that the next prompt reads the next line). At the end of the input the
// answer is no.
func (f *finder) confirm(cmd, name string) bool {
	f.w.Flush()
	fmt.Fprintf(f.env.Stderr, "< %s ... %s > ? ", cmd, name)
	var line []byte
	var b [1]byte
	for len(line) < 4096 {
		n, err := f.env.Stdin.Read(b[:])
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			line = append(line, b[0])
			continue
		}
		if err != nil {
			break
		}
	}
	return len(line) > 0 && (line[0] == 'y' || line[0] == 'Y')
}

// exec runs a command for -exec.
func (f *finder) exec(argv []string) int {
	return f.execStdin(argv, f.env.Stdin)
}

// execStdin runs a command with stdin as its input (-ok gives an empty
// one, as GNU gives /dev/null: the answers come from find's).
func (f *finder) execStdin(argv []string, stdin io.Reader) int {
	if err := f.w.Flush(); err != nil {
		return 1
	}
	if f.env.Exec == nil {
		f.env.Errorf(1, "%s: command execution is not available", argv[0])
		return 127
	}
	st := f.env.Exec(f.env.Ctx, argv, nil, stdin, f.env.Stdout, f.env.Stderr)
	if st == 126 || st == 127 {
		// The command could not run: GNU find then exits with status 1.
		f.status = 1
	}
	return st
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
