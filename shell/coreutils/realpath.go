package coreutils

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// resolveMode says which components must exist for realpath.
type resolveMode int

// The resolve modes.
const (
	resolveParent  resolveMode = iota // all but the last component
	resolveAll                        // every component (-e)
	resolveMissing                    // none (-m)
)

// resolvePath returns the absolute form of name, checking existence as mode
// asks. The file system has no symbolic links, so this only cleans the path.
func resolvePath(env *command.Env, name string, mode resolveMode) (string, error) {
	if name == "" {
		return "", &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	if mode == resolveMissing {
		return env.Abs(name), nil
	}
	raw := name
	if !strings.HasPrefix(raw, "/") {
		raw = env.Dir + "/" + raw
	}
	var comps []string
	for _, c := range strings.Split(raw, "/") {
		if c != "" && c != "." {
			comps = append(comps, c)
		}
	}
	p := "/"
	for i, c := range comps {
		if c == ".." {
			p = path.Dir(p)
			continue
		}
		p = path.Join(p, c)
		fi, err := env.FS.Stat(p)
		last := i == len(comps)-1
		switch {
		case err != nil && last && mode == resolveParent:
			return p, nil
		case err != nil:
			return "", err
		case !last && !fi.IsDir():
			return "", &fs.PathError{Op: "stat", Path: p, Err: errNotDir}
		}
	}
	return p, nil
}

// cmdRealpath implements realpath [-e|-m] [-s] [-q] [-z] FILE...
func cmdRealpath(env *command.Env) int {
	opts, names, st, ok := env.ParseOptions("emsqzL P", []string{"canonicalize-existing", "canonicalize-missing", "strip", "no-symlinks", "quiet", "zero", "relative-to=", "relative-base=", "logical", "physical"}, false)
	if !ok {
		return st
	}
	mode, quiet, end := resolveParent, false, "\n"
	relTo := ""
	for _, o := range opts {
		switch o.Name {
		case "e", "canonicalize-existing":
			mode = resolveAll
		case "m", "canonicalize-missing":
			mode = resolveMissing
		case "q", "quiet":
			quiet = true
		case "z", "zero":
			end = "\x00"
		case "relative-to":
			relTo = env.Abs(o.Value)
		}
	}
	if len(names) == 0 {
		return env.Usage(1, "missing operand", "")
	}
	status := 0
	for _, name := range names {
		p, err := resolvePath(env, name, mode)
		if err != nil {
			if !quiet {
				env.FileError(1, name, err)
			}
			status = 1
			continue
		}
		if relTo != "" {
			p = relativePath(relTo, p)
		}
		fmt.Fprint(env.Stdout, p+end)
	}
	return status
}

// relativePath returns target relative to the directory base.
func relativePath(base, target string) string {
	bs := strings.Split(strings.Trim(base, "/"), "/")
	ts := strings.Split(strings.Trim(target, "/"), "/")
	if base == "/" {
		bs = nil
	}
	if target == "/" {
		ts = nil
	}
	i := 0
	for i < len(bs) && i < len(ts) && bs[i] == ts[i] {
		i++
	}
	var parts []string
	for range bs[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, ts[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

// cmdReadlink implements readlink [-f|-e|-m] [-n] [-z] FILE... Without -f,
// -e or -m it fails, as there are no symbolic links.
func cmdReadlink(env *command.Env) int {
	opts, names, st, ok := env.ParseOptions("femnqsvz", []string{"canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "verbose", "zero"}, false)
	if !ok {
		return st
	}
	mode, canon, end, verbose := resolveParent, false, "\n", false
	for _, o := range opts {
		switch o.Name {
		case "f", "canonicalize":
			mode, canon = resolveParent, true
		case "e", "canonicalize-existing":
			mode, canon = resolveAll, true
		case "m", "canonicalize-missing":
			mode, canon = resolveMissing, true
		case "n", "no-newline":
			end = ""
		case "z", "zero":
			end = "\x00"
		case "v", "verbose":
			verbose = true
		}
	}
	if len(names) == 0 {
		return env.Usage(1, "missing operand", "")
	}
	status := 0
	for _, name := range names {
		if !canon {
			if verbose {
				if _, err := stat(env, name); err != nil {
					env.FileError(1, name, err)
				} else {
					env.Errorf(1, "%s: Invalid argument", name)
				}
			}
			status = 1
			continue
		}
		p, err := resolvePath(env, name, mode)
		if err != nil {
			if verbose {
				env.FileError(1, name, err)
			}
			status = 1
			continue
		}
		fmt.Fprint(env.Stdout, p+end)
	}
	return status
}
