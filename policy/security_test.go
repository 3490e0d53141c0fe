package policy_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/internal/slack"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

// A policy may not reach the network, or depend on anything but its input,
// unless the config allows the built-in by name.
func TestDisabledBuiltins(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"ok": true}`))
	}))
	defer srv.Close()
	send := `package cordon.authz
deny contains "looked up" if {
	resp := http.send({"method": "GET", "url": concat("", ["` + srv.URL + `/", input.params.q])})
	resp.status_code == 200
}`
	ctx := context.Background()
	for name, src := range map[string]string{
		"http.send":          send,
		"net.lookup_ip_addr": `package cordon.authz` + "\n" + `deny contains "x" if count(net.lookup_ip_addr(input.params.host)) > 0`,
		"time.now_ns":        `package cordon.authz` + "\n" + `deny contains "x" if time.now_ns() > 0`,
		"opa.runtime":        `package cordon.authz` + "\n" + `deny contains "x" if opa.runtime().env.HOME`,
		"rand.intn":          `package cordon.authz` + "\n" + `deny contains "x" if rand.intn("a", 2) == 1`,
	} {
		_, err := policy.New(ctx, policy.Config{Modules: map[string]string{"p.rego": src}})
		if !errors.Is(err, policy.ErrLoad) || !strings.Contains(err.Error(), name+" is disabled in policies") || !strings.Contains(err.Error(), "allow_builtins") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the server was reached %d times while loading", hits.Load())
	}

	// Allowed by name, http.send works (and the deadline still holds).
	p, err := policy.New(ctx, policy.Config{Modules: map[string]string{"p.rego": send}, AllowBuiltins: []string{"http.send"},
		Capabilities: []*dsl.Capability{dsl.Method("**")}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.Decide(ctx, &authz.Input{Method: "m", Params: json.RawMessage(`{"q": "x"}`)})
	if err != nil || d.Allow || hits.Load() != 1 {
		t.Fatalf("with http.send allowed: %+v %v, %d hits", d, err, hits.Load())
	}
	if _, err := policy.New(ctx, policy.Config{AllowBuiltins: []string{"sum"}}); err == nil || !strings.Contains(err.Error(), `"sum" is not a built-in that can be allowed`) {
		t.Errorf("allowing an ordinary built-in: %v", err)
	}
	if got := policy.DisabledBuiltins(); len(got) < 5 || !strings.Contains(strings.Join(got, " "), "http.send") {
		t.Errorf("DisabledBuiltins() = %v", got)
	}
}

// A slow rule is cut off at the context's deadline, and the call is denied.
func TestDecideHonorsDeadline(t *testing.T) {
	slow := `package cordon.authz
deny contains "slow" if {
	some i in numbers.range(1, 100000000)
	i < 0
}`
	p, err := policy.New(context.Background(), policy.Config{Modules: map[string]string{"p.rego": slow}, Capabilities: []*dsl.Capability{dsl.Method("**")}})
	if err != nil {
		t.Fatal(err)
	}
	bound := slack.Scale(t, 3*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	d, err := p.Decide(ctx, &authz.Input{Method: "m", Params: json.RawMessage(`{}`)})
	took := time.Since(start)
	if err == nil || d.Allow || d.Ask {
		t.Fatalf("a decision cut short: %+v %v", d, err)
	}
	if took > bound {
		t.Errorf("a decision with a 200ms deadline ran %v, past %v", took, bound)
	}
}

// Params that readers would disagree on are refused by both evaluators,
// with a reason that names the param.
func TestDecideRefusesAmbiguousParams(t *testing.T) {
	caps := []*dsl.Capability{dsl.Method("pay").Where(dsl.Param("amount").Le(1000), dsl.Param("currency").In("USD"))}
	ctx := context.Background()
	for _, always := range []bool{false, true} {
		p, err := policy.New(ctx, policy.Config{Capabilities: caps, AlwaysRego: always})
		if err != nil {
			t.Fatal(err)
		}
		for params, want := range map[string]string{
			`{"amount": 5, "currency": "USD", "AMOUNT": 999999, "Currency": "BTC"}`: "param AMOUNT:",
			`{"amount": 999.99999999999999999, "currency": "USD"}`:                  "param amount: the number",
			`{"amount": 1e-400, "currency": "USD"}`:                                 "would read as 0",
			`{"amount": 5, "currency": "USD", "__proto__": {}}`:                     "param __proto__",
		} {
			d, err := p.Decide(ctx, &authz.Input{Method: "pay", Params: json.RawMessage(params)})
			if err == nil || d.Allow || len(d.Reasons) != 1 || !strings.Contains(d.Reasons[0], want) {
				t.Errorf("AlwaysRego %v, %s: %+v %v", always, params, d, err)
			}
		}
		d, err := p.Decide(ctx, &authz.Input{Method: "pay", Params: json.RawMessage(`{"amount": 1000.0, "currency": "USD"}`)})
		if err != nil || !d.Allow {
			t.Errorf("AlwaysRego %v: a plain call: %+v %v", always, d, err)
		}
	}
}
