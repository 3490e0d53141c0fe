package coreutils

import (
	"strings"
	"sync"

	"github.com/itchyny/gojq"
)

// Compiled jq programs are kept for reuse: parsing and compiling a filter
// (with the order-keeping prelude) is most of the cost of a small jq
// invocation, and scripts run the same filter again and again (in a loop
// over files, say). A program's host functions and input iterator do not
// hold an invocation's state themselves but reach it through the
// program's jqBinding, which an invocation takes for itself: a program is
// used by one invocation at a time, and two concurrent invocations of one
// filter (jq . | jq .) each get their own.

// jqBinding is the state of the invocation that runs a compiled program.
type jqBinding struct {
	inputs    *jqInputs
	order     *keyOrder
	environ   []string
	nullInput bool
}

// Next reads the next input of the bound invocation (gojq's input and
// inputs).
func (b *jqBinding) Next() (any, bool) { return b.inputs.Next() }

// jqProgram is a compiled filter with its binding.
type jqProgram struct {
	key  jqProgramKey
	code *gojq.Code
	b    *jqBinding
	// usesEnv is set when the compiler read the environment ($ENV and env
	// are resolved at compile time): the program is then not reused, as
	// the environment can change between invocations.
	usesEnv bool
}

// jqProgramKey is what a compiled program depends on.
type jqProgramKey struct {
	filter   string
	sortKeys bool   // without --sort-keys the filter is rewritten to keep key order
	varNames string // the names of --arg and friends, NUL-separated
}

// Bounds of the program cache: the programs it holds and the size of a
// filter it keeps (a long filter is rarely repeated and costs memory).
const (
	jqCacheEntries   = 16
	jqCacheMaxFilter = 4 << 10
)

var jqCache struct {
	mu    sync.Mutex
	progs []*jqProgram // most recently returned last
}

// takeJqProgram returns a program for key from the cache, removing it
// while it is in use, or nil.
func takeJqProgram(key jqProgramKey) *jqProgram {
	jqCache.mu.Lock()
	defer jqCache.mu.Unlock()
	for i := len(jqCache.progs) - 1; i >= 0; i-- {
		if p := jqCache.progs[i]; p.key == key {
			jqCache.progs = append(jqCache.progs[:i], jqCache.progs[i+1:]...)
			return p
		}
	}
	return nil
}

// returnJqProgram puts a program back once its invocation is over,
// dropping the binding's state and, past the bound, the oldest program.
func returnJqProgram(p *jqProgram) {
	if p.usesEnv || len(p.key.filter) > jqCacheMaxFilter {
		return
	}
	*p.b = jqBinding{}
	jqCache.mu.Lock()
	defer jqCache.mu.Unlock()
	if len(jqCache.progs) >= jqCacheEntries {
		jqCache.progs = append(jqCache.progs[:0], jqCache.progs[1:]...)
	}
	jqCache.progs = append(jqCache.progs, p)
}

// jqProgramFor returns the compiled program of o's filter with the
// variables names, from the cache or compiled now, bound to bind.
func jqProgramFor(o *jqOptions, names []string, bind jqBinding) (*jqProgram, error) {
	key := jqProgramKey{filter: o.filter, sortKeys: o.sortKeys, varNames: strings.Join(names, "\x00")}
	if p := takeJqProgram(key); p != nil {
		*p.b = bind
		return p, nil
	}
	q, err := gojq.Parse(o.filter)
	if err != nil {
		return nil, err
	}
	if !o.sortKeys {
		if err := orderObjects(q); err != nil {
			return nil, err
		}
	}
	b := &bind
	p := &jqProgram{key: key, b: b}
	options := append(orderFunctions(func() *keyOrder { return b.order }),
		gojq.WithVariables(names),
		gojq.WithEnvironLoader(func() []string {
			p.usesEnv = true
			return append([]string(nil), b.environ...)
		}),
		gojq.WithInputIter(b),
		gojq.WithFunction("input_filename", 0, 0, func(any, []any) any {
			name := b.inputs.name
			if name == "" || name == "<stdin>" || b.nullInput {
				return nil
			}
			return name
		}),
	)
	if p.code, err = gojq.Compile(q, options...); err != nil {
		return nil, err
	}
	return p, nil
}
