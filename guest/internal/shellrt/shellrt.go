// Package shellrt runs shell scripts inside the cordon guest. It wires the
// shell evaluator (package shell) to the sandbox: the commands of
// shell/coreutils, shell/textutils, shell/awk, shell/jq, shell/diffutil,
// shell/archive, shell/textproc, shell/sysutils, shell/fileutils and
// shell/hexfmt, the `tool` command that
// calls host tools through the policy, `node`/`js` that run JavaScript in
// the same sandbox, and shell/netutils' curl and wget over the host's fetch
// tool (fetch.go). `sh` and `bash` are the shell package's own: they run a
// script in a fresh child shell state.
//
// Shell state (variables, functions, the working directory) lives for one
// execution; only the file system persists between executions.
//
// The package is portable Go; its tests run it natively with a fake host.
package shellrt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/cordonhq/cordon/guest/internal/hub"
	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/commands"
)

// Options configures one shell execution.
type Options struct {
	// Common is what every interpreter of the execution takes; node -e
	// runs JavaScript with it. Its MaxCallDepth also bounds the shell's
	// nesting of functions, command substitutions, eval and source (see
	// shell.Config.MaxDepth).
	jsrt.Common
	// Stdin, Stdout and Stderr default to empty input and the host's
	// output streams.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Now is the clock for date and file times (default time.Now).
	Now func() time.Time
}

// Outcome is how a shell execution ended: ExitCode is the script's exit
// status; ErrCode is abi.CodeInterrupted when the host stopped it, and
// abi.CodeException when the script could not start.
type Outcome struct {
	ExitCode int
	ErrCode  abi.ErrCode
	ErrMsg   string
}

// hostWriter sends output to the host as it is written.
type hostWriter struct {
	h  hub.Host
	fd int
}

func (w hostWriter) Write(p []byte) (int, error) {
	w.h.Write(w.fd, p)
	return len(p), nil
}

// Run runs a shell script. Output streams to the host (or opts.Stdout and
// opts.Stderr) as the script writes it.
func Run(opts Options, name, script string) Outcome {
	if opts.Hub == nil {
		opts.Hub = hub.New(opts.Host)
	}
	if opts.Cwd == "" {
		opts.Cwd = "/workspace"
	}
	if opts.Stdout == nil {
		opts.Stdout = hostWriter{opts.Host, 1}
	}
	if opts.Stderr == nil {
		opts.Stderr = hostWriter{opts.Host, 2}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	var flag uint32
	leave, err := opts.Hub.Enter(&flag)
	if err != nil {
		fmt.Fprintf(opts.Stderr, "%s: %v\n", name, err)
		return Outcome{ExitCode: 1, ErrCode: abi.CodeException, ErrMsg: err.Error()}
	}
	defer leave()
	rt := &runtime{opts: opts}
	// An execution runs its script as bash runs a script file (its
	// messages name the script, as `bash script.sh` does).
	status, err := rt.run(opts.Hub.Context(), opts.Cwd, opts.Stdin, opts.Stdout, opts.Stderr, name, script, true, nil, nil)
	if err != nil || opts.Hub.Interrupted() {
		return Outcome{ExitCode: status, ErrCode: abi.CodeInterrupted, ErrMsg: "script interrupted"}
	}
	return Outcome{ExitCode: status}
}

type runtime struct {
	opts     Options
	once     sync.Once
	commands command.Registry
}

// builtinCommands are the commands that do not depend on the run, built
// once: building them was a sixth of running `echo hi`. They hold no state,
// so every run may share them.
var builtinCommands = sync.OnceValue(func() command.Registry {
	return commands.All()
})

func (rt *runtime) registry() command.Registry {
	rt.once.Do(func() {
		r := maps.Clone(builtinCommands())
		tc := &toolCommand{tools: rt.opts.Tools, hub: rt.opts.Hub}
		r["tool"] = tc.run
		r["node"] = rt.node
		r["js"] = rt.node
		r.Merge(netCommands(rt.opts.Tools, rt.opts.Hub))
		rt.commands = r
	})
	return rt.commands
}

// run runs script in the sandbox's shell: as bash runs a script file when
// file is set (an execution), else as bash -c runs a string (shell()).
func (rt *runtime) run(ctx context.Context, dir string, stdin io.Reader, stdout, stderr io.Writer, name, script string, file bool, args, environ []string) (int, error) {
	return shell.Run(ctx, shell.Config{
		File:     file,
		Env:      environ,
		FS:       rt.opts.FS,
		Commands: rt.registry(),
		Stdin:    stdin,
		Stdout:   stdout,
		Stderr:   stderr,
		Dir:      dir,
		Now:      rt.opts.Now,
		Args:     args,
		MaxDepth: rt.opts.MaxCallDepth,
	}, name, script)
}

// node runs JavaScript in the same sandbox: `node -e CODE`, `node -p EXPR`
// (prints the value) or `node FILE`. Extra arguments are not visible to
// the script (there is no process object).
func (rt *runtime) node(env *command.Env) int {
	args := env.Args[1:]
	var code, name string
	switch {
	case len(args) >= 2 && (args[0] == "-e" || args[0] == "--eval"):
		code, name = args[1], "[eval]"
	case len(args) >= 2 && (args[0] == "-p" || args[0] == "--print"):
		code, name = "return ("+args[1]+"\n)", "[eval]"
	case len(args) >= 1 && !strings.HasPrefix(args[0], "-"):
		b, err := env.FS.ReadFile(env.Abs(args[0]))
		if err != nil {
			return env.Errorf(1, "cannot open %s: %s", args[0], command.Strerror(err))
		}
		code, name = string(b), args[0]
	case len(args) == 0:
		b, err := io.ReadAll(io.LimitReader(env.Stdin, 16<<20))
		if err != nil {
			return env.Errorf(1, "reading the script: %v", err)
		}
		code, name = string(b), "[stdin]"
	default:
		return env.Errorf(9, "usage: %s -e CODE | -p EXPR | FILE", env.Args[0])
	}
	var mu sync.Mutex
	var werr error
	write := func(fd int, p []byte) {
		mu.Lock()
		defer mu.Unlock()
		w := env.Stdout
		if fd == 2 {
			w = env.Stderr
		}
		if _, err := w.Write(p); err != nil && werr == nil {
			werr = err
		}
	}
	common := rt.opts.Common
	common.Cwd = env.Dir
	out := jsrt.Run(jsrt.Options{Common: common, Write: write, Shell: rt.Capture}, name, code)
	if out.ErrCode == abi.CodeInterrupted {
		return 130
	}
	if werr != nil && out.ExitCode == 0 {
		return 1
	}
	return out.ExitCode
}

// maxCapture bounds the stdout and stderr that shell() returns to a script.
const maxCapture = 16 << 20

// Capture runs a command line for JavaScript's shell() and returns what it
// printed. Output past maxCapture is dropped and a note appended to stderr.
func (rt *runtime) Capture(cmd, cwd string) (stdout, stderr []byte, exitCode int) {
	var out, errb limitedBuffer
	out.max, errb.max = maxCapture, maxCapture
	status, err := rt.run(rt.opts.Hub.Context(), cwd, nil, &out, &errb, "shell", cmd, false, nil, nil)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(&errb, "shell: %v\n", err)
	}
	if out.dropped || errb.dropped {
		errb.buf.WriteString("shell: output truncated at 16 MiB\n")
	}
	return out.buf.Bytes(), errb.buf.Bytes(), status
}

// Capture runs a command line as JavaScript's shell() does, for a JS
// execution at the top level (the guest's server wires it into jsrt).
func Capture(opts Options) func(cmd, cwd string) ([]byte, []byte, int) {
	rt := &runtime{opts: opts}
	return rt.Capture
}

type limitedBuffer struct {
	buf     bytes.Buffer
	max     int
	dropped bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.dropped = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}
