package fileutils

import (
	"bufio"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// treeOptions are the settings of one tree command.
type treeOptions struct {
	all, dirsOnly, fullPath, noIndent, classify, dirsFirst, noReport bool
	level                                                            int // 0: no limit
	ignore, pattern                                                  []string
}

// treeRun is one tree command.
type treeRun struct {
	env         *command.Env
	o           treeOptions
	w           *bufio.Writer
	dirs, files int
	err         error
	canceled    bool
}

// cmdTree implements tree [-adfFi] [-L LEVEL] [-I PATTERN] [-P PATTERN]
// [--dirsfirst] [--noreport] [DIR]...: the directory trees drawn with
// tree 2.x's lines, names in byte order (dot files only with -a), then
// "N directories, M files". -n and -C are accepted; output is never
// colored, standard output never being a terminal.
func cmdTree(env *command.Env) int {
	opts, dirs, st, ok := env.ParseOptions("adfFiL:I:P:nC", []string{"dirsfirst", "noreport", "level=", "prune"}, false)
	if !ok {
		return st
	}
	t := &treeRun{env: env}
	for _, o := range opts {
		switch o.Name {
		case "a":
			t.o.all = true
		case "d":
			t.o.dirsOnly = true
		case "f":
			t.o.fullPath = true
		case "F":
			t.o.classify = true
		case "i":
			t.o.noIndent = true
		case "L", "level":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 1 {
				fmt.Fprintf(env.Stderr, "tree: Invalid level, must be greater than 0.\n")
				return 1
			}
			t.o.level = n
		case "I":
			t.o.ignore = append(t.o.ignore, strings.Split(o.Value, "|")...)
		case "P":
			t.o.pattern = append(t.o.pattern, strings.Split(o.Value, "|")...)
		case "dirsfirst":
			t.o.dirsFirst = true
		case "noreport":
			t.o.noReport = true
		}
	}
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	t.w = env.NewOutput()
	status := 0
	for _, d := range dirs {
		fi, err := env.FS.Stat(env.Abs(d))
		switch {
		case err != nil:
			fmt.Fprintf(t.w, "%s  [error opening dir]\n", d)
			status = 2
			continue
		case !fi.IsDir():
			fmt.Fprintf(t.w, "%s\n", d)
			t.files++
			continue
		}
		fmt.Fprintf(t.w, "%s\n", d)
		t.walk(d, env.Abs(d), "", 1)
		if t.canceled {
			return command.StatusCanceled
		}
		if t.err != nil {
			return env.WriteError(t.err)
		}
	}
	if !t.o.noReport {
		fmt.Fprintf(t.w, "\n%s", plural(t.dirs, "directory", "directories"))
		if !t.o.dirsOnly {
			fmt.Fprintf(t.w, ", %s", plural(t.files, "file", "files"))
		}
		t.w.WriteByte('\n')
	}
	if err := t.w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return status
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// matchAny reports whether name matches one of the wildcard patterns.
func matchAny(pats []string, name string) bool {
	for _, p := range pats {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// walk draws the entries of the directory abs (shown as shown) at depth.
func (t *treeRun) walk(shown, abs, prefix string, depth int) {
	if t.o.level > 0 && depth > t.o.level {
		return
	}
	if t.env.Canceled() {
		t.canceled = true
		return
	}
	ents, err := t.env.FS.ReadDir(abs)
	if err != nil {
		return
	}
	type entry struct {
		name string
		dir  bool
	}
	var list []entry
	for _, e := range ents {
		name := e.Name()
		if !t.o.all && strings.HasPrefix(name, ".") {
			continue
		}
		dir := e.IsDir()
		if matchAny(t.o.ignore, name) {
			continue
		}
		if t.o.dirsOnly && !dir {
			continue
		}
		if !dir && len(t.o.pattern) > 0 && !matchAny(t.o.pattern, name) {
			continue
		}
		list = append(list, entry{name, dir})
	}
	slices.SortFunc(list, func(a, b entry) int {
		if t.o.dirsFirst && a.dir != b.dir {
			if a.dir {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	for i, e := range list {
		last := i == len(list)-1
		branch, next := "├── ", "│   "
		if last {
			branch, next = "└── ", "    "
		}
		if t.o.noIndent {
			branch, next = "", ""
		}
		label := e.name
		if t.o.fullPath {
			label = path.Join(shown, e.name)
			if shown == "." {
				label = "./" + e.name
			}
		}
		if t.o.classify && e.dir {
			label += "/"
		}
		t.w.WriteString(prefix)
		t.w.WriteString(branch)
		t.w.WriteString(label)
		if _, err := t.w.Write([]byte{'\n'}); err != nil {
			t.err = err
			return
		}
		if e.dir {
			t.dirs++
			childShown := path.Join(shown, e.name)
			if shown == "." {
				childShown = "./" + e.name
			}
			t.walk(childShown, path.Join(abs, e.name), prefix+next, depth+1)
			if t.canceled || t.err != nil {
				return
			}
		} else {
			t.files++
		}
	}
}
