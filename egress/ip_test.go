package egress_test

import (
	"net/netip"
	"testing"

	"github.com/cordonhq/cordon/egress"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		addr  string
		class string // "" for public
	}{
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"93.184.216.34", ""},
		{"2606:4700:4700::1111", ""},
		{"2a00:1450:4001:81b::200e", ""},
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"127.0.0.1", "loopback"},
		{"127.255.255.254", "loopback"},
		{"10.0.0.1", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"172.32.0.1", ""},
		{"192.168.1.1", "private"},
		{"169.254.169.254", "link-local"},
		{"100.64.0.1", "shared (carrier-grade NAT)"},
		{"100.127.255.255", "shared (carrier-grade NAT)"},
		{"100.128.0.1", ""},
		{"192.0.0.8", "reserved (IETF protocol assignments)"},
		{"192.0.2.1", "documentation"},
		{"198.18.0.1", "benchmarking"},
		{"198.51.100.7", "documentation"},
		{"203.0.113.9", "documentation"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"255.255.255.255", "broadcast"},
		{"240.0.0.1", "reserved"},
		{"::", "unspecified"},
		{"::1", "loopback"},
		{"fc00::1", "private (unique local)"},
		{"fd12:3456::1", "private (unique local)"},
		{"fe80::1", "link-local"},
		{"febf::1", "link-local"},
		{"fec0::1", "private (site-local)"},
		{"ff02::1", "multicast"},
		{"2001:db8::1", "documentation"},
		{"2001::1", "reserved (Teredo)"},
		{"100::1", "reserved (discard-only)"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:169.254.169.254", "link-local"},
		{"::ffff:8.8.8.8", ""},
		{"::127.0.0.1", "loopback (IPv4-compatible)"},
		{"::8.8.8.8", "reserved (IPv4-compatible)"},
		{"64:ff9b::10.0.0.1", "private (in NAT64)"},
		{"64:ff9b::a9fe:a9fe", "link-local (in NAT64)"},
		{"64:ff9b::8.8.8.8", ""},
		{"64:ff9b:1::1", "reserved (local-use NAT64)"},
		{"2002:7f00:0001::", "loopback (in 6to4)"},
		{"2002:c0a8:0101::1", "private (in 6to4)"},
		{"2002:0808:0808::1", ""},
		{"fe80::1%eth0", "invalid (IPv6 zone)"},
	}
	for _, c := range cases {
		if got := egress.Classify(netip.MustParseAddr(c.addr)); got != c.class {
			t.Errorf("Classify(%s) = %q, want %q", c.addr, got, c.class)
		}
	}
	if got := egress.Classify(netip.Addr{}); got != "invalid" {
		t.Errorf("Classify(zero) = %q, want invalid", got)
	}
}
