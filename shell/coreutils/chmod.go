package coreutils

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
)

// Mode bits as chmod sees them (the octal values of <sys/stat.h>).
const (
	sISUID = 0o4000
	sISGID = 0o2000
	sISVTX = 0o1000
	sIRWXU = 0o700
	sIRWXG = 0o070
	sIRWXO = 0o007
	sIRUGO = 0o444
	sIWUGO = 0o222
	sIXUGO = 0o111

	chmodBits = 0o7777
	// chmodUmask is the umask commands assume (the shell's default).
	chmodUmask = 0o022
)

// unixMode returns the 07777 bits of a file's mode.
func unixMode(m fs.FileMode) uint32 {
	u := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		u |= sISUID
	}
	if m&fs.ModeSetgid != 0 {
		u |= sISGID
	}
	if m&fs.ModeSticky != 0 {
		u |= sISVTX
	}
	return u
}

// fileMode is the inverse of unixMode.
func fileMode(u uint32) fs.FileMode {
	m := fs.FileMode(u & 0o777)
	if u&sISUID != 0 {
		m |= fs.ModeSetuid
	}
	if u&sISGID != 0 {
		m |= fs.ModeSetgid
	}
	if u&sISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// permString returns the nine "rwxr-xr-x" letters of mode bits, with s, S,
// t and T for the special bits, as ls -l and stat %A show them.
func permString(u uint32) string {
	b := []byte("rwxrwxrwx")
	for i := range 9 {
		if u&(1<<(8-i)) == 0 {
			b[i] = '-'
		}
	}
	special := func(i int, bit uint32, set byte) {
		if u&bit != 0 {
			if b[i] == 'x' {
				b[i] = set
			} else {
				b[i] = set - 'a' + 'A'
			}
		}
	}
	special(2, sISUID, 's')
	special(5, sISGID, 's')
	special(8, sISVTX, 't')
	return string(b)
}

// modeChange is one clause of a chmod mode, as gnulib's mode_compile
// makes it.
type modeChange struct {
	op        byte // '=', '+' or '-'
	flag      byte // 0, 'c' (copy existing bits) or 'X'
	affected  uint32
	value     uint32
	mentioned uint32
}

// compileMode parses a chmod mode: octal (up to 07777) or symbolic
// clauses [ugoa]*([-+=]([rwxXst]*|[ugo]))+ separated by commas.
func compileMode(s string) ([]modeChange, bool) {
	if s != "" && s[0] >= '0' && s[0] <= '7' {
		n, err := strconv.ParseUint(s, 8, 32)
		if err != nil || n > chmodBits {
			return nil, false
		}
		u := uint32(n)
		// With fewer than five digits, a directory keeps the set-ID
		// bits the mode does not name.
		mentioned := uint32(chmodBits)
		if len(s) < 5 {
			mentioned = u&(sISUID|sISGID) | sISVTX | 0o777
		}
		return []modeChange{{op: '=', affected: chmodBits, value: u, mentioned: mentioned}}, true
	}
	var out []modeChange
	i := 0
	for {
		var affected uint32
	who:
		for ; i < len(s); i++ {
			switch s[i] {
			case 'u':
				affected |= sISUID | sIRWXU
			case 'g':
				affected |= sISGID | sIRWXG
			case 'o':
				affected |= sISVTX | sIRWXO
			case 'a':
				affected |= chmodBits
			default:
				break who
			}
		}
		if i >= len(s) || (s[i] != '=' && s[i] != '+' && s[i] != '-') {
			return nil, false
		}
		for i < len(s) && (s[i] == '=' || s[i] == '+' || s[i] == '-') {
			c := modeChange{op: s[i]}
			i++
			if i < len(s) && (s[i] == 'u' || s[i] == 'g' || s[i] == 'o') {
				c.flag = 'c'
				c.value = map[byte]uint32{'u': sIRWXU, 'g': sIRWXG, 'o': sIRWXO}[s[i]]
				i++
			} else {
			perms:
				for ; i < len(s); i++ {
					switch s[i] {
					case 'r':
						c.value |= sIRUGO
					case 'w':
						c.value |= sIWUGO
					case 'x':
						c.value |= sIXUGO
					case 'X':
						c.flag = 'X'
					case 's':
						c.value |= sISUID | sISGID
					case 't':
						c.value |= sISVTX
					default:
						break perms
					}
				}
			}
			c.affected = affected
			c.mentioned = c.value
			if affected != 0 {
				c.mentioned = affected & c.value
			}
			out = append(out, c)
		}
		if i >= len(s) {
			return out, true
		}
		if s[i] != ',' {
			return nil, false
		}
		i++
	}
}

// adjustMode applies changes to old as gnulib's mode_adjust does: a
// clause without a "who" is limited by umask.
func adjustMode(old uint32, dir bool, umask uint32, changes []modeChange) uint32 {
	mode := old & chmodBits
	for _, c := range changes {
		var omit uint32
		if dir {
			omit = (sISUID | sISGID) &^ c.mentioned
		}
		value := c.value
		switch c.flag {
		case 'c':
			value &= mode
			var v uint32
			if value&(0o444) != 0 {
				v |= sIRUGO
			}
			if value&0o222 != 0 {
				v |= sIWUGO
			}
			if value&0o111 != 0 {
				v |= sIXUGO
			}
			value |= v
		case 'X':
			if mode&sIXUGO != 0 || dir {
				value |= sIXUGO
			}
		}
		lim := ^umask
		if c.affected != 0 {
			lim = c.affected
		}
		value &= lim &^ omit
		switch c.op {
		case '=':
			var preserved uint32
			if c.affected != 0 {
				preserved = ^c.affected
			}
			preserved |= omit
			mode = mode&preserved | value
		case '+':
			mode |= value
		case '-':
			mode &^= value
		}
	}
	return mode & chmodBits
}

// chmodLong lists chmod's long options.
var chmodLong = []string{"changes", "silent", "quiet", "verbose", "recursive", "reference=", "preserve-root", "no-preserve-root", "help", "version"}

// cmdChmod implements chmod [-cfvR] [--reference=RFILE] MODE[,MODE]...
// FILE...: the permission bits are those of the VFS, which enforces them
// (see vfs.FS.Chmod). Like GNU's, it takes a mode that looks like an
// option ("chmod -w f") and then warns when the umask kept some of the
// bits from changing.
func cmdChmod(env *command.Env) int {
	var (
		mode                     string
		haveMode, surprises      bool
		verbose, changes, silent bool
		recursive, preserveRoot  bool
		reference                string
		haveRef                  bool
		operands                 []string
	)
	args := env.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			var match []string
			for _, l := range chmodLong {
				ln := strings.TrimSuffix(l, "=")
				if ln == name {
					match = []string{l}
					break
				}
				if strings.HasPrefix(ln, name) {
					match = append(match, l)
				}
			}
			if len(match) != 1 {
				if len(match) == 0 {
					fmt.Fprintf(env.Stderr, "chmod: unrecognized option '%s'\n", a)
				} else {
					fmt.Fprintf(env.Stderr, "chmod: option '%s' is ambiguous\n", a)
				}
				fmt.Fprintln(env.Stderr, "Try 'chmod --help' for more information.")
				return 1
			}
			l := match[0]
			takesArg := strings.HasSuffix(l, "=")
			l = strings.TrimSuffix(l, "=")
			if hasVal && !takesArg {
				fmt.Fprintf(env.Stderr, "chmod: option '--%s' doesn't allow an argument\n", l)
				fmt.Fprintln(env.Stderr, "Try 'chmod --help' for more information.")
				return 1
			}
			if takesArg && !hasVal {
				if i+1 >= len(args) {
					fmt.Fprintf(env.Stderr, "chmod: option '--%s' requires an argument\n", l)
					fmt.Fprintln(env.Stderr, "Try 'chmod --help' for more information.")
					return 1
				}
				i++
				val = args[i]
			}
			switch l {
			case "changes":
				changes = true
			case "silent", "quiet":
				silent = true
			case "verbose":
				verbose = true
			case "recursive":
				recursive = true
			case "reference":
				reference, haveRef = val, true
			case "preserve-root":
				preserveRoot = true
			case "no-preserve-root":
				preserveRoot = false
			case "help":
				fmt.Fprintln(env.Stdout, "Usage: chmod [OPTION]... MODE[,MODE]... FILE...\n  or:  chmod [OPTION]... OCTAL-MODE FILE...\n  or:  chmod [OPTION]... --reference=RFILE FILE...\nChange the mode of each FILE to MODE.")
				return 0
			case "version":
				fmt.Fprintln(env.Stdout, "chmod (GNU coreutils) 9.1")
				return 0
			}
		case len(a) > 1 && a[0] == '-':
			if strings.ContainsRune("rwxXstugoa,+-=01234567", rune(a[1])) {
				if haveMode && mode != "" {
					mode += ","
				}
				mode += a
				haveMode, surprises = true, true
				continue
			}
			for _, c := range a[1:] {
				switch c {
				case 'c':
					changes = true
				case 'f':
					silent = true
				case 'v':
					verbose = true
				case 'R':
					recursive = true
				default:
					fmt.Fprintf(env.Stderr, "chmod: invalid option -- '%c'\n", c)
					fmt.Fprintln(env.Stderr, "Try 'chmod --help' for more information.")
					return 1
				}
			}
		default:
			operands = append(operands, a)
		}
	}
	if !haveMode && !haveRef {
		if len(operands) == 0 {
			fmt.Fprintln(env.Stderr, "chmod: missing operand")
			fmt.Fprintln(env.Stderr, "Try 'chmod --help' for more information.")
			return 1
		}
		mode, operands, haveMode = operands[0], operands[1:], true
	}
	if len(operands) == 0 {
		if haveMode && !haveRef {
			fmt.Fprintf(env.Stderr, "chmod: missing operand after ‘%s’\n", mode)
		} else {
			fmt.Fprintln(env.Stderr, "chmod: missing operand")
		}
		fmt.Fprintln(env.Stderr, "Try 'chmod --help' for more information.")
		return 1
	}
	var changeList []modeChange
	if haveRef {
		fi, err := env.FS.Stat(env.Abs(reference))
		if err != nil {
			return env.Errorf(1, "failed to get attributes of '%s': %s", reference, command.Strerror(err))
		}
		changeList = []modeChange{{op: '=', affected: chmodBits, value: unixMode(fi.Mode()), mentioned: chmodBits}}
		surprises = false
	} else {
		var ok bool
		if changeList, ok = compileMode(mode); !ok {
			fmt.Fprintf(env.Stderr, "chmod: invalid mode: ‘%s’\n", mode)
			fmt.Fprintln(env.Stderr, "Try 'chmod --help' for more information.")
			return 1
		}
	}
	c := &chmodRun{env: env, changes: changeList, verbose: verbose, onlyChanges: changes,
		silent: silent, recursive: recursive, surprises: surprises}
	status := 0
	for _, name := range operands {
		if recursive && preserveRoot && env.Abs(name) == "/" {
			env.Errorf(1, "it is dangerous to operate recursively on '/'")
			fmt.Fprintln(env.Stderr, "chmod: use --no-preserve-root to override this failsafe")
			status = 1
			continue
		}
		switch c.file(name, 0) {
		case 0:
		case command.StatusCanceled:
			return command.StatusCanceled
		default:
			status = 1
		}
	}
	return status
}

// chmodRun holds what every file of one chmod gets.
type chmodRun struct {
	env                          *command.Env
	changes                      []modeChange
	verbose, onlyChanges, silent bool
	recursive, surprises         bool
}

// maxChmodDepth bounds the recursion of chmod -R.
const maxChmodDepth = 256

// file changes the mode of one file and, with -R, of what a directory
// holds.
func (c *chmodRun) file(name string, depth int) int {
	env := c.env
	if command.Err(env.Ctx) != nil {
		return command.StatusCanceled
	}
	p := env.Abs(name)
	fi, err := env.FS.Stat(p)
	if err != nil {
		if !c.silent {
			env.Errorf(1, "cannot access '%s': %s", name, command.Strerror(err))
		}
		return 1
	}
	old := unixMode(fi.Mode())
	newMode := adjustMode(old, fi.IsDir(), chmodUmask, c.changes)
	status := 0
	if err := env.FS.Chmod(p, fileMode(newMode)); err != nil {
		if !c.silent {
			env.Errorf(1, "changing permissions of '%s': %s", name, command.Strerror(err))
		}
		if c.verbose {
			fmt.Fprintf(env.Stdout, "failed to change mode of '%s' from %04o (%s) to %04o (%s)\n", name, old, permString(old), newMode, permString(newMode))
		}
		return 1
	}
	switch {
	case old != newMode && (c.verbose || c.onlyChanges):
		fmt.Fprintf(env.Stdout, "mode of '%s' changed from %04o (%s) to %04o (%s)\n", name, old, permString(old), newMode, permString(newMode))
	case old == newMode && c.verbose:
		fmt.Fprintf(env.Stdout, "mode of '%s' retained as %04o (%s)\n", name, newMode, permString(newMode))
	}
	if c.surprises {
		naive := adjustMode(old, fi.IsDir(), 0, c.changes)
		if newMode != naive {
			env.Errorf(1, "%s: new permissions are %s, not %s", name, permString(newMode), permString(naive))
			status = 1
		}
	}
	if c.recursive && fi.IsDir() && depth < maxChmodDepth {
		entries, err := env.FS.ReadDir(p)
		if err != nil {
			if !c.silent {
				env.Errorf(1, "cannot read directory '%s': %s", name, command.Strerror(err))
			}
			return 1
		}
		for _, e := range entries {
			switch c.file(path.Join(name, e.Name()), depth+1) {
			case 0:
			case command.StatusCanceled:
				return command.StatusCanceled
			default:
				status = 1
			}
		}
	}
	return status
}
