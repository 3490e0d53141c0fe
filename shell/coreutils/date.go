package coreutils

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/internal/timefmt"
)

// cmdDate implements date [-u] [-d DATE] [-r FILE] [-I[FMT]] [-R]
// [--rfc-3339=FMT] [+FORMAT]. The time zone is always UTC; date cannot set
// the clock.
func cmdDate(env *command.Env) int {
	args := make([]string, 0, len(env.Args))
	args = append(args, env.Args[0])
	iso := ""
	for _, a := range env.Args[1:] {
		// -I and --iso-8601 take an optional attached argument.
		switch {
		case a == "-I" || a == "--iso-8601":
			iso = "date"
			continue
		case strings.HasPrefix(a, "-I") && !strings.HasPrefix(a, "--"):
			iso = a[2:]
			continue
		case strings.HasPrefix(a, "--iso-8601="):
			iso = a[len("--iso-8601="):]
			continue
		}
		args = append(args, a)
	}
	env2 := *env
	env2.Args = args
	opts, operands, st, ok := env2.ParseOptions("ud:r:Rs:f:", []string{"utc", "universal", "date=", "reference=", "rfc-email", "rfc-2822", "rfc-3339=", "set=", "file=", "debug"}, false)
	if !ok {
		return st
	}
	t := env.Now()
	format := "%a %b %e %H:%M:%S %Z %Y"
	for _, o := range opts {
		switch o.Name {
		case "d", "date":
			v, err := parseDate(o.Value, env.Now())
			if err != nil {
				return env.Errorf(1, "invalid date ‘%s’", o.Value)
			}
			t = v
		case "r", "reference":
			fi, err := stat(env, o.Value)
			if err != nil {
				return env.FileError(1, o.Value, err)
			}
			t = fi.ModTime()
		case "R", "rfc-email", "rfc-2822":
			format = "%a, %d %b %Y %H:%M:%S %z"
		case "rfc-3339":
			switch o.Value {
			case "date":
				format = "%Y-%m-%d"
			case "seconds":
				format = "%Y-%m-%d %H:%M:%S%:z"
			case "ns":
				format = "%Y-%m-%d %H:%M:%S.%N%:z"
			default:
				return env.Usage(1, fmt.Sprintf("invalid argument ‘%s’ for ‘--rfc-3339’", o.Value), "")
			}
		case "s", "set":
			return env.Errorf(1, "cannot set date: Operation not permitted")
		case "f", "file":
			return env.Errorf(1, "option --file is not supported")
		}
	}
	if iso != "" {
		switch iso {
		case "date":
			format = "%Y-%m-%d"
		case "hours":
			format = "%Y-%m-%dT%H%:z"
		case "minutes":
			format = "%Y-%m-%dT%H:%M%:z"
		case "seconds":
			format = "%Y-%m-%dT%H:%M:%S%:z"
		case "ns":
			format = "%Y-%m-%dT%H:%M:%S,%N%:z"
		default:
			return env.Usage(1, fmt.Sprintf("invalid argument ‘%s’ for ‘--iso-8601’", iso), "")
		}
	}
	for i, op := range operands {
		if strings.HasPrefix(op, "+") && i == 0 {
			format = op[1:]
			continue
		}
		if i == 0 {
			return env.Errorf(1, "cannot set date: Operation not permitted")
		}
		return env.Usage(1, fmt.Sprintf("extra operand ‘%s’", op), "")
	}
	if _, err := fmt.Fprintln(env.Stdout, timefmt.Format(format, t.UTC(), timefmt.Options{Date: true})); err != nil {
		return env.WriteError(err)
	}
	return 0
}

// Patterns of the date forms parseAbsoluteDate and applyRelative accept.
var (
	reISODate  = regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)? ?(Z|UTC|[+-]\d{2}:?\d{2})?$`)
	reRelative = regexp.MustCompile(`^([+-]?\d+)?\s*(sec|second|min|minute|hour|day|week|fortnight|month|year)s?(\s+ago)?$`)
	reTimeOnly = regexp.MustCompile(`^(\d{1,2}):(\d{2})(?::(\d{2}))?$`)
)

// parseDate parses the date strings that date -d and touch -d accept most
// often: "@EPOCH"; an absolute date such as "2024-01-02 03:04:05+02:00",
// "2024-01-02T03:04:05Z", "20240102", "01/02/2024", "Jan 2 2024",
// "2 January 2024", the output of date and date -R, "HH:MM[:SS]", "now",
// "today", "yesterday", "tomorrow" or a weekday ("monday", "next friday",
// "last sun"); optionally followed by relative items such as "2 days ago",
// "+3 hours" or "- 1 week". Times without a zone are UTC.
func parseDate(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	now = now.UTC()
	bad := fmt.Errorf("invalid date")
	if strings.HasPrefix(s, "@") {
		return parseEpoch(s[1:])
	}
	if s == "" {
		return now, nil
	}
	fields := strings.Fields(s)
	if len(fields) > 24 {
		return time.Time{}, bad
	}
	for n := len(fields); n >= 0; n-- {
		base := now
		if n > 0 {
			b, ok := parseAbsoluteDate(strings.Join(fields[:n], " "), now)
			if !ok {
				continue
			}
			base = b
		}
		if n == len(fields) {
			return base, nil
		}
		if t, ok := applyRelative(base, strings.ToLower(strings.Join(fields[n:], " "))); ok {
			return t, nil
		}
	}
	return time.Time{}, bad
}

// parseEpoch parses the seconds of "@SECONDS[.FRACTION]".
func parseEpoch(v string) (time.Time, error) {
	bad := fmt.Errorf("invalid date")
	sec, frac, _ := strings.Cut(v, ".")
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || n > 1e13 || n < -1e13 {
		return time.Time{}, bad
	}
	ns := 0
	if frac != "" {
		frac = (frac + "000000000")[:9]
		ns, err = strconv.Atoi(frac)
		if err != nil {
			return time.Time{}, bad
		}
	}
	if strings.HasPrefix(sec, "-") && ns > 0 {
		n--
		ns = 1e9 - ns
	}
	return time.Unix(n, int64(ns)).UTC(), nil
}

// dateLayouts are the other absolute forms parseDate accepts.
var dateLayouts = []string{
	time.RFC1123Z, "Mon, 2 Jan 2006 15:04:05 -0700", time.RFC1123, "Mon, 2 Jan 2006 15:04:05 MST",
	"Mon Jan 2 15:04:05 MST 2006", "Mon Jan 2 15:04:05 2006", "Mon Jan 2 15:04:05 -0700 2006",
	"Jan 2 2006", "Jan 2, 2006", "January 2 2006", "January 2, 2006", "2 Jan 2006", "2 January 2006",
	"Jan 2 2006 15:04", "Jan 2 2006 15:04:05", "2 Jan 2006 15:04", "2 Jan 2006 15:04:05",
	"01/02/2006", "01/02/2006 15:04", "01/02/2006 15:04:05", "20060102", "20060102 15:04", "20060102 15:04:05",
	"2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 MST", "2006-01-02 15:04 MST",
}

// weekdays maps the abbreviations of weekday names (without "day").
var weekdays = map[string]time.Weekday{
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "tues": time.Tuesday, "wed": time.Wednesday,
	"wednes": time.Wednesday, "thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday,
	"fri": time.Friday, "sat": time.Saturday, "satur": time.Saturday,
}

// parseAbsoluteDate parses one absolute date or time of day.
func parseAbsoluteDate(s string, now time.Time) (time.Time, bool) {
	lower := strings.ToLower(s)
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	switch lower {
	case "now", "today":
		return now, true
	case "yesterday":
		return now.AddDate(0, 0, -1), true
	case "tomorrow":
		return now.AddDate(0, 0, 1), true
	}
	if m := reISODate.FindStringSubmatch(s); m != nil {
		t, err := isoDate(m)
		return t, err == nil
	}
	if m := reTimeOnly.FindStringSubmatch(s); m != nil {
		h, _ := strconv.Atoi(m[1])
		mi, _ := strconv.Atoi(m[2])
		sec, _ := strconv.Atoi(m[3])
		if h > 23 || mi > 59 || sec > 60 {
			return time.Time{}, false
		}
		return midnight.Add(time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(sec)*time.Second), true
	}
	// Weekdays: "monday" is today or the next one, "next monday" the
	// next one after today, "last monday" the previous one.
	words := strings.Fields(lower)
	if len(words) <= 2 {
		which := ""
		if len(words) == 2 {
			which = words[0]
		}
		name := strings.TrimSuffix(strings.TrimSuffix(words[len(words)-1], "day"), ",")
		if wd, ok := weekdays[name]; ok && (which == "" || which == "this" || which == "next" || which == "last") {
			diff := (int(wd) - int(now.Weekday()) + 7) % 7
			switch which {
			case "next":
				if diff == 0 {
					diff = 7
				}
			case "last":
				diff -= 7
			}
			return midnight.AddDate(0, 0, diff), true
		}
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// isoDate builds the time matched by reISODate.
func isoDate(m []string) (time.Time, error) {
	atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }
	y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
	h, mi, sec := atoi(m[4]), atoi(m[5]), atoi(m[6])
	ns := 0
	if m[7] != "" {
		frac := m[7]
		for len(frac) < 9 {
			frac += "0"
		}
		ns = atoi(frac)
	}
	if mo < 1 || mo > 12 || d < 1 || h > 24 || mi > 59 || sec > 60 {
		return time.Time{}, fmt.Errorf("invalid date")
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC)
	if t.Day() != d {
		return time.Time{}, fmt.Errorf("invalid date")
	}
	if z := m[8]; z != "" && z != "Z" && z != "UTC" {
		sign := 1
		if z[0] == '-' {
			sign = -1
		}
		z = strings.ReplaceAll(z[1:], ":", "")
		off := (atoi(z[:2])*60 + atoi(z[2:])) * 60 * sign
		t = t.Add(-time.Duration(off) * time.Second)
	}
	return t, nil
}

// applyRelative applies items like "2 days ago", "+1 week", "next day".
func applyRelative(t time.Time, s string) (time.Time, bool) {
	s = strings.ReplaceAll(s, "next ", "1 ")
	s = strings.ReplaceAll(s, "last ", "-1 ")
	var words []string
	for _, w := range strings.Fields(s) {
		if n := len(words); n > 0 && (words[n-1] == "+" || words[n-1] == "-") {
			words[n-1] += w
			continue
		}
		words = append(words, w)
	}
	if len(words) == 0 {
		return t, false
	}
	for len(words) > 0 {
		// Gather one item: [N] unit [ago].
		k := 1
		if _, err := strconv.Atoi(words[0]); err == nil && len(words) > 1 {
			k = 2
		}
		if k < len(words) && words[k] == "ago" {
			k++
		}
		m := reRelative.FindStringSubmatch(strings.Join(words[:k], " "))
		if m == nil {
			return t, false
		}
		n := 1
		if m[1] != "" {
			v, err := strconv.Atoi(m[1])
			if err != nil || v > 1e7 || v < -1e7 {
				return t, false
			}
			n = v
		}
		if m[3] != "" {
			n = -n
		}
		switch m[2] {
		case "sec", "second":
			t = t.Add(time.Duration(n) * time.Second)
		case "min", "minute":
			t = t.Add(time.Duration(n) * time.Minute)
		case "hour":
			t = t.Add(time.Duration(n) * time.Hour)
		case "day":
			t = t.AddDate(0, 0, n)
		case "week":
			t = t.AddDate(0, 0, 7*n)
		case "fortnight":
			t = t.AddDate(0, 0, 14*n)
		case "month":
			t = t.AddDate(0, n, 0)
		case "year":
			t = t.AddDate(n, 0, 0)
		}
		words = words[k:]
	}
	return t, true
}
