package coreutils

import (
	"io/fs"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/escape"
)

// cmdStat implements stat [-c FORMAT | --printf FORMAT] [-t] FILE... with the
// %n %N %s %b %B %F %a %A %f %h %i %u %U %g %G %x %X %y %Y %z %Z %w %W %o
// %d %D %t %T directives.
func cmdStat(env *command.Env) int {
	opts, names, st, ok := env.ParseOptions("c:tLf", []string{"format=", "printf=", "terse", "dereference", "file-system"}, false)
	if !ok {
		return st
	}
	format, printf, terse := "", false, false
	for _, o := range opts {
		switch o.Name {
		case "c", "format":
			format, printf = o.Value, false
		case "printf":
			format, printf = o.Value, true
		case "t", "terse":
			terse = true
		}
	}
	if len(names) == 0 {
		return env.Usage(1, "missing operand", "")
	}
	w := env.NewOutput()
	defer w.Flush()
	status := 0
	for _, name := range names {
		fi, err := stat(env, name)
		if err != nil {
			w.Flush()
			status = env.Errorf(1, "cannot statx '%s': %s", name, command.Strerror(err))
			continue
		}
		switch {
		case format != "":
			f := format
			if printf {
				f, _ = escape.Decode(escape.Stat, f)
			} else {
				f += "\n"
			}
			w.WriteString(statFormat(f, name, fi))
		case terse:
			w.WriteString(statFormat("%n %s %b %f 0 0 0 %i %h 0 0 %X %Y %Z %W 4096\n", name, fi))
		default:
			w.WriteString(statFormat("  File: %n\n  Size: %-10s\tBlocks: %-10b IO Block: 4096   %F\nDevice: 0,0\tInode: %-11i Links: %h\nAccess: (%04a/%A)  Uid: (    0/    user)   Gid: (    0/    user)\nAccess: %x\nModify: %y\nChange: %z\n Birth: -\n", name, fi))
		}
	}
	return status
}

// statFormat expands a stat format for one file.
func statFormat(f, name string, fi fs.FileInfo) string {
	var sb strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' || i+1 >= len(f) {
			sb.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			sb.WriteString(f[i:])
			break
		}
		flags := f[i+1 : j]
		i = j
		var s string
		num := true
		mt := fi.ModTime().UTC()
		switch f[j] {
		case '%':
			sb.WriteByte('%')
			continue
		case 'n':
			s, num = name, false
		case 'N':
			s, num = "'"+name+"'", false
		case 's':
			s = strconv.FormatInt(lsSize(fi), 10)
		case 'b':
			s = strconv.FormatInt(lsBlocks(fi)*2, 10)
			if fi.IsDir() {
				s = "8"
			}
		case 'B':
			s = "512"
		case 'o':
			s = "4096"
		case 'F':
			s, num = "regular file", false
			if fi.IsDir() {
				s = "directory"
			} else if fi.Size() == 0 {
				s = "regular empty file"
			}
		case 'a':
			s = strconv.FormatUint(uint64(unixMode(fi.Mode())), 8)
		case 'A':
			s, num = modeString(fi), false
		case 'f':
			m := uint64(unixMode(fi.Mode())) | 0o100000
			if fi.IsDir() {
				m = uint64(unixMode(fi.Mode())) | 0o40000
			}
			s, num = strconv.FormatUint(m, 16), false
		case 'h':
			s = "1"
			if fi.IsDir() {
				s = "2"
			}
		case 'i', 'u', 'g', 'd', 't', 'T':
			s = "0"
		case 'D':
			s, num = "0", false
		case 'U', 'G':
			s, num = "user", false
		case 'x', 'y', 'z':
			s, num = mt.Format("2006-01-02 15:04:05.000000000 -0700"), false
		case 'X', 'Y', 'Z':
			s = strconv.FormatInt(mt.Unix(), 10)
		case 'w':
			s, num = "-", false
		case 'W':
			s = "0"
		default:
			sb.WriteByte('?')
			continue
		}
		sb.WriteString(padField(s, flags, num))
	}
	return sb.String()
}

// padField applies printf-style flags and width to a field.
func padField(s, flags string, num bool) string {
	left := strings.Contains(flags, "-")
	zero := strings.HasPrefix(strings.TrimLeft(flags, "-+ #"), "0") && num && !left
	ws := strings.TrimLeft(flags, "-+ #0")
	if k := strings.IndexByte(ws, '.'); k >= 0 {
		ws = ws[:k]
	}
	width, _ := strconv.Atoi(ws)
	width = min(width, 4096)
	for len(s) < width {
		switch {
		case left:
			s += " "
		case zero:
			s = "0" + s
		default:
			s = " " + s
		}
	}
	return s
}
