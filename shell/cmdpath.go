package shell

import (
	"path"
	"strings"
)

// programBuiltins are the builtins that are also programs on GNU systems
// (/usr/bin/echo, ...): type -P and which find them there, as bash's type
// -P and which do on such a system.
var programBuiltins = map[string]bool{"echo": true, "printf": true, "test": true, "[": true, "true": true, "false": true, "pwd": true}

// commandPaths returns where a command name is found as a program, in the
// order the shell would run them: "/usr/bin/NAME" for the sandbox's
// commands (sh and bash, and the builtins that are programs on GNU systems,
// included), then the scripts in the $PATH directories of the file system,
// executable ones first. A name holding a slash is itself, when it names
// a file. Only the first is returned unless all is set.
func (r *runner) commandPaths(name string, all bool) []string {
	if name == "" {
		return nil
	}
	if strings.Contains(name, "/") {
		if fi, err := r.sh.fs.Stat(r.abs(name)); err == nil && !fi.IsDir() {
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
	var plain []string
	for _, dir := range strings.Split(r.getVar("PATH"), ":") {
		if dir == "" {
			dir = "."
		}
		p := path.Join(r.abs(dir), name)
		fi, err := r.sh.fs.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if fi.Mode()&0o111 == 0 {
			plain = append(plain, p)
			continue
		}
		out = append(out, p)
		if !all {
			return out
		}
	}
	if len(out) == 0 && len(plain) > 0 {
		// Like execvp, a file that is not executable is run when there is
		// nothing better.
		return plain[:1]
	}
	return out
}

// commandPath returns the first of commandPaths, or "".
func (r *runner) commandPath(name string) string {
	if p := r.commandPaths(name, false); len(p) > 0 {
		return p[0]
	}
	return ""
}
