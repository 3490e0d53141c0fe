// Package config loads the cordon sandbox configuration file (YAML or JSON)
// that the CLI uses and that Go programs may use too: the tools a sandbox
// offers (mock or echo tools, for trying scripts and policies without
// writing Go) and its limits.
//
// Loading is strict: an unknown key, a key given twice in one mapping (at
// any depth), a value of the wrong type, or a tool without a result is an
// error that names the file and the key. Nothing in a configuration is ever
// silently ignored or replaced.
package config

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/mcptools"
	"github.com/cordonhq/cordon/policy"
)

// ErrInvalid is matched ([errors.Is]) by every configuration error.
var ErrInvalid = errors.New("invalid configuration")

// Error is a configuration error: where and what.
type Error struct {
	File string // the file name, or "" for an in-memory config
	Key  string // the key path (e.g. "tools[1].mock"), or ""
	Msg  string
}

// Error formats the error as "config FILE: KEY: MSG", leaving out the
// file and the key when they are empty.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("config")
	if e.File != "" {
		b.WriteString(" " + e.File)
	}
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// Config is a sandbox configuration.
type Config struct {
	// Tools are the tools of the sandbox.
	Tools []MockTool `json:"tools"`
	// Capabilities are the DSL capabilities (see package dsl), kept as raw
	// JSON and parsed by [dsl.ParseCapabilities] when the config is loaded.
	Capabilities []json.RawMessage `json:"capabilities,omitzero"`
	// Constraints is the constraint shorthand of amla-sandbox's
	// create_bash_tool ([dsl.Shorthand]): a tool name to its params'
	// constraints, a parameter path to a value form such as "<=1000" or
	// ["USD", "EUR"] ([dsl.ShorthandConstraint]), kept as raw JSON. With
	// MaxCalls it makes one capability per tool when the config is
	// loaded; it cannot be combined with Capabilities.
	Constraints map[string]map[string]json.RawMessage `json:"constraints,omitzero"`
	// MaxCalls is the call limits of the shorthand: a tool name to the
	// calls it allows per sandbox session. A tool without an entry allows
	// [dsl.DefaultMaxCalls].
	MaxCalls map[string]int `json:"max_calls,omitzero"`
	// Policies are Rego files, directories, data files or OPA bundles,
	// relative to the config file.
	Policies []string `json:"policies,omitempty"`
	// AllowBuiltins names Rego built-ins the policies may call although
	// they are off by default because they reach the network or are not
	// deterministic ([policy.DisabledBuiltins] lists them).
	AllowBuiltins []string `json:"allow_builtins,omitempty"`
	// Limits bound each execution.
	Limits Limits `json:"limits"`
	// Counters says which calls share the call counters that max_calls
	// and input.calls read: scope execution, session (the default) or
	// principal, and an optional sliding window.
	Counters Counters `json:"counters,omitzero"`
	// MCPServers are upstream MCP servers whose tools become tools of the
	// sandbox, each as NAME/<tool> (`cordon mcp`; package mcptools).
	MCPServers []MCPServer `json:"mcp_servers,omitempty"`
	// ToolLabels gives flow labels to tools by method pattern (the
	// capabilities' glob: "crm/**", "*/read_*"), whatever made the tool:
	// this file, an upstream MCP server, egress, the embedding host
	// ([engine.Tool.Labels]; docs/flow.md). A tool gets the labels of
	// every pattern it matches, added to its own.
	ToolLabels map[string][]string `json:"tool_labels,omitempty"`
	// OPA is an OPA configuration document (services, bundles, keys,
	// decision_logs, status, persistence_directory, ...), kept verbatim as
	// JSON. With it the policy's Rego comes from OPA's bundle service, its
	// decisions go to OPA's decision logs, and the host reports its status
	// (package fleet, docs/fleet.md); the capabilities are compiled with
	// every bundle. It cannot be combined with policies.
	OPA json.RawMessage `json:"opa,omitzero"`
	// HTTP enables network egress for scripts (fetch, curl and wget)
	// through the tool of package egress; without it scripts reach no
	// network (docs/egress.md).
	HTTP *HTTP `json:"http,omitempty"`

	file string
	caps []*dsl.Capability
	// allowed are the hosts AllowHost allowed, each with its capability.
	allowed map[string]*allowedHost
}

// MCPServer is an upstream MCP server, as the config's mcp_servers list
// gives it (see [mcptools.Upstream] for its fields).
type MCPServer = mcptools.Upstream

// Dir returns the directory of the config file, against which relative
// paths in it are resolved ("." for a config without a file).
func (c *Config) Dir() string {
	if c.file == "" || strings.HasPrefix(c.file, "(") {
		return "."
	}
	return filepath.Dir(c.file)
}

// MockTool is a tool defined in a config file. Its result is either a canned
// Mock value or, with Echo, the object {"method": ..., "params": ...}.
type MockTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	// OutputSchema is the JSON Schema of the tool's result, shown to
	// scripts ([engine.Tool.OutputSchema]).
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	Mock         json.RawMessage `json:"mock,omitempty"`
	Echo         bool            `json:"echo,omitempty"`
	// Labels are the tool's flow labels ([engine.Tool.Labels]).
	Labels []string `json:"labels,omitempty"`
}

// Counters is the counters section: the scope of the call counters
// ([counters.Scope]: "execution", "session" or "principal"), when Window
// is set the sliding time window they count over, and the store that
// keeps them.
type Counters struct {
	Scope  string   `json:"scope,omitempty"`
	Window Duration `json:"window,omitempty"`
	// Store names the counter store: "memory" (the default, when empty),
	// the host's own, or "redis", a Redis or Valkey server at URL that
	// many hosts share (package counters/redisstore), so that a limit
	// holds across them.
	Store string `json:"store,omitempty"`
	// URL is the Redis server of store redis: redis://[user:password@]
	// host[:port][/db], rediss:// for TLS, or unix:///path. The CLI
	// connects to it; this package only checks its form, and links no
	// Redis client.
	URL string `json:"url,omitempty"`
}

// The counter stores a config names (Counters.Store).
const (
	StoreMemory = "memory"
	StoreRedis  = "redis"
)

// SandboxCounters returns the counters section as the engine's counter
// configuration, with the engine's store (nil Store): a host that uses
// store redis sets Store itself (the CLI opens it). ScopeSet reports
// whether the config named a scope, for hosts whose default differs (an
// MCP server over HTTP counts per principal unless told otherwise).
func (c *Config) SandboxCounters() (cfg engine.Counters, scopeSet bool) {
	scope, _ := counters.ParseScope(c.Counters.Scope) // validated on load
	return engine.Counters{Scope: scope, Window: time.Duration(c.Counters.Window)}, c.Counters.Scope != ""
}

// Limits is the limits section.
type Limits struct {
	Timeout        Duration `json:"timeout,omitempty"`
	MemoryMB       int      `json:"memory_mb,omitempty"`
	MaxOutputBytes int      `json:"max_output_bytes,omitempty"`
	VFSBytes       int64    `json:"vfs_bytes,omitempty"`
	VFSFiles       int      `json:"vfs_files,omitempty"`
	MaxCallDepth   int      `json:"max_call_depth,omitempty"`
	MaxToolCalls   int      `json:"max_tool_calls,omitempty"`
	MaxParamBytes  int      `json:"max_param_bytes,omitempty"`
	MaxResultBytes int      `json:"max_result_bytes,omitempty"`
	// MaxConcurrentCalls bounds the tool handlers of one execution that
	// run at once ([engine.Limits.MaxConcurrentCalls]).
	MaxConcurrentCalls int `json:"max_concurrent_calls,omitempty"`
	// MaxRecordedBytes bounds the params and results an execution's
	// records keep, in total ([engine.Limits.MaxRecordedBytes]).
	MaxRecordedBytes int `json:"max_recorded_bytes,omitempty"`
}

// Duration is a [time.Duration] written as a Go duration string ("5s",
// "1m30s") or a number of seconds (5, "5"; see ParseDuration).
type Duration time.Duration

// UnmarshalJSON implements [json.Unmarshaler].
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := ParseDuration(s)
		if err != nil {
			return &durationError{err.Error()}
		}
		*d = Duration(v)
		return nil
	}
	var secs float64
	if err := json.Unmarshal(b, &secs); err != nil {
		return &durationError{fmt.Sprintf("%s is not a duration: use a unit, such as 5s, 500ms or 1m (a bare number is seconds)", b)}
	}
	// Beyond about 292 years the conversion to nanoseconds would overflow.
	if secs > maxDurationSeconds || secs < -maxDurationSeconds {
		return &durationError{fmt.Sprintf("%s seconds is too long a duration", b)}
	}
	*d = Duration(secs * float64(time.Second))
	return nil
}

// maxDurationSeconds is the longest duration, in seconds, a number may give
// ([time.Duration] holds about 292 years).
const maxDurationSeconds = 9e9

// MarshalJSON implements [json.Marshaler].
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

//go:embed default.yaml
var defaultYAML []byte

// Default returns the built-in configuration the CLI uses when no --config
// is given: a few mock tools to try scripts with.
func Default() *Config {
	c, err := Parse("(built-in default)", defaultYAML)
	if err != nil {
		panic("config: built-in default is invalid: " + err.Error())
	}
	return c
}

// DefaultYAML returns the text of the built-in configuration.
func DefaultYAML() []byte { return append([]byte(nil), defaultYAML...) }

// Load reads and parses a config file.
func Load(file string) (*Config, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, &Error{File: file, Msg: fmt.Sprintf("cannot read: %v", errors.Unwrap(err))}
	}
	return Parse(file, b)
}

// MaxSize bounds a config file.
const MaxSize = 16 << 20

// Parse parses a config in YAML or JSON (JSON is YAML). file names it in
// errors.
func Parse(file string, data []byte) (*Config, error) {
	if len(data) > MaxSize {
		return nil, &Error{File: file, Msg: fmt.Sprintf("larger than %d bytes", MaxSize)}
	}
	if err := singleDocument(data); err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	js, err := parseDocument(file, data)
	if err != nil {
		return nil, err
	}
	var tree any
	if err := json.Unmarshal(js, &tree); err == nil {
		if err := checkKeys(tree, reflect.TypeOf(Config{}), ""); err != nil {
			return nil, &Error{File: file, Msg: err.Error()}
		}
	}
	c := &Config{file: file}
	if bytes.Equal(bytes.TrimSpace(js), []byte("null")) {
		return c, nil // an empty file
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		var de *durationError
		if errors.As(err, &de) && badHTTPTimeout(js) {
			return nil, &Error{File: file, Key: "http.timeout", Msg: de.msg}
		}
		return nil, decodeError(file, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &Error{File: file, Msg: "trailing data after the configuration"}
	}
	dropEmpty(reflect.ValueOf(c))
	if err := c.validate(); err != nil {
		return nil, err
	}
	return c, nil
}

func decodeError(file string, err error) error {
	var de *durationError
	if errors.As(err, &de) {
		return &Error{File: file, Key: "limits.timeout", Msg: de.msg}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		key := te.Field
		if key == "" {
			key = "(top level)"
		}
		if n, isNum := strings.CutPrefix(te.Value, "number "); isNum && strings.Contains(te.Type.Kind().String(), "int") {
			return &Error{File: file, Key: key, Msg: fmt.Sprintf("%s is not a whole number in range", n)}
		}
		return &Error{File: file, Key: key, Msg: fmt.Sprintf("expected %s, got %s", typeName(te.Type.Kind().String()), te.Value)}
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return &Error{File: file, Msg: "unknown key " + rest}
	}
	if rest, ok := strings.CutPrefix(msg, "json: cannot unmarshal "); ok {
		return &Error{File: file, Msg: "wrong type: " + rest}
	}
	return &Error{File: file, Msg: strings.TrimPrefix(msg, "json: ")}
}

func typeName(kind string) string {
	switch kind {
	case "slice":
		return "a list"
	case "struct", "map":
		return "a mapping"
	case "int", "int64", "float64":
		return "a number"
	}
	return "a " + kind
}

// validateCounterStore checks counters.store and counters.url: the store
// is memory or redis, and redis needs a URL of a form go-redis reads
// (redis.ParseURL, which the CLI runs when it connects).
func (c *Config) validateCounterStore() error {
	cs := c.Counters
	switch cs.Store {
	case "", StoreMemory:
		if cs.URL != "" {
			return &Error{File: c.file, Key: "counters.url", Msg: "is only for store: redis (the memory store needs none)"}
		}
		return nil
	case StoreRedis:
	default:
		return &Error{File: c.file, Key: "counters.store", Msg: fmt.Sprintf("%q is not a counter store: want memory or redis", cs.Store)}
	}
	if cs.URL == "" {
		return &Error{File: c.file, Key: "counters.url", Msg: "missing: store redis needs the server's URL, e.g. redis://127.0.0.1:6379/0"}
	}
	u, err := url.Parse(cs.URL)
	if err != nil {
		return &Error{File: c.file, Key: "counters.url", Msg: fmt.Sprintf("not a URL: %v", err)}
	}
	switch u.Scheme {
	case "redis", "rediss":
		if u.Opaque != "" {
			return &Error{File: c.file, Key: "counters.url", Msg: fmt.Sprintf("%q: want redis://host[:port][/db]", u.Redacted())}
		}
		if db := strings.Trim(u.Path, "/"); db != "" {
			if _, err := strconv.Atoi(db); err != nil {
				return &Error{File: c.file, Key: "counters.url", Msg: fmt.Sprintf("%q: the path is the database number, not %q", u.Redacted(), db)}
			}
		}
	case "unix":
		if u.Path == "" {
			return &Error{File: c.file, Key: "counters.url", Msg: fmt.Sprintf("%q has no socket path: want unix:///path/to/redis.sock", u.Redacted())}
		}
	default:
		return &Error{File: c.file, Key: "counters.url", Msg: fmt.Sprintf("%q: the scheme must be redis, rediss or unix", u.Redacted())}
	}
	return nil
}

func (c *Config) validate() error {
	seen := map[string]bool{}
	for i, t := range c.Tools {
		key := fmt.Sprintf("tools[%d]", i)
		if t.Name == "" {
			return &Error{File: c.file, Key: key + ".name", Msg: "missing"}
		}
		key = fmt.Sprintf("tools[%d] (%s)", i, t.Name)
		if seen[t.Name] {
			return &Error{File: c.file, Key: key, Msg: "defined twice"}
		}
		seen[t.Name] = true
		if t.Mock != nil && t.Echo {
			return &Error{File: c.file, Key: key, Msg: "has both mock and echo; choose one"}
		}
		for j, l := range t.Labels {
			if err := dsl.CheckLabel(l); err != nil {
				return &Error{File: c.file, Key: fmt.Sprintf("%s.labels[%d]", key, j), Msg: strings.TrimPrefix(err.Error(), "dsl: ")}
			}
		}
		if t.Mock == nil && !t.Echo {
			return &Error{File: c.file, Key: key, Msg: "needs a result: mock: VALUE, or echo: true (real tools are Go handlers; embed cordon to register them)"}
		}
		if t.InputSchema != nil {
			var m map[string]any
			if json.Unmarshal(t.InputSchema, &m) != nil {
				return &Error{File: c.file, Key: key + ".input_schema", Msg: "must be a mapping (a JSON Schema object)"}
			}
		}
		if t.OutputSchema != nil {
			var m map[string]any
			if json.Unmarshal(t.OutputSchema, &m) != nil || m == nil {
				return &Error{File: c.file, Key: key + ".output_schema", Msg: "must be a mapping (a JSON Schema object)"}
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(c.ToolLabels)) {
		key := fmt.Sprintf("tool_labels[%s]", dsl.Quote(p))
		if _, err := dsl.MatchMethod(p, "x"); err != nil {
			return &Error{File: c.file, Key: key, Msg: strings.TrimPrefix(err.Error(), "dsl: ")}
		}
		if len(c.ToolLabels[p]) == 0 {
			return &Error{File: c.file, Key: key, Msg: "needs a list of labels"}
		}
		for j, l := range c.ToolLabels[p] {
			if err := dsl.CheckLabel(l); err != nil {
				return &Error{File: c.file, Key: fmt.Sprintf("%s[%d]", key, j), Msg: strings.TrimPrefix(err.Error(), "dsl: ")}
			}
		}
	}
	if err := c.validateMCPServers(seen); err != nil {
		return err
	}
	if err := c.validateHTTP(seen); err != nil {
		return err
	}
	if _, err := counters.ParseScope(c.Counters.Scope); err != nil {
		return &Error{File: c.file, Key: "counters.scope", Msg: fmt.Sprintf("%q is not a scope: want execution, session or principal", c.Counters.Scope)}
	}
	if c.Counters.Window < 0 {
		return &Error{File: c.file, Key: "counters.window", Msg: "must not be negative"}
	}
	if err := c.validateCounterStore(); err != nil {
		return err
	}
	l := c.Limits
	switch {
	case l.Timeout < 0:
		return &Error{File: c.file, Key: "limits.timeout", Msg: "must not be negative"}
	case l.MemoryMB < 0 || l.MemoryMB > 0 && l.MemoryMB < engine.MinMemoryMB || l.MemoryMB > engine.MaxMemoryMB:
		return &Error{File: c.file, Key: "limits.memory_mb", Msg: fmt.Sprintf("must be between %d and %d", engine.MinMemoryMB, engine.MaxMemoryMB)}
	case l.MemoryMB > 0 && l.VFSBytes > engine.MaxVFSBytes(l.MemoryMB):
		return &Error{File: c.file, Key: "limits.vfs_bytes", Msg: fmt.Sprintf("%d is more than a third of limits.memory_mb (%d MiB): at most %d, or leave it out to take what fits", l.VFSBytes, l.MemoryMB, engine.MaxVFSBytes(l.MemoryMB))}
	case l.MaxOutputBytes < 0:
		return &Error{File: c.file, Key: "limits.max_output_bytes", Msg: "must not be negative"}
	case l.VFSBytes < 0:
		return &Error{File: c.file, Key: "limits.vfs_bytes", Msg: "must not be negative"}
	case l.VFSFiles < 0:
		return &Error{File: c.file, Key: "limits.vfs_files", Msg: "must not be negative"}
	case l.MaxCallDepth < 0 || l.MaxCallDepth > 100000:
		return &Error{File: c.file, Key: "limits.max_call_depth", Msg: "must be between 1 and 100000"}
	case l.MaxToolCalls < 0:
		return &Error{File: c.file, Key: "limits.max_tool_calls", Msg: "must not be negative"}
	case l.MaxParamBytes < 0:
		return &Error{File: c.file, Key: "limits.max_param_bytes", Msg: "must not be negative"}
	case l.MaxResultBytes < 0:
		return &Error{File: c.file, Key: "limits.max_result_bytes", Msg: "must not be negative"}
	case l.MaxConcurrentCalls < 0:
		return &Error{File: c.file, Key: "limits.max_concurrent_calls", Msg: "must not be negative"}
	case l.MaxRecordedBytes < 0:
		return &Error{File: c.file, Key: "limits.max_recorded_bytes", Msg: "must not be negative"}
	}
	disabled := policy.DisabledBuiltins()
	for i, name := range c.AllowBuiltins {
		if !slices.Contains(disabled, name) {
			return &Error{File: c.file, Key: fmt.Sprintf("allow_builtins[%d]", i), Msg: fmt.Sprintf("%q is not a built-in that can be allowed (those are: %s)", name, strings.Join(disabled, ", "))}
		}
	}
	if c.Capabilities != nil {
		raw, _ := json.Marshal(c.Capabilities)
		caps, err := dsl.ParseCapabilities(raw)
		if err != nil {
			return c.dslErrors("capabilities", err)
		}
		c.caps = caps
	}
	if err := c.shorthand(); err != nil {
		return err
	}
	if c.OPA != nil {
		var doc map[string]any
		if err := json.Unmarshal(c.OPA, &doc); err != nil || doc == nil {
			return &Error{File: c.file, Key: "opa", Msg: "is not a mapping: it holds an OPA configuration (services, bundles, decision_logs, status, ...)"}
		}
		if len(c.Policies) > 0 {
			return &Error{File: c.file, Key: "policies", Msg: "cannot be combined with opa: with opa the Rego comes from OPA's bundles (docs/fleet.md)"}
		}
	}
	for i, p := range c.Policies {
		if p == "" {
			return &Error{File: c.file, Key: fmt.Sprintf("policies[%d]", i), Msg: "empty path"}
		}
	}
	return nil
}

// shorthand turns the constraints and max_calls shorthand into the
// config's capabilities: one per tool, in the order of the tools (see
// [dsl.Shorthand.Capabilities]). A config that also has capabilities is
// refused, since the shorthand's capability for every tool would decide
// each call before any capability listed after it, and one listed before
// it would have its constraints and max_calls lifted by it.
func (c *Config) shorthand() error {
	if c.Constraints == nil && c.MaxCalls == nil {
		return nil
	}
	key := "constraints"
	if c.Constraints == nil {
		key = "max_calls"
	}
	if c.Capabilities != nil {
		return &Error{File: c.file, Key: key, Msg: "cannot be combined with capabilities: the shorthand makes a capability for every tool, " +
			"so it would take the calls of a capability listed after it and lift the limits of one listed before it; " +
			"write the shorthand's capabilities out in capabilities: (`cordon policy compile` shows them) or drop capabilities:"}
	}
	sh := dsl.Shorthand{MaxCalls: c.MaxCalls, Constraints: make(map[string]map[string]any, len(c.Constraints))}
	for tool, params := range c.Constraints {
		m := make(map[string]any, len(params))
		for param, raw := range params {
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				return &Error{File: c.file, Key: fmt.Sprintf("constraints[%s][%s]", dsl.Quote(tool), dsl.Quote(param)), Msg: "not a JSON value"}
			}
			m[param] = v
		}
		sh.Constraints[tool] = m
	}
	names := make([]string, len(c.Tools))
	for i, t := range c.Tools {
		names[i] = t.Name
	}
	caps, err := sh.Capabilities(names...)
	if err != nil {
		return c.dslErrors("", err)
	}
	c.caps = caps
	return nil
}

// dslErrors makes err, one error of package dsl or several joined
// ([errors.Join]), into as many config errors at key, joined in the same
// way: each says the file and the key, and prints on a line of its own.
func (c *Config) dslErrors(key string, err error) error {
	var errs []error
	var add func(error)
	add = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				add(e)
			}
			return
		}
		errs = append(errs, &Error{File: c.file, Key: key, Msg: strings.TrimPrefix(err.Error(), "dsl: ")})
	}
	add(err)
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// ParsedCapabilities returns the config's capabilities: its capabilities
// section, parsed, or the capabilities its constraints and max_calls
// shorthand makes, one per tool.
func (c *Config) ParsedCapabilities() []*dsl.Capability { return c.caps }

// HasPolicy reports whether the config declares capabilities (even an empty
// list, which allows nothing), the constraints and max_calls shorthand, or
// policies.
func (c *Config) HasPolicy() bool {
	return c.Capabilities != nil || c.Constraints != nil || c.MaxCalls != nil || len(c.Policies) > 0
}

// PolicyPaths returns the config's policies, resolved against the config
// file's directory.
func (c *Config) PolicyPaths() []string {
	out := make([]string, len(c.Policies))
	for i, p := range c.Policies {
		if !filepath.IsAbs(p) && c.file != "" && !strings.HasPrefix(c.file, "(") {
			p = filepath.Join(filepath.Dir(c.file), p)
		}
		out[i] = p
	}
	return out
}

// Policy builds the policy the config describes, plus the extra policy
// paths given (the CLI's --policy). It returns nil when neither declares a
// policy: then each registered tool may be called [engine.DefaultMaxCalls]
// times.
func (c *Config) Policy(ctx context.Context, extraPaths []string) (*policy.Policy, error) {
	if !c.HasPolicy() && len(extraPaths) == 0 {
		return nil, nil
	}
	return policy.New(ctx, policy.Config{
		Capabilities:  c.caps,
		Paths:         append(c.PolicyPaths(), extraPaths...),
		AllowBuiltins: c.AllowBuiltins,
	})
}

// CapabilityList returns the config's capabilities, parsed (those of
// capabilities:, or the shorthand's), for a policy built outside
// [Config.Policy] (package fleet, with opa:).
func (c *Config) CapabilityList() []*dsl.Capability { return c.caps }

// File returns the name the config was loaded from.
func (c *Config) File() string { return c.file }

// EngineTools returns the config's tools with their mock or echo handlers
// (the http section's tool is [Config.FetchTool]).
func (c *Config) EngineTools() []engine.Tool {
	out := make([]engine.Tool, 0, len(c.Tools))
	for _, t := range c.Tools {
		t := t
		et := engine.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Labels: t.Labels}
		if t.Echo {
			et.Handler = func(_ context.Context, params json.RawMessage) (any, error) {
				return map[string]any{"method": t.Name, "params": params}, nil
			}
		} else {
			mock := t.Mock
			et.Handler = func(context.Context, json.RawMessage) (any, error) {
				return mock, nil
			}
		}
		out = append(out, et)
	}
	return out
}

// LabelTools returns tools with the labels of ToolLabels added: each tool
// gets those of every pattern its name matches, after its own, without
// repeats. The tools given are not modified.
func (c *Config) LabelTools(tools []engine.Tool) []engine.Tool {
	if len(c.ToolLabels) == 0 {
		return tools
	}
	patterns := slices.Sorted(maps.Keys(c.ToolLabels))
	out := make([]engine.Tool, len(tools))
	for i, t := range tools {
		t.Labels = slices.Clone(t.Labels)
		for _, p := range patterns {
			if ok, err := dsl.MatchMethod(p, t.Name); err != nil || !ok {
				continue
			}
			for _, l := range c.ToolLabels[p] {
				if !slices.Contains(t.Labels, l) {
					t.Labels = append(t.Labels, l)
				}
			}
		}
		out[i] = t
	}
	return out
}

// SandboxLimits returns the limits section as engine limits.
func (c *Config) SandboxLimits() engine.Limits {
	return engine.Limits{
		Timeout:            time.Duration(c.Limits.Timeout),
		MaxOutputBytes:     c.Limits.MaxOutputBytes,
		VFSBytes:           c.Limits.VFSBytes,
		VFSFiles:           c.Limits.VFSFiles,
		MaxCallDepth:       c.Limits.MaxCallDepth,
		MaxToolCalls:       c.Limits.MaxToolCalls,
		MaxParamBytes:      c.Limits.MaxParamBytes,
		MaxResultBytes:     c.Limits.MaxResultBytes,
		MaxConcurrentCalls: c.Limits.MaxConcurrentCalls,
		MaxRecordedBytes:   c.Limits.MaxRecordedBytes,
	}
}

// docMarker matches a YAML document marker at the start of a line.
var docMarker = regexp.MustCompile(`(?m)^(---|\.\.\.)([ \t].*)?$`)

// singleDocument refuses a file with several YAML documents (or several
// JSON values), whose later ones the YAML library would silently drop. A
// marker can only stand at the start of a line: inside a block scalar it
// would be indented.
func singleDocument(data []byte) error {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(t))
		var v any
		if dec.Decode(&v) == nil {
			if _, err := dec.Token(); !errors.Is(err, io.EOF) {
				return errors.New("more than one JSON value; a config is one object")
			}
		}
		return nil
	}
	content := false
	pos := 0
	for _, m := range docMarker.FindAllIndex(data, -1) {
		if hasContent(data[pos:m[0]]) {
			content = true
		}
		if content && hasContent(data[m[1]:]) {
			p := positionAt(data, m[0])
			return fmt.Errorf("%s: more than one YAML document (%q starts another); a config is one document", at(p.line, p.column), data[m[0]:m[0]+3])
		}
		pos = m[1]
	}
	return nil
}

// hasContent reports whether b holds a line that is neither blank nor a
// comment.
func hasContent(b []byte) bool {
	for _, line := range bytes.Split(b, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			return true
		}
	}
	return false
}

// checkKeys reports a key of the parsed document that matches no field of
// t exactly. encoding/json matches keys regardless of case, so without this
// "Tools:" would load as "tools:", and of two keys differing only in case
// one would silently win.
func checkKeys(v any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeOf(json.RawMessage{}) {
		return nil // parsed and checked by its own reader
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return nil // a type error, reported by the decoder
		}
		fields := map[string]reflect.Type{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.IsExported() && name != "" && name != "-" {
				fields[name] = f.Type
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			sub := m[k]
			ft, ok := fields[k]
			if !ok {
				key := k
				if path != "" {
					key = path + "." + k
				}
				return fmt.Errorf("unknown key %q", key)
			}
			p := k
			if path != "" {
				p = path + "." + k
			}
			if err := checkKeys(sub, ft, p); err != nil {
				return err
			}
		}
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return nil
		}
		for i, e := range list {
			if err := checkKeys(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := checkKeys(m[k], t.Elem(), path+"."+k); err != nil {
				return err
			}
		}
	}
	return nil
}

// validateMCPServers checks mcp_servers; tools holds the config's tool
// names.
func (c *Config) validateMCPServers(tools map[string]bool) error {
	names := map[string]bool{}
	for i, s := range c.MCPServers {
		key := fmt.Sprintf("mcp_servers[%d]", i)
		if s.Name == "" {
			return &Error{File: c.file, Key: key + ".name", Msg: "missing"}
		}
		key = fmt.Sprintf("mcp_servers[%d] (%s)", i, s.Name)
		for _, r := range s.Name {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == ':') {
				return &Error{File: c.file, Key: key + ".name", Msg: fmt.Sprintf("%q: use letters, digits, _, - and : only (it names the tools NAME/<tool>)", s.Name)}
			}
		}
		if names[s.Name] {
			return &Error{File: c.file, Key: key, Msg: "defined twice"}
		}
		names[s.Name] = true
		for j, l := range s.Labels {
			if err := dsl.CheckLabel(l); err != nil {
				return &Error{File: c.file, Key: fmt.Sprintf("%s.labels[%d]", key, j), Msg: strings.TrimPrefix(err.Error(), "dsl: ")}
			}
		}
		for t := range tools {
			if first, _, _ := strings.Cut(strings.ReplaceAll(t, ".", "/"), "/"); first == s.Name {
				return &Error{File: c.file, Key: key, Msg: fmt.Sprintf("its tools would share the namespace %s/ with the tool %s", s.Name, t)}
			}
		}
		switch {
		case len(s.Command) > 0 && s.URL != "":
			return &Error{File: c.file, Key: key, Msg: "has both command and url; choose one"}
		case len(s.Command) == 0 && s.URL == "":
			return &Error{File: c.file, Key: key, Msg: "needs command: [ARGV...] (stdio) or url: http://... (streamable HTTP)"}
		case s.URL != "":
			u, err := url.Parse(s.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return &Error{File: c.file, Key: key + ".url", Msg: fmt.Sprintf("%q is not an http or https URL", s.URL)}
			}
			if s.Env != nil || s.Cwd != "" || s.InheritEnv != nil {
				return &Error{File: c.file, Key: key, Msg: "env, inherit_env and cwd are for a command; a url server takes headers"}
			}
			if err := mcptools.CheckURL(s); err != nil {
				return &Error{File: c.file, Key: key + ".url", Msg: "plain http to a host that is not loopback, with headers or URL credentials: they would travel in clear text; use https (or a loopback address)"}
			}
		default:
			if s.Command[0] == "" {
				return &Error{File: c.file, Key: key + ".command[0]", Msg: "empty program name"}
			}
			if s.Headers != nil {
				return &Error{File: c.file, Key: key, Msg: "headers are for a url server; a command takes env and cwd"}
			}
			for j, name := range s.InheritEnv {
				if name == "" || strings.ContainsAny(name, "=\x00") {
					return &Error{File: c.file, Key: fmt.Sprintf("%s.inherit_env[%d]", key, j), Msg: fmt.Sprintf("%q is not a variable name", name)}
				}
			}
			for name := range s.Env {
				if name == "" || strings.ContainsAny(name, "=\x00") {
					return &Error{File: c.file, Key: key + ".env", Msg: fmt.Sprintf("%q is not a variable name", name)}
				}
			}
		}
		for tool, h := range s.Annotations {
			if tool == "" {
				return &Error{File: c.file, Key: key + ".annotations", Msg: "a tool name is empty"}
			}
			if h == (mcptools.Hints{}) {
				return &Error{File: c.file, Key: key + ".annotations." + tool, Msg: "pins no hint: give readOnlyHint, destructiveHint, idempotentHint or openWorldHint"}
			}
		}
	}
	return nil
}
