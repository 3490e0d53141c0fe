package egress

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"strings"
)

// Credential is a header the host adds to the requests to one destination,
// after the policy has allowed them: the script never sees its value, and
// neither do the policy's input and the audit, which record the params
// before it is added. It is added again, or not, on each redirect hop by
// the hop's own destination.
//
// A response that echoes the credential back (an endpoint that returns the
// request's headers) is not scrubbed: the script reads it there. Give
// credentials only for destinations you trust with them, and have the
// policy limit the paths that can be reached with them.
type Credential struct {
	// Host matches requests to this host, exactly (lower-case, on any
	// port: "api.github.com"), over https; over plain http only when the
	// host is a loopback address or localhost, or AllowPrivate lists the
	// destination.
	Host string
	// Prefix, instead of Host, matches requests whose URL starts with it,
	// compared on the parsed form: same scheme, host and port, and a path
	// under its path ("https://api.github.com/repos/acme/" matches
	// /repos/acme/x; "https://h/v1" matches /v1 and /v1/x but not /v10).
	// Its query, if any, is ignored.
	Prefix string
	// Header is the header's name ("Authorization").
	Header string
	// Env names the environment variable that holds the value, read at
	// each request; a request fails (an internal error) when it is unset
	// or empty.
	Env string
	// Value, instead of Env, returns the value for a request (which it
	// must not change). Its error fails the request as an internal error,
	// which the script sees without its text.
	Value func(ctx context.Context, req *http.Request) (string, error)
	// ValuePrefix is written before the value ("Bearer ").
	ValuePrefix string
}

// credential is a Credential with its destination parsed.
type credential struct {
	Credential
	header string
	prefix *Params
}

func parseCredentials(cs []Credential) ([]credential, error) {
	out := make([]credential, 0, len(cs))
	for i, c := range cs {
		k := credential{Credential: c, header: http.CanonicalHeaderKey(c.Header)}
		where := fmt.Sprintf("Credentials[%d]", i)
		switch {
		case (c.Host == "") == (c.Prefix == ""):
			return nil, fmt.Errorf("%w: %s: give Host or Prefix, not both", ErrConfig, where)
		case c.Host != "":
			h, err := canonicalHost(c.Host)
			if err != nil || strings.ContainsAny(c.Host, "*:/") {
				return nil, fmt.Errorf("%w: %s: Host %q is not a host name or address", ErrConfig, where, c.Host)
			}
			k.Host = h
		default:
			p, err := parseURL(c.Prefix)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: Prefix: %v", ErrConfig, where, err)
			}
			k.prefix = p
		}
		if !isToken(c.Header) {
			return nil, fmt.Errorf("%w: %s: Header %q is not a header name", ErrConfig, where, c.Header)
		}
		if (c.Env == "") == (c.Value == nil) {
			return nil, fmt.Errorf("%w: %s: give Env or Value, not both", ErrConfig, where)
		}
		if strings.ContainsAny(c.ValuePrefix, "\r\n\x00") {
			return nil, fmt.Errorf("%w: %s: ValuePrefix has a control character", ErrConfig, where)
		}
		out = append(out, k)
	}
	return out, nil
}

// matches says whether the credential is for the request p.
func (c *credential) matches(p *Params) bool {
	if c.prefix == nil {
		return p.Host == c.Host
	}
	q := c.prefix
	if p.Scheme != q.Scheme || p.Host != q.Host || p.Port != q.Port {
		return false
	}
	if strings.HasSuffix(q.Path, "/") {
		return strings.HasPrefix(p.Path, q.Path)
	}
	return p.Path == q.Path || strings.HasPrefix(p.Path, q.Path+"/")
}

// secureFor says whether credential c may travel to p: a Host credential
// goes over https, and over plain http only to a loopback address or
// localhost, or a destination AllowPrivate lists (a redirect to http:// on
// the same host does not carry it); a Prefix credential names its scheme.
func (t *fetchTool) secureFor(c *credential, p *Params) bool {
	if c.prefix != nil || p.Scheme == "https" || allowsPrivate(t.allowed, p.Host, p.Port) {
		return true
	}
	if p.Host == "localhost" || strings.HasSuffix(p.Host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(p.Host)
	return err == nil && ip.IsLoopback()
}

// addCredentials sets the headers of the credentials that match p on req.
// Its errors are internal: the script sees none of their text.
func (t *fetchTool) addCredentials(ctx context.Context, p *Params, req *http.Request) error {
	for i := range t.creds {
		c := &t.creds[i]
		if !c.matches(p) || !t.secureFor(c, p) {
			continue
		}
		var v string
		if c.Value != nil {
			var err error
			if v, err = c.Value(ctx, req); err != nil {
				return fmt.Errorf("egress: credential %s for %s: %w", c.header, p.Host, err)
			}
		} else {
			v = os.Getenv(c.Env)
			if v == "" {
				return fmt.Errorf("egress: credential %s for %s: environment variable %s is not set", c.header, p.Host, c.Env)
			}
		}
		v = c.ValuePrefix + v
		if strings.ContainsAny(v, "\r\n\x00") {
			return fmt.Errorf("egress: credential %s for %s: the value has a control character", c.header, p.Host)
		}
		req.Header.Set(c.header, v)
	}
	return nil
}
