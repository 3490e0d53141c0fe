package policy_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

func mustPolicy(t testing.TB, cfg policy.Config) *policy.Policy {
	t.Helper()
	p, err := policy.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func decide(t testing.TB, p *policy.Policy, method, params string, capCalls map[int]int) authz.Decision {
	t.Helper()
	d, err := p.Decide(context.Background(), &authz.Input{Method: method, Params: json.RawMessage(params), CapabilityCalls: capCalls, Language: "js"})
	if err != nil {
		t.Fatalf("%s %s: %v", method, params, err)
	}
	return d
}

func TestCapabilities(t *testing.T) {
	p := mustPolicy(t, policy.Config{Capabilities: []*dsl.Capability{
		dsl.Method("stripe/charges/*").Where(dsl.Param("amount").Le(10000), dsl.Param("currency").In("USD", "EUR")).MaxCalls(2),
		dsl.Method("db/read_*"),
	}})
	if d := decide(t, p, "stripe/charges/create", `{"amount": 5, "currency": "USD"}`, nil); !d.Allow || d.Capability != 0 {
		t.Errorf("allowed call: %+v", d)
	}
	d := decide(t, p, "stripe/charges/create", `{"amount": 50000, "currency": "GBP"}`, nil)
	if d.Allow || d.Ask || len(d.Reasons) != 2 || !strings.Contains(d.Reasons[0], "amount <= 10000") {
		t.Errorf("denied call: %+v", d)
	}
	if d := decide(t, p, "stripe/charges/create", `{"amount": 5, "currency": "USD"}`, map[int]int{0: 2}); d.Allow || !strings.Contains(strings.Join(d.Reasons, ","), "max_calls") {
		t.Errorf("max_calls used up: %+v", d)
	}
	if d := decide(t, p, "email/send", `{}`, nil); d.Allow || !reflect.DeepEqual(d.Reasons, []string{`no capability allows method "email/send"`}) || d.Capability != -1 {
		t.Errorf("unmatched: %+v", d)
	}
	if p.Revision() == "" || len(p.Modules()) < 2 || p.CapabilityName(1) != "#1 db/read_*" {
		t.Errorf("revision %q modules %d name %q", p.Revision(), len(p.Modules()), p.CapabilityName(1))
	}
}

func TestUserModulesJoinTheContract(t *testing.T) {
	p := mustPolicy(t, policy.Config{
		Capabilities: []*dsl.Capability{dsl.Method("pay")},
		Modules: map[string]string{"team.rego": `package cordon.authz

deny contains "amount must be positive" if input.params.amount <= 0

ask contains "big payment" if input.params.amount > 1000

permit contains "lookups are free" if input.method == "lookup"
`},
	})
	for _, tc := range []struct {
		method, params string
		allow, ask     bool
		reasons        []string
	}{
		{"pay", `{"amount": 5}`, true, false, nil},
		{"pay", `{"amount": -5}`, false, false, []string{"amount must be positive"}},
		{"pay", `{"amount": 5000}`, false, true, []string{"big payment"}},
		{"lookup", `{}`, true, false, nil},
		{"other", `{}`, false, false, []string{`no capability allows method "other"`}},
	} {
		d := decide(t, p, tc.method, tc.params, nil)
		if d.Allow != tc.allow || d.Ask != tc.ask || (tc.reasons != nil && !reflect.DeepEqual(d.Reasons, tc.reasons)) {
			t.Errorf("%s %s: %+v", tc.method, tc.params, d)
		}
	}
}

func TestFailsClosed(t *testing.T) {
	// A rule that errors at evaluation time (division by zero) must deny.
	p := mustPolicy(t, policy.Config{
		Capabilities: []*dsl.Capability{dsl.Method("pay")},
		Modules:      map[string]string{"bad.rego": "package cordon.authz\n\ndeny contains x if { x := 1 / input.params.zero }\n"},
	})
	d, err := p.Decide(context.Background(), &authz.Input{Method: "pay", Params: json.RawMessage(`{"zero": 0}`)})
	if err == nil || d.Allow || d.Ask || len(d.Reasons) != 1 || !strings.Contains(d.Reasons[0], "failed to evaluate") {
		t.Errorf("decision %+v err %v", d, err)
	}
	// Params that are not an object deny too.
	if d, err := p.Decide(context.Background(), &authz.Input{Method: "pay", Params: json.RawMessage(`[1]`)}); err == nil || d.Allow {
		t.Errorf("array params: %+v %v", d, err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.rego")
	os.WriteFile(bad, []byte("package cordon.authz\n\ndeny contains \"x\" if input.metod == \"a\"\n"), 0o644)
	for _, cfg := range []policy.Config{
		{Paths: []string{filepath.Join(dir, "missing.rego")}},
		{Paths: []string{bad}}, // a typo the input schema catches
		{Modules: map[string]string{"x.rego": "package x\n\nthis is not rego"}},
		{Capabilities: []*dsl.Capability{dsl.Method("a**")}},
	} {
		_, err := policy.New(context.Background(), cfg)
		var le *policy.LoadError
		if !errors.Is(err, policy.ErrLoad) || !errors.As(err, &le) {
			t.Errorf("%+v: err %v", cfg, err)
		}
	}
	_, err := policy.New(context.Background(), policy.Config{Paths: []string{bad}})
	if err == nil || !strings.Contains(err.Error(), "metod") {
		t.Errorf("the typo is not named: %v", err)
	}
}

const tenantRego = `package cordon.authz

deny contains "over the tenant limit" if input.params.amount > data.tenants[input.session.labels.tenant].limit
`

func TestLoadDirectoriesDataAndBundles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tenant.rego"), []byte(tenantRego), 0o644)
	os.WriteFile(filepath.Join(dir, "data.json"), []byte(`{"tenants": {"acme": {"limit": 10}}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "tenant_test.rego"), []byte("package t\n\ntest_x if false\n"), 0o644)

	// A bundle with the same content, as a .tar.gz.
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, content := range map[string]string{"/tenant.rego": tenantRego, "/data.json": `{"tenants": {"acme": {"limit": 10}}}`} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg})
		tw.Write([]byte(content))
	}
	tw.Close()
	zw.Close()
	bundlePath := filepath.Join(t.TempDir(), "bundle.tar.gz")
	os.WriteFile(bundlePath, buf.Bytes(), 0o644)

	for _, path := range []string{dir, bundlePath} {
		p := mustPolicy(t, policy.Config{Capabilities: []*dsl.Capability{dsl.Method("pay")}, Paths: []string{path}})
		in := func(amount int) *authz.Input {
			return &authz.Input{Method: "pay", Params: json.RawMessage(fmt.Sprintf(`{"amount": %d}`, amount)), Session: authz.Session{ID: "s", Labels: map[string]string{"tenant": "acme"}}}
		}
		if d, err := p.Decide(context.Background(), in(5)); err != nil || !d.Allow {
			t.Errorf("%s: small: %+v %v", path, d, err)
		}
		if d, err := p.Decide(context.Background(), in(50)); err != nil || d.Allow || d.Reasons[0] != "over the tenant limit" {
			t.Errorf("%s: big: %+v %v", path, d, err)
		}
	}
}

func TestRunTests(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x_test.rego"), []byte(`package x_test

import data.cordon.authz

test_pay_is_allowed if authz.decision.allow with input as {"method": "pay", "params": {}}

test_other_is_denied if not authz.decision.allow with input as {"method": "other", "params": {}}

test_this_one_fails if authz.decision.allow with input as {"method": "other", "params": {}}

conflicting(_) := 1

conflicting(_) := 2

test_this_one_errs if conflicting(1) == 1

todo_test_later if false
`), 0o644)
	results, err := policy.RunTests(context.Background(), []string{dir}, []*dsl.Capability{dsl.Method("pay")})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*policy.TestResult{}
	for _, r := range results {
		got[r.Name] = r
	}
	pass := func(name string) bool { return got[name] != nil && got[name].Pass() }
	if !pass("test_pay_is_allowed") || !pass("test_other_is_denied") || pass("test_this_one_fails") || pass("test_this_one_errs") || pass("todo_test_later") || len(got) != 5 {
		t.Fatalf("results %v", results)
	}
	ok, fail, errd, todo := got["test_pay_is_allowed"], got["test_this_one_fails"], got["test_this_one_errs"], got["todo_test_later"]
	if ok.Package != "data.x_test" || !strings.HasSuffix(ok.Location, "x_test.rego:5") || ok.Fail || ok.Err != nil || ok.Duration <= 0 ||
		!strings.HasPrefix(ok.String(), "data.x_test.test_pay_is_allowed: PASS (") {
		t.Errorf("pass: %+v %q", ok, ok.String())
	}
	if !fail.Fail || fail.Err != nil || !strings.HasPrefix(fail.String(), "data.x_test.test_this_one_fails: FAIL (") {
		t.Errorf("fail: %+v %q", fail, fail.String())
	}
	if errd.Fail || errd.Err == nil || !strings.Contains(errd.Err.Error(), "conflict") || !strings.HasPrefix(errd.String(), "data.x_test.test_this_one_errs: ERROR (") {
		t.Errorf("error: %+v %q", errd, errd.String())
	}
	if !todo.Skip || todo.String() != "data.x_test.todo_test_later: SKIPPED" {
		t.Errorf("skip: %+v %q", todo, todo.String())
	}
	if _, err := policy.RunTests(context.Background(), []string{filepath.Join(dir, "missing")}, nil); !errors.Is(err, policy.ErrLoad) {
		t.Errorf("missing path: %v", err)
	}
}

// A policy that its tests pass must load: RunTests type-checks every
// module against the input schema that New loads policies with, so a
// misspelled input field fails the tests as it fails New, in a rule and in
// a test; a module New accepts passes.
func TestRunTestsChecksTheInputSchema(t *testing.T) {
	for _, c := range []struct {
		name, rule, test string
		bad              bool
	}{
		{"typo in a rule", `deny contains "no deletes" if input.metod == "db/delete"`, `test_read if not authz.deny["no deletes"] with input as {"method": "db/read"}`, true},
		{"typo in a session field", `deny contains "x" if input.session.principle == "eve"`, `test_read if not authz.deny["x"] with input as {"method": "db/read"}`, true},
		{"typo in a test", `deny contains "no deletes" if input.method == "db/delete"`, `test_read if input.metod == "x" with input as {"method": "x"}`, true},
		{"a wrong type", `deny contains "x" if input.method + 1 > 2`, `test_read if not authz.deny["x"] with input as {"method": "db/read"}`, true},
		{"correct", `deny contains "no deletes" if input.method == "db/delete"`, `test_delete if authz.deny["no deletes"] with input as {"method": "db/delete", "params": {}}`, false},
	} {
		dir := t.TempDir()
		rule := "package cordon.authz\n\n" + c.rule + "\n"
		os.WriteFile(filepath.Join(dir, "p.rego"), []byte(rule), 0o644)
		os.WriteFile(filepath.Join(dir, "p_test.rego"), []byte("package p_test\n\nimport data.cordon.authz\n\n"+c.test+"\n"), 0o644)
		results, err := policy.RunTests(context.Background(), []string{dir}, []*dsl.Capability{dsl.Method("**")})
		_, loadErr := policy.New(context.Background(), policy.Config{Capabilities: []*dsl.Capability{dsl.Method("**")}, Modules: map[string]string{"p.rego": rule}})
		if c.bad {
			if !errors.Is(err, policy.ErrLoad) || !strings.Contains(err.Error(), "rego_type_error") {
				t.Errorf("%s: RunTests = %v, %v; want a type error", c.name, results, err)
			}
			if c.name != "typo in a test" && loadErr == nil {
				t.Errorf("%s: New accepts the rule", c.name)
			}
			continue
		}
		if err != nil || len(results) != 1 || !results[0].Pass() || loadErr != nil {
			t.Errorf("%s: RunTests = %v, %v; New: %v", c.name, results, err, loadErr)
		}
	}
}

func benchmarkDecision(b *testing.B, n int) { benchmarkDecisionMode(b, n, false) }

func benchmarkDecisionMode(b *testing.B, n int, alwaysRego bool) {
	var caps []*dsl.Capability
	for i := 0; i < n; i++ {
		caps = append(caps, dsl.Method(fmt.Sprintf("svc%d/items/*", i)).Where(dsl.Param("amount").Le(1000)).MaxCalls(100))
	}
	p := mustPolicy(b, policy.Config{Capabilities: caps, AlwaysRego: alwaysRego})
	in := &authz.Input{Method: fmt.Sprintf("svc%d/items/create", n-1), Params: json.RawMessage(`{"amount": 5}`), Calls: map[string]int{}, CapabilityCalls: map[int]int{}}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		d, err := p.Decide(ctx, in)
		if err != nil || !d.Allow {
			b.Fatal(d, err)
		}
	}
}

func BenchmarkDecision1(b *testing.B)   { benchmarkDecision(b, 1) }
func BenchmarkDecision10(b *testing.B)  { benchmarkDecision(b, 10) }
func BenchmarkDecision100(b *testing.B) { benchmarkDecision(b, 100) }

// BenchmarkDecisionRego100 is BenchmarkDecision100 with every decision an
// OPA evaluation, as for a policy with user Rego.
func BenchmarkDecisionRego100(b *testing.B) { benchmarkDecisionMode(b, 100, true) }

// BenchmarkDecisionParallel measures decisions per second on all cores.
func BenchmarkDecisionParallel(b *testing.B) {
	var caps []*dsl.Capability
	for i := 0; i < 100; i++ {
		caps = append(caps, dsl.Method(fmt.Sprintf("svc%d/items/*", i)).Where(dsl.Param("amount").Le(1000)))
	}
	p := mustPolicy(b, policy.Config{Capabilities: caps})
	b.RunParallel(func(pb *testing.PB) {
		in := &authz.Input{Method: "svc42/items/create", Params: json.RawMessage(`{"amount": 5}`)}
		for pb.Next() {
			if d, err := p.Decide(context.Background(), in); err != nil || !d.Allow {
				b.Fatal(d, err)
			}
		}
	})
}

// A policy of Rego alone, with no capabilities, grants through permit.
func TestRegoOnlyPolicy(t *testing.T) {
	p := mustPolicy(t, policy.Config{Modules: map[string]string{"only.rego": `package cordon.authz

permit contains "reads" if startswith(input.method, "db/read_")
`}})
	if d := decide(t, p, "db/read_users", `{}`, nil); !d.Allow || d.Capability != -1 {
		t.Errorf("permitted: %+v", d)
	}
	if d := decide(t, p, "db/write_users", `{}`, nil); d.Allow {
		t.Errorf("not permitted: %+v", d)
	}
}
