package engine_test

import (
	"os/exec"
	"strings"
	"testing"
)

// An embedder that decides by capabilities alone (authz) builds no OPA:
// neither engine, nor authz, nor codemode may import it. Nor a Redis
// client: the networked counter store is package counters/redisstore.
func TestNoOPAWithoutRego(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	pkgs := []string{"github.com/cordonhq/cordon/engine", "github.com/cordonhq/cordon/policy/authz", "github.com/cordonhq/cordon/codemode", "github.com/cordonhq/cordon/mcptools", "github.com/cordonhq/cordon/mcpserver"}
	out, err := exec.Command(gocmd, append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list listed %d packages: %q", len(deps), deps)
	}
	for _, p := range deps {
		if strings.Contains(p, "open-policy-agent") || p == "github.com/cordonhq/cordon/policy" {
			t.Errorf("%s is linked by one of %v", p, pkgs)
		}
		// Nor a metrics or tracing library: package fleet turns the
		// engine's Stats and observer into metrics.
		if strings.Contains(p, "prometheus") || strings.Contains(p, "opentelemetry") {
			t.Errorf("%s is linked by one of %v", p, pkgs)
		}
		if strings.Contains(p, "go-redis") || strings.Contains(p, "valkey") || strings.HasPrefix(p, "github.com/cordonhq/cordon/counters/redisstore") {
			t.Errorf("%s is linked by one of %v", p, pkgs)
		}
	}
}
