package awk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/command"
)

// Options are the per-run inputs of a Program.
type Options struct {
	// Argv0 is ARGV[0]; "awk" when empty.
	Argv0 string
	// Args are the operands after the program: input files and var=value
	// assignments, which become ARGV[1] and on.
	Args []string
	// Assigns are -v assignments, "name=value", applied before BEGIN.
	Assigns []string
	// FS, when non-nil, is the -F field separator (escapes are processed).
	FS *string
	// Safe is onetrueawk's -safe: system(), "cmd | getline" and output
	// redirections other than to /dev/stdout and /dev/stderr are fatal
	// errors, and ENVIRON is empty.
	Safe bool
}

// Run executes the program. It reads input from env.Stdin and the files in
// opts.Args (from env.FS), writes to env.Stdout, and returns the exit status
// set by the program's exit statement. A fatal error (a *RuntimeError, a
// write error or the context's error when it is canceled) is returned as
// err with status 2; output produced before it has been flushed.
func (p *Program) Run(ctx context.Context, env *command.Env, opts Options) (status int, err error) {
	in := &interp{
		prog:        p,
		ctx:         ctx,
		env:         env,
		globals:     make([]cell, len(p.globalNames)),
		out:         env.NewWriter(env.Stdout, 64<<10),
		outputs:     map[string]*output{},
		inputs:      map[string]*recReader{},
		rangeActive: make([]bool, p.nranges),
		regexCache:  map[string]*regexp.Regexp{},
		rng:         rand.New(rand.NewSource(0)),
		argIndex:    1,
		stdin:       &lockedReader{r: env.Stdin},
	}
	if env.Stdin == nil {
		in.stdin = &lockedReader{r: strings.NewReader("")}
	}
	defer func() {
		if r := recover(); r != nil {
			status, err = 2, recoveredError(r)
			if re, ok := err.(*RuntimeError); ok && re.Line == 0 {
				re.Line = in.line
			}
			in.abortOutputs()
		}
		if ferr := in.out.Flush(); ferr != nil && err == nil {
			status, err = 2, &writeError{ferr}
		}
	}()
	in.init(opts)
	in.run()
	in.closeAll()
	return in.exitCode, nil
}

func recoveredError(r any) error {
	switch e := r.(type) {
	case *RuntimeError:
		return e
	case ctxError:
		return e.err
	case *writeError:
		return e
	case *SyntaxError:
		return e
	}
	return &RuntimeError{Msg: fmt.Sprintf("internal error: %v", r)}
}

func (e *writeError) Error() string {
	return "write failure (" + command.Strerror(e.err) + ")"
}

// Unwrap returns the underlying error.
func (e *writeError) Unwrap() error { return e.err }

func (in *interp) init(opts Options) {
	g := in.globals
	set := func(i int, v value) {
		g[i].v = v
	}
	set(gFS, str(" "))
	set(gOFS, str(" "))
	set(gORS, str("\n"))
	set(gRS, str("\n"))
	set(gSUBSEP, str("\034"))
	set(gCONVFMT, str("%.6g"))
	set(gOFMT, str("%.6g"))
	set(gNR, num(0))
	set(gFNR, num(0))
	set(gRSTART, num(0))
	set(gRLENGTH, num(0))
	set(gFILENAME, str(""))
	in.convfmt, in.ofmt = "%.6g", "%.6g"
	for _, i := range []int{gRS, gFS, gOFS, gORS, gSUBSEP} {
		in.specialAssigned(i)
	}
	in.safe = opts.Safe
	env := newArray()
	for _, kv := range in.env.Environ {
		if in.safe {
			break
		}
		if k, v, ok := strings.Cut(kv, "="); ok {
			env.set(k, input(v))
		}
	}
	g[gENVIRON].arr = env
	argv := newArray()
	argv0 := opts.Argv0
	if argv0 == "" {
		argv0 = "awk"
	}
	argv.set("0", str(argv0))
	for i, a := range opts.Args {
		argv.set(formatInt(float64(i+1)), input(a))
	}
	g[gARGV].arr = argv
	set(gARGC, num(float64(len(opts.Args)+1)))
	in.setRecord("")
	if opts.FS != nil {
		g[gFS].v = str(processEscapes(*opts.FS))
		in.specialAssigned(gFS)
	}
	for _, a := range opts.Assigns {
		name, val, ok := operandAssign(a)
		if !ok {
			fatal("invalid -v option argument: %s (not a valid var=value)", a)
		}
		in.assignGlobal(name, val)
	}
}

// beginEndCtl fails on a next or nextfile that a function called from a
// BEGIN or END action ran: there is no record to go on to. The parser
// rejects them in the action itself; gawk fails in the same way.
func beginEndCtl(c ctl, action string) {
	switch c {
	case ctlNext:
		fatal("next is illegal inside a function called from %s", action)
	case ctlNextFile:
		fatal("nextfile is illegal inside a function called from %s", action)
	}
}

// run executes BEGIN, the main loop and END.
func (in *interp) run() {
	p := in.prog
	exited := false
	for _, b := range p.begins {
		c := in.runBlock(b)
		if c == ctlExit {
			exited = true
			break
		}
		beginEndCtl(c, "BEGIN")
	}
	if !exited && (len(p.items) > 0 || len(p.ends) > 0) {
		for {
			rec, ok := in.nextMain()
			if !ok {
				break
			}
			in.incNR()
			in.setRecord(rec)
			c := in.runItems()
			if c == ctlExit {
				break
			}
			if c == ctlNextFile {
				in.skipFile()
			}
		}
	}
	for _, b := range p.ends {
		c := in.runBlock(b)
		if c == ctlExit {
			break
		}
		beginEndCtl(c, "END")
	}
}

func (in *interp) warn(format string, args ...any) {
	in.out.Flush()
	fmt.Fprintf(in.env.Stderr, "awk: "+format+"\n", args...)
}

// Commands returns the awk command.
func Commands() command.Registry {
	return command.RecoverAll(command.Registry{"awk": cmdAwk})
}

const usage = `Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:		GNU long options: (standard)
	-f progfile		--file=progfile
	-e program-text		--source=program-text
	-F fs			--field-separator=fs
	-v var=val		--assign=var=val
`

// cutSafe removes onetrueawk's "-safe" from the options in args, which
// Getopt would read as -s -a -f e, and reports whether it was there.
func cutSafe(args []string) ([]string, bool) {
	safe := false
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-safe":
			safe = true
			continue
		case a == "--" || a == "-" || !strings.HasPrefix(a, "-"):
			return append(out, args[i:]...), safe
		case (len(a) == 2 && strings.ContainsRune("FvfeW", rune(a[1])) || a == "--file" || a == "--source" || a == "--assign" || a == "--field-separator") && i+1 < len(args):
			// An option whose value is the next argument.
			out = append(out, a)
			i++
			a = args[i]
		}
		out = append(out, a)
	}
	return out, safe
}

// cmdAwk is the awk command: awk [-F fs] [-v var=val]... [-f progfile]...
// ['program'] [file | var=val]...
func cmdAwk(env *command.Env) int {
	args, safe := cutSafe(env.Args[1:])
	opts, operands, err := command.Getopt(args, "F:v:f:W:e:", []string{"field-separator=", "assign=", "file=", "source=", "version", "help"}, true)
	if err != nil {
		env.Errorf(2, "%v", err)
		fmt.Fprint(env.Stderr, usage)
		return 2
	}
	runOpts := Options{Safe: safe}
	var progFiles []string // -f files and -e sources: "f:NAME" and "e:TEXT"
	for _, o := range opts {
		switch o.Name {
		case "F", "field-separator":
			fs := o.Value
			runOpts.FS = &fs
		case "v", "assign":
			runOpts.Assigns = append(runOpts.Assigns, o.Value)
		case "f", "file":
			progFiles = append(progFiles, "f:"+o.Value)
		case "e", "source":
			progFiles = append(progFiles, "e:"+o.Value)
		case "version":
			fmt.Fprintln(env.Stdout, "awk (cordon) 1.0, a POSIX awk")
			return 0
		case "W":
			if strings.HasPrefix(o.Value, "v") {
				fmt.Fprintln(env.Stdout, "awk (cordon) 1.0, a POSIX awk")
				return 0
			}
		case "help":
			fmt.Fprint(env.Stdout, usage)
			return 0
		}
	}
	var src string
	// parts maps the lines of src to the program files they came from.
	var parts []srcPart
	if len(progFiles) == 0 {
		if len(operands) == 0 {
			fmt.Fprint(env.Stderr, usage)
			return 2
		}
		src = operands[0]
		operands = operands[1:]
	} else {
		var b strings.Builder
		for _, pf := range progFiles {
			parts = append(parts, srcPart{line: strings.Count(b.String(), "\n") + 1})
			if text, ok := strings.CutPrefix(pf, "e:"); ok {
				b.WriteString(text)
				b.WriteByte('\n')
				continue
			}
			parts[len(parts)-1].file = pf[2:]
			name := pf[2:]
			data, err := readAll(env, name)
			if err != nil {
				return env.Errorf(2, "fatal: can't open source file `%s' for reading: %s", name, command.Strerror(err))
			}
			b.Write(data)
			b.WriteByte('\n')
		}
		src = b.String()
	}
	for _, a := range runOpts.Assigns {
		if _, _, ok := operandAssign(a); !ok {
			return env.Errorf(2, "invalid -v option argument: %s (not a valid var=value)", a)
		}
	}
	prog, err := Compile(src)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			locate(se, parts)
			printSyntaxError(env, se)
			return 2
		}
		return env.Errorf(2, "%v", err)
	}
	for _, w := range prog.Warnings() {
		fmt.Fprintf(env.Stderr, "%s: %s\n", env.Args[0], w)
	}
	runOpts.Args = operands
	runOpts.Argv0 = env.Args[0]
	status, err := prog.Run(env.Ctx, env, runOpts)
	if err != nil {
		if command.IsCanceled(err) || env.Canceled() {
			// Stopped from outside: 130 and no message, as every command.
			return command.StatusCanceled
		}
		var we *writeError
		if errors.As(err, &we) && errors.Is(we.err, io.ErrClosedPipe) {
			return 2
		}
		var re *RuntimeError
		if errors.As(err, &re) && re.Line > 0 {
			// onetrueawk's second line, with the -f file of the line
			// when the program has more than one part.
			se := &SyntaxError{Line: re.Line}
			locate(se, parts)
			where := fmt.Sprintf(" source line number %d", se.Line)
			if se.File != "" && len(parts) > 1 {
				where += " source file " + se.File
			}
			return env.Errorf(2, "%v\n%s", err, where)
		}
		return env.Errorf(2, "%v", err)
	}
	return status
}

func readAll(env *command.Env, name string) ([]byte, error) {
	r, err := env.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// srcPart is one -f or -e program text in the program's source: the line
// of the source where it starts, and its file name ("" for -e).
type srcPart struct {
	line int
	file string
}

// locate makes the line of a syntax error relative to the program file it
// is in, as mawk reports it.
func locate(se *SyntaxError, parts []srcPart) {
	for i := len(parts) - 1; i >= 0; i-- {
		if se.Line >= parts[i].line {
			se.Line -= parts[i].line - 1
			se.File = parts[i].file
			return
		}
	}
}

// printSyntaxError prints a syntax error in onetrueawk's layout, with
// this awk's position prefix: the message, the source line with the
// offending token between ">>>" and "<<<" after " context is", and a last
// line, "syntax error at source line N" and "illegal statement" for an
// error inside an action, "bailing out" otherwise, followed by the
// brackets left unbalanced.
func printSyntaxError(env *command.Env, se *SyntaxError) {
	for _, w := range se.warnings {
		fmt.Fprintf(env.Stderr, "%s: %s\n", env.Args[0], w)
	}
	fmt.Fprintf(env.Stderr, "%s: %s\n", env.Args[0], se.Error())
	if se.Text != "" && len(se.Text) < 200 {
		col, end := se.Col, se.end
		if col < 0 || col > len(se.Text) {
			col, end = 0, len(se.Text)
		}
		end = min(max(end, col), len(se.Text))
		for end < len(se.Text) && !utf8.RuneStart(se.Text[end]) {
			end++
		}
		fmt.Fprintf(env.Stderr, " context is\n\t%s >>> %s <<< %s\n", se.Text[:col], se.Text[col:end], se.Text[end:])
	}
	last := "bailing out"
	if se.inAction {
		last = "illegal statement"
	}
	file := ""
	if se.File != "" {
		file = " source file " + se.File
	}
	fmt.Fprintf(env.Stderr, "%s: syntax error at source line %d%s: %s\n", env.Args[0], se.Line, file, last)
	for _, n := range se.notes {
		fmt.Fprintf(env.Stderr, "\t%s\n", n)
	}
}
