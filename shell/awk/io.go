package awk

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/escape"
	"github.com/cordonhq/cordon/vfs"
)

// output is an open output redirection.
type output struct {
	w    *bufio.Writer
	f    io.Closer
	pipe *bytes.Buffer // data for a "| command" redirection
	cmd  string
}

func (in *interp) print(s *printStmt) {
	buf := in.pbuf[:0]
	if s.printf {
		format := in.toStr(in.eval(s.args[0]))
		vals := make([]value, len(s.args)-1)
		for i, a := range s.args[1:] {
			vals[i] = in.eval(a)
		}
		buf = append(buf, in.sprintf(format, vals)...)
	} else {
		if len(s.args) == 0 {
			buf = append(buf, in.getRecord()...)
		}
		for i, a := range s.args {
			if i > 0 {
				buf = append(buf, in.ofs...)
			}
			buf = append(buf, in.toOutStr(in.eval(a))...)
		}
		buf = append(buf, in.ors...)
	}
	in.pbuf = buf
	w := in.out
	if s.redir != 0 {
		w = in.outputFor(s.redir, in.toStr(in.eval(s.dest)))
	}
	in.write(w, buf)
	if w == in.errOut {
		// Standard error is not buffered.
		in.out.Flush()
		if err := w.Flush(); err != nil {
			panic(&writeError{err})
		}
	}
}

// outputFor returns the writer for a redirection, opening it on first use.
func (in *interp) outputFor(redir tokKind, name string) *bufio.Writer {
	if o, ok := in.outputs[name]; ok {
		return o.w
	}
	switch name {
	case "/dev/stdout", "-":
		return in.out
	case "/dev/stderr":
		if in.errOut == nil {
			in.errOut = bufio.NewWriter(in.env.Stderr)
		}
		return in.errOut
	}
	if in.safe {
		fatal("print %s is unsafe", redirName(redir))
	}
	o := &output{}
	if name == "/dev/null" && redir != tPipe {
		// The VFS has no /dev: the shell emulates /dev/null, and so does awk.
		o.w = bufio.NewWriterSize(io.Discard, 512)
		in.addOutput(name, o)
		return o.w
	}
	switch redir {
	case tPipe:
		o.pipe = &bytes.Buffer{}
		o.cmd = name
		o.w = bufio.NewWriter(o.pipe)
	default:
		if name == "" {
			fatal("null file name in print or getline: the expression for `%s' redirection has a null string value", redirName(redir))
		}
		flag := vfs.O_WRONLY | vfs.O_CREATE | vfs.O_TRUNC
		if redir == tAppend {
			flag = vfs.O_WRONLY | vfs.O_CREATE | vfs.O_APPEND
		}
		f, err := in.env.FS.OpenFile(in.env.Abs(name), flag, 0o644)
		if err != nil {
			fatal("can't open file %s for output: %s", name, command.Strerror(err))
		}
		o.f = f
		o.w = bufio.NewWriterSize(f, 32<<10)
	}
	in.addOutput(name, o)
	return o.w
}

func redirName(k tokKind) string {
	switch k {
	case tAppend:
		return ">>"
	case tPipe:
		return "|"
	}
	return ">"
}

func (in *interp) addOutput(name string, o *output) {
	in.outputs[name] = o
	in.outOrder = append(in.outOrder, name)
}

// closeOutput flushes and closes one output; it returns the exit status of
// a command pipe, or 0, or -1 on failure.
func (in *interp) closeOutput(name string, o *output) int {
	err := o.w.Flush()
	status := 0
	if err != nil {
		status = -1
	}
	if o.f != nil {
		if cerr := o.f.Close(); cerr != nil && err == nil {
			err = cerr
			status = -1
		}
	}
	if o.pipe != nil {
		status = in.runCommand(o.cmd, o.pipe)
	}
	if err != nil {
		fatal("close of `%s' failed (%s)", name, command.Strerror(err))
	}
	return status
}

func (in *interp) closeStream(name string) int {
	status := -1
	if o, ok := in.outputs[name]; ok {
		delete(in.outputs, name)
		for i, n := range in.outOrder {
			if n == name {
				in.outOrder = append(in.outOrder[:i], in.outOrder[i+1:]...)
				break
			}
		}
		status = in.closeOutput(name, o)
	}
	if r, ok := in.inputs[name]; ok {
		r.close()
		delete(in.inputs, name)
		status = 0
		if c, ok := r.cmd.(*cmdInput); ok {
			status = c.status
		}
	}
	return status
}

// closeAll closes every output at the end of the program.
func (in *interp) closeAll() {
	for len(in.outOrder) > 0 {
		in.closeStream(in.outOrder[0])
	}
	for name := range in.inputs {
		in.closeStream(name)
	}
}

// abortOutputs saves what was written to files when the program fails;
// commands of pending "| cmd" redirections are not run.
func (in *interp) abortOutputs() {
	for _, o := range in.outputs {
		if o.f != nil {
			o.w.Flush()
			o.f.Close()
		}
	}
	in.outputs = nil
	if in.errOut != nil {
		in.errOut.Flush()
	}
}

func (in *interp) flush(name string) int {
	if name == "/dev/stdout" {
		if in.out.Flush() != nil {
			return -1
		}
		return 0
	}
	o, ok := in.outputs[name]
	if !ok {
		return -1
	}
	if o.w.Flush() != nil {
		return -1
	}
	return 0
}

func (in *interp) flushAll() {
	in.out.Flush()
	for _, o := range in.outputs {
		if o.pipe == nil {
			o.w.Flush()
		}
	}
}

// getline implements the getline forms.
func (in *interp) getline(g *getlineExpr) value {
	switch g.kind {
	case getlineCmd:
		cmd := in.toStr(in.eval(g.src))
		r, ok := in.inputs[cmd]
		if !ok {
			if r = in.startCommand(cmd); r == nil {
				return num(-1)
			}
			in.inputs[cmd] = r
		}
		rec, ok, err := r.read(in.ctx, &in.rs)
		in.poll()
		if err != nil {
			return num(-1)
		}
		if !ok {
			return num(0)
		}
		// NR and FNR stay, as in gawk, mawk and onetrueawk.
		in.setGetline(g, rec, false)
		return num(1)
	case getlineFile:
		name := in.toStr(in.eval(g.src))
		r, ok := in.inputs[name]
		if !ok {
			var rc io.ReadCloser
			var err error
			if name == "-" || name == "/dev/stdin" {
				rc = io.NopCloser(in.stdin)
			} else if name == "" {
				return num(-1)
			} else {
				rc, err = in.env.Open(name)
			}
			if err != nil {
				in.globals[gERRNO].v = str(command.Strerror(err))
				return num(-1)
			}
			r = newRecReader(rc, rc)
			in.inputs[name] = r
		}
		rec, ok, err := r.read(in.ctx, &in.rs)
		in.poll()
		if err != nil {
			return num(-1)
		}
		if !ok {
			return num(0)
		}
		in.setGetline(g, rec, false)
		return num(1)
	}
	rec, ok := in.nextMain()
	if !ok {
		return num(0)
	}
	in.setGetline(g, rec, true)
	return num(1)
}

func (in *interp) setGetline(g *getlineExpr, rec string, counts bool) {
	if counts {
		in.incNR()
	}
	if g.lhs == nil {
		in.setRecord(rec)
		return
	}
	in.store(in.place(g.lhs), input(rec))
}

func (in *interp) incNR() {
	in.globals[gNR].v = num(in.globals[gNR].v.toNum() + 1)
	in.globals[gFNR].v = num(in.globals[gFNR].v.toNum() + 1)
}

// argv returns ARGV[i] if it exists.
func (in *interp) argv(i int) (string, bool) {
	arr := in.globals[gARGV].arr
	if arr == nil {
		return "", false
	}
	v, ok := arr.lookup(formatInt(float64(i)))
	return in.toStr(v), ok
}

// nextMain reads the next record of the main input (the ARGV files or
// stdin), handling operand assignments.
func (in *interp) nextMain() (string, bool) {
	for {
		in.poll()
		if in.mainR == nil && !in.openNextMain() {
			return "", false
		}
		rec, ok, err := in.mainR.read(in.ctx, &in.rs)
		if err != nil {
			in.poll()
			fatal("error reading input file `%s': %s", in.toStr(in.globals[gFILENAME].v), command.Strerror(err))
		}
		if ok {
			return rec, true
		}
		in.mainR.close()
		in.mainR = nil
	}
}

func (in *interp) openNextMain() bool {
	for {
		argc := int(in.globals[gARGC].v.toNum())
		if in.argIndex >= argc {
			if in.sawFile || in.stdinDone {
				return false
			}
			in.stdinDone = true
			in.mainR = newRecReader(in.stdin, nil)
			in.globals[gFNR].v = num(0)
			// FILENAME is "-" on standard input, as in gawk, mawk and
			// busybox.
			in.globals[gFILENAME].v = str("-")
			return true
		}
		arg, ok := in.argv(in.argIndex)
		in.argIndex++
		if !ok || arg == "" {
			continue
		}
		if name, val, ok := operandAssign(arg); ok {
			in.assignGlobal(name, val)
			continue
		}
		in.sawFile = true
		rc, err := in.env.Open(arg)
		if err != nil {
			fatal("can't open file %s for reading: %s", arg, command.Strerror(err))
		}
		in.globals[gFILENAME].v = str(arg)
		in.globals[gFNR].v = num(0)
		in.mainR = newRecReader(rc, rc)
		return true
	}
}

// skipFile abandons the current input file (nextfile).
func (in *interp) skipFile() {
	if in.mainR != nil {
		in.mainR.close()
		in.mainR = nil
	}
}

// operandAssign recognizes a var=value operand.
func operandAssign(s string) (name, val string, ok bool) {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return "", "", false
	}
	name = s[:eq]
	if !(name[0] == '_' || name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') {
		return "", "", false
	}
	for i := 1; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return "", "", false
		}
	}
	if _, kw := keywords[name]; kw {
		return "", "", false
	}
	if _, b := builtins[name]; b {
		return "", "", false
	}
	return name, processEscapes(s[eq+1:]), true
}

// processEscapes interprets backslash escapes as in a string literal.
func processEscapes(s string) string {
	out, _ := escape.Decode(escape.AWK, s)
	return out
}

// assignGlobal performs a -v or operand assignment.
func (in *interp) assignGlobal(name, val string) {
	if name == "NF" {
		in.setNF(input(val).toNum())
		return
	}
	idx := -1
	for i, n := range in.prog.globalNames {
		if n == name {
			idx = i
			break
		}
	}
	if idx < 0 {
		// The program never mentions the variable.
		for _, f := range in.prog.funcs {
			if f.name == name {
				fatal("cannot use function `%s' as variable name", name)
			}
		}
		return
	}
	if in.globals[idx].arr != nil || in.prog.globalArray[idx] {
		fatal("cannot assign to array `%s'", name)
	}
	in.globals[idx].v = input(val)
	if idx < numSpecial {
		in.specialAssigned(idx)
	}
}
