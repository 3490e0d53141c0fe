package fleet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/fleet"
	"github.com/cordonhq/cordon/policy/authz"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/prometheus/client_golang/prometheus"
)

// A Policy is an engine.Policy.
var _ engine.Policy = (*fleet.Policy)(nil)

// A host takes its policy from a bundle server. Here the server is an
// httptest server serving one bundle; in production it is any HTTP server
// (or OCI registry) OPA can download bundles from, usually with signed
// bundles, decision_logs and status (docs/fleet.md).
func Example() {
	var tarball bytes.Buffer
	_ = bundle.NewWriter(&tarball).Write(bundle.Bundle{
		Manifest: bundle.Manifest{Revision: "2026-12-06.1", Roots: &[]string{"cordon"}},
		Modules: []bundle.ModuleFile{{URL: "/authz.rego", Path: "/authz.rego", Raw: []byte(`package cordon.authz

deny contains "payments are frozen" if startswith(input.method, "payments/")
`)}},
		Data: map[string]any{},
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(tarball.Bytes())
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// region fleet
	pol, err := fleet.New(ctx, fleet.Config{
		OPA: []byte(`
services:
  acme: {url: "` + srv.URL + `"}
bundles:
  cordon:
    service: acme
    resource: bundles/cordon.tar.gz
    polling: {min_delay_seconds: 10, max_delay_seconds: 20}
`),
		Capabilities: []*dsl.Capability{dsl.Method("payments/*"), dsl.Method("weather/*")},
		Registerer:   prometheus.NewRegistry(), // cordon_policy_revision_info, ...; serve it with promhttp
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pol.Close(context.Background()) // uploads the decision logs it buffered
	if err := pol.Wait(ctx); err != nil { // the first bundle (or the one persisted)
		fmt.Println(err)
		return
	}
	// sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: tools, Policy: pol})
	// endregion

	for _, method := range []string{"weather/today", "payments/transfer"} {
		d, err := pol.Decide(ctx, &authz.Input{Method: method, Params: json.RawMessage(`{}`)})
		fmt.Println(method, d.Allow, d.Reasons, err, pol.Revision())
	}
	// Output:
	// weather/today true [] <nil> 2026-12-06.1
	// payments/transfer false [payments are frozen] <nil> 2026-12-06.1
}

// A host's engine reports its executions, tool calls, sandboxes and guest
// memory on the same registry as its policy, and its sandboxes send the approvals,
// refusals and failures of calls to the decision log beside the decisions.
func ExampleEngineMetrics() {
	ctx := context.Background()
	reg := prometheus.NewRegistry()

	// region enginemetrics
	metrics, err := fleet.NewEngineMetrics(reg) // cordon_executions_total, cordon_tool_calls_total, ...
	if err != nil {
		fmt.Println(err)
		return
	}
	eng, err := engine.New(ctx, engine.NewConfig().WithObserver(metrics.Observe).WithDecisionObserver(metrics.ObserveDecision))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer eng.Close(ctx)
	metrics.Watch(eng) // the gauges read eng.Stats() at each scrape
	// sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{Tools: tools, Policy: pol, Audit: pol.Audit})
	// endregion

	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sb.Close(ctx)
	if _, err := sb.Execute(ctx, engine.JavaScript, `console.log("hello")`); err != nil {
		fmt.Println(err)
		return
	}
	mfs, _ := reg.Gather()
	for _, mf := range mfs {
		switch mf.GetName() {
		case fleet.MetricExecutions:
			m := mf.GetMetric()[0]
			fmt.Println(mf.GetName(), m.GetLabel()[0].GetValue(), m.GetLabel()[1].GetValue(), m.GetCounter().GetValue())
		case fleet.MetricSandboxes:
			fmt.Println(mf.GetName(), mf.GetMetric()[0].GetGauge().GetValue())
		}
	}
	// Output:
	// cordon_executions_total js ok 1
	// cordon_sandboxes 1
}
