package jq

import (
	"bufio"
	"strings"
	"sync"

	"github.com/cordonhq/cordon/shell/command"
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
	// out is the invocation's standard output, flushed before debugging
	// output.
	out *bufio.Writer
	// env is $ENV, built on first use.
	env map[string]any
	// libDirs is get_search_list; progOrigin get_prog_origin.
	libDirs    []string
	progOrigin string
	// quiet discards debugging output (while diagnosing an error).
	quiet bool
	// lastIndexed is the container that the last checked index (.[0])
	// indexed with lastIndex, for the message of an invalid path.
	lastIndex, lastIndexed any
	// loader finds modules, made on first use from cmdEnv and libDirs
	// (-L, nil for the default).
	loader  *jqModuleLoader
	cmdEnv  *command.Env
	libArgs []string
}

// moduleLoader returns the invocation's module loader.
func (b *jqBinding) moduleLoader() *jqModuleLoader {
	if b.loader == nil {
		b.loader = newJqModuleLoader(b.cmdEnv, b.libArgs, b.order)
	}
	return b.loader
}

// Next reads the next input of the bound invocation (gojq's input and
// inputs).
func (b *jqBinding) Next() (any, bool) { return b.inputs.Next() }

// jqProgram is a compiled filter with its binding.
type jqProgram struct {
	key   jqProgramKey
	names []string // the variables
	code  *gojq.Code
	b     *jqBinding
	// guarded is the program with every .name checked (guardedCode).
	guarded     *gojq.Code
	guardFailed bool
	// usesInput is set when the program calls input or inputs.
	usesInput bool
	// usesEnv is set when the compiler read the environment, and
	// usesModules when it read modules: the program is then not reused,
	// as they can change between invocations.
	usesEnv, usesModules bool
}

// jqProgramKey is what a compiled program depends on.
type jqProgramKey struct {
	filter   string
	varNames string // the names of --arg and friends, NUL-separated
	libDirs  string // -L, NUL-separated
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
	if p.usesEnv || p.usesModules || len(p.key.filter) > jqCacheMaxFilter {
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
	key := jqProgramKey{filter: o.filter, varNames: strings.Join(names, "\x00"), libDirs: strings.Join(o.libDirs, "\x00")}
	if p := takeJqProgram(key); p != nil {
		*p.b = bind
		return p, nil
	}
	b := &bind
	p := &jqProgram{key: key, b: b, names: names}
	code, err := p.compile(o.filter, false)
	if err != nil {
		return nil, err
	}
	p.code = code
	return p, nil
}

// compile parses, checks, rewrites and compiles filter for p; keyGuards
// is the rewriting option.
func (p *jqProgram) compile(filter string, keyGuards bool) (*gojq.Code, error) {
	b := p.b
	q, err := gojq.Parse(filter)
	if err != nil {
		if derr := jqDirectiveError(filter); derr != nil {
			return nil, derr
		}
		return nil, err
	}
	if err := jqCheckQuery(q); err != nil {
		return nil, err
	}
	// A catch handler may read an error message: a program with one checks
	// every .name.
	keyGuards = keyGuards || strings.Contains(filter, "catch")
	rewriteQuery(q, jqRewriteOptions{source: filter, userDefs: jqUserDefs(q), keyGuards: keyGuards})
	prelude, err := jqPreludeFor(q)
	if err != nil {
		return nil, err
	}
	walkFuncRefs(q, func(name string, args int) {
		if args == 0 && (name == "input" || name == "inputs") {
			p.usesInput = true
		}
	})
	q.FuncDefs = append(prelude, q.FuncDefs...)
	options := append(jqFunctionOptions(b),
		gojq.WithVariables(p.names),
		gojq.WithEnvironLoader(func() []string {
			p.usesEnv = true
			return append([]string(nil), b.environ...)
		}),
		gojq.WithInputIter(b),
		gojq.WithFunction("input_filename", 0, 0, func(any, []any) any {
			if name := b.inputs.name; name != "" && (!b.nullInput || b.inputs.wherePos >= 0) {
				return name
			}
			return nil
		}),
	)
	if len(q.Imports) > 0 {
		l := b.moduleLoader()
		l.resolveSearch(q, b.progOrigin)
		options = append(options, gojq.WithModuleLoader(l))
		p.usesModules = true
	}
	return gojq.Compile(q, options...)
}

// guardedCode returns the program compiled with a check before every
// .name, compiled on first use, or nil.
func (p *jqProgram) guardedCode() *gojq.Code {
	if p.guarded == nil && !p.guardFailed {
		code, err := p.compile(p.key.filter, true)
		if err != nil {
			p.guardFailed = true
			return nil
		}
		p.guarded = code
	}
	return p.guarded
}
