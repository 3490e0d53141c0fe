package policy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

// splitModules are user modules for TestSplitAgreesWithRego: rules that
// add to permit, deny and ask alone and together, helpers in other
// packages, reasons that repeat the library's, reasons that are not
// strings, rules that fail to evaluate (in ask, which the whole program
// reads only when nothing denies), rules over every field of the input,
// and rules that read the library (which are not split).
var splitModules = []map[string]string{
	{"p.rego": "package cordon.authz\n\npermit contains \"crm is open\" if startswith(input.method, \"crm/\")\n"},
	{"d.rego": "package cordon.authz\n\ndeny contains sprintf(\"amount %v is too much\", [input.params.amount]) if input.params.amount > 5000\n"},
	{"a.rego": "package cordon.authz\n\nask contains \"geo needs a human\" if startswith(input.method, \"geo/\")\n"},
	{
		"h.rego": "package helpers\n\nblocked := {\"other\", \"a/b/c\"}\n",
		"all.rego": `package cordon.authz

import data.helpers

permit contains "logs are open" if startswith(input.method, "logs/")

permit contains "anything else too" if input.method in helpers.blocked

deny contains "blocked" if input.method in helpers.blocked

ask contains sprintf("%s needs a human", [input.method]) if input.params.amount > 100

ask contains "crm needs a human" if startswith(input.method, "crm/")
`,
	},
	{"dup.rego": "package cordon.authz\n\ndeny contains sprintf(\"no capability allows method %q\", [input.method]) if input.method == \"other\"\n\nask contains \"capability #4 \\\"stripe/**\\\" requires approval\" if input.method == \"stripe\"\n"},
	{"odd.rego": "package cordon.authz\n\ndeny contains {\"code\": 1} if input.method == \"other\"\n\nask contains 7 if input.method == \"logs/search\"\n\npermit contains 1 if input.method == \"a/b/c\"\n"},
	{"err.rego": "package cordon.authz\n\nask contains \"named\" if to_number(input.params.name) > 0\n\ndeny contains \"bad region\" if to_number(input.params.region) > 0\n"},
	{"input.rego": `package cordon.authz

deny contains "too many" if input.calls[input.method] > 2

deny contains "no shell" if input.language == "sh"

deny contains "evil" if input.tool.server == "evil"

ask contains "destructive" if input.tool.annotations.destructiveHint

deny contains "flagged" if input.session.labels.flag == "red"

ask contains "private" if input.session.flow.labels.private > 0

deny contains "charged" if input.capability_calls["0"] > 1

ask contains "large" if count(json.marshal(input)) > 400
`},
	{"whole.rego": "package cordon.authz\n\ndeny contains \"x\" if input[\"method\"] == \"crm\"\n\nask contains k if {\n\tsome k, _ in input.params\n\tk == \"note\"\n}\n"},
	{"data.rego": "package cordon.authz\n\ndeny contains \"over the limit\" if input.params.amount > data.limits.max\n"},
	// These read the library: decided by the whole program.
	{"lib.rego": "package cordon.authz\n\ndeny contains \"charged 0\" if capability == 0\n\nask contains \"undenied\" if count(deny) == 0\n"},
	{"caps.rego": "package cordon.authz\n\ndeny contains \"matched\" if count(data.cordon.capabilities.matched) > 1\n"},
}

// TestSplitAgreesWithRego checks that a policy with user rules, decided
// in two parts (the user's rules by OPA, the library in Go), decides every
// call as the whole OPA evaluation does, reasons and errors included.
func TestSplitAgreesWithRego(t *testing.T) {
	ctx := context.Background()
	capSets := [][]*dsl.Capability{nil, {dsl.Method("stripe/charges/*").Where(dsl.Param("amount").Le(10000)).MaxCalls(2)}, nativeCapabilities(t)}
	params := []string{``, `[]`, `{}`, `{"amount": 5}`, `{"amount": 5000, "currency": "USD"}`, `{"amount": 20000, "currency": "EUR"}`,
		`{"amount": "5"}`, `{"amount": 4, "note": "x"}`, `{"name": "xyz"}`, `{"name": "5", "region": "us"}`, `{"region": "7"}`,
		`{"amount": 5} x`, `{"amount": 1E100000}`, `{"tags": ["vip"], "mode": "test", "amount": 101}`, `{"mode": "test", "amount": 2, "name": "xyz"}`}
	tools := []*authz.ToolInfo{nil, {Server: "evil", Annotations: map[string]bool{"destructiveHint": true}, Labels: []string{"private"}}}
	n := 0
	for _, caps := range capSets {
		for mi, mods := range splitModules {
			cfg := policy.Config{Capabilities: caps, Modules: mods}
			if _, ok := mods["data.rego"]; ok {
				cfg.Data = map[string]any{"limits": map[string]any{"max": 1000}}
			}
			fast := mustPolicy(t, cfg)
			cfg.AlwaysRego = true
			slow := mustPolicy(t, cfg)
			for _, m := range nativeMethods {
				for _, p := range params {
					for vi := range 4 {
						in := &authz.Input{Method: m, Params: json.RawMessage(p), Language: "js", Session: authz.Session{ID: "s"}}
						if vi&1 != 0 {
							in.Calls = map[string]int{m: 3}
							in.CapabilityCalls = map[int]int{0: 2, 4: 3}
						}
						if vi&2 != 0 {
							in.Session.Flow.Labels = map[string]int{"private": 1}
							in.Session.Labels = map[string]string{"flag": "red"}
							in.Language = "sh"
							in.Tool = tools[1]
						}
						t.Run("", func(t *testing.T) {
							compareDecisions(t, ctx, in, slow, fast)
						})
						if t.Failed() {
							t.Fatalf("module set %d, %d capabilities: %+v", mi, len(caps), in)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d decisions compared", n)
}

// FuzzSplitAgreesWithRego compares the two ways of deciding a policy with
// user rules on arbitrary methods, params and rules.
func FuzzSplitAgreesWithRego(f *testing.F) {
	f.Add("startswith(input.method, \"a\")", "input.params.x > 1", "input.params.y == \"z\"", "a/b", `{"x": 5, "y": "z"}`, uint8(0))
	f.Add("true", "false", "true", "stripe/charges/create", `{"amount": 5}`, uint8(1))
	f.Add("input.method == \"m\"", "to_number(input.params.n) > 1", "to_number(input.params.n) < 1", "m", `{"n": "q"}`, uint8(7))
	f.Fuzz(func(t *testing.T, permitIf, denyIf, askIf, method, params string, flags uint8) {
		mod := fmt.Sprintf("package cordon.authz\n\npermit contains \"p\" if %s\n\ndeny contains \"d\" if %s\n\nask contains \"a\" if %s\n", permitIf, denyIf, askIf)
		var caps []*dsl.Capability
		if flags&1 != 0 {
			caps = append(caps, dsl.Method("stripe/**").Where(dsl.Param("amount").Le(100)).MaxCalls(2).Ask())
		}
		if flags&2 != 0 {
			caps = append(caps, dsl.Method("**"))
		}
		ctx := context.Background()
		fast, err := policy.New(ctx, policy.Config{Capabilities: caps, Modules: map[string]string{"u.rego": mod}})
		if err != nil {
			return
		}
		slow, err := policy.New(ctx, policy.Config{Capabilities: caps, Modules: map[string]string{"u.rego": mod}, AlwaysRego: true})
		if err != nil {
			t.Fatalf("only the whole policy failed: %v", err)
		}
		compareDecisions(t, ctx, &authz.Input{Method: method, Params: json.RawMessage(params), CapabilityCalls: map[int]int{0: int(flags>>2) % 4}}, slow, fast)
	})
}
