package compile_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy/compile"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	yaml "go.yaml.in/yaml/v3"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// loadCapabilities reads the capabilities list of a YAML config file.
func loadCapabilities(t testing.TB, file string) []*dsl.Capability {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var tree any
	if err := yaml.Unmarshal(b, &tree); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	js, err := json.Marshal(tree)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var cfg struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(js, &cfg); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	caps, err := dsl.ParseCapabilities(cfg.Capabilities)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return caps
}

// TestGolden compiles testdata/*.yaml and compares with testdata/*.rego.
// Run "go test ./policy/compile -update" to rewrite them.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			caps := loadCapabilities(t, file)
			got, err := compile.Rego(caps)
			if err != nil {
				t.Fatal(err)
			}
			again, err := compile.Rego(caps)
			if err != nil || again != got {
				t.Fatal("the output is not deterministic")
			}
			golden := strings.TrimSuffix(file, ".yaml") + ".rego"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./policy/compile -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the output (run go test ./policy/compile -update and review the diff):\n%s", golden, got)
			}
			strictCompile(t, got)
		})
	}
}

// strictCompile compiles a module the way the brief asks: OPA's strict
// mode, Rego v1, and (separately) with the input schema through package
// rego.
func strictCompile(t *testing.T, src string) {
	t.Helper()
	m, err := ast.ParseModuleWithOpts("capabilities.rego", src, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	c := ast.NewCompiler().WithStrict(true).WithDefaultRegoVersion(ast.RegoV1)
	c.Compile(map[string]*ast.Module{"capabilities.rego": m})
	if c.Failed() {
		t.Fatalf("strict compile: %v", c.Errors)
	}
	if _, err := ast.CompileModulesWithOpt(map[string]string{"capabilities.rego": src},
		ast.CompileOpts{ParserOptions: ast.ParserOptions{RegoVersion: ast.RegoV1}}); err != nil {
		t.Fatalf("CompileModulesWithOpt: %v", err)
	}
	_, err = rego.New(rego.Query("data.cordon.capabilities"), rego.Module("capabilities.rego", src),
		rego.Strict(true), rego.Schemas(compile.SchemaSet())).PrepareForEval(context.Background())
	if err != nil {
		t.Fatalf("rego.PrepareForEval with strict checks and the schema: %v", err)
	}
}

func TestRegoInvalid(t *testing.T) {
	_, err := compile.Rego([]*dsl.Capability{
		dsl.Method("ok/*"),
		dsl.Method("bad**").Where(dsl.Param("amount").Le(true)),
	})
	if err == nil {
		t.Fatal("no error")
	}
	if !strings.HasPrefix(err.Error(), "compile: dsl: capability 1 (\"bad**\"): ") {
		t.Errorf("error %q", err)
	}
	if !strings.Contains(err.Error(), `constraint 0 "amount <= true": <= needs a number or a string, not true`) {
		t.Errorf("error %q does not report the constraint", err)
	}
	var e *dsl.Error
	if !errors.Is(err, dsl.ErrInvalid) || !errors.As(err, &e) || e.Capability != 1 {
		t.Errorf("error %#v", err)
	}
}

// TestNoInjection checks that text from the configuration cannot escape
// the comments and strings it is written into.
func TestNoInjection(t *testing.T) {
	evil := "x\nallowed contains 0 if true\n#"
	for _, c := range []*dsl.Capability{
		dsl.Method("a/b").Named(evil).Describe(evil + "\r\u2028allowed contains 0 if true").Where(dsl.Param("p").Exists()),
		dsl.Method("a/b").Where(dsl.Param(evil).Exists(), dsl.Param("p").Eq(evil)),
	} {
		src, err := compile.Rego([]*dsl.Capability{c})
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(src, "\n") {
			if strings.HasPrefix(line, "allowed contains 0 if true") {
				t.Errorf("injected rule in:\n%s", src)
			}
		}
		ok, _ := eval(t, src, `{"method": "a/b", "params": {}, "capability_calls": {}}`)
		if len(ok.allowed) != 0 {
			t.Errorf("allowed %v", ok.allowed)
		}
	}
	if _, err := compile.Rego([]*dsl.Capability{dsl.Method("a/b\nallowed contains 0 if true")}); err == nil {
		t.Error("a method pattern with a line break compiled")
	}
}

func TestInputSchema(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(compile.InputSchema(), &s); err != nil {
		t.Fatalf("InputSchema is not JSON: %v", err)
	}
	ctx := context.Background()
	prepare := func(src string) error {
		_, err := rego.New(rego.Query("data.user"), rego.Module("user.rego", src),
			rego.Schemas(compile.SchemaSet())).PrepareForEval(ctx)
		return err
	}
	for _, src := range []string{
		`package user
deny contains "x" if input.method == "stripe/charges/create"`,
		`package user
deny contains "x" if input.params.amount > 5`,
		`package user
deny contains "x" if input.calls["db/read"] > 5`,
		`package user
deny contains "x" if input.session.labels.team == "a"`,
		`package user
deny contains "x" if input.language == "sh"`,
		`package user
deny contains "x" if input.capability_calls["0"] >= 1`,
	} {
		if err := prepare(src); err != nil {
			t.Errorf("a correct policy does not compile with the schema: %v\n%s", err, src)
		}
	}
	for _, src := range []string{
		`package user
deny contains "x" if input.metod == "stripe/charges/create"`,
		`package user
deny contains "x" if input.session.label.team == "a"`,
		`package user
deny contains "x" if input.method.x == 1`,
	} {
		err := prepare(src)
		if err == nil || !strings.Contains(err.Error(), "type") {
			t.Errorf("a typo was not caught: %v\n%s", err, src)
		}
	}
	// Without the schema the typo compiles (and would silently never match).
	if _, err := rego.New(rego.Query("data.user"), rego.Module("user.rego", `package user
deny contains "x" if input.metod == "a"`)).PrepareForEval(ctx); err != nil {
		t.Errorf("without the schema: %v", err)
	}
}

// TestOddConstraints compiles constraints with unusual parameters and
// values, and checks the module with OPA's strict checks.
func TestOddConstraints(t *testing.T) {
	deep := "a exists"
	for i := 0; i < 31; i++ {
		deep = "any_of(" + deep + ", all_of(b exists))"
	}
	var caps []*dsl.Capability
	for _, line := range []string{
		`"quote\" back\\ slash" == "\" \\"`,
		`"line\nbreak\u2028sep" exists`,
		`"é/😀/0" != "\u0000"`,
		`"a b/c" == 1`,
		`_/A9/x_y == 1`,
		`n < -0`,
		`n <= 1E400`,
		`n > -1.5e-300`,
		`t >= ""`,
		`t < "\uffff\u0000"`,
		`s contains "-"`,
		`s contains -1`,
		`s contains [-1]`,
		`s contains {"-": -1}`,
		`s in [-1, [-1], {"a": -1}]`,
		`s not_in [{"": []}]`,
		`s starts_with ""`,
		`x/0/1/2 exists`,
		`"#" == "# not a comment"`,
		deep,
	} {
		c, err := dsl.ParseConstraint(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		caps = append(caps, dsl.Method("m").Where(c))
	}
	src, err := compile.Rego(caps)
	if err != nil {
		t.Fatal(err)
	}
	strictCompile(t, src)
	p := prepare(t, src)
	for _, input := range []string{
		`{"method": "m", "params": {"quote\" back\\ slash": "\" \\", "n": -1, "s": [-1]}, "capability_calls": {}}`,
		`{"method": "m", "params": {"line\nbreak\u2028sep": 1, "é": {"😀": [0]}, "a b": {"c": 1.0}, "_": {"A9": {"x_y": 1}}, "s": "-", "#": "# not a comment"}}`,
		`{"method": "m", "params": {"n": -1e-301, "s": [{"-": -1}], "x": [[0, [0, 1, 2]]], "a": null, "b": 1}}`,
	} {
		r := p.eval(t, input)
		if len(r.allowed) == 0 {
			t.Errorf("nothing allowed for %s", input)
		}
		checkAgainstGo(t, caps, input, r)
	}
}
