package fleet_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/fleet"
)

// The config of docs/fleet.md loads, and OPA accepts its opa: section.
func TestFleetDocConfig(t *testing.T) {
	b, err := os.ReadFile("../docs/fleet.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```yaml\n")
	if !ok {
		t.Fatal("docs/fleet.md has no YAML block")
	}
	doc, _, _ := strings.Cut(rest, "```")
	doc = strings.Replace(doc, "tools: [...]", "tools: [{name: crm/list, echo: true}]", 1)
	cfg, err := config.Parse("docs/fleet.md", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.OPA == nil {
		t.Fatal("the config has no opa:")
	}
	p, err := fleet.New(context.Background(), fleet.Config{OPA: cfg.OPA, Capabilities: cfg.CapabilityList()})
	if err != nil {
		t.Fatalf("OPA refuses the config of docs/fleet.md: %v", err)
	}
	p.Close(context.Background())
}
