package coreutils

import (
	"io/fs"
	"strconv"

	"github.com/cordonhq/cordon/shell/command"
)

// cmdDu implements du [-a] [-s] [-h] [-c] [-b] [-k] [-d N] [FILE]... Sizes
// are in 1 KiB blocks with 4 KiB allocation units (directories count 4).
func cmdDu(env *command.Env) int {
	opts, names, st, ok := env.ParseOptions("ashcbkd:mx", []string{"all", "summarize", "human-readable", "total", "bytes", "max-depth=", "apparent-size", "one-file-system"}, false)
	if !ok {
		return st
	}
	var o duOptions
	o.maxDepth = -1
	total := false
	for _, op := range opts {
		switch op.Name {
		case "a", "all":
			o.all = true
		case "s", "summarize":
			o.maxDepth = 0
		case "h", "human-readable":
			o.human = true
		case "c", "total":
			total = true
		case "b", "bytes":
			o.bytes = true
		case "apparent-size":
			o.apparent = true
		case "m":
			o.mega = true
		case "d", "max-depth":
			n, err := strconv.Atoi(op.Value)
			if err != nil || n < 0 {
				return env.Errorf(1, "invalid maximum depth ‘%s’", op.Value)
			}
			o.maxDepth = n
		}
	}
	if len(names) == 0 {
		names = []string{"."}
	}
	w := env.NewOutput()
	o.w = w
	status := 0
	var sum int64
	for _, name := range names {
		fi, err := stat(env, name)
		if err != nil {
			w.Flush()
			status = env.Errorf(1, "cannot access '%s': %s", name, command.Strerror(err))
			continue
		}
		n, st := duWalk(env, &o, name, fi, 0)
		if st == command.StatusCanceled {
			return st
		}
		if st != 0 {
			status = st
		}
		sum += n
	}
	if total {
		o.print("total", sum)
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return status
}

// duOptions are the options of du.
type duOptions struct {
	all, human, bytes, apparent, mega bool
	maxDepth                          int
	w                                 interface{ WriteString(string) (int, error) }
	seen                              map[string]bool // files already counted, by absolute path
}

// size returns the size du counts for one file, in bytes.
func (o *duOptions) size(fi fs.FileInfo) int64 {
	if o.bytes || o.apparent {
		if fi.IsDir() {
			return 4096
		}
		return fi.Size()
	}
	return lsBlocks(fi) * 1024
}

// print prints one du line in the selected unit.
func (o *duOptions) print(name string, n int64) {
	var s string
	switch {
	case o.human:
		s = humanSize(n)
	case o.bytes:
		s = strconv.FormatInt(n, 10)
	case o.mega:
		s = strconv.FormatInt((n+(1<<20)-1)>>20, 10)
	default:
		s = strconv.FormatInt((n+1023)/1024, 10)
	}
	o.w.WriteString(s + "\t" + name + "\n")
}

// duWalk returns the size of name and its contents in bytes, printing
// lines as du does.
func duWalk(env *command.Env, o *duOptions, name string, fi fs.FileInfo, depth int) (int64, int) {
	if env.Canceled() {
		return 0, command.StatusCanceled
	}
	// Like GNU du, count each file once, even if named twice.
	abs := env.Abs(name)
	if o.seen[abs] {
		return 0, 0
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	o.seen[abs] = true
	n := o.size(fi)
	status := 0
	if fi.IsDir() {
		list, err := env.FS.ReadDir(env.Abs(name))
		if err != nil {
			status = env.Errorf(1, "cannot read directory '%s': %s", name, command.Strerror(err))
		}
		for _, de := range list {
			cfi, err := de.Info()
			if err != nil {
				continue
			}
			c, st := duWalk(env, o, joinName(name, de.Name()), cfi, depth+1)
			if st == command.StatusCanceled {
				return 0, st
			}
			if st != 0 {
				status = st
			}
			n += c
		}
	}
	if (fi.IsDir() || o.all || depth == 0) && (o.maxDepth < 0 || depth <= o.maxDepth) {
		o.print(name, n)
	}
	return n, status
}
