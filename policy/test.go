package policy

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/compile"
	regolib "github.com/cordonhq/cordon/policy/rego"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
)

// TestResult is the outcome of one Rego test that RunTests ran.
type TestResult struct {
	// Package is the test's package, as a reference ("data.x_test").
	Package string
	// Name is the test rule's name ("test_pay_is_allowed").
	Name string
	// Location is where the rule is defined, "FILE:ROW", or "".
	Location string
	// Fail reports that the test's body did not hold.
	Fail bool
	// Skip reports that the test was skipped (its name starts with todo_).
	Skip bool
	// Err is the error that stopped the test's evaluation (a built-in
	// that failed, a conflict), or nil.
	Err error
	// Duration is how long the test took.
	Duration time.Duration
	// Output is what the test printed (print calls).
	Output []byte

	text string
}

// Pass reports whether the test passed: it held, was not skipped and
// raised no error.
func (r *TestResult) Pass() bool { return !r.Fail && !r.Skip && r.Err == nil }

// String returns the result as `opa test -v` prints it: "PACKAGE.NAME:
// PASS (DURATION)" (or FAIL, ERROR, SKIPPED), then a line for each case
// of a test that iterates.
func (r *TestResult) String() string { return r.text }

// RunTests runs the Rego tests (rules named test_*) found under paths, as
// `opa test --schema` would with the input schema ([compile.InputSchema]),
// with no opa binary. The shipped library is added unless the paths already
// hold it, and so is a capabilities module compiled from caps unless the
// paths already define package cordon.capabilities. Every module, tests
// included, is type-checked against the input schema, as New checks the
// policy it loads: a rule that reads input.metod fails here rather than
// pass its tests and be refused when the policy is loaded. An error is a
// *LoadError: the tests could not be loaded, compiled (a type error among
// them) or run (a test that fails is a TestResult, not an error). The
// results are in the order the tests are written, file by file.
func RunTests(ctx context.Context, paths []string, caps []*dsl.Capability) ([]*TestResult, error) {
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
	// The compiler `opa test` makes, with the schema New gives rego.Schemas.
	compiler := ast.NewCompiler().
		WithCapabilities(ast.CapabilitiesForThisVersion()).
		WithEnablePrintStatements(true).
		WithDefaultRegoVersion(ast.RegoV1).
		WithSchemas(compile.SchemaSet()).
		WithUseTypeCheckAnnotations(true)
	ch, err := tester.NewRunner().
		SetCompiler(compiler).
		SetStore(store).
		SetDefaultRegoVersion(ast.RegoV1).
		RaiseBuiltinErrors(true).
		SetModules(modules).
		RunTests(ctx, txn)
	if err != nil {
		return nil, &LoadError{Source: "tests", Err: err}
	}
	type keyed struct {
		file string
		row  int
		tr   *TestResult
	}
	var results []keyed
	for r := range ch {
		tr := &TestResult{Package: r.Package, Name: r.Name, Fail: r.Fail, Skip: r.Skip, Err: r.Error, Duration: r.Duration, Output: r.Output, text: r.String()}
		k := keyed{tr: tr}
		if r.Location != nil {
			tr.Location = fmt.Sprintf("%s:%d", r.Location.File, r.Location.Row)
			k.file, k.row = r.Location.File, r.Location.Row
		}
		results = append(results, k)
	}
	// OPA's runner goes through the modules in no fixed order: the
	// results come in the order the tests are written, file by file.
	slices.SortStableFunc(results, func(a, b keyed) int {
		return cmp.Or(strings.Compare(a.file, b.file), cmp.Compare(a.row, b.row),
			strings.Compare(a.tr.Package, b.tr.Package), strings.Compare(a.tr.Name, b.tr.Name))
	})
	out := make([]*TestResult, len(results))
	for i, k := range results {
		out[i] = k.tr
	}
	return out, nil
}
