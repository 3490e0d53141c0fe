package egress

import "net/netip"

// rangeClass is a range of addresses that is not a public destination, and
// what it is.
type rangeClass struct {
	prefix netip.Prefix
	class  string
}

// blocked lists the addresses the default dialer refuses. The IPv6 ranges
// that embed an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4)
// are not here: Classify classifies the embedded address instead.
var blocked = func() []rangeClass {
	table := []struct{ prefix, class string }{
		// IPv4 (RFC 6890 and its updates).
		{"0.0.0.0/8", "unspecified"},
		{"10.0.0.0/8", "private"},
		{"100.64.0.0/10", "shared (carrier-grade NAT)"},
		{"127.0.0.0/8", "loopback"},
		{"169.254.0.0/16", "link-local"},
		{"172.16.0.0/12", "private"},
		{"192.0.0.0/24", "reserved (IETF protocol assignments)"},
		{"192.0.2.0/24", "documentation"},
		{"192.31.196.0/24", "reserved (AS112)"},
		{"192.52.193.0/24", "reserved (AMT)"},
		{"192.88.99.0/24", "reserved (6to4 relay anycast)"},
		{"192.168.0.0/16", "private"},
		{"192.175.48.0/24", "reserved (AS112)"},
		{"198.18.0.0/15", "benchmarking"},
		{"198.51.100.0/24", "documentation"},
		{"203.0.113.0/24", "documentation"},
		{"224.0.0.0/4", "multicast"},
		{"255.255.255.255/32", "broadcast"},
		{"240.0.0.0/4", "reserved"},
		// IPv6 (RFC 6890, the IANA special-purpose registry).
		{"::/128", "unspecified"},
		{"::1/128", "loopback"},
		{"64:ff9b:1::/48", "reserved (local-use NAT64)"},
		{"100::/64", "reserved (discard-only)"},
		{"2001::/32", "reserved (Teredo)"},
		{"2001::/23", "reserved (IETF protocol assignments)"},
		{"2001:db8::/32", "documentation"},
		{"3fff::/20", "documentation"},
		{"5f00::/16", "reserved (segment routing)"},
		{"fc00::/7", "private (unique local)"},
		{"fe80::/10", "link-local"},
		{"fec0::/10", "private (site-local)"},
		{"ff00::/8", "multicast"},
	}
	out := make([]rangeClass, len(table))
	for i, r := range table {
		out[i] = rangeClass{netip.MustParsePrefix(r.prefix), r.class}
	}
	return out
}()

var (
	nat64   = netip.MustParsePrefix("64:ff9b::/96")
	sixToFr = netip.MustParsePrefix("2002::/16")
	// compat is the deprecated IPv4-compatible range ::a.b.c.d (::/96,
	// after :: and ::1, which the table classifies first).
	compat = netip.MustParsePrefix("::/96")
)

// Classify says why ip is not a public destination: "" for a public
// address, else its class ("loopback", "private", "link-local", "shared
// (carrier-grade NAT)", "multicast", ...). An IPv6 address that carries an
// IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d,
// NAT64 64:ff9b::/96, 6to4 2002::/16) has the class of the IPv4 address
// it carries; an address with a zone, and the invalid zero Addr, are
// "invalid". The default dialer refuses every address whose class is not
// "".
func Classify(ip netip.Addr) string {
	if !ip.IsValid() {
		return "invalid"
	}
	if ip.Zone() != "" {
		return "invalid (IPv6 zone)"
	}
	if ip.Is4In6() {
		return Classify(ip.Unmap())
	}
	for _, r := range blocked {
		if r.prefix.Contains(ip) {
			return r.class
		}
	}
	if ip.Is6() {
		b := ip.As16()
		switch {
		case nat64.Contains(ip):
			if c := Classify(netip.AddrFrom4([4]byte(b[12:16]))); c != "" {
				return c + " (in NAT64)"
			}
		case sixToFr.Contains(ip):
			if c := Classify(netip.AddrFrom4([4]byte(b[2:6]))); c != "" {
				return c + " (in 6to4)"
			}
		case compat.Contains(ip):
			if c := Classify(netip.AddrFrom4([4]byte(b[12:16]))); c != "" {
				return c + " (IPv4-compatible)"
			}
			return "reserved (IPv4-compatible)"
		}
	}
	return ""
}
