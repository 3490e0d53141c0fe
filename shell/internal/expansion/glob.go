package expansion

import (
	"errors"
	"path"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/pattern"
)

// This file does pathname expansion (globbing) over the Env's files.

// hasGlobMeta reports whether a field has unquoted pattern characters.
func hasGlobMeta(f *wfield, extglob bool) bool {
	lastClose := -1
	for i := len(f.b) - 1; i >= 0; i-- {
		if f.b[i] == ']' && !f.quoted[i] {
			lastClose = i
			break
		}
	}
	for i, c := range f.b {
		if f.quoted[i] {
			continue
		}
		switch c {
		case '*', '?':
			return true
		case '[':
			if lastClose > i {
				return true
			}
		case '+', '@', '!':
			if extglob && i+1 < len(f.b) && f.b[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

// globPattern builds a pattern where quoted bytes are escaped.
func globPattern(f *wfield) string {
	var b strings.Builder
	for i, c := range f.b {
		if f.quoted[i] && strings.IndexByte(`*?[]\!+@(){}|`, c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// unescapeGlob removes pattern escapes from a literal component.
func unescapeGlob(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// maxGlobMatches bounds the number of paths one pattern may produce.
const maxGlobMatches = 100000

// glob expands a pattern over the Env's files, relative to its Dir.
func (ex *Expander) glob(pat string) ([]string, error) {
	mode := pattern.Filenames | pattern.EntireString
	if ex.env.Options().ExtGlob {
		mode |= pattern.ExtendedOperators
	}
	if ex.env.Options().NoCaseGlob {
		mode |= pattern.NoGlobCase
	}
	if ex.env.Options().DotGlob {
		mode |= pattern.GlobLeadingDot
	}
	if !ex.env.Options().GlobStar {
		mode |= pattern.NoGlobStar
	}
	abs := strings.HasPrefix(pat, "/")
	trailingSlash := strings.HasSuffix(pat, "/")
	parts := strings.Split(strings.Trim(pat, "/"), "/")
	cur := []cand{{"", ex.env.Dir()}}
	if abs {
		cur = []cand{{"/", "/"}}
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		if strings.HasSuffix(a, "/") {
			return a + b
		}
		return a + "/" + b
	}
	literal := true // no component so far had pattern characters
	for i, part := range parts {
		last := i == len(parts)-1
		if part == "" {
			continue
		}
		var next []cand
		if !pattern.HasMeta(part, 0) && !(ex.env.Options().ExtGlob && strings.Contains(part, "(")) {
			lit := unescapeGlob(part)
			for _, c := range cur {
				full := path.Join(c.full, lit)
				fi, err := ex.env.Stat(full)
				if err != nil || (!last && !fi.IsDir()) {
					continue
				}
				next = append(next, cand{join(c.rel, lit), full})
			}
			cur = next
			continue
		}
		if ex.env.Options().GlobStar && part == "**" {
			for _, c := range cur {
				switch {
				case !last:
					next = append(next, c)
				case c.rel == "":
					// the current directory itself is not listed
				case literal && !trailingSlash:
					// d/** lists d/ as written, a*/** the a it found
					next = append(next, cand{strings.TrimSuffix(c.rel, "/") + "/", c.full})
				default:
					next = append(next, c)
				}
				ex.walkDirs(c.rel, c.full, join, &next, 0, last && !trailingSlash)
			}
			cur = next
			literal = false
			continue
		}
		literal = false
		match, err := ex.componentMatcher(part, mode)
		if err != nil {
			return nil, err
		}
		for _, c := range cur {
			ents, err := ex.env.ReadDir(c.full)
			if err != nil {
				continue
			}
			for _, e := range ents {
				name := e.Name()
				if !match(name) {
					continue
				}
				if (!last || trailingSlash) && !e.IsDir() {
					continue
				}
				next = append(next, cand{join(c.rel, name), path.Join(c.full, name)})
				if len(next) > maxGlobMatches {
					return nil, errors.New("too many glob matches")
				}
			}
		}
		cur = next
		if ex.env.Err() != nil {
			return nil, ex.env.Err()
		}
	}
	ignore := ex.globIgnore()
	out := make([]string, 0, len(cur))
	for _, c := range cur {
		s := c.rel
		if trailingSlash {
			s += "/"
		}
		if ignore != nil && ignore(s) {
			continue
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}

// globIgnore returns the filter of GLOBIGNORE: whether a path that a
// pattern matched is left out (it matches one of the colon-separated
// patterns, in which * does not match "/"). It is nil when GLOBIGNORE is
// unset or empty.
func (ex *Expander) globIgnore() func(string) bool {
	v := ex.getVar("GLOBIGNORE")
	if v == "" {
		return nil
	}
	mode := MatchPathname
	if ex.env.Options().ExtGlob {
		mode |= MatchExtGlob
	}
	if ex.env.Options().NoCaseGlob {
		mode |= MatchFold
	}
	var ms []*Matcher
	for _, p := range strings.Split(v, ":") {
		if p != "" {
			ms = append(ms, CompileMatcher(p, mode))
		}
	}
	return func(s string) bool {
		base := path.Base(s)
		if base == "." || base == ".." {
			return true
		}
		for _, m := range ms {
			if m.Match(s) {
				return true
			}
		}
		return false
	}
}

// componentMatcher returns the matcher of one component of a path
// pattern: bash's own for the extended operators, else a regular
// expression. Neither matches a leading "." with a wildcard without
// dotglob.
func (ex *Expander) componentMatcher(part string, mode pattern.Mode) (func(string) bool, error) {
	opts := ex.env.Options()
	if opts.ExtGlob && HasExtGlob(part) {
		mm := MatchExtGlob
		if opts.NoCaseGlob {
			mm |= MatchFold
		}
		if !opts.DotGlob {
			mm |= MatchPeriod
		}
		return CompileMatcher(part, mm).Match, nil
	}
	re, err := CompilePattern(part, mode)
	if err != nil {
		return nil, err
	}
	dotOK := opts.DotGlob || strings.HasPrefix(part, ".") || strings.HasPrefix(part, `\.`)
	return func(name string) bool {
		if name[0] == '.' && !dotOK {
			return false
		}
		return re.MatchString(name)
	}, nil
}

// cand is a glob candidate: the path as it will be printed and its
// absolute form.
type cand struct{ rel, full string }

// walkDirs adds the directories below full (for **), and the files too
// when files is true.
func (ex *Expander) walkDirs(rel, full string, join func(a, b string) string, out *[]cand, depth int, files bool) {
	if depth > 64 || len(*out) > maxGlobMatches {
		return
	}
	ents, err := ex.env.ReadDir(full)
	if err != nil {
		return
	}
	for _, e := range ents {
		if e.Name()[0] == '.' && !ex.env.Options().DotGlob {
			continue
		}
		c := cand{join(rel, e.Name()), path.Join(full, e.Name())}
		if !e.IsDir() {
			if files {
				*out = append(*out, c)
			}
			continue
		}
		*out = append(*out, c)
		ex.walkDirs(c.rel, c.full, join, out, depth+1, files)
	}
}
