package sysutils

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// cmdWhich implements which [-a] NAME...: the path of each program, as the
// shell's `type -P` finds it (it asks the shell, through Env.Exec running
// `builtin type -P`, so the two always agree): /usr/bin/NAME for the
// sandbox's commands and for the builtins that are programs on GNU
// systems (echo, printf, test, [, true, false, pwd), then the scripts in
// $PATH's directories. Functions, aliases and other builtins are not
// programs, as for GNU/Linux's which. -a prints every match. The status
// is 0 when every name is found, 1 when one is not, 2 for a bad option.
func cmdWhich(env *command.Env) int {
	all := false
	names := env.Args[1:]
	for len(names) > 0 && strings.HasPrefix(names[0], "-") && len(names[0]) > 1 {
		if names[0] == "--" {
			names = names[1:]
			break
		}
		for _, c := range names[0][1:] {
			if c != 'a' {
				fmt.Fprintf(env.Stderr, "Illegal option -%c\nUsage: %s [-a] args\n", c, env.Args[0])
				return 2
			}
			all = true
		}
		names = names[1:]
	}
	if env.Exec == nil {
		return env.Errorf(2, "cannot ask the shell here")
	}
	w := env.NewOutput()
	status := 0
	for _, name := range names {
		if env.Canceled() {
			return command.StatusCanceled
		}
		if strings.HasPrefix(name, "-") || name == "" {
			// No program is named so (and type would take it for an
			// option).
			status = 1
			continue
		}
		flag := "-P"
		if all {
			flag = "-aP"
		}
		var out bytes.Buffer
		st := env.Exec(env.Ctx, []string{"builtin", "type", flag, name}, nil, strings.NewReader(""), &out, io.Discard)
		// type -P reports a file without execute permission when
		// there is nothing better, as bash does; which, like GNU's,
		// reports programs only.
		found := false
		for line := range strings.SplitSeq(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if st != 0 || line == "" {
				continue
			}
			if _, err := env.FS.Stat(env.Abs(line)); err == nil && env.FS.Access(env.Abs(line), vfs.ExecOK) != nil {
				continue // a script of the VFS without execute permission
			}
			found = true
			if _, err := io.WriteString(w, line+"\n"); err != nil {
				return env.WriteError(err)
			}
		}
		if !found {
			status = 1
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return status
}
