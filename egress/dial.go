package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// NewTransport returns the transport the tool uses when Config.Client is
// nil, for a client of your own that keeps the tool's address rules: it
// uses no proxy, resolves each host itself (cfg.Resolver), refuses every
// address that is not public ([Classify]) unless cfg.AllowPrivate lists
// the host and port as the request wrote them, and connects to an address
// it checked, never to a name, so that a second resolution cannot return
// another address. Only cfg.AllowPrivate and cfg.Resolver are read.
func NewTransport(cfg Config) (*http.Transport, error) {
	allowed, err := parseAllowPrivate(cfg.AllowPrivate)
	if err != nil {
		return nil, err
	}
	return newTransport(cfg, allowed)
}

func newTransport(cfg Config, allowed map[string]bool) (*http.Transport, error) {
	d := &dialer{resolver: cfg.Resolver, allowed: allowed}
	if d.resolver == nil {
		d.resolver = net.DefaultResolver
	}
	return &http.Transport{
		Proxy: nil,
		// No Accept-Encoding the script did not send (and no transparent
		// decompression): the request is the one the policy decided, as
		// curl sends it, and a compressed body the script asked for stays
		// as the server sent it.
		DisableCompression:     true,
		DialContext:            d.dialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           32,
		IdleConnTimeout:        60 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 256 << 10,
	}, nil
}

// dialer resolves, checks and connects.
type dialer struct {
	resolver Resolver
	allowed  map[string]bool
}

// loopbacks are the addresses of "localhost" (RFC 6761).
var loopbacks = []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")}

// dialContext connects to addr ("host:port", as net/http gives it from the
// request's URL) through an address it checked.
func (d *dialer) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, fmt.Errorf("egress: network %q is not supported", network)
	}
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("egress: dial %s: %w", addr, err)
	}
	port, err := strconv.Atoi(ps)
	if err != nil || port < 1 || port > 65535 {
		return nil, fmt.Errorf("egress: dial %s: invalid port", addr)
	}
	host = strings.ToLower(host)
	private := allowsPrivate(d.allowed, host, port)
	var ips []netip.Addr
	switch {
	case strings.Contains(host, ":") || looksNumeric(host[strings.LastIndexByte(host, '.')+1:]):
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return nil, fmt.Errorf("egress: dial %s: %w", addr, ErrNonCanonicalIP)
		}
		ips = []netip.Addr{ip}
	case host == "localhost" || strings.HasSuffix(host, ".localhost"):
		ips = loopbacks
	default:
		ips, err = d.resolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, fmt.Errorf("egress: resolving %s: %w", host, err)
		}
		if len(ips) == 0 {
			return nil, fmt.Errorf("egress: resolving %s: no address", host)
		}
	}
	// Every address is checked before any is tried: a name that resolves
	// to a private address too is refused whole.
	for i, ip := range ips {
		ip = ip.Unmap()
		ips[i] = ip
		if private {
			continue
		}
		if class := Classify(ip); class != "" {
			return nil, &AddressError{Addr: netip.AddrPortFrom(ip, uint16(port)), Host: addr, Class: class}
		}
	}
	nd := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	if !private {
		nd.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("egress: connecting to %s: %w", address, err)
			}
			if class := Classify(ap.Addr()); class != "" {
				return &AddressError{Addr: ap, Host: addr, Class: class}
			}
			return nil
		}
	}
	var errs []error
	for _, ip := range ips {
		conn, err := nd.DialContext(ctx, "tcp", netip.AddrPortFrom(ip, uint16(port)).String())
		if err == nil {
			return newWireConn(conn), nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}
