package coreutils

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// xargsOptions are the options of xargs.
type xargsOptions struct {
	maxArgs, maxLines int
	replace           string
	null              bool
	delim             int // -1 when not set
	noRunEmpty        bool
	trace             bool
	maxChars          int
	eof               string
	exitOnSize        bool
}

// cmdXargs implements xargs [-0] [-d DELIM] [-n N] [-L N] [-I STR] [-r] [-t]
// [-s N] [-E EOF] [-e[EOF]] [-i[STR]] [-l[N]] [-a FILE] [-P N] [COMMAND
// [ARG]...]. Commands run one at a time (-P is accepted and ignored) with
// an empty standard input. As in GNU xargs, -s bounds the whole command
// line, the command and its initial arguments included, each argument
// counting its length plus one.
func cmdXargs(env *command.Env) int {
	env2 := *env
	env2.Args = append([]string{env.Args[0]}, xargsOptionalArgs(env.Args[1:])...)
	env = &env2
	opts, cmd, st, ok := env.ParseOptions("0d:n:L:l:I:i:rts:E:e:a:P:xpo", []string{"null", "delimiter=", "max-args=", "max-lines=", "replace=", "no-run-if-empty", "verbose", "max-chars=", "eof=", "arg-file=", "max-procs=", "exit", "interactive", "open-tty", "process-slot-var="}, true)
	if !ok {
		return st
	}
	o := xargsOptions{delim: -1, maxChars: 128 << 10}
	argFile := ""
	for _, op := range opts {
		v := op.Value
		switch op.Name {
		case "0", "null":
			o.null = true
		case "d", "delimiter":
			d, ok := parseDelim(v)
			if !ok {
				return env.Errorf(1, "invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", v)
			}
			o.delim = int(d)
		case "n", "max-args", "L", "l", "max-lines", "s", "max-chars", "P", "max-procs":
			if op.Name == "max-lines" && v == "" {
				v = "1" // -l alone
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 && op.Name != "P" && op.Name != "max-procs" {
				return env.Usage(1, fmt.Sprintf("value %s for -%s option should be >= 1", v, op.Name[:1]), "")
			}
			switch op.Name {
			case "n", "max-args":
				o.maxArgs, o.maxLines = n, 0
			case "L", "l", "max-lines":
				o.maxLines, o.maxArgs = n, 0
			case "s", "max-chars":
				o.maxChars = min(n, 1<<20)
			}
		case "I", "i", "replace":
			o.replace = v
			if o.replace == "" {
				o.replace = "{}"
			}
			o.maxLines = 1
		case "r", "no-run-if-empty":
			o.noRunEmpty = true
		case "t", "verbose":
			o.trace = true
		case "E", "eof":
			o.eof = v
		case "a", "arg-file":
			argFile = v
		case "x", "exit":
			o.exitOnSize = true
		case "p", "interactive", "o", "open-tty":
			return env.Errorf(1, "option -%s is not supported", op.Name[:1])
		}
	}
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	in := env.Stdin
	if argFile != "" {
		rc, err := env.Open(argFile)
		if err != nil {
			return env.Errorf(1, "Cannot open input file '%s': %s", argFile, command.Strerror(err))
		}
		defer rc.Close()
		in = rc
	}
	x := &xargsRun{env: env, o: o, cmd: cmd, br: bufio.NewReaderSize(command.NewCtxReader(env.Ctx, in), 64<<10)}
	return x.run()
}

// xargsOptionalArgs rewrites GNU xargs's options with an optional argument,
// which must be attached ("-eEOF", "-i{}", "-l2"; "-e" alone means no end
// of file string), into long options that always carry one, for Getopt.
// It stops at the first operand: the rest is the command.
func xargsOptionalArgs(args []string) []string {
	long := map[byte]string{'e': "--eof=", 'i': "--replace=", 'l': "--max-lines="}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "--") {
			for _, name := range []string{"eof", "replace", "max-lines"} {
				if a == "--"+name {
					a += "="
				}
			}
			out = append(out, a)
			// A long option with a required argument takes the next word.
			if !strings.Contains(a, "=") && i+1 < len(args) {
				for _, name := range []string{"delimiter", "max-args", "max-chars", "arg-file", "max-procs", "process-slot-var"} {
					if strings.HasPrefix(name, a[2:]) {
						i++
						out = append(out, args[i])
						break
					}
				}
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if l, ok := long[c]; ok {
				if j > 1 {
					out = append(out, a[:j])
				}
				out = append(out, l+a[j+1:])
				break
			}
			if strings.IndexByte("dnLIsEaP", c) >= 0 {
				// A required argument: the rest of the word, or the next.
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

// parseDelim parses the argument of -d: one character or a C escape.
func parseDelim(v string) (byte, bool) {
	if len(v) == 1 {
		return v[0], true
	}
	if len(v) < 2 || v[0] != '\\' {
		return 0, false
	}
	switch v[1] {
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case '0':
		if len(v) == 2 {
			return 0, true
		}
		n, err := strconv.ParseUint(v[1:], 8, 8)
		return byte(n), err == nil
	case 'x':
		n, err := strconv.ParseUint(v[2:], 16, 8)
		return byte(n), err == nil
	case '\\':
		return '\\', len(v) == 2
	case 'r':
		return '\r', true
	case 'v':
		return '\v', true
	case 'f':
		return '\f', true
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	}
	return 0, false
}

// xargsRun is the state of one xargs invocation.
type xargsRun struct {
	env    *command.Env
	o      xargsOptions
	cmd    []string
	br     *bufio.Reader
	status int
	ran    bool
	eof    bool
	stop   bool
}

// item is one input item; endLine is set when it ends an input line (for -L).
type xargsItem struct {
	s       string
	endLine bool
}

// run reads the items and runs the command lines.
func (x *xargsRun) run() int {
	var batch []string
	size, lines := 0, 0
	base := 0 // the command and its initial arguments, as -s counts them
	for _, a := range x.cmd {
		base += len(a) + 1
	}
	for !x.stop {
		it, err := x.next()
		if err != nil {
			if command.IsCanceled(err) {
				return command.StatusCanceled
			}
			if err != io.EOF {
				return x.env.Errorf(1, "%s", err.Error())
			}
			break
		}
		if x.env.Canceled() {
			return command.StatusCanceled
		}
		if it == nil {
			continue
		}
		if it.s != "" || x.o.null || x.o.delim >= 0 || x.o.replace != "" {
			if x.o.replace != "" {
				argv := x.replaceArgs(it.s)
				n := 0
				for _, a := range argv {
					n += len(a) + 1
				}
				if n > x.o.maxChars {
					x.env.Errorf(1, "argument list too long")
					return 1
				}
				x.exec(argv)
				continue
			}
			if base+size+len(it.s)+1 > x.o.maxChars {
				if len(batch) == 0 {
					x.env.Errorf(1, "argument line too long")
					return 1
				}
				x.exec(append(append([]string(nil), x.cmd...), batch...))
				batch, size, lines = nil, 0, 0
				if base+len(it.s)+1 > x.o.maxChars {
					x.env.Errorf(1, "argument line too long")
					return 1
				}
			}
			batch = append(batch, it.s)
			size += len(it.s) + 1
		}
		if it.endLine {
			lines++
		}
		if (x.o.maxArgs > 0 && len(batch) >= x.o.maxArgs) || (x.o.maxLines > 0 && it.endLine && lines >= x.o.maxLines) {
			if len(batch) > 0 {
				x.exec(append(append([]string(nil), x.cmd...), batch...))
			}
			batch, size, lines = nil, 0, 0
		}
	}
	if !x.stop && (len(batch) > 0 || (!x.ran && !x.o.noRunEmpty && x.o.replace == "")) {
		x.exec(append(append([]string(nil), x.cmd...), batch...))
	}
	if x.env.Canceled() {
		return command.StatusCanceled
	}
	return x.status
}

// replaceArgs returns the command with -I's string replaced by item.
func (x *xargsRun) replaceArgs(item string) []string {
	argv := make([]string, len(x.cmd))
	for i, a := range x.cmd {
		argv[i] = strings.ReplaceAll(a, x.o.replace, item)
	}
	return argv
}

// exec runs one command line and records its status like GNU xargs.
func (x *xargsRun) exec(argv []string) {
	x.ran = true
	if x.o.trace {
		fmt.Fprintln(x.env.Stderr, strings.Join(argv, " "))
	}
	if x.env.Exec == nil {
		x.env.Errorf(1, "%s: command execution is not available", argv[0])
		x.status, x.stop = 127, true
		return
	}
	st := x.env.Exec(x.env.Ctx, argv, nil, strings.NewReader(""), x.env.Stdout, x.env.Stderr)
	switch {
	case st == 0:
	case st == 127 || st == 126:
		x.status, x.stop = st, true
	case st == 255:
		x.env.Errorf(1, "%s: exited with status 255; aborting", argv[0])
		x.status, x.stop = 124, true
	case st > 128:
		x.env.Errorf(1, "%s: terminated by signal %d", argv[0], st-128)
		x.status, x.stop = 125, true
	default:
		x.status = 123
	}
	if x.env.Canceled() {
		x.stop = true
	}
}

// next returns the next item, or nil for nothing (a blank line), or io.EOF.
func (x *xargsRun) next() (*xargsItem, error) {
	if x.eof {
		return nil, io.EOF
	}
	switch {
	case x.o.null || x.o.delim >= 0:
		d := byte(0)
		if x.o.delim >= 0 {
			d = byte(x.o.delim)
		}
		s, err := x.br.ReadString(d)
		if err == io.EOF && s == "" {
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		s = strings.TrimSuffix(s, string(d))
		return &xargsItem{s: s, endLine: true}, nil
	case x.o.replace != "":
		s, err := x.br.ReadString('\n')
		if err == io.EOF && s == "" {
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		// GNU skips leading white space (isspace: also \v \f \r); the
		// rest of the line, blanks included, is the one item.
		s = strings.TrimLeft(strings.TrimSuffix(s, "\n"), " \t\v\f\r")
		if s == "" {
			return nil, nil
		}
		if x.o.eof != "" && s == x.o.eof {
			x.eof = true
			return nil, io.EOF
		}
		w, _, err := x.unquote(s)
		if err != nil {
			return nil, err
		}
		return &xargsItem{s: w, endLine: true}, nil
	}
	return x.word()
}

// word reads one blank-separated word with xargs quoting rules.
func (x *xargsRun) word() (*xargsItem, error) {
	var sb strings.Builder
	inWord := false
	for {
		c, err := x.br.ReadByte()
		if err != nil {
			if err == io.EOF && inWord {
				return x.finish(sb.String(), true)
			}
			return nil, err
		}
		switch c {
		case ' ', '\t', '\n':
			if inWord {
				endLine := c == '\n'
				if !endLine {
					// A line ends with this word when only blanks follow.
					endLine = x.restOfLineBlank()
				}
				return x.finish(sb.String(), endLine)
			}
			if c == '\n' {
				return &xargsItem{endLine: false}, nil
			}
		case '\'', '"':
			inWord = true
			for {
				q, err := x.br.ReadByte()
				if err != nil || q == '\n' {
					kind := "single"
					if c == '"' {
						kind = "double"
					}
					if err != nil && err != io.EOF {
						return nil, err
					}
					return nil, fmt.Errorf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", kind)
				}
				if q == c {
					break
				}
				sb.WriteByte(q)
			}
		case '\\':
			inWord = true
			n, err := x.br.ReadByte()
			if err == nil {
				sb.WriteByte(n)
			}
		default:
			inWord = true
			sb.WriteByte(c)
		}
		if sb.Len() > 1<<20 {
			return nil, fmt.Errorf("argument line too long")
		}
	}
}

// restOfLineBlank consumes blanks up to and including a newline and reports
// whether the line ended.
func (x *xargsRun) restOfLineBlank() bool {
	for {
		b, err := x.br.Peek(1)
		if err != nil {
			return true
		}
		switch b[0] {
		case ' ', '\t':
			x.br.ReadByte()
		case '\n':
			x.br.ReadByte()
			return true
		default:
			return false
		}
	}
}

// finish returns a word, or io.EOF for the -E end-of-file string.
func (x *xargsRun) finish(s string, endLine bool) (*xargsItem, error) {
	if x.o.eof != "" && s == x.o.eof {
		x.eof = true
		return nil, io.EOF
	}
	return &xargsItem{s: s, endLine: endLine}, nil
}

// unquote removes xargs quoting from a whole line (for -I).
func (x *xargsRun) unquote(s string) (string, bool, error) {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\'', '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				kind := "single"
				if c == '"' {
					kind = "double"
				}
				return "", false, fmt.Errorf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", kind)
			}
			sb.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case '\\':
			if i+1 < len(s) {
				i++
				sb.WriteByte(s[i])
			}
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), true, nil
}
