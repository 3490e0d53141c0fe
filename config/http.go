package config

import (
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/egress"
	"github.com/cordonhq/cordon/engine"
)

// HTTP is the http section: network egress for scripts (fetch, curl and
// wget), through the tool package egress makes. Without the section the
// sandbox has no such tool and scripts reach no network. The policy
// decides each request on its parsed params (docs/egress.md); a config
// without any policy allows every request to a public address.
type HTTP struct {
	// Method is the tool's name ("http/fetch" when empty).
	Method string `json:"method,omitempty"`
	// AllowPrivate lists literal "host:port" destinations, or hosts alone
	// (any port), that may be reached although their address is not
	// public ([egress.Config]).
	AllowPrivate []string `json:"allow_private,omitempty"`
	// Credentials are headers added to the requests to a host or under a
	// URL prefix, after the policy allows them, their values read from
	// the environment.
	Credentials []HTTPCredential `json:"credentials,omitempty"`
	// The limits of [egress.Config]; zero for its defaults.
	MaxRequestBytes  int      `json:"max_request_bytes,omitempty"`
	MaxResponseBytes int      `json:"max_response_bytes,omitempty"`
	Timeout          Duration `json:"timeout,omitempty"`
	MaxConcurrent    int      `json:"max_concurrent,omitempty"`
	MaxRedirects     int      `json:"max_redirects,omitempty"`
	// KeepSetCookie keeps the Set-Cookie response headers.
	KeepSetCookie bool `json:"keep_set_cookie,omitempty"`
}

// HTTPCredential is one credential of the http section: Host or Prefix,
// and a header whose value is ValuePrefix and the environment variable
// Env ([egress.Credential]).
type HTTPCredential struct {
	Host        string `json:"host,omitempty"`
	Prefix      string `json:"prefix,omitempty"`
	Header      string `json:"header"`
	Env         string `json:"env"`
	ValuePrefix string `json:"value_prefix,omitempty"`
}

// EgressConfig returns the http section as the config of package egress,
// and whether the section is there.
func (c *Config) EgressConfig() (egress.Config, bool) {
	h := c.HTTP
	if h == nil {
		return egress.Config{}, false
	}
	ec := egress.Config{
		Method:           h.Method,
		AllowPrivate:     append([]string(nil), h.AllowPrivate...),
		MaxRequestBytes:  h.MaxRequestBytes,
		MaxResponseBytes: h.MaxResponseBytes,
		Timeout:          time.Duration(h.Timeout),
		MaxConcurrent:    h.MaxConcurrent,
		MaxRedirects:     h.MaxRedirects,
		KeepSetCookie:    h.KeepSetCookie,
	}
	for _, k := range h.Credentials {
		ec.Credentials = append(ec.Credentials, egress.Credential{Host: k.Host, Prefix: k.Prefix, Header: k.Header, Env: k.Env, ValuePrefix: k.ValuePrefix})
	}
	return ec, true
}

// badHTTPTimeout says whether the config js has an http.timeout that is not
// a duration (decodeError names limits.timeout otherwise).
func badHTTPTimeout(js []byte) bool {
	var doc struct {
		HTTP struct {
			Timeout json.RawMessage `json:"timeout"`
		} `json:"http"`
	}
	if json.Unmarshal(js, &doc) != nil || doc.HTTP.Timeout == nil {
		return false
	}
	var d Duration
	return d.UnmarshalJSON(doc.HTTP.Timeout) != nil
}

// validateHTTP checks the http section by making its tool.
func (c *Config) validateHTTP(tools map[string]bool) error {
	ec, ok := c.EgressConfig()
	if !ok {
		return nil
	}
	h := c.HTTP
	switch {
	case h.MaxRequestBytes < 0:
		return &Error{File: c.file, Key: "http.max_request_bytes", Msg: "must not be negative"}
	case h.MaxResponseBytes < 0:
		return &Error{File: c.file, Key: "http.max_response_bytes", Msg: "must not be negative"}
	case h.Timeout < 0:
		return &Error{File: c.file, Key: "http.timeout", Msg: "must not be negative"}
	case h.MaxConcurrent < 0:
		return &Error{File: c.file, Key: "http.max_concurrent", Msg: "must not be negative"}
	case h.MaxRedirects < 0:
		return &Error{File: c.file, Key: "http.max_redirects", Msg: "must not be negative"}
	}
	for i, k := range h.Credentials {
		if k.Env == "" {
			return &Error{File: c.file, Key: fmt.Sprintf("http.credentials[%d].env", i), Msg: "missing: the environment variable that holds the value"}
		}
	}
	t, err := egress.New(ec)
	if err != nil {
		return &Error{File: c.file, Key: "http", Msg: strings.TrimPrefix(err.Error(), "egress: invalid config: ")}
	}
	if tools[t.Name] {
		return &Error{File: c.file, Key: "http.method", Msg: fmt.Sprintf("%q is also the name of a tool of the config", t.Name)}
	}
	return nil
}

// FetchTool returns a new tool of the http section (package egress), and
// false when the config has none. Each tool has its own connections and
// its own bound on concurrent requests: call it once for the sandboxes
// that share them.
func (c *Config) FetchTool() (engine.Tool, bool) {
	ec, ok := c.EgressConfig()
	if !ok {
		return engine.Tool{}, false
	}
	t, err := egress.New(ec)
	if err != nil {
		// The config was validated; a tool that cannot be made is no
		// network at all.
		return engine.Tool{}, false
	}
	return t, true
}

// AllowHost enables the http section (with its defaults when the config
// has none) and adds a capability that allows requests to host, on port
// when one is given ("api.github.com", "127.0.0.1:8080", "[::1]:9000"):
// the CLI's --allow-host. A host that is a private address or localhost is
// also added to allow_private, with the port given, or alone (any port).
// A host given again widens its capability to the new port (or to any
// port) instead of adding another.
// On a config that declares no policy, call AllowTools first: the
// capability makes it one, which allows only what its capabilities allow.
func (c *Config) AllowHost(spec string) error {
	host, port := spec, 0
	if h, p, err := net.SplitHostPort(spec); err == nil {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("--allow-host %q: invalid port", spec)
		}
		host, port = h, n
	} else if strings.HasPrefix(spec, "[") && strings.HasSuffix(spec, "]") {
		host = spec[1 : len(spec)-1]
	} else if strings.Count(spec, ":") > 1 {
		return fmt.Errorf("--allow-host %q: write an IPv6 address in brackets, [::1]:9000", spec)
	}
	if strings.ContainsAny(host, "*?/[]") {
		return fmt.Errorf("--allow-host %q: give one literal host (no wildcard, scheme or path)", spec)
	}
	probe := "http://" + host + "/"
	if strings.Contains(host, ":") {
		probe = "http://[" + host + "]/"
	}
	p, err := egress.ParseURL(probe)
	if err != nil {
		return fmt.Errorf("--allow-host %q: %v", spec, strings.TrimPrefix(err.Error(), "egress: "))
	}
	host = p.Host
	if c.HTTP == nil {
		c.HTTP = &HTTP{}
	}
	private := host == "localhost" || strings.HasSuffix(host, ".localhost")
	if ip, err := netip.ParseAddr(host); err == nil && egress.Classify(ip) != "" {
		private = true
	}
	if private {
		hp := host
		switch {
		case port != 0:
			hp = net.JoinHostPort(host, strconv.Itoa(port))
		case strings.Contains(host, ":"):
			hp = "[" + host + "]"
		}
		if !contains(c.HTTP.AllowPrivate, hp) {
			c.HTTP.AllowPrivate = append(c.HTTP.AllowPrivate, hp)
		}
	}
	tools := map[string]bool{}
	for _, t := range c.Tools {
		tools[t.Name] = true
	}
	if err := c.validateHTTP(tools); err != nil {
		return err
	}
	method := c.HTTP.Method
	if method == "" {
		method = egress.DefaultMethod
	}
	// A host given again, on another port, widens its capability rather
	// than adding one that the policy's lint reports as lifting the
	// first one's port.
	a := c.allowed[host]
	if a == nil {
		a = &allowedHost{}
	}
	next := *a
	next.specs = slices.Clone(a.specs)
	if !slices.Contains(next.specs, spec) {
		next.specs = append(next.specs, spec)
	}
	switch {
	case port == 0:
		next.anyPort = true
	case !slices.Contains(a.ports, port):
		next.ports = append(slices.Clone(a.ports), port)
	}
	cs := []dsl.Constraint{dsl.Param("host").Eq(host)}
	switch {
	case next.anyPort:
	case len(next.ports) == 1:
		cs = append(cs, dsl.Param("port").Eq(next.ports[0]))
	default:
		ports := make([]any, len(next.ports))
		for i, n := range next.ports {
			ports[i] = n
		}
		cs = append(cs, dsl.Param("port").In(ports...))
	}
	capability := dsl.Method(method).Where(cs...).Named("--allow-host " + strings.Join(next.specs, ", "))
	if err := capability.Validate(); err != nil {
		return fmt.Errorf("--allow-host %q: %v", spec, err)
	}
	if c.allowed == nil {
		c.allowed = map[string]*allowedHost{}
	}
	next.capability = capability
	c.allowed[host] = &next
	if i := slices.Index(c.caps, a.capability); a.capability != nil && i >= 0 {
		c.caps[i] = capability
	} else {
		c.caps = append(c.caps, capability)
	}
	return nil
}

// allowedHost is a host that AllowHost allowed: its capability, the specs
// given for it, and its ports (any port when one spec named none).
type allowedHost struct {
	capability *dsl.Capability
	specs      []string
	ports      []int
	anyPort    bool
}

// AllowTools gives every tool of the config, and every upstream server's
// tools, a capability of its own that allows it up to
// engine.DefaultMaxCalls calls: what a config without a policy allows, kept
// when a capability is added to it (AllowHost). It does nothing on a
// config that declares a policy.
func (c *Config) AllowTools() {
	if c.HasPolicy() {
		return
	}
	for _, t := range c.Tools {
		c.caps = append(c.caps, dsl.Method(t.Name).MaxCalls(engine.DefaultMaxCalls))
	}
	for _, s := range c.MCPServers {
		c.caps = append(c.caps, dsl.Method(s.Name+"/**").MaxCalls(engine.DefaultMaxCalls))
	}
	c.Capabilities = []json.RawMessage{}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
