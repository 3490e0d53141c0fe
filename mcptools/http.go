package mcptools

import (
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxErrorBody bounds what is read of a response that is not a stream of
// messages (an error status, an unexpected content type).
const maxErrorBody = 64 << 10

// isLoopback reports whether host (a URL's hostname) is this machine:
// localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hasCredentials reports whether requests to the url server s carry
// credentials from the config: headers, or a user in the URL.
func hasCredentials(s Upstream, u *url.URL) bool {
	return len(s.Headers) > 0 || u.User != nil
}

// CheckURL checks that the url server s may be reached as configured: its
// URL is http or https, and it does not send credentials (headers, or a
// user in the URL) over plain http to a host that is not a loopback
// address (ErrInsecureCredentials).
func CheckURL(s Upstream) error {
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("mcptools: MCP server %s: %q is not an http or https URL", s.Name, s.URL)
	}
	if u.Scheme == "http" && hasCredentials(s, u) && !isLoopback(u.Hostname()) {
		return fmt.Errorf("%w: MCP server %s would send its headers or URL credentials to %s in clear text; use https, or a loopback address", ErrInsecureCredentials, s.Name, u.Host)
	}
	return nil
}

// sameOrigin reports whether a and b have the same scheme and host.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// httpClient returns the HTTP client for the url server s: it adds s's
// headers to requests to its endpoint's origin only, never follows a
// redirect to another origin when s has credentials, and filters the
// answers so that a message over limit bytes fails alone (frameReader,
// sseFilter).
func httpClient(s Upstream, limit int, nonce string) (*http.Client, error) {
	if err := CheckURL(s); err != nil {
		return nil, err
	}
	endpoint, _ := url.Parse(s.URL)
	base := http.DefaultTransport.(*http.Transport).Clone()
	t := &upstreamTransport{base: base, server: s.Name, endpoint: endpoint, headers: s.Headers, limit: limit, nonce: nonce}
	creds := hasCredentials(s, endpoint)
	return &http.Client{
		Transport: t,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 10 {
				return fmt.Errorf("%w: MCP server %s: more than 10 redirects", ErrRedirect, s.Name)
			}
			if endpoint.Scheme == "https" && req.URL.Scheme != "https" {
				return fmt.Errorf("%w: MCP server %s redirected from https to %s", ErrRedirect, s.Name, req.URL.Scheme)
			}
			if creds && !sameOrigin(req.URL, endpoint) {
				return fmt.Errorf("%w: MCP server %s redirected to %s://%s, and its credentials go to %s only", ErrRedirect, s.Name, req.URL.Scheme, req.URL.Host, endpoint.Host)
			}
			return nil
		},
	}, nil
}

// upstreamTransport is the [http.RoundTripper] of a url server's client.
type upstreamTransport struct {
	base     http.RoundTripper
	server   string
	endpoint *url.URL
	headers  map[string]string
	limit    int
	nonce    string
}

// RoundTrip implements [http.RoundTripper].
func (t *upstreamTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	own := sameOrigin(r.URL, t.endpoint)
	if len(t.headers) > 0 && own {
		if r.URL.Scheme == "http" && !isLoopback(r.URL.Hostname()) {
			return nil, fmt.Errorf("%w: MCP server %s, %s", ErrInsecureCredentials, t.server, r.URL.Host)
		}
		r = r.Clone(r.Context())
		for k, v := range t.headers {
			r.Header.Set(k, v)
		}
	}
	if !own && r.URL.User != nil {
		return nil, fmt.Errorf("%w: MCP server %s: URL credentials to another host", ErrRedirect, t.server)
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		resp.Body = limitedBody{io.LimitReader(resp.Body, maxErrorBody), resp.Body}
	case media == "application/json":
		resp.Body = limitedBody{newFrameReader(resp.Body, t.limit, t.nonce), resp.Body}
	case media == "text/event-stream":
		resp.Body = limitedBody{newSSEFilter(resp.Body, t.limit, t.nonce), resp.Body}
	default:
		resp.Body = limitedBody{io.LimitReader(resp.Body, maxErrorBody), resp.Body}
	}
	resp.ContentLength = -1
	return resp, nil
}

// limitedBody reads through a filter of a response body and closes the
// body.
type limitedBody struct {
	io.Reader
	body io.Closer
}

// Close implements [io.Closer].
func (b limitedBody) Close() error { return b.body.Close() }
