package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cordonhq/cordon/engine"
)

// CheckSandboxConfig refuses, without an engine, what NewSandbox refuses
// before it starts a guest, and accepts a configuration NewSandbox takes.
func TestCheckSandboxConfig(t *testing.T) {
	h := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	for _, c := range []struct {
		name string
		cfg  engine.SandboxConfig
		mb   int
		ok   bool
	}{
		{"empty", engine.SandboxConfig{}, 0, true},
		{"tools", engine.SandboxConfig{Tools: []engine.Tool{{Name: "a/b", Handler: h, InputSchema: json.RawMessage(`{"type":"object"}`)}}}, 0, true},
		{"bad name", engine.SandboxConfig{Tools: []engine.Tool{{Name: "a//b", Handler: h}}}, 0, false},
		{"twice", engine.SandboxConfig{Tools: []engine.Tool{{Name: "a", Handler: h}, {Name: "a", Handler: h}}}, 0, false},
		{"bad schema", engine.SandboxConfig{Tools: []engine.Tool{{Name: "a", Handler: h, InputSchema: json.RawMessage(`{"type":7}`)}}}, 0, false},
		{"bad scope", engine.SandboxConfig{Counters: engine.Counters{Scope: "galaxy"}}, 0, false},
		{"principal scope without one", engine.SandboxConfig{Counters: engine.Counters{Scope: "principal"}}, 0, false},
		{"vfs over the memory", engine.SandboxConfig{Limits: engine.Limits{VFSBytes: 1 << 40}}, 64, false},
	} {
		err := engine.CheckSandboxConfig(c.cfg, c.mb)
		if (err == nil) != c.ok || (err != nil && engine.KindOf(err) != engine.KindInvalid) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
