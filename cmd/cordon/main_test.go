package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/internal/slack"
)

func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunJSONWithMockTool(t *testing.T) {
	code, stdout, stderr := cli(t, "", "run", "--json", "-e", `const w = await weather.current({city:"SF"}); return w.temp`)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var out struct {
		Stdout    string          `json:"stdout"`
		Stderr    string          `json:"stderr"`
		ExitCode  int             `json:"exit_code"`
		Value     json.RawMessage `json:"value"`
		Error     json.RawMessage `json:"error"`
		ToolCalls []struct {
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
			Allowed bool            `json:"allowed"`
			Reasons []string        `json:"reasons"`
			Result  json.RawMessage `json:"result"`
			Error   *string         `json:"error"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if out.Stdout != "72\n" || out.ExitCode != 0 || string(out.Value) != "72" || string(out.Error) != "null" || len(out.ToolCalls) != 1 {
		t.Fatalf("output %s", stdout)
	}
	tc := out.ToolCalls[0]
	if tc.Method != "weather/current" || string(tc.Params) != `{"city":"SF"}` || !tc.Allowed || tc.Reasons == nil || tc.Error != nil || !strings.Contains(string(tc.Result), `"temp":72`) {
		t.Errorf("tool call %+v", tc)
	}
	for _, key := range []string{`"stdout"`, `"stderr"`, `"exit_code"`, `"value"`, `"error"`, `"tool_calls"`, `"allowed"`, `"reasons"`, `"result"`} {
		if !strings.Contains(stdout, key) {
			t.Errorf("missing key %s in %s", key, stdout)
		}
	}
	// The keys of the MCP result, in its order; one line, ended by a newline.
	if !strings.HasPrefix(stdout, `{"stdout":"72\n","stderr":"","exit_code":0,"value":72,"error":null,"tool_calls":[`) ||
		!strings.HasSuffix(stdout, "]}\n") || strings.Count(stdout, "\n") != 1 {
		t.Errorf("--json printed %q", stdout)
	}
}

func TestRunFileStdinAndConfig(t *testing.T) {
	cfg := writeFile(t, "c.yaml", `
tools:
  - name: stripe/charges/create
    echo: true
  - name: users/list
    mock: [{name: a, admin: true}, {name: b, admin: false}]
limits: {timeout: 2s}
`)
	script := writeFile(t, "s.js", `const u = await users.list({}); const c = await stripe_charges_create({amount: 5}); console.log(u.filter(x => x.admin).map(x => x.name).join(), c.params.amount)`)
	code, stdout, stderr := cli(t, "", "run", "--config", cfg, script)
	if code != 0 || stdout != "a 5\n" {
		t.Errorf("file: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = cli(t, "return 6 * 7", "run", "-")
	if code != 0 || stdout != "42\n" {
		t.Errorf("stdin: exit %d stdout %q", code, stdout)
	}
	// Flags after the file work too.
	code, stdout, _ = cli(t, "", "run", script, "--config", cfg)
	if code != 0 || stdout != "a 5\n" {
		t.Errorf("flags after file: exit %d stdout %q", code, stdout)
	}
}

func TestRunExitCodes(t *testing.T) {
	code, _, stderr := cli(t, "", "run", "-e", `null.x`)
	if code != 1 || !strings.Contains(stderr, "TypeError") {
		t.Errorf("uncaught: exit %d stderr %q", code, stderr)
	}
	// The bound is on the execution, not on the whole command, whose
	// engine start (a compile, on a cold cache) can take any time on a
	// busy machine. The overrun past the limit scales with the machine's
	// speed; the limit itself does not.
	overrun := slack.Scale(t, 1500*time.Millisecond)
	var took time.Duration
	defer func(orig func(context.Context, *engine.Sandbox, engine.Language, string, ...engine.ExecuteOption) (*engine.Result, error)) {
		execute = orig
	}(execute)
	execute = func(ctx context.Context, sb *engine.Sandbox, lang engine.Language, code string, opts ...engine.ExecuteOption) (*engine.Result, error) {
		start := time.Now()
		defer func() { took = time.Since(start) }()
		return sb.Execute(ctx, lang, code, opts...)
	}
	code, stdout, _ := cli(t, "", "run", "--json", "--timeout", "1s", "-e", `while(true){}`)
	if took < time.Second || took > time.Second+overrun {
		t.Errorf("the execution took %v with --timeout 1s (allowed: up to %v more)", took, overrun)
	}
	if code != exitTimeout || !strings.Contains(stdout, `"error":{"kind":"timeout"`) || !strings.Contains(stdout, fmt.Sprintf(`"exit_code":%d`, exitTimeout)) {
		t.Errorf("timeout: exit %d stdout %s", code, stdout)
	}
}

func TestUsageErrors(t *testing.T) {
	bad := writeFile(t, "bad.yaml", "tools: [\n")
	unknown := writeFile(t, "unknown.yaml", "toolz: []\n")
	noResult := writeFile(t, "nores.yaml", "tools: [{name: a}]\n")
	badName := writeFile(t, "badname.yaml", "tools: [{name: 'a b', echo: true}]\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--nope", "-e", "1"}, "flag provided but not defined"},
		{[]string{"run", "/does/not/exist.js"}, "cannot read"},
		{[]string{"run"}, "nothing to run"},
		{[]string{"run", "-e", "1", "--config", bad}, "not valid YAML"},
		{[]string{"run", "-e", "1", "--config", unknown}, `unknown key "toolz"`},
		{[]string{"run", "-e", "1", "--config", noResult}, "needs a result"},
		{[]string{"run", "-e", "1", "--config", badName}, "not allowed"},
		{[]string{"run", "-e", "1", "--config", "/nope.yaml"}, "cannot read"},
		{[]string{"run", "--lang", "cobol", "-e", "1"}, "unknown --lang"},
		{[]string{"run", "--timeout", "x", "-e", "1"}, "invalid value"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		code, stdout, stderr := cli(t, "", tc.args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d stdout %q stderr %q; want exit 2 and one line with %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

func TestPrecompileFillsTheCache(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the guest from scratch")
	}
	dir := t.TempDir()
	code, stdout, stderr := cli(t, "", "precompile", "--cache-dir", dir)
	if code != 0 || !strings.Contains(stdout, "compiled and cached") || !compileLines.MatchString(stderr) {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("cache dir is empty: %v", err)
	}
	// A run with that cache starts from it.
	code, stdout, _ = cli(t, "", "run", "--cache-dir", dir, "-e", "return 1")
	if code != 0 || stdout != "1\n" {
		t.Errorf("run with the cache: exit %d stdout %q", code, stdout)
	}
}

func TestPolicyCommands(t *testing.T) {
	code, stdout, stderr := cli(t, "", "policy", "compile", "../../policy_test/example.yaml")
	if code != 0 || !strings.HasPrefix(stdout, "# Code generated by cordon") || !strings.Contains(stdout, "package cordon.capabilities") {
		t.Fatalf("compile: exit %d stderr %q", code, stderr)
	}
	_, again, _ := cli(t, "", "policy", "compile", "../../policy_test/example.yaml")
	if again != stdout {
		t.Error("policy compile output is not stable")
	}
	code, stdout, stderr = cli(t, "", "policy", "test", "../../policy_test")
	if code != 0 || !strings.Contains(stdout, "PASS: 22/22") {
		t.Errorf("test: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	failing := writeFile(t, "f_test.rego", "package f_test\n\ntest_fails if 1 == 2\n")
	if code, stdout, _ := cli(t, "", "policy", "test", failing); code != 1 || !strings.Contains(stdout, "FAIL") {
		t.Errorf("failing test: exit %d stdout %q", code, stdout)
	}
	if code, _, stderr := cli(t, "", "policy", "compile"); code != exitUsage || !strings.Contains(stderr, "CONFIG") {
		t.Errorf("no config: exit %d %q", code, stderr)
	}
}

func TestRunWithPolicy(t *testing.T) {
	script := `const out = []
for (const p of [{amount: 50, currency: "USD"}, {amount: 500, currency: "USD"}, {amount: 500, currency: "GBP"}, {amount: 600, currency: "EUR"}, {amount: 700, currency: "EUR"}]) {
  try { await stripe.charges.create(p); out.push("ok") } catch (e) { out.push(e.kind) }
}
try { await db.write_users({}) } catch (e) { out.push(e.kind) }
return out`
	code, stdout, stderr := cli(t, "", "run", "--config", "../../policy_test/example.yaml", "--json", "-e", script)
	if code != 0 {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	var out struct {
		Stdout    string `json:"stdout"`
		ToolCalls []struct {
			Allowed bool     `json:"allowed"`
			Reasons []string `json:"reasons"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	// 50 falls back to the asking capability (no approver in the CLI: denied);
	// 500 USD and 600 EUR use up max_calls 2; GBP and the third charge ask.
	if out.Stdout != `["denied","ok","denied","ok","denied","denied"]`+"\n" {
		t.Errorf("stdout %q", out.Stdout)
	}
	allowed := []bool{}
	for _, c := range out.ToolCalls {
		allowed = append(allowed, c.Allowed)
	}
	if fmt.Sprint(allowed) != "[false true false true false false]" || len(out.ToolCalls[5].Reasons) != 1 {
		t.Errorf("allowed %v calls %+v", allowed, out.ToolCalls)
	}

	// The tenant example: --label and the config's policies directory.
	cfg := "../../examples/tenant-policy/config.yaml"
	refund := `try { await stripe.refunds.create({amount: 100, currency: "USD"}); return "refunded" } catch (e) { return e.message }`
	if _, stdout, _ := cli(t, "", "run", "--config", cfg, "--label", "tenant=acme", "-e", refund); stdout != "refunded\n" {
		t.Errorf("acme: %q", stdout)
	}
	if _, stdout, _ := cli(t, "", "run", "--config", cfg, "--label", "tenant=globex", "-e", refund); stdout != "tool stripe/refunds/create denied: tenant \"globex\" may refund at most 50 per refund\n" {
		t.Errorf("globex: %q", stdout)
	}
	// --policy adds a module on top.
	extra := writeFile(t, "no_refunds.rego", "package cordon.authz\n\ndeny contains \"refunds are frozen\" if input.method == \"stripe/refunds/create\"\n")
	if _, stdout, _ := cli(t, "", "run", "--config", cfg, "--label", "tenant=acme", "--policy", extra, "-e", refund); !strings.Contains(stdout, "refunds are frozen") {
		t.Errorf("--policy: %q", stdout)
	}
	// A policy that does not load is a usage error.
	broken := writeFile(t, "broken.rego", "package cordon.authz\n\ndeny contains \"x\" if input.metod == 1\n")
	if code, _, stderr := cli(t, "", "run", "--policy", broken, "-e", "1"); code != exitUsage || !strings.Contains(stderr, "metod") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("broken policy: exit %d stderr %q", code, stderr)
	}
}

// Limit flags and config keys reach the sandbox, and --lang sh runs the
// shell; each limit shows as its kind in --json.
func TestLimitFlagsAndShell(t *testing.T) {
	cases := []struct {
		args []string
		kind string
	}{
		{[]string{"--max-tool-calls", "1", "-e", `await weather.current({city: "a"}); await weather.current({city: "b"})`}, "tool_calls"},
		{[]string{"--max-output", "50", "--lang", "sh", "-e", `yes`}, "output"},
		{[]string{"--vfs-bytes", "100", "--lang", "sh", "-e", `set -e; seq 1000 > a`}, "quota"},
		{[]string{"--max-depth", "50", "-e", `function f() { f() } f()`}, "recursion"},
	}
	for _, c := range cases {
		_, stdout, stderr := cli(t, "", append([]string{"run", "--json"}, c.args...)...)
		var out struct {
			Error *struct{ Kind string } `json:"error"`
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil || out.Error == nil || out.Error.Kind != c.kind {
			t.Errorf("%v: %s %s, want kind %s", c.args, stdout, stderr, c.kind)
		}
	}
	cfg := writeFile(t, "c.yaml", "tools: [{name: t, echo: true}]\nlimits: {max_tool_calls: 1}\n")
	_, stdout, _ := cli(t, "", "run", "--json", "--config", cfg, "--lang", "sh", "-e", "tool t; tool t")
	if !strings.Contains(stdout, `"kind":"tool_calls"`) {
		t.Errorf("config limit: %s", stdout)
	}
	code, stdout, _ := cli(t, "", "run", "--lang", "sh", "-e", `tool weather/current --city Oslo | jq -r .unit; exit 3`)
	if code != 3 || stdout != "F\n" {
		t.Errorf("shell: %d %q", code, stdout)
	}
}
