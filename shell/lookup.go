package shell

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"sync/atomic"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/cordonhq/cordon/shell/command"
)

// This file holds source and the call stack it shares with functions
// (FUNCNAME, BASH_SOURCE, BASH_LINENO, the file name in error messages),
// and the hash builtin.

// callFrame is a function call or a sourced file running.
type callFrame struct {
	name string // the function, or "source"
	file string // the file the code running comes from ("" for none)
	line int    // the line it was called from
}

// funcDef is what the shell remembers of where a function was defined.
type funcDef struct {
	src  string // the source text, for set -x
	file string // the file, for BASH_SOURCE and error messages
}

// curFile returns the file the code running comes from: the sourced
// file, the file a function was defined in, or the script's file; "" for
// code given as a string (bash -c).
func (r *runner) curFile() string {
	if n := len(r.calls); n > 0 {
		return r.calls[n-1].file
	}
	if r.invocation == 0 {
		return r.name
	}
	return ""
}

// defFile is the file of a function defined now: curFile, or for code
// given as a string what bash says, "environment" (bash -c) or "main"
// (standard input).
func (r *runner) defFile() string {
	if f := r.curFile(); f != "" {
		return f
	}
	if r.invocation == 's' {
		return "main"
	}
	return "environment"
}

// errName is the name error messages start with: the file the code
// running comes from, else the shell's name ($0).
func (r *runner) errName() string {
	if f := r.curFile(); f != "" {
		return f
	}
	return r.name
}

// callStackVar returns FUNCNAME, BASH_SOURCE or BASH_LINENO.
func (r *runner) callStackVar(name string) expand.Variable {
	if name == "FUNCNAME" && len(r.funcNames) == 0 {
		return expand.Variable{}
	}
	l := make([]string, 0, len(r.calls)+1)
	for i := len(r.calls) - 1; i >= 0; i-- {
		c := r.calls[i]
		switch name {
		case "FUNCNAME":
			l = append(l, c.name)
		case "BASH_SOURCE":
			f := c.file
			if f == "" {
				f = "environment"
			}
			l = append(l, f)
		default:
			l = append(l, fmt.Sprint(c.line))
		}
	}
	if r.invocation == 0 {
		// a script file is the bottom of the stack
		switch name {
		case "FUNCNAME":
			l = append(l, "main")
		case "BASH_SOURCE":
			l = append(l, r.name)
		default:
			l = append(l, "0")
		}
	}
	if len(l) == 0 {
		return expand.Variable{}
	}
	return expand.Variable{Set: true, Kind: expand.Indexed, List: l}
}

// funcFile returns the file a function body was defined in.
func (r *runner) funcDef(body *syntax.Stmt) (funcDef, bool) {
	d, ok := r.sh.funcDefs.Load(body)
	if !ok {
		return funcDef{}, false
	}
	return d.(funcDef), true
}

// sourceBuiltin runs a file of the VFS in the current shell.
func sourceBuiltin(r *runner, args []string) int {
	a := args[1:]
	if len(a) > 0 && a[0] == "--" {
		a = a[1:]
	}
	if len(a) == 0 {
		r.builtinErr(2, args[0], "filename argument required")
		fmt.Fprintf(r.stderr(), "%s: usage: %s filename [arguments]\n", args[0], args[0])
		return 2
	}
	name := a[0]
	var data []byte
	var err error
	if strings.HasPrefix(name, "/dev/") {
		// /dev/stdin, /dev/fd/N (a process substitution)
		data, err = r.readDevice(name)
	} else {
		p := r.sourcePath(name)
		fi, serr := r.sh.fs.Stat(p)
		if serr == nil && fi.IsDir() {
			return r.builtinErr(1, args[0], "%s: is a directory", name)
		}
		err = serr
		if err == nil {
			data, err = r.sh.fs.ReadFile(p)
		}
	}
	if err != nil {
		r.errf("%s: %s", name, command.Strerror(err))
		return 1
	}
	if r.depth >= r.sh.maxDepth {
		return r.builtinErr(1, args[0], "maximum nesting level exceeded (%d)", r.sh.maxDepth)
	}
	oldParams, oldSet := r.params, r.paramsSet
	withArgs := len(a) > 1
	if withArgs {
		r.params = a[1:]
	}
	r.paramsSet = false
	r.calls = append(r.calls, callFrame{name: "source", file: name, line: r.lineno})
	line := r.lineno
	st := r.evalString(string(data))
	r.lineno = line
	r.calls = r.calls[:len(r.calls)-1]
	// With arguments, the parameters come back, unless set changed them
	// outside any function (bash keeps those).
	if withArgs && (len(r.funcNames) > 0 || !r.paramsSet) {
		r.params = oldParams
	}
	r.paramsSet = oldSet || r.paramsSet
	// a return in the file (not in a function it called) ends the file
	r.returning = false
	return st
}

// sourcePath returns the file source reads for name: a name without a
// slash is looked for in $PATH (shopt sourcepath), then in the current
// directory.
func (r *runner) sourcePath(name string) string {
	if !strings.Contains(name, "/") && r.opts.shopt(shoptSourcepath) {
		for dir := range strings.SplitSeq(r.getVar("PATH"), ":") {
			if dir == "" {
				dir = "."
			}
			p := path.Join(r.abs(dir), name)
			if fi, err := r.sh.fs.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p
			}
		}
	}
	return r.abs(name)
}

// hashEntry is a remembered command location. Its hits are counted
// atomically: the entry may be shared with a subshell reading it.
type hashEntry struct {
	path string
	hits atomic.Int64
}

// hashTable returns the hash table for a change: a copy when a subshell
// shares it.
func (r *runner) hashTable() map[string]*hashEntry {
	switch {
	case r.hash == nil:
		r.hash = map[string]*hashEntry{}
	case r.hashShared:
		r.hash = maps.Clone(r.hash)
	}
	r.hashShared = false
	return r.hash
}

// hashUse records that the command name found in the directory dir of
// $PATH ran. A subshell does not: its table would go with it.
func (r *runner) hashUse(dir, name string) {
	if r.subLevel > 0 {
		return
	}
	if e, ok := r.hash[name]; ok && len(e.path) == len(dir)+1+len(name) &&
		strings.HasPrefix(e.path, dir) && strings.HasSuffix(e.path, name) && e.path[len(dir)] == '/' {
		e.hits.Add(1)
		return
	}
	if len(r.hash) >= maxHashed {
		return
	}
	e := &hashEntry{path: path.Join(dir, name)}
	e.hits.Store(1)
	r.hashTable()[name] = e
}

// maxHashed bounds the hash table.
const maxHashed = 1000

// hashBuiltin lists, adds and removes remembered command locations.
func hashBuiltin(r *runner, args []string) int {
	a := args[1:]
	var reset, list, del, show bool
	pathArg := ""
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && len(a[0]) > 1 {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		opt := a[0]
		a = a[1:]
		for i := 1; i < len(opt); i++ {
			switch opt[i] {
			case 'r':
				reset = true
			case 'l':
				list = true
			case 'd':
				del = true
			case 't':
				show = true
			case 'p':
				if len(a) == 0 {
					r.builtinErr(2, "hash", "-p: option requires an argument")
					fmt.Fprintln(r.stderr(), "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]")
					return 2
				}
				pathArg, a = a[0], a[1:]
			default:
				r.builtinErr(2, "hash", "-%c: invalid option", opt[i])
				fmt.Fprintln(r.stderr(), "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]")
				return 2
			}
		}
	}
	if reset {
		r.hash, r.hashShared = nil, false
	}
	if len(a) == 0 {
		if show || del {
			flag := "-t"
			if del {
				flag = "-d"
			}
			return r.builtinErr(1, "hash", "%s: option requires an argument", flag)
		}
		if reset || pathArg != "" {
			return 0
		}
		if len(r.hash) == 0 {
			fmt.Fprintln(r.stdout(), "hash: hash table empty")
			return 0
		}
		names := make([]string, 0, len(r.hash))
		for k := range r.hash {
			names = append(names, k)
		}
		slices.Sort(names)
		if !list {
			fmt.Fprintln(r.stdout(), "hits\tcommand")
		}
		for _, k := range names {
			e := r.hash[k]
			if list {
				fmt.Fprintf(r.stdout(), "builtin hash -p %s %s\n", e.path, k)
			} else {
				fmt.Fprintf(r.stdout(), "%4d\t%s\n", e.hits.Load(), e.path)
			}
		}
		return 0
	}
	st := 0
	for _, name := range a {
		switch {
		case pathArg != "":
			if len(r.hash) < maxHashed {
				r.hashTable()[name] = &hashEntry{path: pathArg}
			}
		case del:
			if _, ok := r.hash[name]; !ok {
				st = r.builtinErr(1, "hash", "%s: not found", name)
				continue
			}
			delete(r.hashTable(), name)
		case show:
			e, ok := r.hash[name]
			if !ok {
				st = r.builtinErr(1, "hash", "%s: not found", name)
				continue
			}
			if len(a) > 1 {
				fmt.Fprintf(r.stdout(), "%s\t%s\n", name, e.path)
			} else {
				fmt.Fprintln(r.stdout(), e.path)
			}
		default:
			if _, ok := builtins[name]; ok || strings.Contains(name, "/") {
				continue
			}
			if _, ok := r.funcs[name]; ok {
				continue
			}
			p := r.commandPath(name)
			if p == "" {
				st = r.builtinErr(1, "hash", "%s: not found", name)
				continue
			}
			if len(r.hash) < maxHashed {
				r.hashTable()[name] = &hashEntry{path: p}
			}
		}
	}
	return st
}

// typeAll describes every meaning of name for type -a (-t: kinds only,
// -p: paths only); it reports whether there was one.
func (r *runner) typeAll(name string, tflag, pflag bool) bool {
	found := false
	say := func(kind, text string) {
		found = true
		switch {
		case tflag:
			fmt.Fprintln(r.stdout(), kind)
		case !pflag:
			fmt.Fprintln(r.stdout(), text)
		}
	}
	if v, ok := r.aliases[name]; ok && v != "" {
		say("alias", fmt.Sprintf("%s is aliased to `%s'", name, v))
	}
	if keywords[name] {
		say("keyword", name+" is a shell keyword")
	}
	if _, ok := r.funcs[name]; ok {
		say("function", name+" is a function")
		if !tflag && !pflag {
			r.printFunc(name)
		}
	}
	if _, ok := builtins[name]; ok {
		say("builtin", name+" is a shell builtin")
	}
	for _, p := range r.commandPaths(name, true) {
		found = true
		switch {
		case tflag:
			fmt.Fprintln(r.stdout(), "file")
		case pflag:
			fmt.Fprintln(r.stdout(), p)
		default:
			fmt.Fprintf(r.stdout(), "%s is %s\n", name, p)
		}
	}
	return found
}

// readDevice reads all of an emulated device such as /dev/stdin or
// /dev/fd/63, up to maxCaptured bytes.
func (r *runner) readDevice(name string) ([]byte, error) {
	f, err := r.openFile(name, os.O_RDONLY, false)
	if err != nil {
		return nil, err
	}
	if f.r == nil {
		return nil, nil
	}
	return io.ReadAll(io.LimitReader(f.r, maxCaptured))
}
