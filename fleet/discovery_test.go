package fleet_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/cordonhq/cordon/fleet"
)

// With OPA's discovery, the host's boot config names only the services
// and the discovery bundle; the discovery bundle configures the policy
// bundle and the decision logs. The policy becomes active once the bundle
// discovery named is, and its decisions reach the log service discovery
// named, with their revision.
func TestDiscoveryConfiguresTheBundles(t *testing.T) {
	srv := newBundleServer(t)
	srv.set(makeBundle(t, "r1", regoDeny("files/delete"), ""))
	col := newCollector(t)
	disco := newBundleServer(t)
	disco.set(makeBundleModules(t, "d1", map[string]string{"/config.rego": `package config

bundles := {"cordon": {"service": "bundles", "resource": "/bundles/cordon.tar.gz", "polling": {"min_delay_seconds": 1, "max_delay_seconds": 1}}}

decision_logs := {"service": "logs", "reporting": {"min_delay_seconds": 1, "max_delay_seconds": 1}}
`}))
	boot := fmt.Sprintf(`services:
  disco: {url: %q}
  bundles: {url: %q}
  logs: {url: %q}
discovery:
  service: disco
  resource: /bundles/cordon.tar.gz
  decision: config
`, disco.URL, srv.URL, col.URL)
	p := newPolicy(t, fleet.Config{ID: "host-d", OPA: []byte(boot)})
	if p.Revision() != "r1" {
		t.Fatalf("revision %q, want r1 (the bundle discovery configured)", p.Revision())
	}
	if d := decide(t, p, "files/delete", `{}`); d.Allow {
		t.Fatalf("files/delete allowed on r1: %+v", d)
	}
	if d := decide(t, p, "files/write", `{}`); !d.Allow {
		t.Fatalf("files/write denied on r1: %+v", d)
	}
	eventually(t, 10*time.Second, "the log service discovery named received no decision", func() bool {
		events, _ := col.snapshot()
		return len(events) >= 2
	})
	events, _ := col.snapshot()
	for _, ev := range events {
		labels, _ := ev["labels"].(map[string]any)
		if ev["revision"] != "r1" || ev["path"] != fleet.DecisionPath || labels["id"] != "host-d" {
			t.Errorf("event %v", ev)
		}
	}
	if len(events) != 2 {
		t.Errorf("%d events, want 2", len(events))
	}
}
