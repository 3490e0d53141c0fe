// Package policytest runs the Rego tests of the shipped library and of the
// example policies from `go test`, and keeps the compiled capabilities that
// `opa test` needs in step with their configs.
package policytest

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/compile"
)

// The compiled capabilities are committed so that the stock `opa test` can
// run the tests; this fails when a config or the compiler changed without
// them being regenerated (cordon policy compile CONFIG > FILE).
func TestCompiledCapabilitiesAreFresh(t *testing.T) {
	for cfgFile, regoFile := range map[string]string{
		"example.yaml":                          "capabilities.rego",
		"../examples/tenant-policy/config.yaml": "../examples/tenant-policy/capabilities.rego",
	} {
		cfg, err := config.Load(cfgFile)
		if err != nil {
			t.Fatal(err)
		}
		want, err := compile.Rego(cfg.ParsedCapabilities())
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(regoFile)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is stale: run `go run ./cmd/cordon policy compile %s > %s`", regoFile, strings.TrimPrefix(cfgFile, "../"), strings.TrimPrefix(regoFile, "../"))
		}
	}
}

func TestRegoTests(t *testing.T) {
	for _, paths := range [][]string{
		{"."},
		{"../examples/tenant-policy/policy", "../examples/tenant-policy/capabilities.rego"},
	} {
		results, err := policy.RunTests(context.Background(), paths, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(results) == 0 {
			t.Fatalf("%v: no tests ran", paths)
		}
		for _, r := range results {
			if !r.Pass() {
				t.Errorf("%v: %s", paths, r)
			}
		}
	}
}

// The README's example for a security team passes its own tests as
// `cordon policy test --config examples/payments-policy/config.yaml
// examples/payments-policy` runs them: the config's capabilities compiled
// beside its Rego and the shipped library.
func TestPaymentsPolicyExample(t *testing.T) {
	cfg, err := config.Load("../examples/payments-policy/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	results, err := policy.RunTests(context.Background(), []string{"../examples/payments-policy"}, cfg.ParsedCapabilities())
	if err != nil {
		t.Fatal(err)
	}
	if len(results) < 4 {
		t.Fatalf("%d tests ran, want 4 or more", len(results))
	}
	for _, r := range results {
		if !r.Pass() {
			t.Errorf("%s", r)
		}
	}
}

// The flow example (docs/flow.md) passes its own tests: the capability
// shorthand (unless_touched) and the plain Rego rule agree.
func TestFlowPolicyExample(t *testing.T) {
	cfg, err := config.Load("../examples/flow-policy/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	results, err := policy.RunTests(context.Background(), []string{"../examples/flow-policy"}, cfg.ParsedCapabilities())
	if err != nil {
		t.Fatal(err)
	}
	if len(results) < 6 {
		t.Fatalf("%d tests ran, want 6 or more", len(results))
	}
	for _, r := range results {
		if !r.Pass() {
			t.Errorf("%s", r)
		}
	}
}

// The egress example (a security team's policy for the fetch tool) passes
// its own tests as `cordon policy test --config
// examples/egress-policy/config.yaml examples/egress-policy` runs them.
func TestEgressPolicyExample(t *testing.T) {
	cfg, err := config.Load("../examples/egress-policy/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	results, err := policy.RunTests(context.Background(), []string{"../examples/egress-policy"}, cfg.ParsedCapabilities())
	if err != nil {
		t.Fatal(err)
	}
	if len(results) < 9 {
		t.Fatalf("%d tests ran, want 9 or more", len(results))
	}
	for _, r := range results {
		if !r.Pass() {
			t.Errorf("%s", r)
		}
	}
}
