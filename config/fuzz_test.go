package config_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/config"
	"go.yaml.in/yaml/v4"
)

// fuzzParseTimeout bounds one Parse: a config is at most a few MB and
// parses in milliseconds, so this only catches a hang.
const fuzzParseTimeout = 5 * time.Second

// fuzzMaxAlloc bounds what one Parse may allocate. The fuzzer's inputs are
// small (at most about 1 MB), so an input that makes the loader allocate
// this much is an amplification (an alias bomb or the like).
const fuzzMaxAlloc = 512 << 20

// fuzzSeeds are hand-written configs: valid ones, and malformed ones of
// every kind the loader must reject with a clear error.
var fuzzSeeds = []string{
	``,
	`{}`,
	`null`,
	`tools: []`,
	`{"tools": [{"name": "e", "echo": true}], "limits": {"timeout": 2.5, "memory_mb": 64}}`,
	"tools:\n  - name: a/b\n    mock: {x: [1, 2.5, null, true, \"s\"]}\n    input_schema: {type: object}\nlimits: {timeout: 1m30s, max_output_bytes: 1024, vfs_bytes: 1048576, vfs_files: 10}\n",
	"tools: [{name: m, mock: null}]\ncapabilities: []\n",
	"capabilities:\n  - method: \"stripe/*/create\"\n    max_calls: 20\n    name: pay\n    ask: true\n    description: payments\n    constraints:\n      - amount > 0\n      - currency in [\"USD\", \"EUR\"]\n      - 'any_of(amount < 1000, all_of(amount >= 1000, currency == \"usd\"))'\npolicies: [policy/, /abs/p.rego]\n",
	// Bad capability text.
	`capabilities: [{method: x, constraints: ["amount <== 5"]}]`,
	`capabilities: [{method: "[", max_calls: 1}]`,
	`capabilities: [{method: x, max_calls: -1}]`,
	`capabilities: [{methd: x}]`,
	`capabilities: {method: x}`,
	`capabilities: [1, "x", null, []]`,
	`capabilities: [{method: x, constraints: "amount > 0"}]`,
	`capabilities: [{method: x, constraints: ["a in [1, 2", "b ends_with", "c exists d"]}]`,
	// The constraints and max_calls shorthand: good, bad, and mixed with
	// capabilities.
	"tools: [{name: transfer_money, echo: true}, {name: w, mock: 1}]\nconstraints:\n  transfer_money: {amount: \"<=1000\", currency: [USD, EUR], memo: \"startswith:inv-\", n: 5, ok: true, since: '>=\"2026-01-01\"'}\nmax_calls: {transfer_money: 10}\n",
	"tools: [{name: a, echo: true}]\nconstraints: {}\nmax_calls: {}\n",
	`{"tools": [{"name": "a", "echo": true}], "constraints": {"a": {"x": "!=\"y\"", "z": [1, "1", null]}}}`,
	"tools: [{name: a, echo: true}]\nconstraints: {b: {x: 1}}\nmax_calls: {a: 0, c: 1}\n",
	"tools: [{name: a, echo: true}]\nconstraints: {a: {x: \"<=abc\", y: [], z: null, w: {k: 1}, v: \"=<5\", u: \"endswith:x\"}}\n",
	"tools: [{name: a, echo: true}]\ncapabilities: []\nmax_calls: {a: 1}\n",
	"tools: [{name: a, echo: true}]\nmax_calls: 5\nconstraints: [a]\n",
	// Unknown keys, at every level.
	`toolz: []`,
	`tools: [{name: a, echo: true, mokc: 1}]`,
	`limits: {timeout: 1s, cpu: 2}`,
	`{"tools": [], "tools": [{"name": "dup", "echo": true}]}`,
	// Wrong types.
	`tools: {name: a}`,
	`tools: [{name: 5, echo: "yes"}]`,
	`tools: [{name: a, echo: true, input_schema: 5}]`,
	`tools: [{name: a, echo: true, input_schema: [1]}]`,
	`limits: {timeout: soon}`,
	`limits: {timeout: [1]}`,
	`limits: {timeout: -1s}`,
	`limits: {memory_mb: "64"}`,
	`limits: 5`,
	`policies: [""]`,
	`policies: "p.rego"`,
	`[1, 2, 3]`,
	`"just a string"`,
	// Semantic errors.
	`tools: [{name: a}]`,
	`tools: [{echo: true}]`,
	`tools: [{name: a, echo: true, mock: 1}]`,
	`tools: [{name: a, echo: true}, {name: a, echo: true}]`,
	// Huge and odd numbers.
	`limits: {memory_mb: 99999}`,
	`limits: {memory_mb: 1e400}`,
	`limits: {vfs_bytes: 99999999999999999999999999}`,
	`limits: {max_output_bytes: 9223372036854775807, vfs_files: -9223372036854775808}`,
	`limits: {timeout: 1e300}`,
	`limits: {timeout: 9223372036.854775807}`,
	`limits: {timeout: 2562047h47m16.854775807s}`,
	`limits: {timeout: .nan, memory_mb: .inf}`,
	`limits: {memory_mb: 0x40, vfs_files: 0o17}`,
	`limits: {memory_mb: 1.5}`,
	// Syntax errors and trailing data.
	`tools: [`,
	"tools: []\n---\ntools: []\n",
	`{"tools": []} {"x": 1}`,
	"\ttools: []",
	"tools: [{name: \"a\x00b\", echo: true}]",
	"\xef\xbb\xbftools: []",
	"\xff\xfe",
	"key: &a [*a]",
	"? [complex, key]\n: value\n",
	"!!binary aGVsbG8=",
	"tools: !!map {}",
	// Deep nesting.
	strings.Repeat("[", 200) + strings.Repeat("]", 200),
	"tools: [{name: a, mock: " + strings.Repeat("{a: ", 100) + "1" + strings.Repeat("}", 100) + "}]",
	strings.Repeat("- ", 300) + "x",
	// Anchors and aliases: fine ones, and a "billion laughs" bomb.
	"t: &t {name: a, echo: true}\ntools: [*t]\n",
	"tools:\n  - &a {name: a, echo: true}\n  - *a\n",
	"tools:\n  - name: a\n    mock: &m [x, y]\n  - name: b\n    mock: *m\n",
	billionLaughs(9, 10),
	billionLaughs(40, 2),
	"tools: [{name: a, mock: &x [*x]}]",
}

// billionLaughs returns a YAML alias bomb: levels anchors, each a list of
// width aliases of the previous one, used as a tool's mock value.
func billionLaughs(levels, width int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [\"lol\"]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range width {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	fmt.Fprintf(&b, "tools: [{name: lol, mock: *a%d}]\n", levels-1)
	return b.String()
}

// FuzzLoad checks the config loader on arbitrary bytes: Parse never panics
// or hangs, and allocates a bounded amount; a rejected config gives a
// *config.Error that matches ErrInvalid and says what is wrong; an accepted
// one marshals (as JSON and as YAML) to a config that loads to the same
// thing. The seeds are the built-in default, the examples' configs, the
// hand-written ones above and testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	f.Add(config.DefaultYAML())
	examples, err := filepath.Glob("../examples/*/config.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range examples {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz.yaml"
		c, err := parseBounded(t, name, data)
		if err != nil {
			checkError(t, name, data, err)
			return
		}
		if c == nil {
			t.Fatalf("Parse(%q) returned neither a config nor an error", data)
		}
		useConfig(t, c)
		// Re-marshaled, as JSON and as YAML, the config loads again to the
		// same thing.
		js, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("Parse(%q) gave a config that does not marshal: %v", data, err)
		}
		checkReload(t, name, data, "JSON", js, c)
		var tree any
		if err := yaml.Unmarshal(js, &tree); err != nil {
			t.Fatalf("Parse(%q) gave a config whose JSON does not read as YAML: %v", data, err)
		}
		ys, err := yaml.Marshal(tree)
		if err != nil {
			t.Fatalf("Parse(%q) gave a config that does not marshal to YAML: %v", data, err)
		}
		checkReload(t, name, data, "YAML", ys, c)
	})
}

// parseBounded runs config.Parse and fails on a hang or an excessive
// allocation.
func parseBounded(t *testing.T, name string, data []byte) (*config.Config, error) {
	t.Helper()
	type result struct {
		c     *config.Config
		err   error
		alloc uint64
		panic string
	}
	done := make(chan result, 1)
	go func() {
		// Parse runs here so that a hang can be reported; a panic is sent
		// back to be reported as a failure, not a crash of the fuzzer.
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: fmt.Sprintf("%v\n%s", p, debug.Stack())}
			}
		}()
		before := allocBytes()
		c, err := config.Parse(name, data)
		done <- result{c: c, err: err, alloc: allocBytes() - before}
	}()
	select {
	case r := <-done:
		if r.panic != "" {
			t.Fatalf("Parse(%q) panicked: %s", truncate(data), r.panic)
		}
		// The counter is process-wide, so this is an upper bound.
		if r.alloc > fuzzMaxAlloc {
			t.Fatalf("Parse of %d bytes allocated %d MB (err %v): %q", len(data), r.alloc>>20, r.err, truncate(data))
		}
		return r.c, r.err
	case <-time.After(fuzzParseTimeout):
		t.Fatalf("Parse has not returned after %v: %q", fuzzParseTimeout, truncate(data))
		return nil, nil
	}
}

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

func allocBytes() uint64 {
	metrics.Read(allocSample)
	return allocSample[0].Value.Uint64()
}

func truncate(b []byte) []byte {
	if len(b) > 2000 {
		return append(b[:2000:2000], "..."...)
	}
	return b
}

// checkError checks that err is a clear configuration error.
func checkError(t *testing.T, name string, data []byte, err error) {
	t.Helper()
	msg := err.Error()
	var ce *config.Error
	switch {
	case !errors.As(err, &ce):
		t.Fatalf("Parse(%q): error %T %q is not a *config.Error", data, err, msg)
	case !errors.Is(err, config.ErrInvalid):
		t.Fatalf("Parse(%q): error %q does not match ErrInvalid", data, msg)
	case ce.File != name:
		t.Fatalf("Parse(%q): error %q names file %q, want %q", data, msg, ce.File, name)
	case strings.TrimSpace(ce.Msg) == "":
		t.Fatalf("Parse(%q): error %q has an empty message", data, msg)
	case !strings.HasPrefix(msg, "config "+name+": "):
		t.Fatalf("Parse(%q): error %q does not start with %q", data, msg, "config "+name+": ")
	}
}

// useConfig calls the accessors the CLI uses on a loaded config.
func useConfig(t *testing.T, c *config.Config) {
	t.Helper()
	tools := c.EngineTools()
	if len(tools) != len(c.Tools) {
		t.Fatalf("EngineTools gave %d tools for %d", len(tools), len(c.Tools))
	}
	for i, tool := range tools {
		if tool.Name != c.Tools[i].Name || tool.Handler == nil {
			t.Fatalf("EngineTools()[%d] = %+v for %+v", i, tool, c.Tools[i])
		}
		res, err := tool.Handler(context.Background(), json.RawMessage(`{"a":1}`))
		if err != nil {
			t.Fatalf("tool %q: %v", tool.Name, err)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("tool %q: result does not marshal: %v", tool.Name, err)
		}
	}
	if l := c.SandboxLimits(); l.Timeout < 0 || l.MaxOutputBytes < 0 || l.VFSBytes < 0 || l.VFSFiles < 0 {
		t.Fatalf("negative limits %+v", l)
	}
	if len(c.PolicyPaths()) != len(c.Policies) {
		t.Fatalf("PolicyPaths %q for %q", c.PolicyPaths(), c.Policies)
	}
	shorthand := c.Constraints != nil || c.MaxCalls != nil
	switch caps := c.ParsedCapabilities(); {
	case shorthand && c.Capabilities != nil:
		t.Fatalf("the shorthand was accepted with capabilities")
	case shorthand && len(caps) != len(c.Tools):
		t.Fatalf("%d capabilities from the shorthand for %d tools", len(caps), len(c.Tools))
	case !shorthand && len(caps) != len(c.Capabilities):
		t.Fatalf("%d parsed capabilities for %d", len(caps), len(c.Capabilities))
	}
	if c.HasPolicy() != (c.Capabilities != nil || shorthand || len(c.Policies) > 0) {
		t.Fatalf("HasPolicy %v with capabilities %v, constraints %v, max_calls %v and policies %q", c.HasPolicy(), c.Capabilities, c.Constraints, c.MaxCalls, c.Policies)
	}
}

// checkReload parses out, the config c marshaled as format, and checks that
// it loads to c.
func checkReload(t *testing.T, name string, data []byte, format string, out []byte, c *config.Config) {
	t.Helper()
	c2, err := config.Parse(name, out)
	if err != nil {
		t.Fatalf("Parse(%q) gave a config whose %s %q does not load: %v", data, format, out, err)
	}
	if !sameConfig(c, c2) {
		t.Fatalf("Parse(%q) = %#v\nmarshaled as %s: %q\nloads to %#v", data, c, format, out, c2)
	}
}

// sameConfig compares two configs, including the parsed capabilities. An
// empty list of policies is the same as none (omitempty drops it); an
// empty list of capabilities is not (it allows nothing, and omitzero keeps
// it).
func sameConfig(a, b *config.Config) bool {
	na, nb := *a, *b
	for _, c := range []*config.Config{&na, &nb} {
		if c.Policies != nil && len(c.Policies) == 0 {
			c.Policies = nil
		}
	}
	return reflect.DeepEqual(&na, &nb)
}
