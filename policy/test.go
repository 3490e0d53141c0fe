package policy

import (
	"bytes"
	"context"
	"os"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/compile"
	regolib "github.com/cordonhq/cordon/policy/rego"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
)

// RunTests runs the Rego tests (rules named test_*) found under paths, as
// `opa test` would, with no opa binary. The shipped library is added unless
// the paths already hold it, and so is a capabilities module compiled from
// caps unless the paths already define package cordon.capabilities.
func RunTests(ctx context.Context, paths []string, caps []*dsl.Capability) ([]*tester.Result, error) {
	modules, store, err := tester.LoadWithRegoVersion(paths, nil, ast.RegoV1)
	if err != nil {
		return nil, &LoadError{Source: "tests", Err: err}
	}
	hasCaps := false
	for name, m := range modules {
		if m.Package.Path.String() == "data.cordon.capabilities" {
			hasCaps = true
		}
		if b, err := os.ReadFile(name); err == nil {
			for libName, src := range regolib.Modules() {
				if bytes.Equal(b, []byte(src)) {
					delete(modules, name)
					modules[libName] = nil // re-added below from the embedded copy
				}
			}
		}
	}
	extra := regolib.Modules()
	if !hasCaps {
		src, err := compile.Rego(caps)
		if err != nil {
			return nil, &LoadError{Source: "capabilities", Err: err}
		}
		extra[CapabilitiesModule] = src
	}
	for name, src := range extra {
		m, err := ast.ParseModuleWithOpts(name, src, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			return nil, &LoadError{Source: name, Err: err}
		}
		modules[name] = m
	}
	txn, err := store.NewTransaction(ctx)
	if err != nil {
		return nil, &LoadError{Source: "tests", Err: err}
	}
	defer store.Abort(ctx, txn)
	ch, err := tester.NewRunner().
		SetStore(store).
		SetDefaultRegoVersion(ast.RegoV1).
		RaiseBuiltinErrors(true).
		SetModules(modules).
		RunTests(ctx, txn)
	if err != nil {
		return nil, &LoadError{Source: "tests", Err: err}
	}
	var out []*tester.Result
	for r := range ch {
		out = append(out, r)
	}
	return out, nil
}
