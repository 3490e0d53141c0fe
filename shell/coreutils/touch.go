package coreutils

import (
	crand "crypto/rand"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

// cmdTouch implements touch [-acm] [-d DATE] [-t STAMP] [-r FILE] FILE...
func cmdTouch(env *command.Env) int {
	opts, names, st, ok := env.ParseOptions("acmd:t:r:hf", []string{"no-create", "date=", "reference=", "time=", "no-dereference"}, false)
	if !ok {
		return st
	}
	noCreate := false
	t := env.Now()
	for _, o := range opts {
		switch o.Name {
		case "c", "no-create":
			noCreate = true
		case "d", "date":
			v, err := parseDate(o.Value, env.Now())
			if err != nil {
				return env.Errorf(1, "invalid date format ‘%s’", o.Value)
			}
			t = v
		case "t":
			v, err := parseTouchStamp(o.Value, env.Now())
			if err != nil {
				return env.Errorf(1, "invalid date format ‘%s’", o.Value)
			}
			t = v
		case "r", "reference":
			fi, err := stat(env, o.Value)
			if err != nil {
				return env.Errorf(1, "failed to get attributes of '%s': %s", o.Value, command.Strerror(err))
			}
			t = fi.ModTime()
		}
	}
	if len(names) == 0 {
		return env.Usage(1, "missing file operand", "")
	}
	status := 0
	for _, name := range names {
		if env.Canceled() {
			return command.StatusCanceled
		}
		p := env.Abs(name)
		if _, err := env.FS.Stat(p); err != nil {
			if noCreate {
				continue
			}
			f, err := env.FS.OpenFile(p, vfs.O_WRONLY|vfs.O_CREATE, 0o644)
			if err != nil {
				status = env.Errorf(1, "cannot touch '%s': %s", name, command.Strerror(err))
				continue
			}
			f.Close()
		}
		if err := env.FS.Chtimes(p, t); err != nil {
			status = env.Errorf(1, "setting times of '%s': %s", name, command.Strerror(err))
		}
	}
	return status
}

// parseTouchStamp parses touch -t's [[CC]YY]MMDDhhmm[.ss].
func parseTouchStamp(s string, now time.Time) (time.Time, error) {
	main, sec, hasSec := strings.Cut(s, ".")
	bad := fmt.Errorf("bad stamp")
	if hasSec && len(sec) != 2 {
		return time.Time{}, bad
	}
	for _, c := range main + sec {
		if c < '0' || c > '9' {
			return time.Time{}, bad
		}
	}
	year := now.UTC().Year()
	switch len(main) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(main[:2])
		if yy < 69 {
			year = 2000 + yy
		} else {
			year = 1900 + yy
		}
		main = main[2:]
	case 12:
		year, _ = strconv.Atoi(main[:4])
		main = main[4:]
	default:
		return time.Time{}, bad
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	ss := 0
	if hasSec {
		ss = n(sec)
	}
	mo, d, h, mi := n(main[0:2]), n(main[2:4]), n(main[4:6]), n(main[6:8])
	t := time.Date(year, time.Month(mo), d, h, mi, ss, 0, time.UTC)
	if t.Month() != time.Month(mo) || t.Day() != d || h > 23 || mi > 59 || ss > 60 {
		return time.Time{}, bad
	}
	return t, nil
}

// cmdMktemp implements mktemp [-d] [-u] [-q] [-p DIR] [-t] [TEMPLATE].
func cmdMktemp(env *command.Env) int {
	opts, args, st, ok := env.ParseOptions("duqp:t", []string{"directory", "dry-run", "quiet", "tmpdir=", "suffix="}, false)
	if !ok {
		return st
	}
	dir, dirSet, mkDir, dry, quiet, useTmp := "", false, false, false, false, false
	suffix := ""
	for _, o := range opts {
		switch o.Name {
		case "d", "directory":
			mkDir = true
		case "u", "dry-run":
			dry = true
		case "q", "quiet":
			quiet = true
		case "p", "tmpdir":
			dir, dirSet = o.Value, true
		case "t":
			useTmp = true
		case "suffix":
			suffix = o.Value
		}
	}
	fail := func(format string, a ...any) int {
		if quiet {
			return 1
		}
		return env.Errorf(1, format, a...)
	}
	if len(args) > 1 {
		return env.Usage(1, "too many templates", "")
	}
	template := "tmp.XXXXXXXXXX"
	if len(args) == 1 {
		template = args[0]
	} else {
		useTmp = true
	}
	if useTmp || dirSet {
		if strings.Contains(template, "/") && len(args) == 1 && (useTmp || dirSet) {
			return fail("invalid template, ‘%s’, contains directory separator", template)
		}
		if dir == "" {
			dir = "/tmp"
			if v, ok := env.Getenv("TMPDIR"); ok && v != "" && !dirSet {
				dir = v
			}
		}
		template = joinName(dir, template)
	}
	template += suffix
	base := template[:len(template)-len(suffix)]
	nx := len(base) - len(strings.TrimRight(base, "X"))
	if nx < 3 {
		return fail("too few X's in template ‘%s’", strings.TrimPrefix(template, joinName(dir, "")))
	}
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	for try := 0; try < 100; try++ {
		b := []byte(base)
		// The letters come from the host's random source (random_get),
		// which a recording of the execution keeps and a replay gives
		// back; the bias of the modulo does not matter for a name.
		pick := make([]byte, nx)
		_, _ = crand.Read(pick)
		for i := len(b) - nx; i < len(b); i++ {
			b[i] = letters[int(pick[i-(len(b)-nx)])%len(letters)]
		}
		name := string(b) + suffix
		if exists(env, name) {
			continue
		}
		if !dry {
			var err error
			if mkDir {
				err = env.FS.Mkdir(env.Abs(name), 0o700)
			} else {
				var f vfs.File
				f, err = env.FS.OpenFile(env.Abs(name), vfs.O_WRONLY|vfs.O_CREATE|vfs.O_EXCL, 0o600)
				if err == nil {
					f.Close()
				}
			}
			if err != nil {
				if vfs.Code(err) == "EEXIST" {
					continue
				}
				what := "file"
				if mkDir {
					what = "directory"
				}
				return fail("failed to create %s via template ‘%s’: %s", what, template, command.Strerror(err))
			}
		}
		fmt.Fprintln(env.Stdout, name)
		return 0
	}
	return fail("failed to create file via template ‘%s’: File exists", template)
}
