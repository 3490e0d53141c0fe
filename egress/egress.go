// Package egress makes the tool that network requests from a sandbox go
// through: JavaScript's fetch and the shell's curl and wget send it an
// [abi.FetchRequest], and it answers with an [abi.FetchResponse].
//
// The tool parses each request once, on the host, before the policy
// decides it ([engine.Tool.Prepare]): the policy sees the method, the
// scheme, host, port, path and query, the headers and the body's size as
// [Params], and the handler makes the request from those parsed parts and
// nothing else. The default transport refuses to connect to addresses that
// are not public (loopback, private, link-local, the cloud metadata
// address, ...), checking the addresses a name resolves to when it dials
// and connecting to the address it checked, so that DNS rebinding cannot
// move a request after the check; it uses no proxy from the environment.
// Redirects are followed by the handler, each hop decided by the policy
// again ([engine.FollowUp]). Credentials are added by the host after the
// policy allows a request, from the environment or a callback, so that
// neither the script, nor the policy's input, nor the audit sees them.
//
// docs/egress.md describes the configuration, the rules and the threat
// model.
package egress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/internal/abi"
)

// The defaults of [Config]'s zero fields.
const (
	DefaultMethod           = "http/fetch"
	DefaultMaxRequestBytes  = 512 << 10
	DefaultMaxResponseBytes = 5 << 20
	DefaultTimeout          = 30 * time.Second
	DefaultMaxConcurrent    = 8
	DefaultMaxRedirects     = 10
)

// Sentinel errors. Every error of the package wraps one of them, for
// [errors.Is]; a [RequestError] or an [AddressError] carries the details.
var (
	// ErrConfig is a Config that New refuses.
	ErrConfig = errors.New("egress: invalid config")
	// ErrInvalidRequest is a fetch request that cannot be parsed.
	ErrInvalidRequest = errors.New("egress: invalid request")
	// ErrInvalidURL is a URL that cannot be parsed or is refused.
	ErrInvalidURL = errors.New("egress: invalid url")
	// ErrScheme is a URL whose scheme is not http or https.
	ErrScheme = errors.New("egress: unsupported url scheme")
	// ErrUserinfo is a URL with a user name or password.
	ErrUserinfo = errors.New("egress: credentials in url")
	// ErrNonCanonicalIP is a host written as an IPv4 address in another
	// form than dotted decimal (2130706433, 0177.0.0.1, 0x7f.1, 127.1).
	ErrNonCanonicalIP = errors.New("egress: non-canonical IPv4 address")
	// ErrInvalidHeader is a request header that is refused.
	ErrInvalidHeader = errors.New("egress: invalid header")
	// ErrPrivateAddress is a destination address that is not public.
	ErrPrivateAddress = errors.New("egress: address is not public")
	// ErrTooLarge is a request or response body over its limit.
	ErrTooLarge = errors.New("egress: body too large")
	// ErrRedirect is a redirect that the request's redirect mode refuses,
	// or one too many.
	ErrRedirect = errors.New("egress: redirect refused")
)

// RequestError is a request that the tool refuses or cannot make, with a
// message for the script.
type RequestError struct {
	// Err is one of the sentinel errors.
	Err error
	// Message says what is wrong and what to change.
	Message string
}

// Error returns "egress: " and the message.
func (e *RequestError) Error() string { return "egress: " + e.Message }

// Unwrap returns the sentinel error.
func (e *RequestError) Unwrap() error { return e.Err }

// AddressError is a connection the dialer refused: the address is not
// public and no AllowPrivate entry permits it.
type AddressError struct {
	// Addr is the address refused, Host the host the request named.
	Addr netip.AddrPort
	Host string
	// Class says what the address is ([Classify]).
	Class string
}

// Error says which connection was refused and why.
func (e *AddressError) Error() string {
	via := ""
	if h, _, err := net.SplitHostPort(e.Host); err == nil && h != e.Addr.Addr().String() {
		via = " (" + h + ")"
	}
	return fmt.Sprintf("connecting to %s%s refused: %s address (SSRF protection); allow it by its literal address (Config.AllowPrivate, http.allow_private in the config, cordon run --allow-host)", e.Addr, via, e.Class)
}

// Unwrap returns ErrPrivateAddress.
func (e *AddressError) Unwrap() error { return ErrPrivateAddress }

// Resolver looks up the addresses of a host name; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ResolverFunc is a function that is a Resolver.
type ResolverFunc func(ctx context.Context, network, host string) ([]netip.Addr, error)

// LookupNetIP calls f.
func (f ResolverFunc) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return f(ctx, network, host)
}

// DefaultLabels are the fetch tool's flow labels when Config.Labels is nil.
var DefaultLabels = []string{"egress"}

// Config configures the fetch tool. Its zero value is the safe default:
// the tool "http/fetch", public addresses only, no credentials, the
// default limits.
type Config struct {
	// Method is the tool's name, the method the policy sees
	// (DefaultMethod, "http/fetch", when empty).
	Method string
	// Description is shown to scripts; a default one when empty.
	Description string
	// Labels are the tool's flow labels ([engine.Tool.Labels]):
	// DefaultLabels ("egress") when nil, so that a flow rule can refuse
	// egress after a private read; an empty, non-nil slice gives none.
	Labels []string
	// Client, when set, makes the requests instead of the tool's own
	// client. Its transport dials as it will: the address checks, the
	// pinning of resolved addresses and AllowPrivate apply only to the
	// tool's transport (use [NewTransport] to keep them under a client of
	// your own). A client whose Transport is nil gets the tool's
	// transport, not http.DefaultTransport. The tool uses a copy of the
	// client that follows no redirect and has no cookie jar.
	Client *http.Client
	// AllowPrivate lists destinations that the dialer connects to although
	// their address is not public, each a literal "host:port" or "host" as
	// the request writes it, whose host is an IP address or localhost:
	// "127.0.0.1:8080", "localhost:8080", "[::1]:9000", or "127.0.0.1" for
	// every port of it. An entry permits exactly that host (and port): a
	// request to a name that resolves to the same address is still
	// refused. Wildcards, ranges and DNS names
	// are refused (a name could resolve to any private address). The names
	// "localhost" and "*.localhost" always resolve to 127.0.0.1 and ::1.
	AllowPrivate []string
	// Credentials are added to requests after the policy allows them
	// ([Credential]).
	Credentials []Credential
	// MaxRequestBytes bounds a request's body (DefaultMaxRequestBytes,
	// 512 KiB, when zero). A body is also bounded by the engine's
	// Limits.MaxParamBytes, since it travels in the params.
	MaxRequestBytes int
	// MaxResponseBytes bounds a response's body (DefaultMaxResponseBytes,
	// 5 MiB, when zero); a longer body fails the call with a ToolError of
	// kind "too_large". The body reaches the script in the tool's result,
	// which the engine bounds by Limits.MaxResultBytes (8 MiB by default):
	// a binary body is base64 in it (4/3 of its size) and a text body is
	// JSON-escaped, so keep MaxResponseBytes at most 3/4 of
	// Limits.MaxResultBytes, less the headers, or some results will be
	// refused as too large by the engine instead.
	MaxResponseBytes int
	// Timeout bounds each request, its redirects and its body included
	// (DefaultTimeout, 30 s, when zero). The call's context, which ends
	// with the execution, bounds it too.
	Timeout time.Duration
	// MaxConcurrent bounds the requests in flight at once, across all the
	// sandboxes that share the tool (DefaultMaxConcurrent, 8, when zero);
	// a request beyond it waits for a slot, within its context.
	MaxConcurrent int
	// MaxRedirects bounds the redirects one request follows
	// (DefaultMaxRedirects, 10, when zero; negative for none).
	MaxRedirects int
	// KeepSetCookie keeps the Set-Cookie and Set-Cookie2 response headers,
	// which are dropped by default.
	KeepSetCookie bool
	// Resolver looks up host names for the default transport
	// (net.DefaultResolver when nil). Tests set it to make a name resolve
	// to an address of their choice.
	Resolver Resolver
}

// fetchTool is a Config made ready.
type fetchTool struct {
	cfg     Config
	client  *http.Client
	allowed map[string]bool
	creds   []credential
	slots   chan struct{}
}

// New returns the fetch tool of cfg: an [engine.Tool] with Fetch set, whose
// Prepare parses a request into [Params] and whose Handler makes it. It
// refuses an invalid config with an error wrapping ErrConfig.
func New(cfg Config) (engine.Tool, error) {
	t, err := newFetchTool(cfg)
	if err != nil {
		return engine.Tool{}, err
	}
	labels := cfg.Labels
	if labels == nil {
		labels = DefaultLabels
	}
	labels = slices.Clone(labels)
	desc := cfg.Description
	if desc == "" {
		desc = "Makes an HTTP request (what fetch, curl and wget call): params {url, method, headers, body | body_base64, redirect}. The host's policy decides each request and each redirect."
	}
	return engine.Tool{
		Name:        t.cfg.Method,
		Description: desc,
		InputSchema: json.RawMessage(inputSchema),
		Prepare:     t.prepare,
		Handler:     t.handle,
		Fetch:       true,
		Labels:      labels,
	}, nil
}

func newFetchTool(cfg Config) (*fetchTool, error) {
	if cfg.Method == "" {
		cfg.Method = DefaultMethod
	}
	if err := abi.ValidateToolName(cfg.Method); err != nil {
		return nil, fmt.Errorf("%w: Method: %v", ErrConfig, err)
	}
	if cfg.MaxRequestBytes == 0 {
		cfg.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if cfg.MaxResponseBytes == 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxConcurrent == 0 {
		cfg.MaxConcurrent = DefaultMaxConcurrent
	}
	switch {
	case cfg.MaxRedirects == 0:
		cfg.MaxRedirects = DefaultMaxRedirects
	case cfg.MaxRedirects < 0:
		cfg.MaxRedirects = 0
	}
	if cfg.MaxRequestBytes < 0 || cfg.MaxResponseBytes < 0 || cfg.Timeout < 0 || cfg.MaxConcurrent < 0 {
		return nil, fmt.Errorf("%w: negative limit", ErrConfig)
	}
	allowed, err := parseAllowPrivate(cfg.AllowPrivate)
	if err != nil {
		return nil, err
	}
	creds, err := parseCredentials(cfg.Credentials)
	if err != nil {
		return nil, err
	}
	t := &fetchTool{cfg: cfg, allowed: allowed, creds: creds, slots: make(chan struct{}, cfg.MaxConcurrent)}
	if cfg.Client != nil && cfg.Client.Transport != nil {
		c := *cfg.Client
		t.client = &c
	} else if cfg.Client != nil {
		// A client without a transport would use http.DefaultTransport,
		// which takes its proxy from the environment and dials any
		// address: it gets the tool's own transport instead.
		c := *cfg.Client
		tr, err := newTransport(cfg, allowed)
		if err != nil {
			return nil, err
		}
		c.Transport = tr
		t.client = &c
	} else {
		tr, err := newTransport(cfg, allowed)
		if err != nil {
			return nil, err
		}
		t.client = &http.Client{Transport: tr}
	}
	t.client.Jar = nil
	t.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return t, nil
}

// parseAllowPrivate reads AllowPrivate into the set of dial addresses it
// permits, in the form the dialer is given them: "host:port", or
// "host:0" for an entry that names no port (any port).
func parseAllowPrivate(entries []string) (map[string]bool, error) {
	allowed := map[string]bool{}
	for _, e := range entries {
		if strings.ContainsAny(e, "*?/") || strings.Contains(e, "://") {
			return nil, fmt.Errorf("%w: AllowPrivate %q: give a literal host or host:port (no wildcard, scheme or path)", ErrConfig, e)
		}
		hp, anyPort := e, false
		if _, ps, err := net.SplitHostPort(e); err == nil && ps == "" {
			return nil, fmt.Errorf("%w: AllowPrivate %q: empty port", ErrConfig, e)
		} else if err != nil {
			// A host alone: an IPv4 address, localhost, or an IPv6
			// address in brackets.
			if strings.Contains(e, ":") && !(strings.HasPrefix(e, "[") && strings.HasSuffix(e, "]")) {
				return nil, fmt.Errorf("%w: AllowPrivate %q: give host or host:port, an IPv6 address in brackets (\"127.0.0.1:8080\", \"[::1]:9000\", \"[::1]\")", ErrConfig, e)
			}
			hp, anyPort = e+":1", true
		}
		p, err := parseURL("http://" + hp + "/")
		if err != nil {
			return nil, fmt.Errorf("%w: AllowPrivate %q: %v", ErrConfig, e, err)
		}
		// Only an address written out, or localhost, which always means
		// loopback: a DNS name could resolve to any private address,
		// today or after the config was reviewed.
		if _, err := netip.ParseAddr(p.Host); err != nil && p.Host != "localhost" {
			return nil, fmt.Errorf("%w: AllowPrivate %q: give an IP address or localhost, not a name that DNS resolves", ErrConfig, e)
		}
		if anyPort {
			p.Port = 0
		}
		allowed[p.hostPort()] = true
	}
	return allowed, nil
}

// allowsPrivate says whether allowed (parseAllowPrivate's) permits host
// on port: an entry for that port, or one that names no port.
func allowsPrivate(allowed map[string]bool, host string, port int) bool {
	return allowed[joinHostPort(host, port)] || allowed[joinHostPort(host, 0)]
}

// prepare is the tool's Prepare: the script's request parsed into Params.
func (t *fetchTool) prepare(_ context.Context, raw json.RawMessage) (json.RawMessage, error) {
	p, err := t.parseRequest(raw)
	if err != nil {
		return nil, err
	}
	return json.Marshal(p)
}

// inputSchema is the JSON Schema of abi.FetchRequest.
const inputSchema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "description": "the absolute http or https URL"},
    "method": {"type": "string", "description": "the HTTP method; GET when absent"},
    "headers": {
      "description": "request headers: [name, value] pairs, or an object of strings",
      "anyOf": [
        {"type": "array", "items": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}},
        {"type": "object", "additionalProperties": {"type": "string"}}
      ]
    },
    "body": {"type": "string", "description": "a body that is text"},
    "body_base64": {"type": "string", "description": "a body in standard base64"},
    "redirect": {"enum": ["follow", "manual", "error"], "description": "follow (the default: each hop is decided by the policy again), manual (return the 3xx response) or error"}
  },
  "required": ["url"],
  "additionalProperties": false
}`
