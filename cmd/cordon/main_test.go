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
	if out.Stdout != "72\n" || out.ExitCode != 0 || string(out.Error) != "null" || len(out.ToolCalls) != 1 {
		t.Fatalf("output %s", stdout)
	}
	tc := out.ToolCalls[0]
	if tc.Method != "weather/current" || string(tc.Params) != `{"city":"SF"}` || !tc.Allowed || tc.Reasons == nil || tc.Error != nil || !strings.Contains(string(tc.Result), `"temp":72`) {
		t.Errorf("tool call %+v", tc)
	}
	for _, key := range []string{`"stdout"`, `"stderr"`, `"exit_code"`, `"error"`, `"tool_calls"`, `"allowed"`, `"reasons"`, `"result"`} {
		if !strings.Contains(stdout, key) {
			t.Errorf("missing key %s in %s", key, stdout)
		}
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
	start := time.Now()
	code, stdout, _ := cli(t, "", "run", "--json", "--timeout", "1s", "-e", `while(true){}`)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("timeout took %v", took)
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
	if code != 0 || !strings.Contains(stdout, "compiled and cached") {
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
