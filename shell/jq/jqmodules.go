package jq

import (
	"fmt"
	"path"
	"strings"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/itchyny/gojq"
)

// Modules (import, include, modulemeta) are read from the sandbox's file
// system as jq 1.7 finds them: a dependency's "search" paths (relative to
// the importing module's directory), else the working directory and the
// library directories (-L, by default ~/.jq, $ORIGIN/../lib/jq and
// $ORIGIN/../lib); in each, NAME.jq, NAME/jq/main.jq, then
// NAME/BASENAME.jq (.json for data).

// jqDefaultLibDirs is jq's default module search list.
var jqDefaultLibDirs = []string{"~/.jq", "$ORIGIN/../lib/jq", "$ORIGIN/../lib"}

// jqModuleLoader implements gojq's module loader interfaces on the VFS.
type jqModuleLoader struct {
	env     *command.Env
	order   *keyOrder // records the key order of data modules
	libDirs []string  // the expanded library directories
}

// newJqModuleLoader returns the loader for the library directories dirs
// (jq's default when nil).
func newJqModuleLoader(env *command.Env, dirs []string, order *keyOrder) *jqModuleLoader {
	l := &jqModuleLoader{env: env, order: order}
	if dirs == nil {
		dirs = jqDefaultLibDirs
	}
	for _, d := range dirs {
		l.libDirs = append(l.libDirs, l.expand(d, env.Dir))
	}
	return l
}

// expand resolves ~/, $ORIGIN/ and relative paths.
func (l *jqModuleLoader) expand(p, origin string) string {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		home := "/"
		for _, kv := range l.env.Environ {
			if v, ok := strings.CutPrefix(kv, "HOME="); ok {
				home = v
			}
		}
		return path.Join(home, strings.TrimPrefix(p[1:], "/"))
	case strings.HasPrefix(p, "$ORIGIN/"):
		return path.Join(jqOrigin, p[len("$ORIGIN/"):])
	case path.IsAbs(p):
		return path.Clean(p)
	}
	return path.Join(origin, p)
}

// searchList returns the directories to search for a dependency with the
// metadata meta.
func (l *jqModuleLoader) searchList(meta map[string]any) []string {
	switch s := meta["search"].(type) {
	case string:
		return []string{s}
	case []any:
		var out []string
		for _, x := range s {
			if x, ok := x.(string); ok {
				out = append(out, x)
			}
		}
		return out
	}
	return append([]string{l.env.Dir}, l.libDirs...)
}

// find returns the file of module name with the suffix.
func (l *jqModuleLoader) find(name, suffix string, search []string) (string, error) {
	if strings.Contains(name, `\`) {
		return "", &jqModuleError{"Modules must be named by relative paths using '/', not '\\' (" + name + ")"}
	}
	parts := strings.Split(name, "/")
	for i, p := range parts {
		if p == ".." {
			return "", &jqModuleError{"Relative paths to modules may not traverse to parent directories (" + name + ")"}
		}
		if i > 0 && p == parts[i-1] {
			return "", &jqModuleError{"module names must not have equal consecutive components: " + name}
		}
	}
	base := parts[len(parts)-1]
	for _, dir := range search {
		if dir == "" {
			continue
		}
		for _, p := range []string{
			path.Join(dir, name+suffix),
			path.Join(dir, name, "jq/main"+suffix),
			path.Join(dir, name, base+suffix),
		} {
			if fi, err := l.env.FS.Stat(p); err == nil && !fi.IsDir() {
				return p, nil
			}
		}
	}
	return "", &jqModuleError{"module not found: " + name}
}

// jqModuleError is an error in finding or loading a module, which jq
// reports without a program location.
type jqModuleError struct{ msg string }

// Error returns the message.
func (e *jqModuleError) Error() string { return e.msg }

// parse reads and parses the module at file, resolving the relative
// search paths of its dependencies against its directory.
func (l *jqModuleLoader) parse(file string) (*gojq.Query, error) {
	data, err := l.env.FS.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("could not open %s: %s", file, command.Strerror(err))
	}
	q, err := gojq.Parse(string(data))
	if err != nil {
		return nil, fmt.Errorf("syntax error, %s at %s, line 1", err, file)
	}
	l.resolveSearch(q, path.Dir(file))
	return q, nil
}

// resolveSearch makes the relative search paths of q's imports absolute.
func (l *jqModuleLoader) resolveSearch(q *gojq.Query, dir string) {
	for _, imp := range q.Imports {
		if imp.Meta == nil {
			continue
		}
		for _, kv := range imp.Meta.KeyVals {
			if kv.Key != "search" && kv.KeyString != "search" || kv.Val == nil {
				continue
			}
			resolve := func(t *gojq.ConstTerm) {
				if t != nil && t.Str != "" {
					t.Str = l.expand(t.Str, dir)
				}
			}
			resolve(kv.Val)
			if kv.Val.Array != nil {
				for _, e := range kv.Val.Array.Elems {
					resolve(e)
				}
			}
		}
	}
}

// LoadModuleWithMeta loads a module for import or include.
func (l *jqModuleLoader) LoadModuleWithMeta(name string, meta map[string]any) (*gojq.Query, error) {
	file, err := l.find(name, ".jq", l.searchList(meta))
	if err != nil {
		return nil, err
	}
	q, err := l.parse(file)
	if err != nil {
		return nil, err
	}
	if err := jqCheckQuery(q); err != nil {
		return nil, err
	}
	rewriteQuery(q, jqRewriteOptions{})
	prelude, err := jqPreludeFor(q)
	if err != nil {
		return nil, err
	}
	q.FuncDefs = append(prelude, q.FuncDefs...)
	return q, nil
}

// LoadJSONWithMeta loads a data module: all the values of NAME.json.
func (l *jqModuleLoader) LoadJSONWithMeta(name string, meta map[string]any) (any, error) {
	file, err := l.find(name, ".json", l.searchList(meta))
	if err != nil {
		return nil, err
	}
	data, err := l.env.FS.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("error loading data file %s: %s", file, command.Strerror(err))
	}
	if meta["raw"] == true {
		return string(data), nil
	}
	vals, err := parseJSONStream(data, l.order)
	if err != nil {
		return nil, fmt.Errorf("error loading data file %s: %s", file, err)
	}
	return vals, nil
}

// modulemeta implements modulemeta: the metadata of the module named by
// the input, with its dependencies and definitions.
func (b *jqBinding) modulemeta(v any) any {
	name, ok := v.(string)
	if !ok {
		return &jqError{"modulemeta input module name must be a string"}
	}
	l := b.moduleLoader()
	file, err := l.find(name, ".jq", l.libDirs)
	if err != nil {
		return &jqError{err.Error()}
	}
	data, err := l.env.FS.ReadFile(file)
	if err != nil {
		return &jqError{err.Error()}
	}
	q, err := gojq.Parse(string(data))
	if err != nil {
		return &jqError{err.Error()}
	}
	k := b.order
	meta := map[string]any{}
	var keys []string
	if q.Meta != nil {
		meta = q.Meta.ToValue()
		for _, kv := range q.Meta.KeyVals {
			keys = append(keys, kv.Key+kv.KeyString)
		}
	}
	deps := []any{}
	for _, imp := range q.Imports {
		dep := map[string]any{}
		var depKeys []string
		if imp.Meta != nil {
			dep = imp.Meta.ToValue()
			for _, kv := range imp.Meta.KeyVals {
				depKeys = append(depKeys, kv.Key+kv.KeyString)
			}
		}
		relpath := imp.ImportPath + imp.IncludePath
		if imp.ImportAlias != "" {
			dep["as"] = strings.TrimPrefix(imp.ImportAlias, "$")
			depKeys = append(depKeys, "as")
		}
		dep["is_data"] = strings.HasPrefix(imp.ImportAlias, "$")
		dep["relpath"] = relpath
		depKeys = append(depKeys, "is_data", "relpath")
		k.record(dep, depKeys)
		deps = append(deps, dep)
	}
	defs := []any{}
	for _, fd := range q.FuncDefs {
		defs = append(defs, fmt.Sprintf("%s/%d", fd.Name, len(fd.Args)))
	}
	meta["deps"] = deps
	meta["defs"] = defs
	k.record(meta, append(keys, "deps", "defs"))
	return meta
}
