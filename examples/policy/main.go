// Command policy is the program of the policy guide (docs/policy.md): the
// same payments policy built three ways, with capabilities and Rego
// (policy.New, OPA), with capabilities alone (authz.New, no OPA), and from
// amla-sandbox's shorthand (dsl.Shorthand), each deciding the same calls;
// then call counters shared by every sandbox of one principal
// (docs/counters.md).
//
//	go run ./examples/policy
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy"
	"github.com/cordonhq/cordon/policy/authz"
)

// tools are the sandbox's tools: they echo their params.
var tools = []engine.Tool{
	{Name: "payments/transfer", Handler: engine.Func(func(_ context.Context, p map[string]any) (map[string]any, error) {
		return map[string]any{"id": "tr_1", "amount": p["amount"]}, nil
	})},
	{Name: "weather/current", Handler: engine.Func(func(_ context.Context, p map[string]any) (map[string]any, error) {
		return map[string]any{"temp": 61}, nil
	})},
}

// script transfers twice (the second over the limit) and reads the weather.
const script = `
const r = await Promise.allSettled([
  payments.transfer({to: "acct_1", amount: 500, currency: "EUR"}),
  payments.transfer({to: "acct_1", amount: 5000, currency: "EUR"}),
  weather.current({city: "SF"}),
])
return r.map(x => x.status === "fulfilled" ? "ok" : x.reason.reasons.join("; "))`

// run decides the script's calls under each policy; regoDir holds the
// payments example's Rego (examples/payments-policy).
func run(ctx context.Context, w io.Writer, regoDir string) error {
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		return err
	}
	defer eng.Close(ctx)

	// region policy
	pol, err := policy.New(ctx, policy.Config{
		Capabilities: []*dsl.Capability{
			dsl.Method("payments/transfer").
				Where(dsl.Param("amount").Le(1000), dsl.Param("currency").In("USD", "EUR")).
				MaxCalls(10),
			dsl.Method("weather/*"),
		},
		Paths: []string{regoDir}, // your Rego, data.json, or OPA bundles (.tar.gz or a dir with .manifest)
	})
	if err != nil {
		return err
	}
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: tools, Policy: pol, Labels: map[string]string{"team": "finance"}})
	// endregion
	if err != nil {
		return err
	}
	if err := show(ctx, w, "policy.New", sb); err != nil {
		return err
	}

	// region authz
	caps, err := authz.New([]*dsl.Capability{
		dsl.Method("payments/transfer").Where(dsl.Param("amount").Le(1000)).MaxCalls(10),
		dsl.Method("weather/*"),
	})
	if err != nil {
		return err
	}
	sb, err = eng.NewSandbox(ctx, engine.SandboxConfig{Tools: tools, Policy: caps})
	// endregion
	if err != nil {
		return err
	}
	if err := show(ctx, w, "authz.New", sb); err != nil {
		return err
	}

	toolNames := []string{"payments/transfer", "weather/current"}
	// region shorthand
	shorthand, err := dsl.Shorthand{
		Constraints: map[string]map[string]any{
			"payments/transfer": {"amount": "<=1000", "currency": []string{"USD", "EUR"}},
		},
		MaxCalls: map[string]int{"payments/transfer": 10},
	}.Capabilities(toolNames...) // one capability per registered tool
	// endregion
	if err != nil {
		return err
	}
	fromShorthand, err := authz.New(shorthand)
	if err != nil {
		return err
	}
	sb, err = eng.NewSandbox(ctx, engine.SandboxConfig{Tools: tools, Policy: fromShorthand})
	if err != nil {
		return err
	}
	if err := show(ctx, w, "dsl.Shorthand", sb); err != nil {
		return err
	}
	return perPrincipal(ctx, eng, w)
}

// perPrincipal runs the script in two sandboxes of one principal, whose
// call counters are shared: the second finds the transfer's max_calls used
// up by the first.
func perPrincipal(ctx context.Context, eng *engine.Engine, w io.Writer) error {
	pol, err := authz.New([]*dsl.Capability{
		dsl.Method("payments/transfer").Where(dsl.Param("amount").Le(1000)).MaxCalls(1),
		dsl.Method("weather/*"),
	})
	if err != nil {
		return err
	}
	tenantID := "acme"
	for _, name := range []string{"first sandbox of acme", "second sandbox of acme"} {
		// region counters
		sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{
			Tools:     tools,
			Policy:    pol,
			Principal: tenantID,
			Counters: engine.Counters{
				Scope:  counters.PerPrincipal,
				Window: time.Hour,
				// Store: nil is the engine's in-memory store (Engine.Counters).
			},
		})
		// endregion
		if err != nil {
			return err
		}
		if err := show(ctx, w, name, sb); err != nil {
			return err
		}
	}
	return nil
}

// show runs the script in sb, prints what each call got, and closes sb.
func show(ctx context.Context, w io.Writer, name string, sb *engine.Sandbox) error {
	defer sb.Close(ctx)
	res, err := sb.Execute(ctx, engine.JavaScript, script)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s", name, res.Stdout)
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout, "examples/payments-policy"); err != nil {
		log.Fatal(err)
	}
}
