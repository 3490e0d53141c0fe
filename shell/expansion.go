package shell

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// fields expands words into fields (with splitting and globbing).
func (r *runner) fields(words ...*syntax.Word) ([]string, bool) {
	ws := make([]*syntax.Word, len(words))
	for i, w := range words {
		pw, err := r.preArith(w)
		if err != nil {
			r.expandErr(err)
			return nil, false
		}
		ws[i] = pw
	}
	out, err := r.expandFields(ws)
	if err != nil {
		r.expandErr(err)
		return nil, false
	}
	return out, true
}

// literal expands a word to a single string (no splitting or globbing).
func (r *runner) literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	return r.expandWith(w, r.expandLiteral)
}

// assignValue expands the value of an assignment word.
func (r *runner) assignValue(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	return r.expandWith(w, r.expandAssign)
}

// pattern expands a word as a shell pattern.
func (r *runner) pattern(w *syntax.Word) (string, bool) {
	return r.expandWith(w, r.expandPattern)
}

// expandWith evaluates the arithmetic of w and expands it with expand; an
// error is reported and gives false.
func (r *runner) expandWith(w *syntax.Word, expand func(*syntax.Word) (string, error)) (string, bool) {
	w, err := r.preArith(w)
	if err != nil {
		r.expandErr(err)
		return "", false
	}
	s, err := expand(w)
	if err != nil {
		r.expandErr(err)
		return "", false
	}
	return s, true
}

// expandErr reports an expansion error the way bash does.
func (r *runner) expandErr(err error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || r.ctxErr() != nil {
		r.status = CanceledStatus
		r.exiting = true
		return
	}
	if errors.Is(err, errReported) {
		r.status = 1
		r.aborting = true
		return
	}
	var ue expand.UnsetParameterError
	if errors.As(err, &ue) {
		msg := ue.Message
		if msg == "" {
			if ue.Node.Exp != nil && ue.Node.Exp.Op == syntax.ErrorUnsetOrNull {
				msg = "parameter null or not set"
			} else {
				msg = "parameter not set"
			}
		}
		name := ""
		if ue.Node.Param != nil {
			name = ue.Node.Param.Value
		}
		r.errf("%s: %s", name, msg)
		r.status = 1
		r.exiting = true
		return
	}
	if isArithFatal(err) {
		r.errf("%s", err)
		r.status = 1
		r.exiting = true
		return
	}
	var un errUnsupported
	if errors.As(err, &un) {
		r.errf("%s", err)
		r.status = 2
		r.exiting = true
		return
	}
	r.errf("%s", err)
	r.status = 1
	r.aborting = true
}

var (
	patMu    sync.Mutex
	patCache = map[string]*regexp.Regexp{} // shell patterns (compilePattern)
	reCache  = map[reKey]*regexp.Regexp{}  // regular expressions (compileRegexp)
)

// compilePattern turns a shell pattern into a compiled regexp, caching.
func compilePattern(pat string, mode pattern.Mode) (*regexp.Regexp, error) {
	key := strconv.Itoa(int(mode)) + "\x00" + pat
	patMu.Lock()
	re, ok := patCache[key]
	patMu.Unlock()
	if ok {
		return re, nil
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return nil, err
	}
	re, err = regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	cachePattern(key, re)
	return re, nil
}

// compileRegexp compiles a Go regular expression (leftmost-longest if
// longest), caching: ${x//pat/rep} and [[ s =~ re ]] in a loop compiled the
// same expression on every iteration.
func compileRegexp(expr string, longest bool) (*regexp.Regexp, error) {
	key := reKey{expr, longest}
	patMu.Lock()
	re, ok := reCache[key]
	patMu.Unlock()
	if ok {
		return re, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	if longest {
		re.Longest() // before anyone else sees it: Longest is not safe for concurrent use
	}
	if len(expr) <= maxCachedPattern {
		patMu.Lock()
		if len(reCache) >= maxCachedPatterns {
			clear(reCache)
		}
		reCache[key] = re
		patMu.Unlock()
	}
	return re, nil
}

// reKey is the key of reCache.
type reKey struct {
	expr    string
	longest bool
}

// Bounds of the caches of compiled patterns: the patterns come from
// scripts.
const (
	maxCachedPatterns = 1000
	maxCachedPattern  = 4 << 10
)

// cachePattern remembers a compiled shell pattern.
func cachePattern(key string, re *regexp.Regexp) {
	if len(key) > maxCachedPattern {
		return
	}
	patMu.Lock()
	if len(patCache) >= maxCachedPatterns {
		clear(patCache)
	}
	patCache[key] = re
	patMu.Unlock()
}

// plainParts reports whether parts certainly hold neither a process
// substitution nor a ${...} subscript or slice outside command
// substitutions: the two things checkWord and hasArithExp look for. It
// answers from the node types of a typical word without walking the tree
// (Walk allocates, and every word of every command is checked); false
// means "not known", and the caller walks.
func plainParts(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted, *syntax.CmdSubst:
			// Neither walk looks inside a command substitution.
		case *syntax.DblQuoted:
			if !plainParts(p.Parts) {
				return false
			}
		case *syntax.ParamExp:
			if p.Flags != nil || p.NestedParam != nil || p.Index != nil || p.Slice != nil ||
				p.Repl != nil || p.Exp != nil || len(p.Modifiers) != 0 {
				return false
			}
		case *syntax.ArithmExp:
			if !plainArithm(p.X) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// plainArithm is plainParts for an arithmetic expression.
func plainArithm(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		return plainArithm(x.X) && plainArithm(x.Y)
	case *syntax.UnaryArithm:
		return plainArithm(x.X)
	case *syntax.ParenArithm:
		return plainArithm(x.X)
	case *syntax.Word:
		return plainParts(x.Parts)
	}
	return false
}
