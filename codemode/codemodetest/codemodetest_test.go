package codemodetest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

func TestArguments(t *testing.T) {
	for _, c := range []struct{ got, key, code string }{
		{codemodetest.JS(`return "a\"b"`), "code", `return "a\"b"`},
		{codemodetest.Shell("echo 'x'\n"), "script", "echo 'x'\n"},
	} {
		var m map[string]string
		if err := json.Unmarshal([]byte(c.got), &m); err != nil || len(m) != 1 || m[c.key] != c.code {
			t.Errorf("%s: %v %v", c.got, m, err)
		}
	}
}

// The shop's tools and policy do what the adapters' tests count on: the
// late orders, one refund within the policy and one refused by it.
func TestShop(t *testing.T) {
	var shop codemodetest.Shop
	tool := codemodetest.New(t, engine.SandboxConfig{Tools: shop.Tools(), Policy: codemodetest.ShopPolicy(t)}, nil)
	if r := codemodetest.RunJS(t, tool, codemodetest.LateOrdersScript); string(r.Value) != `["o1","o2"]` {
		t.Errorf("late orders: %s", r.Text())
	}
	r := codemodetest.Run(t, context.Background(), tool, codemodetest.JS(codemodetest.RefundScript))
	if !strings.HasPrefix(r.Stdout, "o1: refunded\no2: tool orders/refund denied: ") || shop.Refunds() != 1 {
		t.Errorf("%d refunds, stdout %q", shop.Refunds(), r.Stdout)
	}
	text := codemodetest.Call(t, context.Background(), tool.Shell(), codemodetest.Shell(`tool orders/list --customer c1 | jq -r '.[].id'`))
	if text != "[stdout]\no1\no2\no3\n" {
		t.Errorf("shell: %q", text)
	}
}

// Run and Call fail the test when the script cannot run, and not when
// the model sent arguments the tool cannot read; the tool's sessions are
// closed when the test ends.
func TestFailuresAndCleanup(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	var tool *codemode.Runner
	var ft enginetest.FakeT
	ok := ft.Run(func(t enginetest.TB) {
		tool = codemodetest.New(t, engine.SandboxConfig{}, nil)
		if r := codemodetest.RunJS(t, tool, `return 1`); string(r.Value) != "1" {
			t.Fatalf("return 1: %s", r.Text())
		}
		if r := codemodetest.Run(t, context.Background(), tool, `{"code": 1}`); !r.IsError() {
			t.Fatalf("bad arguments: %s", r.Text())
		}
		codemodetest.Run(t, canceled, tool, codemodetest.JS(`return 1`))
	})
	if ok || !strings.Contains(ft.Failure(), "codemodetest: Run(") {
		t.Errorf("a canceled run: %q", ft.Failure())
	}
	if n := len(tool.Sessions()); n != 0 {
		t.Errorf("%d sessions open after the test", n)
	}
	if ft.Run(func(t enginetest.TB) {
		codemodetest.Call(t, canceled, codemodetest.New(t, engine.SandboxConfig{}, nil), codemodetest.JS(`return 1`))
	}) {
		t.Error("Call did not fail the test when the run could not start")
	}
}
