package awk

// gawk's extensions that scripts commonly use: gensub, the bit functions,
// the time functions, asort and asorti, and PROCINFO["sorted_in"].

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/shell/internal/timefmt"
)

// gensub implements gensub(re, repl, how [, target]).
func (in *interp) gensub(args []expr) value {
	re := in.regexOf(args[0])
	repl := in.toStr(in.eval(args[1]))
	how := in.eval(args[2])
	var target string
	if len(args) == 4 {
		target = in.toStr(in.eval(args[3]))
	} else {
		target = in.getRecord()
	}
	nth := 0 // 0: every match
	if hs := in.toStr(how); !(how.k == kStr && (strings.HasPrefix(hs, "g") || strings.HasPrefix(hs, "G"))) {
		n := how.toNum()
		if n < 1 || math.IsNaN(n) {
			in.warn("gensub: third argument `%s' treated as 1", hs)
			n = 1
		}
		nth = int(min(n, 1<<30))
	}
	locs := re.FindAllStringSubmatchIndex(target, -1)
	if len(locs) == 0 {
		return str(target)
	}
	var b strings.Builder
	prev, count := 0, 0
	for _, loc := range locs {
		count++
		if nth != 0 && count != nth {
			continue
		}
		b.WriteString(target[prev:loc[0]])
		gensubRepl(&b, repl, target, loc)
		prev = loc[1]
		if nth != 0 {
			break
		}
	}
	b.WriteString(target[prev:])
	return str(b.String())
}

// gensubRepl expands gensub's replacement: & and \0 are the match, \N the
// Nth group, \& a literal &, \\ a backslash, and \c another character c.
func gensubRepl(b *strings.Builder, repl, s string, loc []int) {
	group := func(n int) {
		if 2*n+1 < len(loc) && loc[2*n] >= 0 {
			b.WriteString(s[loc[2*n]:loc[2*n+1]])
		}
	}
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c == '&':
			group(0)
		case c == '\\' && i+1 < len(repl):
			i++
			if d := repl[i]; d >= '0' && d <= '9' {
				group(int(d - '0'))
			} else {
				b.WriteByte(d)
			}
		default:
			b.WriteByte(c)
		}
	}
}

// bitArg converts an argument of the bit functions, which take
// non-negative integers (gawk works on 53 bits).
func (in *interp) bitArg(name string, i int, e expr) uint64 {
	n := in.eval(e).toNum()
	if n < 0 {
		fatal("%s: argument %d negative value %s is not allowed", name, i, in.numStr(n, in.convfmt))
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		fatal("%s: argument %d non-finite value %s is not allowed", name, i, in.numStr(n, in.convfmt))
	}
	return uint64(math.Trunc(n))
}

const bits53 = 1<<53 - 1

func (in *interp) bitFunc(c *builtinCall) value {
	switch c.fn {
	case bAnd, bOr, bXor:
		r := in.bitArg(c.name, 1, c.args[0])
		for i, a := range c.args[1:] {
			v := in.bitArg(c.name, i+2, a)
			switch c.fn {
			case bAnd:
				r &= v
			case bOr:
				r |= v
			default:
				r ^= v
			}
		}
		return num(float64(r))
	case bLshift:
		v, s := in.bitArg(c.name, 1, c.args[0]), in.bitArg(c.name, 2, c.args[1])
		if s >= 64 {
			return num(0)
		}
		return num(float64(v << s))
	case bRshift:
		v, s := in.bitArg(c.name, 1, c.args[0]), in.bitArg(c.name, 2, c.args[1])
		if s >= 64 {
			return num(0)
		}
		return num(float64(v >> s))
	}
	// compl
	return num(float64(^in.bitArg(c.name, 1, c.args[0]) & bits53))
}

// now returns the sandbox's time (the host clock).
func (in *interp) now() time.Time {
	if in.env.Now != nil {
		return in.env.Now()
	}
	return time.Now()
}

// The sandbox's time zone is UTC, as for date.
const defaultTimeFormat = "%a %b %e %H:%M:%S %Z %Y"

func (in *interp) timeFunc(c *builtinCall) value {
	switch c.fn {
	case bSystime:
		return num(float64(in.now().Unix()))
	case bMktime:
		return num(float64(mktime(in.toStr(in.eval(c.args[0])))))
	}
	// strftime([format [, timestamp [, utc]]])
	format := defaultTimeFormat
	t := in.now()
	utc := false
	if len(c.args) > 0 {
		format = in.toStr(in.eval(c.args[0]))
	}
	if len(c.args) > 1 {
		n := in.eval(c.args[1]).toNum()
		if n < 0 || math.IsNaN(n) || n > 1e15 {
			fatal("strftime: second argument less than 0 or too big for time_t")
		}
		t = time.Unix(int64(n), 0)
	}
	if len(c.args) > 2 {
		utc = in.eval(c.args[2]).toBool()
	}
	zone := ""
	if utc {
		zone = "GMT"
	}
	return str(timefmt.Format(format, t.UTC(), timefmt.Options{Zone: zone}))
}

// mktime parses "YYYY MM DD HH MM SS [DST]" as a UTC time; out-of-range
// fields are normalized, as by C's mktime. It returns -1 on bad input.
func mktime(s string) int64 {
	f := strings.Fields(s)
	if len(f) < 6 || len(f) > 7 {
		return -1
	}
	var n [6]int
	for i := 0; i < 6; i++ {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return -1
		}
		n[i] = v
	}
	return time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], 0, time.UTC).Unix()
}

// sortElem is an element being sorted by asort, asorti or a sorted for-in.
type sortElem struct {
	key string
	v   value
}

// sortOrder returns a less function for one of gawk's predefined orders
// ("@ind_str_asc", "@val_num_desc", ...). ok is false for an unknown
// name.
func (in *interp) sortOrder(name string) (less func(a, b sortElem) bool, ok bool) {
	desc := strings.HasSuffix(name, "_desc")
	base := strings.TrimSuffix(strings.TrimSuffix(name, "_desc"), "_asc")
	var cmp func(a, b sortElem) int
	switch base {
	case "@ind_str":
		cmp = func(a, b sortElem) int { return strings.Compare(a.key, b.key) }
	case "@ind_num":
		cmp = func(a, b sortElem) int {
			if c := cmpFloat(strToNum(a.key), strToNum(b.key)); c != 0 {
				return c
			}
			return strings.Compare(a.key, b.key)
		}
	case "@val_str":
		cmp = func(a, b sortElem) int {
			if c := strings.Compare(in.toStr(a.v), in.toStr(b.v)); c != 0 {
				return c
			}
			return strings.Compare(a.key, b.key)
		}
	case "@val_num":
		cmp = func(a, b sortElem) int {
			if c := cmpFloat(a.v.toNum(), b.v.toNum()); c != 0 {
				return c
			}
			return strings.Compare(a.key, b.key)
		}
	case "@val_type":
		cmp = func(a, b sortElem) int {
			if c := in.cmpTyped(a.v, b.v); c != 0 {
				return c
			}
			return strings.Compare(a.key, b.key)
		}
	case "@unsorted":
		return nil, true
	default:
		return nil, false
	}
	if desc {
		return func(a, b sortElem) bool { return cmp(a, b) > 0 }, true
	}
	return func(a, b sortElem) bool { return cmp(a, b) < 0 }, true
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpTyped orders values as asort does: numbers (and numeric input)
// before strings, numbers by value, strings by their bytes.
func (in *interp) cmpTyped(a, b value) int {
	a, b = a.classify(), b.classify()
	an, bn := a.k == kNum || a.k == kStrnum, b.k == kNum || b.k == kStrnum
	switch {
	case an && bn:
		return cmpFloat(a.n, b.n)
	case an:
		return -1
	case bn:
		return 1
	}
	return strings.Compare(in.toStr(a), in.toStr(b))
}

// asort implements asort and asorti: sort the values (or the indices) of
// the source into dest[1..n] (the source itself when there is no dest).
func (in *interp) asort(c *builtinCall) value {
	src := in.arrayOf(c.args[0].(*varExpr))
	dst := src
	if len(c.args) > 1 {
		dst = in.arrayOf(c.args[1].(*varExpr))
	}
	order := "@val_type_asc"
	if c.fn == bAsorti {
		order = "@ind_str_asc"
	}
	if len(c.args) > 2 {
		order = in.toStr(in.eval(c.args[2]))
	}
	less, ok := in.sortOrder(order)
	if !ok {
		fatal("%s: `%s' is not a valid sort order", c.name, order)
	}
	elems := src.elems()
	if less != nil {
		sort.SliceStable(elems, func(i, j int) bool { return less(elems[i], elems[j]) })
	}
	dst.clear()
	for i, e := range elems {
		v := e.v
		if c.fn == bAsorti {
			v = str(e.key)
		}
		dst.set(strconv.Itoa(i+1), v)
	}
	return num(float64(len(elems)))
}

// sortedKeys returns the keys of arr in the order PROCINFO["sorted_in"]
// names, or nil for insertion order.
func (in *interp) sortedKeys(arr *array) []string {
	pi := in.globals[gPROCINFO].arr
	if pi == nil {
		return nil
	}
	ov, ok := pi.lookup("sorted_in")
	if !ok {
		return nil
	}
	less, ok := in.sortOrder(in.toStr(ov))
	if !ok || less == nil {
		return nil
	}
	elems := arr.elems()
	sort.SliceStable(elems, func(i, j int) bool { return less(elems[i], elems[j]) })
	keys := make([]string, len(elems))
	for i, e := range elems {
		keys[i] = e.key
	}
	return keys
}
