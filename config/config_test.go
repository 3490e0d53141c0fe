package config_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/config"
	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/internal/slack"
	"github.com/redis/go-redis/v9"
)

func TestDefaultConfigIsValid(t *testing.T) {
	c := config.Default()
	if len(c.Tools) == 0 || c.Tools[0].Name != "weather/current" {
		t.Fatalf("default tools %+v", c.Tools)
	}
	tools := c.EngineTools()
	res, err := tools[0].Handler(context.Background(), json.RawMessage(`{"city":"SF"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"temp":72`) {
		t.Errorf("mock result %s", b)
	}
}

func TestParse(t *testing.T) {
	c, err := config.Parse("c.json", []byte(`{"tools": [{"name": "e", "echo": true}], "limits": {"timeout": 2.5, "memory_mb": 64}}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.SandboxLimits().Timeout != 2500*time.Millisecond || c.Limits.MemoryMB != 64 {
		t.Errorf("limits %+v", c.Limits)
	}
	res, _ := c.EngineTools()[0].Handler(context.Background(), json.RawMessage(`{"a":1}`))
	b, _ := json.Marshal(res)
	if string(b) != `{"method":"e","params":{"a":1}}` {
		t.Errorf("echo %s", b)
	}
	if c, err := config.Parse("empty.yaml", nil); err != nil || len(c.Tools) != 0 {
		t.Errorf("empty file: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"toolz: []", `config c.yaml: unknown key "toolz"`},
		{"tools: [{name: a, echo: true, mokc: 1}]", `unknown key "tools[0].mokc"`},
		{"tools: [{name: a}]", "tools[0] (a): needs a result"},
		{"tools: [{echo: true}]", "tools[0].name: missing"},
		{"tools: [{name: a, echo: true, mock: 1}]", "has both mock and echo"},
		{"tools: [{name: a, echo: true}, {name: a, echo: true}]", "defined twice"},
		{"tools: {name: a}", "tools: expected a list"},
		{"limits: {timeout: soon}", `"soon" is not a duration`},
		{"limits: {memory_mb: 99999}", "limits.memory_mb"},
		{"tools: [{name: a, echo: true, input_schema: 5}]", "input_schema: must be a mapping"},
		{"capabilities: [{method: x, max_calls: -1}]", "capabilities"},
		{"capabilities: [{method: x, constraints: [\"amount <== 5\"]}]", "amount <== 5"},
		{"capabilities: [{methd: x}]", "methd"},
		{"tools: [", "not valid YAML"},
		{"tools: [{name: a, echo: true, labels: [\"pri vate\"]}]", "tools[0] (a).labels[0]"},
		{"tool_labels: {\"crm/**\": []}", "needs a list of labels"},
		{"tool_labels: {\"crm/[\": [private]}", "tool_labels"},
		{"mcp_servers: [{name: s, command: [x], labels: [\"\"]}]", "mcp_servers[0] (s).labels[0]"},
		{"capabilities: [{method: x, unless_touched: [\"a b\"]}]", "unless_touched"},
	} {
		_, err := config.Parse("c.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, config.ErrInvalid) {
			t.Errorf("%s: err %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

// Findings of FuzzLoad: nothing may be silently dropped or misread.
func TestParseStrictness(t *testing.T) {
	bad := map[string]string{
		"TOOLS: [{name: a, echo: true}]":                                    `unknown key "TOOLS"`,
		"tools: [{NAME: a, Echo: true}]":                                    `unknown key "tools[0].Echo"`,
		"tools: [{name: a, echo: true}]\nTools: [{name: b, echo: true}]":    `unknown key "Tools"`,
		"tools: [{name: a, echo: true}]\n---\ntoolz: 5\n":                   "more than one YAML document",
		"---\ntools: []\n...\n---\nlimits: {}\n":                            "more than one YAML document",
		`{"tools": []}` + "\n" + `{"limits": {}}`:                           "more than one JSON value",
		"limits: {timeout: 1e10}":                                           "too long a duration",
		"limits: {vfs_bytes: 18446744073709551616}":                         "not a whole number in range",
		"tools: [{name: pay, echo: true}]\nCapabilities: [{method: pay}]\n": `unknown key "Capabilities"`,
	}
	for src, want := range bad {
		_, err := config.Parse("x.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
	good := []string{
		"---\ntools: [{name: a, echo: true}]\n",
		"# comment\n---\ntools:\n  - name: a\n    echo: true\n    description: |\n      text\n      ---\n      more\n",
		"tools: [{name: a, description: \"x\", echo: true}]\n...\n",
	}
	for _, src := range good {
		if _, err := config.Parse("x.yaml", []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	// An explicit empty capabilities list (allow nothing) survives a round
	// trip through JSON.
	c, err := config.Parse("x.yaml", []byte("tools: [{name: pay, echo: true}]\ncapabilities: []\n"))
	if err != nil || !c.HasPolicy() {
		t.Fatal(err)
	}
	js, _ := json.Marshal(c)
	c2, err := config.Parse("x.json", js)
	if err != nil || !c2.HasPolicy() {
		t.Errorf("round trip lost the empty capabilities: %s %v", js, err)
	}
}

// A key given twice in one mapping, at any depth, is an error that names
// the file, the key and the line and column of both; before, the last one silently won (a
// second capabilities: block replaced the first).
func TestParseDuplicateKeys(t *testing.T) {
	for _, tc := range []struct{ name, file, src, want string }{
		{"yaml top level", "c.yaml",
			"tools: [{name: pay, echo: true}]\ncapabilities:\n  - method: pay\n    max_calls: 1\ncapabilities:\n  - method: \"**\"\n",
			`config c.yaml: capabilities: duplicate key at line 5, column 1 (first at line 2, column 1)`},
		{"yaml nested in a tool", "c.yaml",
			"tools:\n  - name: pay\n    echo: true\n    input_schema:\n      type: object\n      properties:\n        amount: {type: number}\n        amount: {type: string}\n",
			`config c.yaml: tools[0].input_schema.properties.amount: duplicate key at line 8, column 9 (first at line 7, column 9)`},
		{"yaml nested in a mock", "c.yaml",
			"tools: [{name: m, mock: {ok: true, data: [{id: 1, \"id\": 2}]}}]\n",
			`config c.yaml: tools[0].mock.data[0].id: duplicate key at line 1, column 51 (first at line 1, column 44)`},
		{"yaml in a flow mapping", "c.yaml",
			"limits: {timeout: 1s, timeout: 1h}\n",
			`config c.yaml: limits.timeout: duplicate key at line 1, column 23 (first at line 1, column 10)`},
		{"json top level", "c.json",
			"{\"tools\": [{\"name\": \"pay\", \"echo\": true}],\n \"capabilities\": [{\"method\": \"pay\", \"max_calls\": 1}],\n \"capabilities\": [{\"method\": \"**\"}]}",
			`config c.json: capabilities: duplicate key at line 3, column 2 (first at line 2, column 2)`},
		{"json nested", "c.json",
			"{\"tools\": [{\"name\": \"m\",\n  \"mock\": {\"a\": {\"b\": 1,\n  \"\\u0062\": 2}}}]}",
			`config c.json: tools[0].mock.a.b: duplicate key at line 3, column 3 (first at line 2, column 18)`},
		{"a quoted key", "c.yaml",
			"tools: [{name: m, mock: {\"a.b\": 1, a.b: 2}}]\n",
			`config c.yaml: tools[0].mock."a.b": duplicate key`},
	} {
		_, err := config.Parse(tc.file, []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, config.ErrInvalid) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
	// The positions are those of the keys in the file, past comments,
	// blank lines and characters of more than one byte.
	for _, tc := range []struct{ file, src, want string }{
		{"c.yaml", "# héllo\n\ntools: [{name: m, mock: {ü: 1, ü: 2}}]\n",
			"tools[0].mock.\"ü\": duplicate key at line 3, column 32 (first at line 3, column 26)"},
		{"c.json", "{\"é\": {\"x\": 1,\n   \"y\": 2, \"x\": 3}}",
			"\"é\".x: duplicate key at line 2, column 12 (first at line 1, column 8)"},
	} {
		if _, err := config.Parse(tc.file, []byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.src, err, tc.want)
		}
	}
	// Merge keys and aliases are not duplicates: an explicit key overrides a
	// merged one, and an alias's mapping is checked once, at its anchor.
	c, err := config.Parse("c.yaml", []byte("tools:\n  - &b {name: a, description: shared, echo: true}\n  - {<<: *b, name: b}\n  - {name: c, mock: &m {k: 1}}\n  - {name: d, mock: *m}\n"))
	if err != nil || len(c.Tools) != 4 || c.Tools[1].Name != "b" || c.Tools[1].Description != "shared" {
		t.Errorf("merge and aliases: %v %+v", err, c)
	}
	// An anchored mapping with a duplicate is reported once, where it stands.
	if _, err := config.Parse("c.yaml", []byte("tools: [{name: c, mock: &m {k: 1, k: 2}}, {name: d, mock: *m}]\n")); err == nil || !strings.Contains(err.Error(), "tools[0].mock.k: duplicate key") {
		t.Errorf("anchor: %v", err)
	}
}

// The duplicate check takes linear time: yaml/v3's own check compares every
// pair of keys and takes seconds on a mapping of this size.
func TestParseDuplicateCheckIsLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("tools:\n  - name: m\n    mock:\n")
	for i := range 50000 {
		fmt.Fprintf(&b, "      k%d: %d\n", i, i)
	}
	bound := slack.Scale(t, 5*time.Second)
	start := time.Now()
	if _, err := config.Parse("big.yaml", []byte(b.String())); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > bound {
		t.Errorf("a mapping of 50,000 keys took %v to load, past %v", took, bound)
	}
}

func TestAllowBuiltins(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rego := filepath.Join(dir, "p.rego")
	if err := os.WriteFile(rego, []byte("package cordon.authz\ndeny contains \"late\" if time.now_ns() < 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := "tools: [{name: t, echo: true}]\ncapabilities: [{method: \"**\"}]\npolicies: [p.rego]\n"
	c, err := config.Parse(filepath.Join(dir, "c.yaml"), []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Policy(ctx, nil); err == nil || !strings.Contains(err.Error(), "time.now_ns is disabled") {
		t.Fatalf("time.now_ns without allow_builtins: %v", err)
	}
	c, err = config.Parse(filepath.Join(dir, "c.yaml"), []byte(base+"allow_builtins: [time.now_ns]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Policy(ctx, nil); err != nil {
		t.Fatalf("with allow_builtins: %v", err)
	}
	if _, err := config.Parse("c.yaml", []byte(base+"allow_builtins: [sum]\n")); !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "allow_builtins[0]") {
		t.Fatalf("an ordinary built-in: %v", err)
	}
}

// The config is read by one YAML parser, with YAML 1.2's core schema: the
// duplicate check and the conversion walk the same tree, and words that
// YAML 1.1 made booleans stay strings.
func TestParseYAMLCoreSchema(t *testing.T) {
	c, err := config.Parse("c.yaml", []byte("tools: [{name: pay, echo: true}]\nconstraints:\n  pay: {country: [NO, SE, on, yes, y, off], when: 2026-01-01}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(c.Constraints["pay"]["country"]); got != `["NO","SE","on","yes","y","off"]` {
		t.Errorf("country = %s, want the words as strings", got)
	}
	if got := string(c.Constraints["pay"]["when"]); got != `"2026-01-01"` {
		t.Errorf("when = %s, want the timestamp as written", got)
	}
	for _, tc := range []struct{ name, src, want string }{
		// `on` is a key of its own, not "true": it is unknown.
		{"on is a string key", "on: 1\n", `unknown key "on"`},
		{"yes is not a boolean", "tools: [{name: a, echo: yes}]\n", "tools.echo: expected a bool, got string"},
		{"a cycle", "tools: [{name: a, mock: &x [*x]}]\n", "refers to a node that contains it"},
		{"infinity", "tools: [{name: a, mock: .inf}]\n", "line 1, column 25: .inf is not a number JSON can hold"},
		{"out of range", "tools: [{name: a, mock: !!float 1e400}]\n", "1e400"},
		{"a custom tag", "tools: [{name: a, mock: !secret x}]\n", "the tag !secret is not supported"},
		{"a mapping key", "tools: [{name: a, mock: {[1]: 2}}]\n", "a key must be a plain value"},
		{"a merge of a list", "tools: [{name: a, mock: {<<: [1]}}]\n", "a merge key (<<) takes a mapping"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Parse("c.yaml", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, config.ErrInvalid) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
	// An alias bomb: nine levels of ten aliases each would expand to 10^9
	// nodes; the conversion stops at its bound.
	var b strings.Builder
	b.WriteString("a0: &a0 [x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	if _, err := config.Parse("bomb.yaml", []byte(b.String())); err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Errorf("alias bomb: %v", err)
	}
}

// limits.max_recorded_bytes reaches the engine's limits, and a negative
// value is refused with its key.
func TestMaxRecordedBytes(t *testing.T) {
	c, err := config.Parse("c.yaml", []byte("limits: {max_recorded_bytes: 4096}\n"))
	if err != nil || c.SandboxLimits().MaxRecordedBytes != 4096 {
		t.Fatalf("%v %+v", err, c)
	}
	if _, err := config.Parse("c.yaml", []byte("limits: {max_recorded_bytes: -1}\n")); err == nil || !strings.Contains(err.Error(), "limits.max_recorded_bytes: must not be negative") {
		t.Fatalf("err %v", err)
	}
}

// The counters section reaches the engine's counter configuration, and a
// bad scope or window is an error that names the key.
func TestCountersSection(t *testing.T) {
	c, err := config.Parse("c.yaml", []byte("counters: {scope: principal, window: 1h}\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, set := c.SandboxCounters()
	if !set || got.Scope != counters.PerPrincipal || got.Window != time.Hour || got.Store != nil {
		t.Fatalf("SandboxCounters() = %+v, %v", got, set)
	}
	if got, set := config.Default().SandboxCounters(); set || got.Scope != counters.PerSession {
		t.Fatalf("default: %+v, %v", got, set)
	}
	for src, want := range map[string]string{
		"counters: {scope: tenant}\n": "counters.scope",
		"counters: {window: -1s}\n":   "counters.window",
		"counters: {scope: 3}\n":      "counters",
		"counters: {scopes: x}\n":     "scopes",
	} {
		if _, err := config.Parse("c.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error naming %s", src, err, want)
		}
	}
}

// counters.store selects the counter store: memory, or redis with a URL,
// checked when the config loads, in the form go-redis reads it. The
// config leaves the store to the host (SandboxCounters has no Store).
func TestCounterStore(t *testing.T) {
	for _, src := range []string{
		"counters: {store: memory}\n",
		"counters: {store: redis, url: \"redis://127.0.0.1:6379/0\"}\n",
		"counters: {store: redis, url: \"rediss://user:secret@redis.internal:6380/2\", scope: principal, window: 1h}\n",
		"counters: {store: redis, url: \"redis://localhost\"}\n",
		"counters: {store: redis, url: \"unix:///run/redis.sock\"}\n",
	} {
		c, err := config.Parse("c.yaml", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if got, _ := c.SandboxCounters(); got.Store != nil {
			t.Errorf("%q: SandboxCounters has a store", src)
		}
		if c.Counters.URL != "" {
			if _, err := redis.ParseURL(c.Counters.URL); err != nil {
				t.Errorf("%q: the config accepts a URL that go-redis refuses: %v", src, err)
			}
		}
	}
	for src, want := range map[string]string{
		"counters: {store: etcd}\n":                                   "counters.store: \"etcd\" is not a counter store: want memory or redis",
		"counters: {store: redis}\n":                                  "counters.url: missing",
		"counters: {url: \"redis://h\"}\n":                            "counters.url: is only for store: redis",
		"counters: {store: redis, url: \"http://h:6379\"}\n":          "counters.url: \"http://h:6379\": the scheme must be redis",
		"counters: {store: redis, url: \"redis://h/zero\"}\n":         "counters.url: \"redis://h/zero\": the path is the database number",
		"counters: {store: redis, url: \"redis://:pw@h/x\"}\n":        "counters.url: \"redis://:xxxxx@h/x\"",
		"counters: {store: redis, url: \"redis:h\"}\n":                "counters.url",
		"counters: {store: redis, url: \"unix://\"}\n":                "counters.url: \"unix:\" has no socket path",
		"counters: {store: redis, url: \"redis://h:6379/0\", x: 1}\n": "x",
	} {
		_, err := config.Parse("c.yaml", []byte(src))
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %s", src, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("%q: the error shows the password: %v", src, err)
		}
	}
}

// A memory limit alone is enough: the VFS quota derives from it. Only a
// VFS quota set next to it, and past a third of it, is refused, naming
// both keys.
func TestMemoryLimitAloneLoads(t *testing.T) {
	for _, src := range []string{"limits: {memory_mb: 24}\n", "limits: {memory_mb: 64}\n", "limits: {memory_mb: 64, vfs_bytes: 22369621}\n"} {
		if _, err := config.Parse("c.yaml", []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	_, err := config.Parse("c.yaml", []byte("limits: {memory_mb: 64, vfs_bytes: 67108864}\n"))
	if err == nil || !strings.Contains(err.Error(), "limits.vfs_bytes") || !strings.Contains(err.Error(), "limits.memory_mb") {
		t.Errorf("contradicting limits: %v", err)
	}
	if _, err := config.Parse("c.yaml", []byte("limits: {memory_mb: 8}\n")); err == nil || !strings.Contains(err.Error(), "between 24 and 4096") {
		t.Errorf("8 MiB: %v", err)
	}
}

// A malformed file is reported at the line and column where the mistake
// is, not at the start of the construct around it (which put an
// indentation error on line 4 at line 1), and, when the parser says what
// it was reading, where that began.
func TestParseSyntaxErrorPositions(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a key indented too little",
			"tools:\n  - name: a\n    echo: true\n   bad: 1\n",
			"line 4, column 4: did not find expected '-' indicator (while parsing a block collection started at line 2, column 3)"},
		{"a key indented too little, deeper",
			"# tools\ntools:\n  - name: a\n    echo: true\n  - name: b\n   echo: true\n",
			"line 6, column 4: did not find expected '-' indicator (while parsing a block collection started at line 3, column 3)"},
		{"a key indented too much",
			"limits:\n  timeout: 5s\n    memory_mb: 256\n",
			"line 3, column 14: mapping values are not allowed in this context"},
		{"a tab",
			"tools:\n  - name: a\n\techo: true\n",
			"line 3, column 1: found a tab character that violates indentation (while scanning a plain scalar started at line 2, column 11)"},
		{"a tab first",
			"\ttools: []\n",
			"line 1, column 1: found character that cannot start any token"},
		{"an unclosed quote",
			"tools:\n  - name: a\n    description: \"unclosed\n    echo: true\n",
			"line 5, column 1 (the end of the file): found unexpected end of stream (while scanning a quoted scalar started at line 3, column 18)"},
		{"a flow mapping without a comma",
			"tools: []\nlimits: {timeout: 5s memory_mb: 256}\n",
			"line 2, column 31: did not find expected ',' or '}' (while parsing a flow mapping started at line 2, column 9)"},
		{"an unclosed flow mapping",
			"tools:\n  - name: a\n    echo: true\nlimits: {timeout: 5s, memory_mb 256\n",
			"line 5, column 1 (the end of the file): did not find expected ',' or '}' (while parsing a flow mapping started at line 4, column 9)"},
		{"an unclosed flow sequence, no final newline",
			"tools: [{name: a, echo: true}",
			"line 1, column 30 (the end of the file): did not find expected ',' or ']' (while parsing a flow sequence started at line 1, column 8)"},
		{"columns count characters",
			"tools: [{name: a, description: \"ünïcödé\", echo: true}]\nlimits: {timeout: \"ß\" memory_mb: 1}\n",
			"line 2, column 23: did not find expected ',' or '}' (while parsing a flow mapping started at line 2, column 9)"},
		{"an unknown alias",
			"tools:\n  - name: a\n    mock: *nope\n",
			"line 3, column 11: unknown anchor 'nope' referenced"},
		{"a second document",
			"tools: []\n\n---\nlimits: {}\n",
			`line 3, column 1: more than one YAML document ("---" starts another)`},
		{"a duplicate key",
			"tools: []\nlimits:\n  timeout: 5s\n  timeout: 1h\n",
			"limits.timeout: duplicate key at line 4, column 3 (first at line 3, column 3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Parse("c.yaml", []byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), "config c.yaml: ") || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, config.ErrInvalid) {
				t.Errorf("err %v\nwant %q", err, tc.want)
			}
		})
	}
	// Load names the file and gives the same position.
	file := filepath.Join(t.TempDir(), "agent.yaml")
	if err := os.WriteFile(file, []byte("tools:\n  - name: a\n    echo: true\n   bad: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Load(file); err == nil || err.Error() != "config "+file+": not valid YAML or JSON: line 4, column 4: did not find expected '-' indicator (while parsing a block collection started at line 2, column 3)" {
		t.Errorf("Load: %v", err)
	}
}

// Labels come from a tool's own entry and from every tool_labels pattern
// it matches, once each, in that order.
func TestLabelTools(t *testing.T) {
	cfg, err := config.Parse("c.yaml", []byte(`tools:
  - {name: crm/contacts/read, echo: true, labels: [private]}
  - {name: web/search, echo: true}
tool_labels:
  "crm/**": [private, pii]
  "*/search": [untrusted]
capabilities:
  - {method: "http/fetch", unless_touched: [private]}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, tool := range cfg.LabelTools(cfg.EngineTools()) {
		got[tool.Name] = tool.Labels
	}
	want := map[string][]string{"crm/contacts/read": {"private", "pii"}, "web/search": {"untrusted"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("labels = %v, want %v", got, want)
	}
	if l := cfg.CapabilityList()[0].UnlessTouchedLabels(); !reflect.DeepEqual(l, []string{"private"}) {
		t.Fatalf("unless_touched = %v", l)
	}
}
