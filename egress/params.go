package egress

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cordonhq/cordon/internal/abi"
)

// Params is the request as the policy sees it (input.params), the audit
// records it and the handler makes it: the script's [abi.FetchRequest]
// parsed once, by the tool's Prepare. The handler builds the request from
// Scheme, Host, Port, Path, Query, Headers and the body, never from the
// URL the script wrote.
type Params struct {
	// Method is the HTTP method, upper-cased ("GET" when the script gave
	// none).
	Method string `json:"method"`
	// URL is the destination re-serialized from the parsed parts:
	// scheme://host[:port]path[?query], the port only when it is not the
	// scheme's default, the query in the form sent (its pairs in the
	// order the script wrote them, each percent-encoded again; the query
	// sent is this one, whose parse is Query), no fragment and no
	// userinfo.
	URL string `json:"url"`
	// Scheme is "http" or "https".
	Scheme string `json:"scheme"`
	// Host is the host, lower-case, without a trailing dot: a DNS name of
	// ASCII letters, digits, "-" and "_", an IPv4 address in dotted
	// decimal, or an IPv6 address without brackets in its canonical form
	// (an IPv4-mapped one, another spelling of an IPv4 address, is
	// refused).
	Host string `json:"host"`
	// Port is the TCP port, the scheme's default (80, 443) when the URL
	// has none.
	Port int `json:"port"`
	// Path is the path, percent-decoded, with "." and ".." segments
	// resolved; "/" when empty. It is sent percent-encoded again.
	Path string `json:"path"`
	// Query is the query string, parsed: each key's values in order.
	Query map[string][]string `json:"query"`
	// Headers are the request headers, names lower-cased, the values of a
	// name given more than once joined with ", ". Hop-by-hop headers
	// (connection, keep-alive, te, trailer, transfer-encoding, upgrade,
	// proxy-*) and content-length are dropped; host is refused.
	Headers map[string]string `json:"headers"`
	// Body or BodyBase64 is the request body (at most one is set);
	// BodySize is its length in bytes.
	Body       string `json:"body,omitempty"`
	BodyBase64 string `json:"body_base64,omitempty"`
	BodySize   int    `json:"body_size"`
	// Redirect is "follow", "manual" or "error".
	Redirect string `json:"redirect"`
}

// dropped are the request headers that never reach the destination: the
// hop-by-hop headers, and the ones net/http writes itself.
var dropped = map[string]bool{
	"connection": true, "keep-alive": true, "te": true, "trailer": true,
	"transfer-encoding": true, "upgrade": true, "content-length": true,
	"proxy-connection": true, "expect": true, "http2-settings": true,
}

// request is the wire form the tool accepts: abi.FetchRequest, with the
// headers also accepted as an object.
type request struct {
	URL        string          `json:"url"`
	Method     string          `json:"method,omitempty"`
	Headers    json.RawMessage `json:"headers,omitempty"`
	Body       string          `json:"body,omitempty"`
	BodyBase64 string          `json:"body_base64,omitempty"`
	Redirect   string          `json:"redirect,omitempty"`
}

// parseRequest parses the params the script sent into Params. Every error
// wraps one of the package's sentinel errors and says what to change.
func (t *fetchTool) parseRequest(raw json.RawMessage) (*Params, error) {
	var r request
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, reqErr(ErrInvalidRequest, "invalid fetch request: %v", err)
	}
	if dec.More() {
		return nil, reqErr(ErrInvalidRequest, "invalid fetch request: data after the params object")
	}
	headers, err := decodeHeaders(r.Headers)
	if err != nil {
		return nil, err
	}
	p, err := parseURL(r.URL)
	if err != nil {
		return nil, err
	}
	p.Method = "GET"
	if r.Method != "" {
		if !isToken(r.Method) {
			return nil, reqErr(ErrInvalidRequest, "invalid method %q: a method is letters, digits and !#$%%&'*+-.^_`|~", r.Method)
		}
		p.Method = strings.ToUpper(r.Method)
	}
	switch p.Method {
	case "CONNECT", "TRACE", "TRACK":
		return nil, reqErr(ErrInvalidRequest, "method %s is not supported", p.Method)
	}
	p.Headers = map[string]string{}
	for _, h := range headers {
		name, value := strings.ToLower(h[0]), h[1]
		if !isToken(name) {
			return nil, reqErr(ErrInvalidHeader, "invalid header name %q: a header name is letters, digits and !#$%%&'*+-.^_`|~", h[0])
		}
		if i := strings.IndexFunc(value, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }); i >= 0 {
			return nil, reqErr(ErrInvalidHeader, "header %s: control character %q in its value (CR, LF and NUL are refused)", name, value[i])
		}
		switch {
		case name == "host":
			return nil, reqErr(ErrInvalidHeader, "header host: the host is the URL's; a request cannot set it")
		case dropped[name], strings.HasPrefix(name, "proxy-"):
			continue
		}
		value = strings.Trim(value, " \t")
		if prev, ok := p.Headers[name]; ok {
			value = prev + ", " + value
		}
		p.Headers[name] = value
	}
	if r.Body != "" && r.BodyBase64 != "" {
		return nil, reqErr(ErrInvalidRequest, "body and body_base64: give at most one")
	}
	size := len(r.Body)
	if r.BodyBase64 != "" {
		b, err := base64.StdEncoding.DecodeString(r.BodyBase64)
		if err != nil {
			return nil, reqErr(ErrInvalidRequest, "body_base64 is not standard base64: %v", err)
		}
		size = len(b)
	}
	if size > t.cfg.MaxRequestBytes {
		return nil, reqErr(ErrTooLarge, "request body of %d bytes is over the limit of %d bytes", size, t.cfg.MaxRequestBytes)
	}
	p.Body, p.BodyBase64, p.BodySize = r.Body, r.BodyBase64, size
	switch r.Redirect {
	case "":
		p.Redirect = "follow"
	case "follow", "manual", "error":
		p.Redirect = r.Redirect
	default:
		return nil, reqErr(ErrInvalidRequest, "invalid redirect %q: it is \"follow\", \"manual\" or \"error\"", r.Redirect)
	}
	return p, nil
}

// decodeHeaders reads the headers as a list of [name, value] pairs or as an
// object (whose names are then sorted).
func decodeHeaders(raw json.RawMessage) ([][2]string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '{' {
		var m map[string]string
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, reqErr(ErrInvalidHeader, "invalid headers: %v", err)
		}
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		sort.Strings(names)
		out := make([][2]string, len(names))
		for i, k := range names {
			out[i] = [2]string{k, m[k]}
		}
		return out, nil
	}
	var pairs [][2]string
	if err := json.Unmarshal(raw, &pairs); err != nil {
		return nil, reqErr(ErrInvalidHeader, "invalid headers: a list of [name, value] pairs or an object of strings: %v", err)
	}
	return pairs, nil
}

// parseURL parses an absolute http or https URL into the destination part
// of Params.
func parseURL(raw string) (*Params, error) {
	if raw == "" {
		return nil, reqErr(ErrInvalidURL, "url is missing")
	}
	if i := strings.IndexFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '\\' }); i >= 0 {
		return nil, reqErr(ErrInvalidURL, "invalid url %q: it contains %q", raw, raw[i])
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, reqErr(ErrInvalidURL, "invalid url %q: %v", raw, unwrapURLError(err))
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "http", "https":
	case "":
		return nil, reqErr(ErrInvalidURL, "invalid url %q: it is not absolute (give http:// or https://)", raw)
	default:
		return nil, reqErr(ErrScheme, "url scheme %q is not supported: only http and https", u.Scheme)
	}
	if u.Opaque != "" {
		return nil, reqErr(ErrInvalidURL, "invalid url %q: give scheme://host/...", raw)
	}
	if u.User != nil {
		return nil, reqErr(ErrUserinfo, "url %q has a user name or password: credentials in URLs are refused (the host adds credentials)", redact(u))
	}
	host, err := canonicalHost(u.Hostname())
	if err != nil {
		return nil, err
	}
	port := defaultPort(scheme)
	if ps := u.Port(); ps != "" {
		n, err := strconv.Atoi(ps)
		if err != nil || n < 1 || n > 65535 || (len(ps) > 1 && ps[0] == '0') {
			return nil, reqErr(ErrInvalidURL, "invalid port %q: a number from 1 to 65535", ps)
		}
		port = n
	} else if strings.HasSuffix(u.Host, ":") {
		return nil, reqErr(ErrInvalidURL, "invalid url %q: empty port", raw)
	}
	path, err := canonicalPath(u.Path)
	if err != nil {
		return nil, err
	}
	query, err := parseQuery(u.RawQuery)
	if err != nil {
		return nil, err
	}
	p := &Params{Scheme: scheme, Host: host, Port: port, Path: path, Query: query}
	p.URL = p.base().String()
	if rq := canonicalQuery(u.RawQuery); rq != "" {
		p.URL += "?" + rq
	}
	return p, nil
}

// unwrapURLError drops url.Error's repetition of the URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// redact returns u without its password.
func redact(u *url.URL) string { return u.Redacted() }

func defaultPort(scheme string) int {
	if scheme == "https" {
		return 443
	}
	return 80
}

// canonicalHost checks a host and returns its canonical form.
func canonicalHost(h string) (string, error) {
	if h == "" {
		return "", reqErr(ErrInvalidURL, "url has no host")
	}
	if strings.Contains(h, ":") {
		ip, err := netip.ParseAddr(h)
		if err != nil {
			return "", reqErr(ErrInvalidURL, "invalid IPv6 address %q", h)
		}
		if ip.Zone() != "" {
			return "", reqErr(ErrInvalidURL, "IPv6 address %q has a zone: refused", h)
		}
		if ip.Is4In6() {
			// Another spelling of an IPv4 address, like 2130706433: an
			// allow rule that writes the address permits it written so.
			return "", reqErr(ErrNonCanonicalIP, "host %q is an IPv4-mapped IPv6 address: write the IPv4 address as four decimal numbers (%s)", h, ip.Unmap())
		}
		return ip.String(), nil
	}
	for i := 0; i < len(h); i++ {
		if h[i] >= utf8.RuneSelf {
			return "", reqErr(ErrInvalidURL, "host %q is not ASCII: write an internationalized name in its punycode form (xn--...)", h)
		}
	}
	h = strings.ToLower(h)
	h = strings.TrimSuffix(h, ".")
	if len(h) == 0 || len(h) > 253 {
		return "", reqErr(ErrInvalidURL, "invalid host %q", h)
	}
	labels := strings.Split(h, ".")
	if last := labels[len(labels)-1]; looksNumeric(last) {
		// The WHATWG URL standard reads a host that ends in a number as an
		// IPv4 address, in any of its forms (2130706433, 0177.0.0.1,
		// 0x7f.1, 127.1); only the canonical dotted decimal is accepted.
		ip, err := netip.ParseAddr(h)
		if err != nil || !ip.Is4() {
			return "", reqErr(ErrNonCanonicalIP, "host %q is not a canonical IPv4 address: write an IPv4 address as four decimal numbers from 0 to 255 without leading zeros (127.0.0.1)", h)
		}
		return ip.String(), nil
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return "", reqErr(ErrInvalidURL, "invalid host %q: empty or long label", h)
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return "", reqErr(ErrInvalidURL, "invalid host %q: %q is not a letter, digit, '-' or '_'", h, c)
			}
		}
	}
	return h, nil
}

// looksNumeric says whether a host's last label makes it an IPv4 address
// for a WHATWG URL parser: decimal digits, or 0x and hex digits.
func looksNumeric(l string) bool {
	if l == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(l, "0x"); ok {
		for i := 0; i < len(rest); i++ {
			if !isHex(rest[i]) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(l); i++ {
		if l[i] < '0' || l[i] > '9' {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// canonicalPath resolves the "." and ".." segments of a decoded path
// (RFC 3986, 5.2.4), also those a server would see after removing a
// ";parameter", and refuses what a server could read another way: a
// backslash, control characters, invalid UTF-8.
func canonicalPath(p string) (string, error) {
	if !utf8.ValidString(p) {
		return "", reqErr(ErrInvalidURL, "url path is not valid UTF-8 after percent-decoding")
	}
	if i := strings.IndexFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }); i >= 0 {
		return "", reqErr(ErrInvalidURL, "url path contains %q after percent-decoding: refused", p[i])
	}
	if p == "" {
		return "/", nil
	}
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		base, _, hasParam := strings.Cut(s, ";")
		if hasParam && (base == "." || base == "..") {
			return "", reqErr(ErrInvalidURL, "url path segment %q: a dot segment with a parameter is refused", s)
		}
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	res := strings.Join(out, "/")
	if !strings.HasPrefix(res, "/") {
		res = "/" + res
	}
	return res, nil
}

// parseQuery parses a raw query into its keys' values.
func parseQuery(raw string) (map[string][]string, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, reqErr(ErrInvalidURL, "invalid url query: %v", err)
	}
	if q == nil {
		q = url.Values{}
	}
	folded := map[string]string{}
	for k, vs := range q {
		if !utf8.ValidString(k) {
			return nil, reqErr(ErrInvalidURL, "url query key is not valid UTF-8 after percent-decoding")
		}
		for _, v := range vs {
			if !utf8.ValidString(v) {
				return nil, reqErr(ErrInvalidURL, "url query value of %q is not valid UTF-8 after percent-decoding", k)
			}
		}
		if k == "__proto__" {
			return nil, reqErr(ErrInvalidURL, "url query key %q is refused", k)
		}
		f := strings.ToLower(k)
		if other, ok := folded[f]; ok {
			return nil, reqErr(ErrInvalidURL, "url query keys %q and %q differ only in case: refused (a policy reads keys regardless of case)", other, k)
		}
		folded[f] = k
	}
	return q, nil
}

// destination is the URL the request goes to, built from the parsed parts:
// the scheme, host, port and path, and the query of URL, which check
// verified parses to Query.
func (p *Params) destination() *url.URL {
	u := p.base()
	_, u.RawQuery, _ = strings.Cut(p.URL, "?")
	return u
}

// base is the destination without its query.
func (p *Params) base() *url.URL {
	host := p.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if p.Port != defaultPort(p.Scheme) {
		host += ":" + strconv.Itoa(p.Port)
	}
	return &url.URL{Scheme: p.Scheme, Host: host, Path: p.Path}
}

// canonicalQuery normalizes a raw query that parseQuery accepted: its
// pairs in order, empty ones dropped, and in each pair a byte that a query
// may not hold as it is (RFC 3986: anything but the unreserved and
// sub-delimiter characters, ":", "@", "/" and "?") percent-encoded. A
// percent-escape and a "+" stay as the script wrote them, so that a server
// that reads "+" as a plus and one that reads it as a space both get what
// curl would have sent, and the query sent is one the policy's parse reads
// alike.
func canonicalQuery(raw string) string {
	var b strings.Builder
	for _, piece := range strings.Split(raw, "&") {
		if piece == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		for i := 0; i < len(piece); i++ {
			c := piece[i]
			switch {
			case c == '%' && i+2 < len(piece) && isHex(piece[i+1]) && isHex(piece[i+2]):
				b.WriteString(piece[i : i+3])
				i += 2
			case queryChar(c):
				b.WriteByte(c)
			default:
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
	}
	return b.String()
}

// queryChar says whether c may stand in a query as it is (RFC 3986, 3.4).
func queryChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@/?", c) >= 0
}

// hostPort is the destination as a dial address.
func (p *Params) hostPort() string {
	return joinHostPort(p.Host, p.Port)
}

func joinHostPort(host string, port int) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + strconv.Itoa(port)
	}
	return host + ":" + strconv.Itoa(port)
}

// check verifies that params a handler got are what Prepare makes: the
// parsed parts valid and the URL the one they make. A handler refuses
// params that fail it (params that did not come from Prepare).
func (p *Params) check() error {
	q, err := parseURL(p.URL)
	if err != nil {
		return err
	}
	if q.Scheme != p.Scheme || q.Host != p.Host || q.Port != p.Port || q.Path != p.Path || q.URL != p.URL || !sameQuery(q.Query, p.Query) {
		return reqErr(ErrInvalidRequest, "params were not made by the fetch tool's Prepare")
	}
	if p.destination().String() != p.URL {
		return reqErr(ErrInvalidRequest, "params were not made by the fetch tool's Prepare")
	}
	if !isToken(p.Method) || p.Method != strings.ToUpper(p.Method) {
		return reqErr(ErrInvalidRequest, "params were not made by the fetch tool's Prepare: method")
	}
	for name, value := range p.Headers {
		if !isToken(name) || name != strings.ToLower(name) || name == "host" || dropped[name] || strings.HasPrefix(name, "proxy-") ||
			strings.ContainsFunc(value, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
			return reqErr(ErrInvalidHeader, "params were not made by the fetch tool's Prepare: header %q", name)
		}
	}
	switch p.Redirect {
	case "follow", "manual", "error":
	default:
		return reqErr(ErrInvalidRequest, "params were not made by the fetch tool's Prepare: redirect")
	}
	return nil
}

// sameQuery reports whether two parsed queries hold the same keys and
// values, in the same order per key.
func sameQuery(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || !slices.Equal(va, vb) {
			return false
		}
	}
	return true
}

// body returns the request body.
func (p *Params) body() ([]byte, error) {
	if p.BodyBase64 != "" {
		return base64.StdEncoding.DecodeString(p.BodyBase64)
	}
	return []byte(p.Body), nil
}

// isToken says whether s is an HTTP token (RFC 9110, 5.6.2).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// toRequest turns params back into a fetch request: a redirect's next hop.
func (p *Params) toRequest(u *url.URL, method string, keepBody bool, headers map[string]string) abi.FetchRequest {
	r := abi.FetchRequest{URL: u.String(), Method: method, Redirect: p.Redirect}
	names := make([]string, 0, len(headers))
	for k := range headers {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		r.Headers = append(r.Headers, [2]string{k, headers[k]})
	}
	if keepBody {
		r.Body, r.BodyBase64 = p.Body, p.BodyBase64
	}
	return r
}

// reqErr returns a RequestError wrapping sentinel.
func reqErr(sentinel error, format string, args ...any) error {
	return &RequestError{Err: sentinel, Message: fmt.Sprintf(format, args...)}
}

// ParseURL parses an absolute http or https URL as the tool's Prepare does,
// into the destination fields of Params (Scheme, Host, Port, Path, Query
// and URL), with the same errors: a host as the policy will see it, for a
// configuration that names hosts.
func ParseURL(raw string) (*Params, error) {
	return parseURL(raw)
}
