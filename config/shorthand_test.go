package config_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/cordonhq/cordon/policy/compile"
)

// shorthandYAML is amla-sandbox's create_bash_tool example as a config.
const shorthandYAML = `tools:
  - {name: transfer_money, echo: true}
  - {name: weather/current, mock: {temp: 72}}
  - {name: logs/search, echo: true}
constraints:
  transfer_money: {amount: "<=1000", currency: [USD, EUR]}
  logs/search: {since: '>="2026-01-01"', path: "startswith:/var/log/", limit: 50}
max_calls:
  transfer_money: 10
`

// TestShorthand loads the constraints and max_calls shorthand: one
// capability per tool, in the order of the tools, that lints clean,
// compiles to the same Rego on every load, and decides as amla-sandbox
// does; tools without an entry stay callable 100 times.
func TestShorthand(t *testing.T) {
	c, err := config.Parse("c.yaml", []byte(shorthandYAML))
	if err != nil {
		t.Fatal(err)
	}
	if !c.HasPolicy() {
		t.Error("HasPolicy is false")
	}
	var got []string
	for _, k := range c.ParsedCapabilities() {
		got = append(got, fmt.Sprintf("%s %q %d", k.Pattern(), constraintTexts(k), k.CallLimit()))
	}
	want := []string{
		`transfer_money ["amount <= 1000" "currency in [\"USD\", \"EUR\"]"] 10`,
		`weather/current [] 100`,
		`logs/search ["limit == 50" "path starts_with \"/var/log/\"" "since >= \"2026-01-01\""] 100`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("capabilities:\n got %q\nwant %q", got, want)
	}
	if ws := dsl.Lint(c.ParsedCapabilities()); len(ws) != 0 {
		t.Errorf("lint: %q", ws)
	}
	src, err := compile.Rego(c.ParsedCapabilities())
	if err != nil {
		t.Fatal(err)
	}
	for range 5 { // the constraints are maps: their order must not show
		c2, err := config.Parse("c.yaml", []byte(shorthandYAML))
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := compile.Rego(c2.ParsedCapabilities()); again != src {
			t.Fatal("the compiled shorthand differs between two loads")
		}
	}
	for _, block := range []string{
		"# Capability #0 \"transfer_money\"\n#   method:      transfer_money\n#   max_calls:   10\n#   ask:         false\n#   constraints:\n#     0: amount <= 1000\n#     1: currency in [\"USD\", \"EUR\"]\n",
		"# Capability #1 \"weather/current\"\n#   method:      weather/current\n#   max_calls:   100\n#   ask:         false\n#   constraints: none\n",
		"# Capability #2 \"logs/search\"\n",
	} {
		if !strings.Contains(src, block) {
			t.Errorf("the compiled Rego lacks\n%s", block)
		}
	}

	ctx := context.Background()
	pol, err := c.Policy(ctx, nil)
	if err != nil || pol == nil {
		t.Fatalf("Policy: %v %v", pol, err)
	}
	for _, tc := range []struct {
		method, params string
		calls          map[int]int
		allow          bool
		reason         string
	}{
		{"transfer_money", `{"amount": 1000, "currency": "EUR"}`, nil, true, ""},
		{"transfer_money", `{"amount": 1000.01, "currency": "EUR"}`, nil, false, `capability #0 "transfer_money": amount <= 1000 does not hold (amount is 1000.01)`},
		{"transfer_money", `{"amount": 5, "currency": "GBP"}`, nil, false, `capability #0 "transfer_money": currency in ["USD", "EUR"] does not hold (currency is "GBP")`},
		{"transfer_money", `{"amount": 5, "currency": "USD"}`, map[int]int{0: 10}, false, `capability #0 "transfer_money": max_calls 10 used up`},
		{"weather/current", `{"city": ["anything"]}`, map[int]int{1: 99}, true, ""},
		{"weather/current", `{}`, map[int]int{1: 100}, false, `capability #1 "weather/current": max_calls 100 used up`},
		{"logs/search", `{"since": "2026-05-01T00:00:00Z", "path": "/var/log/app", "limit": 50}`, nil, true, ""},
		{"logs/search", `{"since": "2025-05-01", "path": "/var/log/app", "limit": 50}`, nil, false, `capability #2 "logs/search": since >= "2026-01-01" does not hold (since is "2025-05-01")`},
		{"other", `{}`, nil, false, `no capability allows method "other"`},
	} {
		for _, p := range []*policy.Policy{pol, mustRegoPolicy(t, c)} {
			calls := tc.calls
			if calls == nil {
				calls = map[int]int{}
			}
			d, err := p.Decide(ctx, &authz.Input{Method: tc.method, Params: json.RawMessage(tc.params), CapabilityCalls: calls, Session: authz.Session{ID: "s"}})
			if err != nil || d.Allow != tc.allow || !tc.allow && (len(d.Reasons) != 1 || d.Reasons[0] != tc.reason) {
				t.Errorf("%s %s %v: %+v %v, want allow %v %q", tc.method, tc.params, tc.calls, d, err, tc.allow, tc.reason)
			}
		}
	}

	// The shorthand survives a round trip through JSON, and so does an
	// empty one, which is a policy (every tool, unconstrained, 100 calls).
	for _, src := range []string{shorthandYAML, "tools: [{name: a, echo: true}]\nconstraints: {}\n", "tools: [{name: a, echo: true}]\nmax_calls: {}\n"} {
		c, err := config.Parse("c.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(c)
		c2, err := config.Parse("c.json", js)
		if err != nil || !c2.HasPolicy() || len(c2.ParsedCapabilities()) != len(c.Tools) {
			t.Errorf("round trip of %q: %s %v", src, js, err)
			continue
		}
		a, _ := compile.Rego(c.ParsedCapabilities())
		b, _ := compile.Rego(c2.ParsedCapabilities())
		if a != b {
			t.Errorf("round trip of %q changed the policy", src)
		}
	}
}

func constraintTexts(c *dsl.Capability) []string {
	var out []string
	for _, k := range c.Constraints() {
		out = append(out, k.String())
	}
	return out
}

func mustRegoPolicy(t *testing.T, c *config.Config) *policy.Policy {
	t.Helper()
	p, err := policy.New(context.Background(), policy.Config{Capabilities: c.ParsedCapabilities(), AlwaysRego: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestShorthandDefaultMaxCalls: a tool the shorthand leaves out may be
// called as often as when no policy is configured.
func TestShorthandDefaultMaxCalls(t *testing.T) {
	if dsl.DefaultMaxCalls != engine.DefaultMaxCalls {
		t.Errorf("dsl.DefaultMaxCalls %d, engine.DefaultMaxCalls %d", dsl.DefaultMaxCalls, engine.DefaultMaxCalls)
	}
}

func TestShorthandErrors(t *testing.T) {
	const tools = "tools: [{name: transfer_money, echo: true}, {name: weather/current, echo: true}]\n"
	for _, tc := range []struct{ src, want string }{
		{tools + "constraints: {transfer_mony: {amount: \"<=1000\"}}\n",
			`config c.yaml: constraints["transfer_mony"]: names no tool (the tools are "transfer_money" and "weather/current")`},
		{tools + "max_calls: {weather: 5}\n",
			`config c.yaml: max_calls["weather"]: names no tool (the tools are "transfer_money" and "weather/current")`},
		{"max_calls: {weather: 5}\n",
			`config c.yaml: max_calls["weather"]: names no tool (there are none)`},
		{tools + "max_calls: {transfer_money: 0}\n",
			`config c.yaml: max_calls["transfer_money"]: must be at least 1, not 0`},
		{tools + "constraints: {transfer_money: {amount: \"<=abc\", currency: []}}\n",
			"config c.yaml: constraints[\"transfer_money\"][\"amount\"] \"<=abc\": value abc is not JSON; write strings in double quotes: \"abc\"\n" +
				`config c.yaml: constraints["transfer_money"]["currency"] "[]": an empty list allows no value`},
		{tools + "constraints: {transfer_money: {amount: \"=<1000\"}}\n", `"=<" is not an operator of the shorthand; did you mean <=?`},
		{tools + "constraints: {transfer_money: {amount: null}}\n", `null is not a value form`},
		{tools + "constraints: {transfer_money: {amount: {max: 5}}}\n", `an object is not a value form`},
		{tools + "constraints: {transfer_money: 5}\n", `config c.yaml: constraints: expected a mapping`},
		{tools + "constraints: [transfer_money]\n", `config c.yaml: constraints: expected a mapping`},
		{tools + "max_calls: 50\n", `config c.yaml: max_calls: expected a mapping`},
		{tools + "max_calls: {transfer_money: 1.5}\n", `not a whole number`},
		{tools + "max_calls: {transfer_money: ten}\n", `config c.yaml: max_calls`},
		// Mixed with capabilities, in either order, even an empty list.
		{tools + "constraints: {transfer_money: {amount: \"<=1000\"}}\ncapabilities: [{method: \"**\"}]\n",
			"config c.yaml: constraints: cannot be combined with capabilities: the shorthand makes a capability for every tool"},
		{tools + "capabilities: [{method: transfer_money, constraints: [amount <= 1000]}]\nmax_calls: {transfer_money: 1}\n",
			"config c.yaml: max_calls: cannot be combined with capabilities"},
		{tools + "capabilities: []\nconstraints: {}\n", "config c.yaml: constraints: cannot be combined with capabilities"},
		{tools + "constraints: {transfer_money: {amount: \"<=1000\"}}\nconstraints: {weather/current: {}}\n", "constraints: duplicate key"},
		{tools + "constraints: {transfer_money: {amount: \"<=1000\", amount: \">5\"}}\n", `constraints.transfer_money.amount: duplicate key`},
		{tools + "Constraints: {}\n", `unknown key "Constraints"`},
	} {
		_, err := config.Parse("c.yaml", []byte(tc.src))
		var ce *config.Error
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, config.ErrInvalid) || !errors.As(err, &ce) {
			t.Errorf("%s: err %v, want %q", tc.src, err, tc.want)
		}
	}
}
