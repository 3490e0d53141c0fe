package coreutils

import (
	"bufio"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
)

// lsOptions are the options of ls.
type lsOptions struct {
	all, almostAll, long, recursive, dirs, human, reverse bool
	sortBy                                                byte // 'n' name, 't' time, 'S' size, 'U' none
	classify, slash, noGroup, inode                       bool
	now                                                   time.Time
}

// lsEntry is one listed name.
type lsEntry struct {
	name string // as shown
	path string // absolute
	info fs.FileInfo
}

// cmdLs implements ls [-1aAdFhlRrSt...] [FILE]... Output is always one name
// per line (standard output is never a terminal). In the long format every
// file is owned by "user user"; directory sizes are shown as 4096 and block
// totals assume 4 KiB blocks.
func cmdLs(env *command.Env) int {
	env2 := *env
	env2.Args = nil
	for _, a := range env.Args {
		// --color takes an optional argument, which Getopt cannot express.
		if a != "--color" && !strings.HasPrefix(a, "--color=") {
			env2.Args = append(env2.Args, a)
		}
	}
	o, names, st, ok := parseLsOptions(&env2)
	if !ok {
		return st
	}
	if len(names) == 0 {
		names = []string{"."}
	}
	w := env.NewOutput()
	status := 0
	var files, dirs []lsEntry
	for _, name := range names {
		p := env.Abs(name)
		fi, err := env.FS.Stat(p)
		if err != nil {
			env.Errorf(2, "cannot access '%s': %s", name, command.Strerror(err))
			status = 2
			continue
		}
		e := lsEntry{name: name, path: p, info: fi}
		if fi.IsDir() && !o.dirs {
			dirs = append(dirs, e)
		} else {
			files = append(files, e)
		}
	}
	lsSort(files, o)
	lsSort(dirs, o)
	if len(files) > 0 {
		lsPrint(env, w, files, o, false)
	}
	header := len(names) > 1 || o.recursive
	for i, d := range dirs {
		if env.Canceled() {
			return command.StatusCanceled
		}
		if i > 0 || len(files) > 0 {
			w.WriteByte('\n')
		}
		if st := lsDir(env, w, d, o, header); st != 0 {
			if st == command.StatusCanceled {
				return st
			}
			status = max(status, st)
		}
	}
	if err := w.Flush(); err != nil {
		return env.WriteError(err)
	}
	return status
}

// parseLsOptions parses the options of ls.
func parseLsOptions(env *command.Env) (o lsOptions, names []string, status int, ok bool) {
	opts, names, st, ok := env.ParseOptions("1aAdFhlRrStUpgoCmxi", []string{"all", "almost-all", "directory", "classify", "human-readable", "recursive", "reverse", "sort=", "time=", "group-directories-first", "full-time", "indicator-style="}, false)
	if !ok {
		return o, nil, usageStatus(st, 2), false
	}
	o = lsOptions{sortBy: 'n', now: env.Now()}
	for _, op := range opts {
		switch op.Name {
		case "a", "all":
			o.all, o.almostAll = true, false
		case "A", "almost-all":
			o.almostAll, o.all = true, false
		case "d", "directory":
			o.dirs = true
		case "F", "classify":
			o.classify = true
		case "p":
			o.slash = true
		case "h", "human-readable":
			o.human = true
		case "l":
			o.long = true
		case "g":
			o.long, o.noGroup = true, true
		case "o":
			o.long = true
		case "R", "recursive":
			o.recursive = true
		case "r", "reverse":
			o.reverse = true
		case "S":
			o.sortBy = 'S'
		case "t":
			o.sortBy = 't'
		case "U":
			o.sortBy = 'U'
		case "i":
			o.inode = true
		case "sort":
			switch op.Value {
			case "size":
				o.sortBy = 'S'
			case "time":
				o.sortBy = 't'
			case "none":
				o.sortBy = 'U'
			case "name":
				o.sortBy = 'n'
			}
		}
	}
	return o, names, 0, true
}

// usageStatus maps the generic usage status 1 to the command's own.
func usageStatus(st, want int) int {
	if st == 1 {
		return want
	}
	return st
}

// lsDir lists one directory (and, with -R, its subdirectories).
func lsDir(env *command.Env, w *bufio.Writer, d lsEntry, o lsOptions, header bool) int {
	if header {
		fmt.Fprintf(w, "%s:\n", d.name)
	}
	list, err := env.FS.ReadDir(d.path)
	if err != nil {
		w.Flush()
		env.Errorf(2, "cannot open directory '%s': %s", d.name, command.Strerror(err))
		return 2
	}
	var entries []lsEntry
	if o.all {
		for _, dot := range []string{".", ".."} {
			p := path.Join(d.path, dot)
			if fi, err := env.FS.Stat(p); err == nil {
				entries = append(entries, lsEntry{name: dot, path: p, info: fi})
			}
		}
	}
	for _, de := range list {
		if strings.HasPrefix(de.Name(), ".") && !o.all && !o.almostAll {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		entries = append(entries, lsEntry{name: de.Name(), path: path.Join(d.path, de.Name()), info: fi})
	}
	lsSort(entries, o)
	if o.long {
		var blocks int64
		for _, e := range entries {
			blocks += lsBlocks(e.info)
		}
		if o.human {
			fmt.Fprintf(w, "total %s\n", humanSize(blocks*1024))
		} else {
			fmt.Fprintf(w, "total %d\n", blocks)
		}
	}
	lsPrint(env, w, entries, o, true)
	status := 0
	if o.recursive {
		for _, e := range entries {
			if env.Canceled() {
				return command.StatusCanceled
			}
			if !e.info.IsDir() || e.name == "." || e.name == ".." {
				continue
			}
			w.WriteByte('\n')
			sub := lsEntry{name: joinName(d.name, e.name), path: e.path, info: e.info}
			if st := lsDir(env, w, sub, o, true); st != 0 {
				if st == command.StatusCanceled {
					return st
				}
				status = st
			}
		}
	}
	return status
}

// lsBlocks returns the 1 KiB blocks of a file, in 4 KiB allocation units.
func lsBlocks(fi fs.FileInfo) int64 {
	if fi.IsDir() {
		return 4
	}
	return (fi.Size() + 4095) / 4096 * 4
}

// lsSize returns the size ls shows (4096 for directories).
func lsSize(fi fs.FileInfo) int64 {
	if fi.IsDir() {
		return 4096
	}
	return fi.Size()
}

// lsSort sorts entries by the selected key, then by name.
func lsSort(entries []lsEntry, o lsOptions) {
	if o.sortBy == 'U' {
		return
	}
	slices.SortStableFunc(entries, func(a, b lsEntry) int {
		var c int
		switch o.sortBy {
		case 't':
			c = b.info.ModTime().Compare(a.info.ModTime())
		case 'S':
			c = cmpInt(lsSize(b.info), lsSize(a.info))
		}
		if c == 0 {
			c = strings.Compare(a.name, b.name)
		}
		if o.reverse {
			c = -c
		}
		return c
	})
}

// cmpInt compares two integers.
func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// lsPrint prints entries one per line, or in the long format.
func lsPrint(env *command.Env, w *bufio.Writer, entries []lsEntry, o lsOptions, inDir bool) {
	if !o.long {
		for _, e := range entries {
			w.WriteString(e.name)
			w.WriteString(lsSuffix(e.info, o))
			w.WriteByte('\n')
		}
		return
	}
	links := make([]string, len(entries))
	sizes := make([]string, len(entries))
	lw, sw := 0, 0
	for i, e := range entries {
		n := 1
		if e.info.IsDir() {
			n = 2
			if list, err := env.FS.ReadDir(e.path); err == nil {
				for _, c := range list {
					if c.IsDir() {
						n++
					}
				}
			}
		}
		links[i] = strconv.Itoa(n)
		if o.human {
			sizes[i] = humanSize(lsSize(e.info))
		} else {
			sizes[i] = strconv.FormatInt(lsSize(e.info), 10)
		}
		lw = max(lw, len(links[i]))
		sw = max(sw, len(sizes[i]))
	}
	for i, e := range entries {
		owner := "user user"
		if o.noGroup {
			owner = "user"
		}
		fmt.Fprintf(w, "%s %*s %s %*s %s %s%s\n", modeString(e.info), lw, links[i], owner, sw, sizes[i], lsTime(e.info.ModTime(), o.now), e.name, lsSuffix(e.info, o))
	}
}

// lsSuffix returns the -F or -p indicator of a file.
func lsSuffix(fi fs.FileInfo, o lsOptions) string {
	if fi.IsDir() && (o.classify || o.slash) {
		return "/"
	}
	if o.classify && fi.Mode()&0o111 != 0 {
		return "*"
	}
	return ""
}

// lsTime formats a modification time like ls -l: "Nov 21 12:00" within the
// six months before now, "Nov 21  2025" otherwise (also in the future).
func lsTime(t, now time.Time) string {
	t = t.UTC()
	const halfYear = 31556952 * time.Second / 2
	if d := now.Sub(t); d > halfYear || d < 0 {
		return t.Format("Jan _2  2006")
	}
	return t.Format("Jan _2 15:04")
}

// modeString returns the "drwxr-xr-x" form of a file's mode.
func modeString(fi fs.FileInfo) string {
	if fi.IsDir() {
		return "d" + permString(unixMode(fi.Mode()))
	}
	return "-" + permString(unixMode(fi.Mode()))
}

// humanSize formats a size like ls -h and du -h: "123", "1.5K", "12M".
func humanSize(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10)
	}
	units := "KMGTPE"
	v := float64(n)
	for i := 0; i < len(units); i++ {
		v /= 1024
		if v < 1024 || i == len(units)-1 {
			if v < 10 {
				c := ceilTenth(v)
				if c < 10 {
					return strconv.FormatFloat(c, 'f', 1, 64) + string(units[i])
				}
				v = c
			}
			c := int64(v)
			if float64(c) < v {
				c++
			}
			if c >= 1024 && i < len(units)-1 {
				v = float64(c)
				continue
			}
			return strconv.FormatInt(c, 10) + string(units[i])
		}
	}
	return strconv.FormatInt(n, 10)
}

// ceilTenth rounds v up to one decimal.
func ceilTenth(v float64) float64 {
	x := v * 10
	c := float64(int64(x))
	if c < x {
		c++
	}
	return c / 10
}
