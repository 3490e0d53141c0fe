package coreutils

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"syscall"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// cmdMkdir implements mkdir [-p] [-v] [-m MODE] DIR...
func cmdMkdir(env *command.Env) int {
	opts, dirs, st, ok := env.ParseOptions("pvm:", []string{"parents", "verbose", "mode="}, false)
	if !ok {
		return st
	}
	parents, verbose := false, false
	var perm fs.FileMode
	for _, o := range opts {
		switch o.Name {
		case "p", "parents":
			parents = true
		case "v", "verbose":
			verbose = true
		case "m", "mode":
			n, err := strconv.ParseUint(o.Value, 8, 32)
			if err != nil || n > 0o7777 {
				return env.Errorf(1, "invalid mode ‘%s’", o.Value)
			}
			perm = fs.FileMode(n) & fs.ModePerm
		}
	}
	if len(dirs) == 0 {
		return env.Usage(1, "missing operand", "")
	}
	status := 0
	for _, d := range dirs {
		if env.Canceled() {
			return command.StatusCanceled
		}
		if !parents {
			if err := env.FS.Mkdir(env.Abs(d), perm); err != nil {
				status = env.Errorf(1, "cannot create directory ‘%s’: %s", d, command.Strerror(err))
				continue
			}
			if verbose {
				fmt.Fprintf(env.Stdout, "mkdir: created directory '%s'\n", d)
			}
			continue
		}
		if st := mkdirParents(env, d, verbose, perm); st != 0 {
			status = st
		}
	}
	return status
}

// mkdirParents creates d and its missing parents, like mkdir -p.
// The mode applies to d itself; parents get the default mode.
func mkdirParents(env *command.Env, d string, verbose bool, perm fs.FileMode) int {
	var prefix string
	if strings.HasPrefix(d, "/") {
		prefix = "/"
	}
	parts := strings.Split(d, "/")
	for i, part := range parts {
		if part == "" {
			continue
		}
		if prefix != "" && !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		prefix += part
		if part == "." || part == ".." {
			continue
		}
		fi, err := stat(env, prefix)
		if err == nil {
			if !fi.IsDir() {
				if i == len(parts)-1 {
					return env.Errorf(1, "cannot create directory ‘%s’: File exists", d)
				}
				return env.Errorf(1, "cannot create directory ‘%s’: Not a directory", prefix)
			}
			continue
		}
		mode := fs.FileMode(0)
		if i == len(parts)-1 {
			mode = perm
		}
		if err := env.FS.Mkdir(env.Abs(prefix), mode); err != nil {
			return env.Errorf(1, "cannot create directory ‘%s’: %s", prefix, command.Strerror(err))
		}
		if verbose {
			fmt.Fprintf(env.Stdout, "mkdir: created directory '%s'\n", prefix)
		}
	}
	return 0
}

// cmdRmdir implements rmdir [-p] [-v] DIR...
func cmdRmdir(env *command.Env) int {
	opts, dirs, st, ok := env.ParseOptions("pv", []string{"parents", "verbose", "ignore-fail-on-non-empty"}, false)
	if !ok {
		return st
	}
	parents, verbose, ignore := false, false, false
	for _, o := range opts {
		switch o.Name {
		case "p", "parents":
			parents = true
		case "v", "verbose":
			verbose = true
		case "ignore-fail-on-non-empty":
			ignore = true
		}
	}
	if len(dirs) == 0 {
		return env.Usage(1, "missing operand", "")
	}
	status := 0
	for _, d := range dirs {
		for {
			if env.Canceled() {
				return command.StatusCanceled
			}
			err := rmdirOne(env, d)
			if err != nil {
				if !(ignore && vfs.Code(err) == "ENOTEMPTY") {
					status = env.Errorf(1, "failed to remove '%s': %s", d, command.Strerror(err))
				}
				break
			}
			if verbose {
				fmt.Fprintf(env.Stdout, "rmdir: removing directory, '%s'\n", d)
			}
			if !parents {
				break
			}
			d = path.Dir(strings.TrimRight(d, "/"))
			if d == "." || d == "/" {
				break
			}
		}
	}
	return status
}

// rmdirOne removes the empty directory d.
func rmdirOne(env *command.Env, d string) error {
	fi, err := stat(env, d)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &fs.PathError{Op: "rmdir", Path: d, Err: errNotDir}
	}
	return env.FS.Remove(env.Abs(d))
}

// errNotDir is the errno for a path component that is not a directory.
var errNotDir error = syscall.ENOTDIR

// rmOptions are the options of rm.
type rmOptions struct {
	recursive, force, verbose, dir bool
}

// cmdRm implements rm [-rRfvd] FILE...
func cmdRm(env *command.Env) int {
	opts, names, st, ok := env.ParseOptions("rRfvdiI", []string{"recursive", "force", "verbose", "dir", "no-preserve-root", "preserve-root"}, false)
	if !ok {
		return st
	}
	var o rmOptions
	for _, op := range opts {
		switch op.Name {
		case "r", "R", "recursive":
			o.recursive = true
		case "f", "force":
			o.force = true
		case "v", "verbose":
			o.verbose = true
		case "d", "dir":
			o.dir = true
		}
	}
	if len(names) == 0 {
		if o.force {
			return 0
		}
		return env.Usage(1, "missing operand", "")
	}
	status := 0
	for _, name := range names {
		if env.Canceled() {
			return command.StatusCanceled
		}
		base := path.Base(strings.TrimRight(name, "/"))
		if o.recursive && (base == "." || base == "..") {
			status = env.Errorf(1, "refusing to remove '.' or '..' directory: skipping '%s'", name)
			continue
		}
		if env.Abs(name) == "/" && o.recursive {
			env.Errorf(1, "it is dangerous to operate recursively on '/'")
			status = env.Errorf(1, "use --no-preserve-root to override this failsafe")
			continue
		}
		if st := rmOne(env, name, o); st != 0 {
			if st == command.StatusCanceled {
				return st
			}
			status = st
		}
	}
	return status
}

// rmOne removes name, recursively with -r.
func rmOne(env *command.Env, name string, o rmOptions) int {
	fi, err := stat(env, name)
	if err != nil {
		if o.force && isNotExist(err) {
			return 0
		}
		return env.Errorf(1, "cannot remove '%s': %s", name, command.Strerror(err))
	}
	if fi.IsDir() {
		if !o.recursive {
			if o.dir {
				return rmRemove(env, name, true, o)
			}
			return env.Errorf(1, "cannot remove '%s': Is a directory", name)
		}
		list, err := env.FS.ReadDir(env.Abs(name))
		if err != nil {
			return env.Errorf(1, "cannot remove '%s': %s", name, command.Strerror(err))
		}
		status := 0
		for _, de := range list {
			if env.Canceled() {
				return command.StatusCanceled
			}
			if st := rmOne(env, joinName(name, de.Name()), o); st != 0 {
				if st == command.StatusCanceled {
					return st
				}
				status = st
			}
		}
		if st := rmRemove(env, name, true, o); st != 0 {
			status = st
		}
		return status
	}
	return rmRemove(env, name, false, o)
}

// rmRemove removes one file or empty directory and reports it with -v.
func rmRemove(env *command.Env, name string, dir bool, o rmOptions) int {
	if err := env.FS.Remove(env.Abs(name)); err != nil {
		if o.force && isNotExist(err) {
			return 0
		}
		return env.Errorf(1, "cannot remove '%s': %s", name, command.Strerror(err))
	}
	if o.verbose {
		if dir {
			fmt.Fprintf(env.Stdout, "removed directory '%s'\n", name)
		} else {
			fmt.Fprintf(env.Stdout, "removed '%s'\n", name)
		}
	}
	return 0
}

// joinName appends a child name to a name as given by the user, keeping
// its form ("d/" + "x" is "d/x", "." + "x" is "./x").
func joinName(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}
