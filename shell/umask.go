package shell

import (
	"fmt"
	"strings"
)

// defaultUmask is the file creation mask a shell starts with.
const defaultUmask = 0o022

// umaskValue returns the shell's file creation mask.
func (r *runner) umaskValue() int {
	if !r.umaskSet {
		return defaultUmask
	}
	return r.umask
}

// umaskBuiltin is umask [-p] [-S] [mode]: it prints or sets the file
// creation mask, which the shell's own redirections honour when they
// create a file.
func umaskBuiltin(r *runner, args []string) int {
	a := args[1:]
	symbolic, reusable := false, false
opts:
	for len(a) > 0 && len(a[0]) > 1 && a[0][0] == '-' {
		if a[0] == "--" {
			a = a[1:]
			break
		}
		for _, c := range a[0][1:] {
			switch c {
			case 'S':
				symbolic = true
			case 'p':
				reusable = true
			default:
				if strings.Trim(a[0][1:], "0123456789") == "" {
					break opts
				}
				r.builtinErr(2, "umask", "-%c: invalid option", c)
				fmt.Fprintln(r.stderr(), "umask: usage: umask [-p] [-S] [mode]")
				return 2
			}
		}
		a = a[1:]
	}
	mask := r.umaskValue()
	if len(a) == 0 {
		prefix := ""
		if reusable {
			prefix = "umask "
			if symbolic {
				prefix += "-S "
			}
		}
		if symbolic {
			fmt.Fprintf(r.stdout(), "%s%s\n", prefix, umaskSymbolic(mask))
		} else {
			fmt.Fprintf(r.stdout(), "%s%04o\n", prefix, mask)
		}
		return 0
	}
	w := a[0]
	if w != "" && w[0] >= '0' && w[0] <= '9' {
		n := 0
		for _, c := range w {
			if c < '0' || c > '7' || n > 0o777 {
				n = -1
				break
			}
			n = n*8 + int(c-'0')
		}
		if n < 0 || n > 0o777 {
			return r.builtinErr(1, "umask", "%s: octal number out of range", w)
		}
		mask = n
	} else {
		bits, ok := r.symbolicUmask(w, ^mask&0o777)
		if !ok {
			return 1
		}
		mask = ^bits & 0o777
	}
	r.umask, r.umaskSet = mask, true
	if symbolic {
		fmt.Fprintf(r.stdout(), "%s\n", umaskSymbolic(mask))
	}
	return 0
}

// umaskSymbolic prints the permissions a mask leaves, as umask -S does.
func umaskSymbolic(mask int) string {
	perm := ^mask & 0o777
	class := func(shift int) string {
		var b strings.Builder
		for i, c := range "rwx" {
			if perm&(4>>i<<shift) != 0 {
				b.WriteRune(c)
			}
		}
		return b.String()
	}
	return "u=" + class(6) + ",g=" + class(3) + ",o=" + class(0)
}

// symbolicUmask applies a symbolic mode (u=rwx,g-w...) to the
// permissions bits, as bash's umask does.
func (r *runner) symbolicUmask(s string, bits int) (int, bool) {
	for {
		who := 0
		for s != "" && strings.IndexByte("agou", s[0]) >= 0 {
			switch s[0] {
			case 'u':
				who |= 0o700
			case 'g':
				who |= 0o070
			case 'o':
				who |= 0o007
			case 'a':
				who |= 0o777
			}
			s = s[1:]
		}
		var op byte
		if s != "" {
			op, s = s[0], s[1:]
		}
		if op != '+' && op != '-' && op != '=' {
			r.builtinErr(1, "umask", "`%c': invalid symbolic mode operator", op)
			return 0, false
		}
		perm := 0
		for s != "" && strings.IndexByte("rwx", s[0]) >= 0 {
			switch s[0] {
			case 'r':
				perm |= 0o444
			case 'w':
				perm |= 0o222
			case 'x':
				perm |= 0o111
			}
			s = s[1:]
		}
		if s != "" && s[0] != ',' {
			r.builtinErr(1, "umask", "`%c': invalid symbolic mode character", s[0])
			return 0, false
		}
		if who == 0 {
			who = 0o777
		}
		switch op {
		case '+':
			bits |= who & perm
		case '-':
			bits &^= who & perm
		case '=':
			bits = bits&^who | who&perm
		}
		if s == "" {
			return bits, true
		}
		s = s[1:]
	}
}
