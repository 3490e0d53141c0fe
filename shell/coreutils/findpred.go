package coreutils

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// truth is the test that is always true.
func truth(ff *findFile) bool { return true }

// parseMatch parses the tests on names and types.
func (p *findParser) parseMatch(name string) *findNode {
	test := func(fn func(ff *findFile) bool) *findNode { return &findNode{kind: "test", test: fn} }
	switch name {
	case "-name", "-iname":
		pat, ok := p.arg(name)
		if !ok {
			return nil
		}
		fold := name == "-iname"
		return test(func(ff *findFile) bool { return fnmatch(pat, findBase(ff.name), fold) })
	case "-path", "-ipath", "-wholename", "-iwholename":
		pat, ok := p.arg(name)
		if !ok {
			return nil
		}
		fold := name[1] == 'i'
		return test(func(ff *findFile) bool { return fnmatch(pat, ff.name, fold) })
	case "-regex", "-iregex":
		pat, ok := p.arg(name)
		if !ok {
			return nil
		}
		expr := pat
		if !p.ere {
			expr = emacsToGoRegexp(pat)
		}
		expr = "^(?:" + expr + ")$"
		if name == "-iregex" {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			p.err = fmt.Sprintf("invalid regular expression `%s'", pat)
			return nil
		}
		return test(func(ff *findFile) bool { return re.MatchString(ff.name) })
	case "-regextype":
		t, ok := p.arg(name)
		if !ok {
			return nil
		}
		p.ere = strings.Contains(t, "extended") || t == "egrep" || t == "awk"
		return test(truth)
	case "-type", "-xtype":
		t, ok := p.arg(name)
		if !ok {
			return nil
		}
		types := strings.Split(t, ",")
		for _, c := range types {
			if len(c) != 1 || !strings.Contains("bcdpflsD", c) {
				p.err = fmt.Sprintf("Unknown argument to %s: %s", name, t)
				return nil
			}
		}
		return test(func(ff *findFile) bool {
			for _, c := range types {
				if (c == "d" && ff.info.IsDir()) || (c == "f" && ff.info.Mode().IsRegular()) {
					return true
				}
			}
			return false
		})
	}
	return nil
}

// parseOption parses the global options and the constant tests.
func (p *findParser) parseOption(name string) *findNode {
	f := p.f
	test := func(fn func(ff *findFile) bool) *findNode { return &findNode{kind: "test", test: fn} }
	switch name {
	case "-maxdepth", "-mindepth":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			p.err = fmt.Sprintf("Expected a positive decimal integer argument to %s, but got ‘%s’", name, v)
			return nil
		}
		if name == "-maxdepth" {
			f.maxDepth = n
		} else {
			f.minDepth = n
		}
		return test(truth)
	case "-depth", "-d":
		f.depthMode = true
		return test(truth)
	case "-true", "-follow", "-noleaf", "-mount", "-xdev", "-ignore_readdir_race", "-nowarn", "-warn", "-daystart":
		return test(truth)
	case "-false":
		return test(func(*findFile) bool { return false })
	}
	return nil
}

// parseFileTest parses the tests on sizes, permissions and owners.
func (p *findParser) parseFileTest(name string) *findNode {
	f := p.f
	test := func(fn func(ff *findFile) bool) *findNode { return &findNode{kind: "test", test: fn} }
	switch name {
	case "-empty":
		return test(func(ff *findFile) bool {
			if ff.info.IsDir() {
				list, err := f.env.FS.ReadDir(ff.abs)
				return err == nil && len(list) == 0
			}
			return ff.info.Size() == 0
		})
	case "-readable", "-writable", "-executable":
		bits := map[string]int{"-readable": vfs.ReadOK, "-writable": vfs.WriteOK, "-executable": vfs.ExecOK}[name]
		return test(func(ff *findFile) bool {
			return p.f.env.FS.Access(ff.abs, bits) == nil
		})
	case "-size":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		cmp, n, unit, ok := parseFindSize(v)
		if !ok {
			p.err = fmt.Sprintf("invalid -size type `%s'", v)
			return nil
		}
		return test(func(ff *findFile) bool {
			size := ff.info.Size()
			if ff.info.IsDir() {
				size = 4096
			}
			units := (size + unit - 1) / unit
			return compareFind(cmp, units, n)
		})
	case "-perm":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		mode, ok := parseFindPerm(v)
		if !ok {
			p.err = fmt.Sprintf("invalid mode ‘%s’", v)
			return nil
		}
		return test(func(ff *findFile) bool {
			perm := unixMode(ff.info.Mode())
			switch v[0] {
			case '-':
				return perm&mode == mode
			case '/':
				return mode == 0 || perm&mode != 0
			}
			return perm == mode
		})
	case "-user", "-group", "-uid", "-gid":
		if _, ok := p.arg(name); !ok {
			return nil
		}
		return test(truth)
	case "-nouser", "-nogroup":
		return test(func(*findFile) bool { return false })
	case "-links":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		cmp, n, ok := parseFindNumber(v)
		if !ok {
			p.err = fmt.Sprintf("invalid argument `%s' to `%s'", v, name)
			return nil
		}
		return test(func(ff *findFile) bool { return compareFind(cmp, 1, n) })
	}
	return nil
}

// parseTimeTest parses the tests on modification times.
func (p *findParser) parseTimeTest(name string) *findNode {
	f := p.f
	test := func(fn func(ff *findFile) bool) *findNode { return &findNode{kind: "test", test: fn} }
	switch name {
	case "-newer", "-anewer", "-cnewer":
		ref, ok := p.arg(name)
		if !ok {
			return nil
		}
		fi, err := stat(f.env, ref)
		if err != nil {
			p.err = fmt.Sprintf("‘%s’: %s", ref, command.Strerror(err))
			return nil
		}
		t := fi.ModTime()
		return test(func(ff *findFile) bool { return ff.info.ModTime().After(t) })
	case "-newermt", "-newerct", "-newerat":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		t, err := parseDate(v, f.now)
		if err != nil {
			p.err = fmt.Sprintf("I cannot figure out how to interpret ‘%s’ as a date or time", v)
			return nil
		}
		return test(func(ff *findFile) bool { return ff.info.ModTime().After(t) })
	case "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin":
		v, ok := p.arg(name)
		if !ok {
			return nil
		}
		cmp, n, ok := parseFindNumber(v)
		if !ok {
			p.err = fmt.Sprintf("invalid argument `%s' to `%s'", v, name)
			return nil
		}
		unit := 24 * time.Hour
		if strings.HasSuffix(name, "min") {
			unit = time.Minute
		}
		return test(func(ff *findFile) bool {
			age := f.now.Sub(ff.info.ModTime())
			units := int64(age / unit)
			if age < 0 && age%unit != 0 {
				units--
			}
			if unit == time.Minute {
				// -mmin rounds up.
				units = int64((age + unit - 1) / unit)
			}
			return compareFind(cmp, units, n)
		})
	}
	return nil
}

// parseAction parses the actions.
func (p *findParser) parseAction(name string) *findNode {
	f := p.f
	test := func(fn func(ff *findFile) bool) *findNode { return &findNode{kind: "test", test: fn} }
	switch name {
	case "-prune":
		return test(func(ff *findFile) bool {
			if !f.depthMode {
				ff.prune = true
			}
			return true
		})
	case "-quit":
		p.action = true
		return test(func(*findFile) bool { f.quit = true; return true })
	case "-print", "-print0":
		p.action = true
		end := byte('\n')
		if name == "-print0" {
			end = 0
		}
		return test(func(ff *findFile) bool {
			f.w.WriteString(ff.name)
			f.w.WriteByte(end)
			return true
		})
	case "-printf", "-fprintf", "-fprint", "-fprint0":
		p.action = true
		w := f.w
		if name != "-printf" {
			file, ok := p.arg(name)
			if !ok {
				return nil
			}
			var err error
			if w, err = f.openOutput(file); err != nil {
				p.err = fmt.Sprintf("‘%s’: %s", file, command.Strerror(err))
				return nil
			}
		}
		switch name {
		case "-fprint", "-fprint0":
			end := byte('\n')
			if name == "-fprint0" {
				end = 0
			}
			return test(func(ff *findFile) bool {
				w.WriteString(ff.name)
				w.WriteByte(end)
				return true
			})
		}
		format, ok := p.arg(name)
		if !ok {
			return nil
		}
		f.warnEscapes(format)
		return test(func(ff *findFile) bool {
			w.WriteString(findPrintf(format, ff))
			return true
		})
	case "-ls":
		p.action = true
		return test(func(ff *findFile) bool {
			fmt.Fprintf(f.w, "%9d %6d %s %3d %-8s %-8s %8d %s %s\n", 0, lsBlocks(ff.info), modeString(ff.info), 1, "user", "user", lsSize(ff.info), lsTime(ff.info.ModTime(), f.now), ff.name)
			return true
		})
	case "-delete":
		p.action = true
		f.depthMode = true
		return test(func(ff *findFile) bool {
			if ff.depth == 0 && (ff.name == "." || ff.name == "..") {
				return true
			}
			if err := f.env.FS.Remove(ff.abs); err != nil {
				f.w.Flush()
				f.status = f.env.Errorf(1, "cannot delete ‘%s’: %s", ff.name, command.Strerror(err))
				return false
			}
			return true
		})
	case "-exec", "-execdir", "-ok", "-okdir":
		p.action = true
		return p.parseExec(name)
	}
	return nil
}

// parseExec parses the command of -exec up to ";" or "{} +".
func (p *findParser) parseExec(name string) *findNode {
	f := p.f
	start := p.pos
	for ; p.pos < len(p.args); p.pos++ {
		a := p.args[p.pos]
		if a == ";" {
			break
		}
		if a == "+" && p.pos > start && p.args[p.pos-1] == "{}" && (name == "-exec" || name == "-execdir") {
			break
		}
	}
	if p.pos >= len(p.args) || p.pos == start {
		p.err = fmt.Sprintf("missing argument to `%s'", name)
		return nil
	}
	cmd := append([]string(nil), p.args[start:p.pos]...)
	term := p.args[p.pos]
	p.pos++
	dirMode := name == "-execdir" || name == "-okdir"
	if term == "+" {
		b := &execBatch{args: cmd[:len(cmd)-1]}
		f.batches = append(f.batches, b)
		return &findNode{kind: "test", test: func(ff *findFile) bool {
			n := ff.name
			if dirMode {
				n = "./" + findBase(ff.name)
			}
			b.names = append(b.names, n)
			b.size += len(n) + 1
			if len(b.names) >= 4096 || b.size >= 128<<10 {
				f.runBatch(b)
			}
			return true
		}}
	}
	ask := name == "-ok" || name == "-okdir"
	return &findNode{kind: "test", test: func(ff *findFile) bool {
		n := ff.name
		if dirMode {
			n = "./" + findBase(ff.name)
		}
		argv := make([]string, len(cmd))
		for i, a := range cmd {
			argv[i] = strings.ReplaceAll(a, "{}", n)
		}
		if ask {
			// The prompt names the file by its path, also for -okdir.
			if !f.confirm(argv[0], ff.name) {
				return false
			}
			return f.execStdin(argv, strings.NewReader("")) == 0
		}
		return f.exec(argv) == 0
	}}
}

// parseFindNumber parses "+N", "-N" or "N".
func parseFindNumber(v string) (byte, int64, bool) {
	var cmp byte
	if v != "" && (v[0] == '+' || v[0] == '-') {
		cmp, v = v[0], v[1:]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return cmp, n, err == nil && n >= 0
}

// parseFindSize parses -size's [+-]N[cwbkMG].
func parseFindSize(v string) (cmp byte, n, unit int64, ok bool) {
	unit = 512
	if v != "" {
		switch v[len(v)-1] {
		case 'c':
			unit = 1
		case 'w':
			unit = 2
		case 'b':
			unit = 512
		case 'k':
			unit = 1024
		case 'M':
			unit = 1 << 20
		case 'G':
			unit = 1 << 30
		}
		if v[len(v)-1] > '9' {
			v = v[:len(v)-1]
		}
	}
	cmp, n, ok = parseFindNumber(v)
	return cmp, n, unit, ok
}

// compareFind compares v with n as the sign cmp asks (+ greater, - less).
func compareFind(cmp byte, v, n int64) bool {
	switch cmp {
	case '+':
		return v > n
	case '-':
		return v < n
	}
	return v == n
}

// parseFindPerm parses the octal mode of -perm [-/]MODE.
func parseFindPerm(v string) (uint32, bool) {
	s := v
	if s != "" && (s[0] == '-' || s[0] == '/') {
		s = s[1:]
	}
	// An octal or symbolic mode, as chmod takes, applied to no bits.
	changes, ok := compileMode(s)
	if !ok {
		return 0, false
	}
	return adjustMode(0, false, 0, changes), true
}

// emacsToGoRegexp converts a GNU Emacs-style regular expression (find's
// default -regextype) to Go syntax: \( \) \| \{ \} are operators and the
// bare characters are literals.
func emacsToGoRegexp(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case '(', ')', '|', '{', '}':
				sb.WriteByte(s[i])
			default:
				sb.WriteByte('\\')
				sb.WriteByte(s[i])
			}
			continue
		}
		switch c {
		case '(', ')', '|', '{', '}':
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
	}
	return sb.String()
}
