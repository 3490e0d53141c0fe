package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
)

// TestOverrunIsBounded runs the kinds of call that used to keep the host
// working far past an execution's time limit, and checks that each ends
// within a loose bound of it: a huge number in the params, a slow Rego
// rule, a realistic rule that walks every param with regex.match over a
// large array, a handler that ignores its context, and a guest that never
// checks its interrupt flag (which is killed after the stop grace). It
// logs each overrun; RATIONALE.md ("Timeouts") records the figures.
func TestOverrunIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	const limit = time.Second
	// How far past the limit an overrun may end; the hanging handler
	// sleeps 3 s longer than that, so that waiting for it would cross it.
	bound := enginetest.Scale(t, 2*time.Second)
	slowRule := `package cordon.authz
deny contains "slow" if {
	some i in numbers.range(1, 1000000000)
	i < 0
}`
	walkRule := `package cordon.authz
deny contains sprintf("bad value at %v", [path]) if {
	walk(input.params, [path, v])
	is_string(v)
	regex.match("^(a|aa)+b$", v)
}`
	bigArray := `const items = Array.from({length: 60000}, (_, i) => "a".repeat(8) + i)`
	hang := engine.Tool{Name: "hang", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
		time.Sleep(limit + bound + 3*time.Second) // ignores ctx
		return nil, nil
	}}
	for _, tc := range []struct {
		name   string
		rego   string
		lang   engine.Language
		code   string
		broken bool
	}{
		{"a million-digit number", "", engine.Shell, `n=$(printf '%01000000d' 1); while true; do tool t --json "{\"n\": $n}" 2>/dev/null; done`, false},
		{"a slow Rego rule", slowRule, engine.JavaScript, `await Promise.all([t({}), t({}), t({})])`, false},
		{"regex.match over every param", walkRule, engine.JavaScript, bigArray + `; for (;;) await t({items})`, false},
		{"a handler that ignores its context", "", engine.JavaScript, `await hang({})`, false},
		{"code that never checks the interrupt flag", "", engine.JavaScript, `/^(a+)+\1$/.test("a".repeat(40) + "b")`, true},
	} {
		cfg := engine.SandboxConfig{Tools: []engine.Tool{enginetest.Mock("t", 1), hang}, Limits: engine.Limits{Timeout: limit}}
		if tc.rego != "" {
			cfg.Policy = enginetest.NewPolicy(t, policy.Config{Modules: map[string]string{"p.rego": tc.rego}, Capabilities: []*dsl.Capability{dsl.Method("**")}})
		}
		sb := enginetest.NewSandbox(t, cfg)
		start := time.Now()
		_, err := sb.Execute(context.Background(), tc.lang, tc.code)
		over := time.Since(start) - limit
		t.Logf("%s: ended %v after the limit (%v)", tc.name, over.Round(time.Millisecond), err)
		if !errors.Is(err, engine.ErrTimeout) {
			t.Errorf("%s: %v, want a timeout", tc.name, err)
		}
		if over > bound {
			t.Errorf("%s: ran %v past its limit", tc.name, over)
		}
		if broken := sb.Err() != nil; broken != tc.broken {
			t.Errorf("%s: sandbox broken = %v (%v)", tc.name, broken, sb.Err())
		}
		if tc.broken && !strings.Contains(sb.Err().Error(), "did not stop") {
			t.Errorf("%s: %v", tc.name, sb.Err())
		}
	}
}
