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
		if !r.checkWord(w) {
			return nil, false
		}
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

// expandWith checks w for unsupported constructs, evaluates its
// arithmetic, and expands it with expand; an error is reported and gives
// false.
func (r *runner) expandWith(w *syntax.Word, expand func(*syntax.Word) (string, error)) (string, bool) {
	if !r.checkWord(w) {
		return "", false
	}
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

// checkWord rejects unsupported constructs inside a word.
func (r *runner) checkWord(w *syntax.Word) bool {
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ProcSubst:
			ok = false
		case *syntax.CmdSubst:
			return false
		}
		return ok
	})
	if !ok {
		r.unsupported(`process substitutions <(...) and >(...) (except in "< <(cmd)")`)
	}
	return ok
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
	patCache = map[string]*regexp.Regexp{}
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
	patMu.Lock()
	if len(patCache) > 1000 {
		clear(patCache)
	}
	patCache[key] = re
	patMu.Unlock()
	return re, nil
}
