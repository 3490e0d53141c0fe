package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/policy/compile"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
)

// typoPolicy reads a field the input does not have; its test passes when
// nothing checks the field against the input schema.
const typoPolicy = "package cordon.authz\n\ndeny contains \"no deletes\" if input.metod == \"db/delete\"\n"

const typoPolicyTest = "package p_test\n\nimport data.cordon.authz\n\ntest_read_is_allowed if not authz.deny[\"no deletes\"] with input as {\"method\": \"db/read\"}\n"

// A policy whose tests pass loads: cordon policy test refuses what cordon
// run refuses, a misspelled input field, with the same message.
func TestPolicyTestRefusesWhatLoadingRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"p.rego": typoPolicy, "p_test.rego": typoPolicyTest} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := cli(t, "", "policy", "test", dir)
	if code != exitUsage || !strings.Contains(stderr, "undefined ref: input.metod") || strings.Contains(stdout, "PASS") {
		t.Errorf("policy test: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	code, _, stderr = cli(t, "", "run", "--policy", filepath.Join(dir, "p.rego"), "-e", "1")
	if code != exitUsage || !strings.Contains(stderr, "undefined ref: input.metod") {
		t.Errorf("run: exit %d stderr %q", code, stderr)
	}
	// Fixed, both pass.
	if err := os.WriteFile(filepath.Join(dir, "p.rego"), []byte(strings.Replace(typoPolicy, "metod", "method", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := cli(t, "", "policy", "test", dir); code != 0 || stdout != "PASS: 1/1\n" {
		t.Errorf("fixed: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

// cordon policy schema writes the input schema, to stdout or a file; as a
// file it is what stock OPA's --schema flag reads as the input's schema
// (opa check and opa test load it with loader.Schemas), and with it OPA's
// type checker refuses the misspelled field too.
func TestPolicySchema(t *testing.T) {
	code, stdout, stderr := cli(t, "", "policy", "schema")
	if code != 0 || stdout != string(compile.InputSchema()) || stderr != "" || !json.Valid([]byte(stdout)) {
		t.Fatalf("stdout: exit %d stderr %q", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "cordon-input.json")
	if code, stdout, stderr := cli(t, "", "policy", "schema", "-o", file); code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("-o: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if b, err := os.ReadFile(file); err != nil || !bytes.Equal(b, compile.InputSchema()) {
		t.Fatalf("-o wrote %q, %v", b, err)
	}
	schemas, err := loader.Schemas(file)
	if err != nil {
		t.Fatal(err)
	}
	check := func(src string) error {
		m, err := ast.ParseModuleWithOpts("p.rego", src, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatal(err)
		}
		c := ast.NewCompiler().WithStrict(true).WithSchemas(schemas).WithUseTypeCheckAnnotations(true)
		if c.Compile(map[string]*ast.Module{"p.rego": m}); c.Failed() {
			return c.Errors
		}
		return nil
	}
	if err := check(typoPolicy); err == nil || !strings.Contains(err.Error(), "undefined ref: input.metod") {
		t.Errorf("OPA with the schema file: %v", err)
	}
	if err := check(strings.Replace(typoPolicy, "metod", "method", 1)); err != nil {
		t.Errorf("OPA with the schema file, fixed: %v", err)
	}
	for _, args := range [][]string{{"policy", "schema", "extra"}, {"policy", "schema", "-o", filepath.Join(t.TempDir(), "no", "such", "dir.json")}, {"policy", "schema", "--bogus"}} {
		if code, _, stderr := cli(t, "", args...); code != exitUsage || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d stderr %q", args, code, stderr)
		}
	}
}
