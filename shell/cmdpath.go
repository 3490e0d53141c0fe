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

// systemDirs are the directories where the sandbox's commands are, as on
// a GNU system whose /bin is /usr/bin.
var systemDirs = map[string]bool{"/usr/bin": true, "/bin": true}

// isProgram reports whether name is one of the sandbox's commands, found
// in the systemDirs: the registered commands, sh and bash, and the
// builtins that are programs on GNU systems.
func (r *runner) isProgram(name string) bool {
	_, ok := r.sh.commands[name]
	return ok || name == "sh" || name == "bash" || programBuiltins[name]
}

// searchPath returns $PATH; unset, it is the current directory, as in
// bash, or for a command that another runs (env, xargs), execvp's
// default path.
func (r *runner) searchPath() string {
	if v, _ := r.lookup("PATH"); v != nil && v.Set {
		return v.String()
	}
	if r.execvp {
		return "/bin:/usr/bin"
	}
	return "."
}

// lookProgram reports whether name runs as one of the sandbox's
// programs: whether $PATH has a directory of systemDirs before any that
// holds an executable file of that name; it returns that directory. It
// allocates nothing in the common case of a PATH that starts with one.
func (r *runner) lookProgram(name string) (string, bool) {
	if !r.isProgram(name) {
		return "", false
	}
	rest := r.searchPath()
	for {
		dir, tail, more := strings.Cut(rest, ":")
		if systemDirs[dir] {
			return dir, true
		}
		if dir == "" {
			dir = "."
		}
		if fi, err := r.sh.fs.Stat(path.Join(r.abs(dir), name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return "", false
		}
		if !more {
			return "", false
		}
		rest = tail
	}
}

// commandPaths returns where a command name is found as a program, in the
// order of $PATH (an empty entry is the current directory): DIR/NAME for
// the sandbox's commands in a directory of systemDirs, and the executable
// scripts of the file system (when none is, the first file that is not,
// as bash's command -v and type report it; running it is then refused).
// A name holding a slash is itself, when it names an executable file.
// Only the first is returned unless all is set.
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
	out, plain := r.pathScripts(name, all)
	if len(out) == 0 && plain != "" {
		return []string{plain}
	}
	return out
}

// pathScripts returns where name is found in the $PATH directories: the
// sandbox's commands in systemDirs and the executable files of the file
// system, only the first unless all is set, and the first file that is
// not executable.
func (r *runner) pathScripts(name string, all bool) (executable []string, plain string) {
	program := r.isProgram(name)
	for dir := range strings.SplitSeq(r.searchPath(), ":") {
		if dir == "" {
			dir = "."
		}
		if program && systemDirs[dir] {
			executable = append(executable, dir+"/"+name)
			if !all {
				break
			}
			continue
		}
		p := dir + "/" + name // as bash shows it: relative when dir is
		if strings.HasSuffix(dir, "/") {
			p = dir + name
		}
		fi, err := r.sh.fs.Stat(r.abs(p))
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
