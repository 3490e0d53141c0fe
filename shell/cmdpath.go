package shell

import (
	"path"
	"strings"

	"github.com/cordonhq/cordon/vfs"
)

// programBuiltins are the builtins that are also programs on GNU systems
// (/usr/bin/echo, ...): type -P and which find them there, as bash's type
// -P and which do on such a system.
var programBuiltins = map[string]bool{"echo": true, "printf": true, "test": true, "[": true, "true": true, "false": true, "pwd": true}

// commandPaths returns where a command name is found as a program, in the
// order the shell would run them: "/usr/bin/NAME" for the sandbox's
// commands (sh and bash, and the builtins that are programs on GNU systems,
// included), then the scripts in the $PATH directories of the file system,
// executable ones only. A name holding a slash is itself, when it names
// an executable file. Only the first is returned unless all is set.
func (r *runner) commandPaths(name string, all bool) []string {
	if name == "" {
		return nil
	}
	if strings.Contains(name, "/") {
		if fi, err := r.sh.fs.Stat(r.abs(name)); err == nil && !fi.IsDir() && r.sh.fs.Access(r.abs(name), vfs.ExecOK) == nil {
			return []string{name}
		}
		return nil
	}
	var out []string
	if _, ok := r.sh.commands[name]; ok || name == "sh" || name == "bash" || programBuiltins[name] {
		out = append(out, "/usr/bin/"+name)
		if !all {
			return out
		}
	}
	scripts, _ := r.pathScripts(name, all)
	return append(out, scripts...)
}

// pathScripts returns the files named name in the $PATH directories of the
// file system, in the order of $PATH (an empty entry is the current
// directory): the executable ones, only the first unless all is set, and
// the first one that is not executable, before the first executable one
// when all is not set.
func (r *runner) pathScripts(name string, all bool) (executable []string, plain string) {
	for _, dir := range strings.Split(r.getVar("PATH"), ":") {
		if dir == "" {
			dir = "."
		}
		p := path.Join(r.abs(dir), name)
		fi, err := r.sh.fs.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if r.sh.fs.Access(p, vfs.ExecOK) != nil {
			if plain == "" {
				plain = p
			}
			continue
		}
		executable = append(executable, p)
		if !all {
			break
		}
	}
	return executable, plain
}

// commandPath returns the first of commandPaths, or "".
func (r *runner) commandPath(name string) string {
	if p := r.commandPaths(name, false); len(p) > 0 {
		return p[0]
	}
	return ""
}
