package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/internal/tsc"
)

// stripeConfig is a config with a Stripe-like tool and a policy.
const stripeConfig = `
tools:
  - name: stripe/charges/create
    description: Create a charge
    input_schema:
      type: object
      properties:
        amount: {type: integer, description: In cents}
        currency: {type: string, enum: [usd, eur]}
        metadata: {type: object, additionalProperties: {type: string}}
      required: [amount, currency]
    mock: {id: ch_1, status: succeeded}
capabilities:
  - method: "stripe/charges/*"
    max_calls: 10
    constraints: [amount <= 1000, 'currency in ["usd"]']
  - method: stripe/charges/create
    ask: true
`

// TestDescribeDefault: with no config, describe prints the prompt for the
// built-in tools: rules, declarations, shell usage and an example.
func TestDescribeDefault(t *testing.T) {
	code, stdout, stderr := cli(t, "", "describe")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, w := range []string{
		"# The sandbox\n",
		"Top-level `await` and `return` work.",
		"declare const weather: {\n  /** Current weather for a city (mock) */\n  current(params: {\n    /** City name */\n    city: string;\n  }): Promise<unknown>;",
		"declare const weather_current: typeof weather.current;",
		"declare class ToolError extends Error {",
		"tool weather/current --city <string>\n",
		"tool email/send --subject <string> --to <string> [--body <string>]\n",
		"## Example\n\n```js\nconst result = await weather.current({ city: \"<city>\" });",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("the prompt lacks %q:\n%s", w, stdout)
		}
	}
	if _, stdout, _ := cli(t, "", "help"); !strings.Contains(stdout, "cordon describe [--config FILE] [--format prompt|ts|json]") {
		t.Error("the usage does not show describe")
	}
}

// TestDescribeFormats: ts is a .d.ts that tsc accepts, with which a call
// of the right types compiles and one of the wrong types does not; json is
// machine-readable; the config's capabilities are the policy.
func TestDescribeFormats(t *testing.T) {
	cfg := writeFile(t, "stripe.yaml", stripeConfig)
	code, prompt, stderr := cli(t, "", "describe", "--config", cfg)
	if code != 0 || stderr != "" || !strings.Contains(prompt, " * - amount <= 1000; currency in usd; at most 10 calls\n     * - needs approval\n") ||
		!strings.Contains(prompt, "stripe.charges.create({ amount: 1, currency: \"usd\" })") {
		t.Errorf("prompt: exit %d, stderr %q:\n%s", code, stderr, prompt)
	}

	code, js, stderr := cli(t, "", "describe", "--config", cfg, "--format", "json", "--lang", "sh")
	var doc struct {
		Tools []struct {
			Name, Shell string
			Policy      []string
		}
	}
	if code != 0 || stderr != "" || json.Unmarshal([]byte(js), &doc) != nil || len(doc.Tools) != 1 ||
		doc.Tools[0].Shell != "tool stripe/charges/create --amount <integer> --currency usd|eur [--metadata <json>]" || len(doc.Tools[0].Policy) != 2 {
		t.Errorf("json: exit %d, stderr %q:\n%s", code, stderr, js)
	}

	code, ts, stderr := cli(t, "", "describe", "--config", cfg, "--format", "ts")
	if code != 0 || stderr != "" || !strings.HasPrefix(ts, "// The API of the cordon sandbox") {
		t.Fatalf("ts: exit %d, stderr %q:\n%s", code, stderr, ts)
	}
	_, defaultTS, _ := cli(t, "", "describe", "--format", "ts")
	diags := tsc.Check(t, map[string]string{
		"stripe.d.ts": ts,
		"ok.ts": `const charge: unknown = await stripe.charges.create({ amount: 500, currency: "usd", metadata: { order: "1" } });
const again = await stripe_charges_create({ amount: 1, currency: "eur" });
console.log(charge, again);
export {};
`,
		"bad.ts": `await stripe.charges.create({ amount: "500", currency: "usd" });
export {};
`,
	})
	if len(diags) != 1 || diags[0].File != "bad.ts" || diags[0].Code != "TS2322" {
		t.Errorf("tsc on the stripe config: want one TS2322 in bad.ts, got %q", diags)
	}
	diags = tsc.Check(t, map[string]string{
		"default.d.ts": defaultTS,
		"ok.ts":        "const w = await weather.current({ city: \"SF\" });\nconst [f, c] = await Promise.all([weather_forecast({ city: \"SF\", days: 3 }), crm.customers.list()]);\nconsole.log(w, f, c);\nexport {};\n",
		"bad.ts":       "await weather.current({ town: \"SF\" });\nexport {};\n",
	})
	if len(diags) == 0 || diags[0].File != "bad.ts" || len(diags) != countIn(diags, "bad.ts") {
		t.Errorf("tsc on the default config: want errors in bad.ts only, got %q", diags)
	}
}

func countIn(ds []tsc.Diagnostic, file string) int {
	n := 0
	for _, d := range ds {
		if d.File == file {
			n++
		}
	}
	return n
}

// TestDescribeUsageErrors: bad flags and configs exit 2 with one line.
func TestDescribeUsageErrors(t *testing.T) {
	bad := writeFile(t, "bad.yaml", "tools: [{name: x, input_schema: 3}]\n")
	for _, args := range [][]string{
		{"describe", "--format", "xml"},
		{"describe", "--lang", "python"},
		{"describe", "--max-bytes", "-1"},
		{"describe", "--format", "ts", "--lang", "sh"},
		{"describe", "extra.yaml"},
		{"describe", "--nope"},
		{"describe", "--config", "/does/not/exist.yaml"},
		{"describe", "--config", bad},
	} {
		code, stdout, stderr := cli(t, "", args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "cordon: ") {
			t.Errorf("%q: exit %d stdout %q stderr %q", args, code, stdout, stderr)
		}
	}
}

// TestDescribeBudget: --max-bytes switches the prompt to the compact form,
// and 0 lifts the limit.
func TestDescribeBudget(t *testing.T) {
	code, stdout, _ := cli(t, "", "describe", "--max-bytes", "2000", "--lang", "js")
	if code != 0 || strings.Contains(stdout, "```ts") || !strings.Contains(stdout, "- `weather.current({ city })` Current weather for a city (mock)\n") {
		t.Errorf("compact: exit %d:\n%s", code, stdout)
	}
	if code, stdout, _ := cli(t, "", "describe", "--max-bytes", "0", "--no-example"); code != 0 || !strings.Contains(stdout, "```ts") || strings.Contains(stdout, "## Example") {
		t.Errorf("no limit, no example: exit %d:\n%s", code, stdout)
	}
}
