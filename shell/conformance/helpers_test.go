package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/commands"
	"github.com/cordonhq/cordon/vfs"
)

// registry builds the commands available to the spec cases: the sandbox's
// own (commands.All), over small private ones for the few external tools
// the cases use that the sandbox does not have, plus the Oils helpers
// ("sh" and "bash" are provided by the shell package itself).
func registry() command.Registry {
	r := command.Registry{}
	r.Merge(basicCommands(), commands.All(), oilsHelpers())
	r["python2"] = python2Print
	return r
}

var printRe = regexp.MustCompile(`^print\((['"])(.*)['"]\)$`)

// python2Print emulates only "python2 -c 'print(\"...\")'", which cases use
// to produce arbitrary bytes.
func python2Print(env *command.Env) int {
	if len(env.Args) != 3 || env.Args[1] != "-c" {
		return env.Errorf(2, "only -c 'print(...)' is supported")
	}
	m := printRe.FindStringSubmatch(strings.TrimSpace(env.Args[2]))
	if m == nil {
		return env.Errorf(2, "only -c 'print(...)' is supported")
	}
	s := m[2]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'x':
			if i+2 < len(s) {
				n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
				if err == nil {
					b.WriteByte(byte(n))
					i += 2
					continue
				}
			}
			b.WriteString("\\x")
		default:
			b.WriteByte(s[i])
		}
	}
	b.WriteByte('\n')
	io.WriteString(env.Stdout, b.String())
	return 0
}

// pyRepr returns Python 2's repr of a byte string.
func pyRepr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, "\"") {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}

func oilsHelpers() command.Registry {
	return command.Registry{
		"argv.py": func(env *command.Env) int {
			parts := make([]string, len(env.Args)-1)
			for i, a := range env.Args[1:] {
				parts[i] = pyRepr(a)
			}
			fmt.Fprintf(env.Stdout, "[%s]\n", strings.Join(parts, ", "))
			return 0
		},
		"printenv.py": func(env *command.Env) int {
			for _, name := range env.Args[1:] {
				if v, ok := env.Getenv(name); ok {
					fmt.Fprintln(env.Stdout, v)
				} else {
					fmt.Fprintln(env.Stdout, "None")
				}
			}
			return 0
		},
		"stdout_stderr.py": func(env *command.Env) int {
			out, errs := "STDOUT", "STDERR"
			if len(env.Args) > 1 {
				out = env.Args[1]
			}
			if len(env.Args) > 2 {
				errs = env.Args[2]
			}
			fmt.Fprintln(env.Stdout, out)
			fmt.Fprintln(env.Stderr, errs)
			if len(env.Args) > 3 {
				n, _ := strconv.Atoi(env.Args[3])
				return n
			}
			return 0
		},
		"read_from_fd.py": func(env *command.Env) int {
			for _, a := range env.Args[1:] {
				n, err := strconv.Atoi(a)
				if err != nil {
					return 2
				}
				var rd io.Reader
				if r, _, ok := env.FD(n); ok && r != nil {
					rd = r
				} else {
					fmt.Fprintf(env.Stdout, "%d: error\n", n)
					continue
				}
				data, _ := io.ReadAll(rd)
				fmt.Fprintf(env.Stdout, "%d: %s\n", n, strings.TrimRight(string(data), "\n"))
			}
			return 0
		},
	}
}

func readInputs(env *command.Env, files []string, fn func([]byte) bool) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	st := 0
	for _, f := range files {
		rc, err := env.Open(f)
		if err != nil {
			st = env.FileError(1, f, err)
			continue
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			st = env.FileError(1, f, err)
			continue
		}
		if !fn(data) {
			break
		}
	}
	return st
}

func splitLines(data []byte) []string {
	s := string(data)
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

func basicCommands() command.Registry {
	return command.Registry{
		"cat": func(env *command.Env) int {
			files := env.Args[1:]
			if len(files) == 0 {
				files = []string{"-"}
			}
			st := 0
			for _, f := range files {
				rc, err := env.Open(f)
				if err != nil {
					st = env.FileError(1, f, err)
					continue
				}
				buf := make([]byte, 32*1024)
				for {
					if env.Ctx.Err() != nil {
						rc.Close()
						return 1
					}
					n, err := rc.Read(buf)
					if n > 0 {
						if _, werr := env.Stdout.Write(buf[:n]); werr != nil {
							rc.Close()
							return 1
						}
					}
					if err != nil {
						break
					}
				}
				rc.Close()
			}
			return st
		},
		"tac": func(env *command.Env) int {
			return readInputs(env, env.Args[1:], func(b []byte) bool {
				l := splitLines(b)
				for i := len(l) - 1; i >= 0; i-- {
					fmt.Fprintln(env.Stdout, l[i])
				}
				return true
			})
		},
		"touch": func(env *command.Env) int {
			for _, f := range env.Args[1:] {
				if strings.HasPrefix(f, "-") {
					continue
				}
				if _, err := env.FS.Stat(env.Abs(f)); err == nil {
					continue
				}
				if err := env.FS.WriteFile(env.Abs(f), nil, 0o644); err != nil {
					env.Errorf(1, "cannot touch '%s': %s", f, command.Strerror(err))
					return 1
				}
			}
			return 0
		},
		"mkdir": func(env *command.Env) int {
			p := false
			for _, f := range env.Args[1:] {
				if f == "-p" {
					p = true
					continue
				}
				var err error
				if p {
					err = env.FS.MkdirAll(env.Abs(f), 0o755)
				} else {
					err = env.FS.Mkdir(env.Abs(f), 0o755)
				}
				if err != nil {
					return env.Errorf(1, "cannot create directory '%s': %s", f, command.Strerror(err))
				}
			}
			return 0
		},
		"rm": func(env *command.Env) int {
			force, rec := false, false
			st := 0
			for _, f := range env.Args[1:] {
				if strings.HasPrefix(f, "-") && len(f) > 1 {
					force = force || strings.Contains(f, "f")
					rec = rec || strings.ContainsAny(f, "rR")
					continue
				}
				var err error
				if rec {
					err = env.FS.RemoveAll(env.Abs(f))
				} else {
					err = env.FS.Remove(env.Abs(f))
				}
				if err != nil && !force {
					st = env.Errorf(1, "cannot remove '%s': %s", f, command.Strerror(err))
				}
			}
			return st
		},
		"chmod": func(env *command.Env) int { return 0 },
		"sleep": func(env *command.Env) int { return 0 },
		"wc": func(env *command.Env) int {
			mode := ""
			var files []string
			for _, a := range env.Args[1:] {
				switch a {
				case "-l", "--lines":
					mode += "l"
				case "-c", "--bytes":
					mode += "c"
				case "-w", "--words":
					mode += "w"
				default:
					files = append(files, a)
				}
			}
			var all []byte
			st := readInputs(env, files, func(b []byte) bool { all = append(all, b...); return true })
			l := bytes.Count(all, []byte("\n"))
			w := len(strings.Fields(string(all)))
			c := len(all)
			suffix := ""
			if len(files) > 0 {
				suffix = " " + strings.Join(files, " ")
			}
			switch mode {
			case "l":
				fmt.Fprintf(env.Stdout, "%d%s\n", l, suffix)
			case "c":
				fmt.Fprintf(env.Stdout, "%d%s\n", c, suffix)
			case "w":
				fmt.Fprintf(env.Stdout, "%d%s\n", w, suffix)
			default:
				fmt.Fprintf(env.Stdout, "%7d %7d %7d%s\n", l, w, c, suffix)
			}
			return st
		},
		"od": func(env *command.Env) int {
			var types []string
			var files []string
			args := env.Args[1:]
			for i := 0; i < len(args); i++ {
				switch args[i] {
				case "-A":
					i++
				case "-t":
					if i+1 < len(args) {
						types = append(types, args[i+1])
					}
					i++
				case "-c":
					types = append(types, "c")
				default:
					files = append(files, args[i])
				}
			}
			if len(types) == 0 {
				types = []string{"o2"}
			}
			var all []byte
			readInputs(env, files, func(b []byte) bool { all = append(all, b...); return true })
			width := 3
			for _, t := range types {
				if t == "c" {
					width = 4
				}
			}
			for i := 0; i < len(all); i += 16 {
				end := min(i+16, len(all))
				for _, t := range types {
					var b strings.Builder
					for _, c := range all[i:end] {
						var f string
						if t == "x1" {
							f = fmt.Sprintf("%02x", c)
						} else {
							switch c {
							case 0:
								f = `\0`
							case 7:
								f = `\a`
							case 8:
								f = `\b`
							case '\t':
								f = `\t`
							case '\n':
								f = `\n`
							case 11:
								f = `\v`
							case 12:
								f = `\f`
							case '\r':
								f = `\r`
							default:
								if c >= 0x20 && c < 0x7f {
									f = string(rune(c))
								} else {
									f = fmt.Sprintf("%03o", c)
								}
							}
						}
						fmt.Fprintf(&b, "%*s", width, f)
					}
					fmt.Fprintln(env.Stdout, b.String())
				}
			}
			return 0
		},
		"seq": func(env *command.Env) int {
			a := env.Args[1:]
			first, step, last := 1, 1, 0
			switch len(a) {
			case 1:
				last, _ = strconv.Atoi(a[0])
			case 2:
				first, _ = strconv.Atoi(a[0])
				last, _ = strconv.Atoi(a[1])
			case 3:
				first, _ = strconv.Atoi(a[0])
				step, _ = strconv.Atoi(a[1])
				last, _ = strconv.Atoi(a[2])
			default:
				return 1
			}
			if step == 0 {
				return 1
			}
			for i := first; (step > 0 && i <= last) || (step < 0 && i >= last); i += step {
				if env.Ctx.Err() != nil {
					return 1
				}
				if _, err := fmt.Fprintln(env.Stdout, i); err != nil {
					return 1
				}
			}
			return 0
		},
		"yes": func(env *command.Env) int {
			s := "y"
			if len(env.Args) > 1 {
				s = strings.Join(env.Args[1:], " ")
			}
			for env.Ctx.Err() == nil {
				if _, err := fmt.Fprintln(env.Stdout, s); err != nil {
					return 1
				}
			}
			return 1
		},
		"head": func(env *command.Env) int {
			n := 10
			var files []string
			args := env.Args[1:]
			for i := 0; i < len(args); i++ {
				a := args[i]
				switch {
				case a == "-n" && i+1 < len(args):
					n, _ = strconv.Atoi(args[i+1])
					i++
				case strings.HasPrefix(a, "-n"):
					n, _ = strconv.Atoi(a[2:])
				case strings.HasPrefix(a, "-") && len(a) > 1:
					n, _ = strconv.Atoi(a[1:])
				default:
					files = append(files, a)
				}
			}
			if len(files) == 0 {
				files = []string{"-"}
			}
			st := 0
			for k, f := range files {
				rc, err := env.Open(f)
				if err != nil {
					st = env.Errorf(1, "cannot open '%s' for reading: %s", f, command.Strerror(err))
					continue
				}
				if len(files) > 1 {
					if k > 0 {
						fmt.Fprintln(env.Stdout)
					}
					fmt.Fprintf(env.Stdout, "==> %s <==\n", f)
				}
				br := bufio.NewReader(rc)
				for i := 0; i < n; i++ {
					line, err := br.ReadString('\n')
					if line != "" {
						io.WriteString(env.Stdout, line)
					}
					if err != nil {
						break
					}
				}
				rc.Close()
			}
			return st
		},
		"tail": func(env *command.Env) int {
			n := 10
			var files []string
			args := env.Args[1:]
			for i := 0; i < len(args); i++ {
				a := args[i]
				switch {
				case a == "-n" && i+1 < len(args):
					n, _ = strconv.Atoi(args[i+1])
					i++
				case strings.HasPrefix(a, "-") && len(a) > 1:
					n, _ = strconv.Atoi(strings.TrimPrefix(a[1:], "n"))
				default:
					files = append(files, a)
				}
			}
			return readInputs(env, files, func(b []byte) bool {
				l := splitLines(b)
				if len(l) > n {
					l = l[len(l)-n:]
				}
				for _, s := range l {
					fmt.Fprintln(env.Stdout, s)
				}
				return true
			})
		},
		"sort": func(env *command.Env) int {
			rev, num, uniq := false, false, false
			var files []string
			for _, a := range env.Args[1:] {
				if strings.HasPrefix(a, "-") && len(a) > 1 {
					rev = rev || strings.Contains(a, "r")
					num = num || strings.Contains(a, "n")
					uniq = uniq || strings.Contains(a, "u")
					continue
				}
				files = append(files, a)
			}
			var lines []string
			st := readInputs(env, files, func(b []byte) bool { lines = append(lines, splitLines(b)...); return true })
			sort.SliceStable(lines, func(i, j int) bool {
				if num {
					x, _ := strconv.ParseFloat(strings.TrimSpace(lines[i]), 64)
					y, _ := strconv.ParseFloat(strings.TrimSpace(lines[j]), 64)
					if x != y {
						return x < y != rev
					}
				}
				return lines[i] < lines[j] != rev
			})
			prev := ""
			for i, l := range lines {
				if uniq && i > 0 && l == prev {
					continue
				}
				prev = l
				fmt.Fprintln(env.Stdout, l)
			}
			return st
		},
		"uniq": func(env *command.Env) int {
			var lines []string
			st := readInputs(env, env.Args[1:], func(b []byte) bool { lines = append(lines, splitLines(b)...); return true })
			for i, l := range lines {
				if i > 0 && lines[i-1] == l {
					continue
				}
				fmt.Fprintln(env.Stdout, l)
			}
			return st
		},
		"tr": func(env *command.Env) int {
			del := false
			a := env.Args[1:]
			if len(a) > 0 && a[0] == "-d" {
				del = true
				a = a[1:]
			}
			if len(a) == 0 {
				return 1
			}
			set1 := trSet(a[0])
			var set2 []rune
			if len(a) > 1 {
				set2 = trSet(a[1])
			}
			m := map[rune]rune{}
			for i, c := range set1 {
				if del {
					m[c] = -1
				} else if len(set2) > 0 {
					m[c] = set2[min(i, len(set2)-1)]
				}
			}
			data, _ := io.ReadAll(env.Stdin)
			var b strings.Builder
			for _, c := range string(data) {
				if t, ok := m[c]; ok {
					if t >= 0 {
						b.WriteRune(t)
					}
					continue
				}
				b.WriteRune(c)
			}
			io.WriteString(env.Stdout, b.String())
			return 0
		},
		"cut": func(env *command.Env) int {
			delim := "\t"
			fields := ""
			chars := ""
			var files []string
			args := env.Args[1:]
			for i := 0; i < len(args); i++ {
				a := args[i]
				switch {
				case a == "-d" && i+1 < len(args):
					delim = args[i+1]
					i++
				case strings.HasPrefix(a, "-d"):
					delim = a[2:]
				case a == "-f" && i+1 < len(args):
					fields = args[i+1]
					i++
				case strings.HasPrefix(a, "-f"):
					fields = a[2:]
				case a == "-c" && i+1 < len(args):
					chars = args[i+1]
					i++
				case strings.HasPrefix(a, "-c"):
					chars = a[2:]
				default:
					files = append(files, a)
				}
			}
			return readInputs(env, files, func(b []byte) bool {
				for _, l := range splitLines(b) {
					if chars != "" {
						lo, hi := parseRange(chars, utf8.RuneCountInString(l))
						rs := []rune(l)
						if lo <= len(rs) {
							fmt.Fprintln(env.Stdout, string(rs[lo-1:min(hi, len(rs))]))
						} else {
							fmt.Fprintln(env.Stdout)
						}
						continue
					}
					parts := strings.Split(l, delim)
					lo, hi := parseRange(fields, len(parts))
					if lo <= len(parts) {
						fmt.Fprintln(env.Stdout, strings.Join(parts[lo-1:min(hi, len(parts))], delim))
					} else {
						fmt.Fprintln(env.Stdout)
					}
				}
				return true
			})
		},
		"basename": func(env *command.Env) int {
			if len(env.Args) < 2 {
				return 1
			}
			fmt.Fprintln(env.Stdout, path.Base(env.Args[1]))
			return 0
		},
		"dirname": func(env *command.Env) int {
			if len(env.Args) < 2 {
				return 1
			}
			fmt.Fprintln(env.Stdout, path.Dir(env.Args[1]))
			return 0
		},
		"env": func(env *command.Env) int {
			a := env.Args[1:]
			for len(a) > 0 && strings.Contains(a[0], "=") {
				a = a[1:]
			}
			if len(a) == 0 {
				for _, kv := range env.Environ {
					fmt.Fprintln(env.Stdout, kv)
				}
				return 0
			}
			return env.Exec(env.Ctx, a, nil, env.Stdin, env.Stdout, env.Stderr)
		},
		"printenv": func(env *command.Env) int {
			st := 0
			for _, n := range env.Args[1:] {
				if v, ok := env.Getenv(n); ok {
					fmt.Fprintln(env.Stdout, v)
				} else {
					st = 1
				}
			}
			return st
		},
		"ls": func(env *command.Env) int {
			var names []string
			for _, a := range env.Args[1:] {
				if !strings.HasPrefix(a, "-") {
					names = append(names, a)
				}
			}
			if len(names) == 0 {
				names = []string{"."}
			}
			st := 0
			for _, n := range names {
				if n == "/dev/null" {
					fmt.Fprintln(env.Stdout, n)
					continue
				}
				fi, err := env.FS.Stat(env.Abs(n))
				if err != nil {
					st = env.Errorf(2, "cannot access '%s': %s", n, command.Strerror(err))
					continue
				}
				if !fi.IsDir() {
					fmt.Fprintln(env.Stdout, n)
					continue
				}
				ents, _ := env.FS.ReadDir(env.Abs(n))
				for _, e := range ents {
					fmt.Fprintln(env.Stdout, e.Name())
				}
			}
			return st
		},
		"grep":  grepCmd(false),
		"egrep": grepCmd(true),
		"sed":   sedCmd,
		"expr": func(env *command.Env) int {
			a := env.Args[1:]
			if len(a) == 3 {
				x, _ := strconv.Atoi(a[0])
				y, _ := strconv.Atoi(a[2])
				switch a[1] {
				case "+":
					fmt.Fprintln(env.Stdout, x+y)
				case "-":
					fmt.Fprintln(env.Stdout, x-y)
				case "*":
					fmt.Fprintln(env.Stdout, x*y)
				}
				return 0
			}
			if len(a) == 1 {
				fmt.Fprintln(env.Stdout, a[0])
			}
			return 0
		},
		"tee": func(env *command.Env) int {
			data, _ := io.ReadAll(env.Stdin)
			for _, f := range env.Args[1:] {
				env.FS.WriteFile(env.Abs(f), data, 0o644)
			}
			env.Stdout.Write(data)
			return 0
		},
	}
}

func parseRange(spec string, n int) (int, int) {
	lo, hi, ok := strings.Cut(spec, "-")
	a, _ := strconv.Atoi(lo)
	if a < 1 {
		a = 1
	}
	if !ok {
		return a, a
	}
	b := n
	if hi != "" {
		b, _ = strconv.Atoi(hi)
	}
	return a, b
}

func trSet(s string) []rune {
	s = strings.ReplaceAll(s, `\n`, "\n")
	s = strings.ReplaceAll(s, `\t`, "\t")
	s = strings.ReplaceAll(s, `\\`, "\\")
	switch s {
	case "[:upper:]":
		s = "A-Z"
	case "[:lower:]":
		s = "a-z"
	}
	rs := []rune(s)
	var out []rune
	for i := 0; i < len(rs); i++ {
		if i+2 < len(rs) && rs[i+1] == '-' {
			for c := rs[i]; c <= rs[i+2]; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, rs[i])
	}
	return out
}

func grepCmd(extended bool) command.Func {
	return func(env *command.Env) int {
		invert, only, count, quiet := false, false, false, false
		var pat string
		havePat := false
		var files []string
		for _, a := range env.Args[1:] {
			if strings.HasPrefix(a, "-") && len(a) > 1 && !havePat {
				for _, c := range a[1:] {
					switch c {
					case 'v':
						invert = true
					case 'o':
						only = true
					case 'c':
						count = true
					case 'q':
						quiet = true
					case 'E':
						extended = true
					}
				}
				continue
			}
			if !havePat {
				pat, havePat = a, true
				continue
			}
			files = append(files, a)
		}
		if !extended {
			pat = strings.NewReplacer(`\(`, `(`, `\)`, `)`, `\|`, `|`, `(`, `\(`, `)`, `\)`, `|`, `\|`, `+`, `\+`, `?`, `\?`).Replace(pat)
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return env.Errorf(2, "bad regex")
		}
		n := 0
		readInputs(env, files, func(b []byte) bool {
			for _, l := range splitLines(b) {
				m := re.MatchString(l)
				if m == invert {
					continue
				}
				n++
				switch {
				case quiet, count:
				case only:
					for _, s := range re.FindAllString(l, -1) {
						fmt.Fprintln(env.Stdout, s)
					}
				default:
					fmt.Fprintln(env.Stdout, l)
				}
			}
			return true
		})
		if count {
			fmt.Fprintln(env.Stdout, n)
		}
		if n == 0 {
			return 1
		}
		return 0
	}
}

// sedCmd supports only "s/re/repl/[g]" scripts (what the cases use).
func sedCmd(env *command.Env) int {
	var script string
	var files []string
	for _, a := range env.Args[1:] {
		if a == "-e" || a == "-r" || a == "-E" {
			continue
		}
		if script == "" {
			script = a
			continue
		}
		files = append(files, a)
	}
	if len(script) < 2 || script[0] != 's' {
		return env.Errorf(1, "unsupported script")
	}
	d := string(script[1])
	parts := strings.Split(script[2:], d)
	if len(parts) < 3 {
		return env.Errorf(1, "unterminated s command")
	}
	pat := strings.NewReplacer(`\+`, `+`, `\(`, `(`, `\)`, `)`).Replace(parts[0])
	re, err := regexp.Compile(pat)
	if err != nil {
		return env.Errorf(1, "bad regex")
	}
	repl := strings.ReplaceAll(parts[1], "&", "${0}")
	global := strings.Contains(parts[2], "g")
	return readInputs(env, files, func(b []byte) bool {
		for _, l := range splitLines(b) {
			if global {
				l = re.ReplaceAllString(l, repl)
			} else if loc := re.FindStringIndex(l); loc != nil {
				l = l[:loc[0]] + re.ReplaceAllString(l[loc[0]:loc[1]], repl) + l[loc[1]:]
			}
			fmt.Fprintln(env.Stdout, l)
		}
		return true
	})
}

var _ fs.FileInfo
var _ = vfs.O_RDONLY
