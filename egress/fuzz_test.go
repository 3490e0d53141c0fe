package egress_test

import (
	"context"
	"encoding/json"
	"net/url"
	"reflect"
	"testing"

	"github.com/cordonhq/cordon/egress"
)

// Whatever the URL, Prepare either refuses it or gives params whose url
// prepares to the same params again (the form the policy sees is a fixed
// point: no second parse reads it differently), and whose url a standard
// parser reads as the same scheme, host, port and path.
func FuzzPrepare(f *testing.F) {
	for _, s := range []string{
		"http://example.com/", "https://a.b.example:8443/x/../y?q=1&q=2#f", "http://127.0.0.1/",
		"http://[::ffff:127.0.0.1]:80/", "http://2130706433/", "http://0x7f.1/", "http://ex%41mple.com/",
		"http://example.com/%2e%2e/%2F?a=%20b", "HTTP://EXAMPLE.COM./A?%5F=1", "http://example.com/a;b/..;/c",
		"http://u:p@example.com/", "http://example.com:0/", "http://[fe80::1%25en0]/", "http://xn--bcher-kva.example/ü",
	} {
		f.Add(s)
	}
	tool, err := egress.New(egress.Config{})
	if err != nil {
		f.Fatal(err)
	}
	prep := func(u string) (*egress.Params, error) {
		raw, _ := json.Marshal(map[string]string{"url": u})
		out, err := tool.Prepare(context.Background(), raw)
		if err != nil {
			return nil, err
		}
		var p egress.Params
		if err := json.Unmarshal(out, &p); err != nil {
			return nil, err
		}
		return &p, nil
	}
	f.Fuzz(func(t *testing.T, u string) {
		p, err := prep(u)
		if err != nil {
			return
		}
		q, err := prep(p.URL)
		if err != nil {
			t.Fatalf("%q prepared to url %q, which is refused: %v", u, p.URL, err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("%q prepared to %+v; its url prepares to %+v", u, p, q)
		}
		std, err := url.Parse(p.URL)
		if err != nil {
			t.Fatalf("url %q does not parse: %v", p.URL, err)
		}
		if std.Scheme != p.Scheme || std.Hostname() != p.Host || std.Path != p.Path || std.User != nil || std.Fragment != "" {
			t.Fatalf("url %q reads as %q %q %q, params say %q %q %q", p.URL, std.Scheme, std.Hostname(), std.Path, p.Scheme, p.Host, p.Path)
		}
	})
}
