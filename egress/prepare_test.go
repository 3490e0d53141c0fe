package egress_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/egress"
	"github.com/cordonhq/cordon/engine"
)

func newTool(t *testing.T, cfg egress.Config) engine.Tool {
	t.Helper()
	tool, err := egress.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return tool
}

func prepare(t *testing.T, tool engine.Tool, params string) (map[string]any, error) {
	t.Helper()
	out, err := tool.Prepare(context.Background(), json.RawMessage(params))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("Prepare's result %s: %v", out, err)
	}
	return m, nil
}

func TestPrepareShape(t *testing.T) {
	tool := newTool(t, egress.Config{})
	got, err := prepare(t, tool, `{"url":"HTTPS://User-Agent.API.Example.COM./a/./b/../c%2Fd?b=2&a=1&a=0#frag","method":"post",
		"headers":[["X-One","1"],["x-one","2"],["Connection","close"],["Proxy-Authorization","x"],["Content-Type","text/plain"]],"body":"hi"}`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"method":    "POST",
		"url":       "https://user-agent.api.example.com/a/c/d?b=2&a=1&a=0",
		"scheme":    "https",
		"host":      "user-agent.api.example.com",
		"port":      float64(443),
		"path":      "/a/c/d",
		"query":     map[string]any{"a": []any{"1", "0"}, "b": []any{"2"}},
		"headers":   map[string]any{"x-one": "1, 2", "content-type": "text/plain"},
		"body":      "hi",
		"body_size": float64(2),
		"redirect":  "follow",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Prepare =\n%v\nwant\n%v", got, want)
	}

	got, err = prepare(t, tool, `{"url":"http://[::1]:8080","headers":{"B":"2","a":"1"},"body_base64":"AAEC","redirect":"manual"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got["host"] != "::1" || got["port"] != float64(8080) || got["url"] != "http://[::1]:8080/" || got["path"] != "/" ||
		got["body_size"] != float64(3) || got["redirect"] != "manual" || got["method"] != "GET" {
		t.Errorf("Prepare = %v", got)
	}
}

func TestPrepareRefuses(t *testing.T) {
	tool := newTool(t, egress.Config{MaxRequestBytes: 10})
	cases := []struct {
		params string
		err    error
		msg    string
	}{
		{`{"url":"file:///etc/passwd"}`, egress.ErrScheme, `url scheme "file" is not supported`},
		{`{"url":"ftp://example.com/"}`, egress.ErrScheme, "only http and https"},
		{`{"url":"gopher://example.com/"}`, egress.ErrScheme, "not supported"},
		{`{"url":"data:text/plain,hi"}`, egress.ErrScheme, "not supported"},
		{`{"url":"javascript:alert(1)"}`, egress.ErrScheme, "not supported"},
		{`{"url":"/relative"}`, egress.ErrInvalidURL, "not absolute"},
		{`{"url":"https://user:pw@example.com/"}`, egress.ErrUserinfo, "user name or password"},
		{`{"url":"https://user@example.com/"}`, egress.ErrUserinfo, "user name or password"},
		{`{"url":"http://2130706433/"}`, egress.ErrNonCanonicalIP, "not a canonical IPv4"},
		{`{"url":"http://0177.0.0.1/"}`, egress.ErrNonCanonicalIP, "not a canonical IPv4"},
		{`{"url":"http://0x7f.1/"}`, egress.ErrNonCanonicalIP, "not a canonical IPv4"},
		{`{"url":"http://0x7f000001/"}`, egress.ErrNonCanonicalIP, "not a canonical IPv4"},
		{`{"url":"http://127.1/"}`, egress.ErrNonCanonicalIP, "not a canonical IPv4"},
		{`{"url":"http://127.0.1/"}`, egress.ErrNonCanonicalIP, "not a canonical IPv4"},
		{`{"url":"http://1.2.3.4.5/"}`, egress.ErrNonCanonicalIP, "not a canonical IPv4"},
		{`{"url":"http://example.0x10/"}`, egress.ErrNonCanonicalIP, "not a canonical IPv4"},
		{`{"url":"http://[::ffff:127.0.0.1]/"}`, egress.ErrNonCanonicalIP, "IPv4-mapped"},
		{`{"url":"http://[::ffff:7f00:1]/"}`, egress.ErrNonCanonicalIP, "IPv4-mapped"},
		{`{"url":"http://[0:0:0:0:0:FFFF:8.8.8.8]/"}`, egress.ErrNonCanonicalIP, "IPv4-mapped"},
		{`{"url":"http://bücher.example/"}`, egress.ErrInvalidURL, "punycode"},
		{`{"url":"http://[fe80::1%25eth0]/"}`, egress.ErrInvalidURL, "zone"},
		{`{"url":"http://exa mple.com/"}`, egress.ErrInvalidURL, "contains"},
		{`{"url":"http://example.com\\@evil.com/"}`, egress.ErrInvalidURL, "contains"},
		{`{"url":"http://ex$ample.com/"}`, egress.ErrInvalidURL, "invalid"},
		{`{"url":"http://example.com:0/"}`, egress.ErrInvalidURL, "port"},
		{`{"url":"http://example.com:65536/"}`, egress.ErrInvalidURL, "port"},
		{`{"url":"http://example.com/%00"}`, egress.ErrInvalidURL, "path"},
		{`{"url":"http://example.com/a/..;/b"}`, egress.ErrInvalidURL, "dot segment"},
		{`{"url":"http://example.com/?a=1&A=2"}`, egress.ErrInvalidURL, "differ only in case"},
		{`{"url":"http://example.com/?a=1;b=2"}`, egress.ErrInvalidURL, "query"},
		{`{"url":"http://example.com/","headers":[["X-A","a\r\nHost: evil"]]}`, egress.ErrInvalidHeader, "control character"},
		{`{"url":"http://example.com/","headers":[["X-A","a\nb"]]}`, egress.ErrInvalidHeader, "control character"},
		{`{"url":"http://example.com/","headers":[["X-A","a\u0000b"]]}`, egress.ErrInvalidHeader, "control character"},
		{`{"url":"http://example.com/","headers":[["X A","b"]]}`, egress.ErrInvalidHeader, "invalid header name"},
		{`{"url":"http://example.com/","headers":[["X-A\r\n","b"]]}`, egress.ErrInvalidHeader, "invalid header name"},
		{`{"url":"http://example.com/","headers":[["Host","evil.com"]]}`, egress.ErrInvalidHeader, "host"},
		{`{"url":"http://example.com/","method":"GE T"}`, egress.ErrInvalidRequest, "invalid method"},
		{`{"url":"http://example.com/","method":"CONNECT"}`, egress.ErrInvalidRequest, "not supported"},
		{`{"url":"http://example.com/","method":"trace"}`, egress.ErrInvalidRequest, "not supported"},
		{`{"url":"http://example.com/","body":"01234567890"}`, egress.ErrTooLarge, "over the limit"},
		{`{"url":"http://example.com/","body":"a","body_base64":"YQ=="}`, egress.ErrInvalidRequest, "at most one"},
		{`{"url":"http://example.com/","body_base64":"!!"}`, egress.ErrInvalidRequest, "base64"},
		{`{"url":"http://example.com/","redirect":"sometimes"}`, egress.ErrInvalidRequest, "redirect"},
		{`{"url":"http://example.com/","host":"evil.com"}`, egress.ErrInvalidRequest, "unknown field"},
		{`{}`, egress.ErrInvalidURL, "missing"},
	}
	for _, c := range cases {
		_, err := prepare(t, tool, c.params)
		if err == nil {
			t.Errorf("Prepare(%s) allowed", c.params)
			continue
		}
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Prepare(%s) = %v, want %v mentioning %q", c.params, err, c.err, c.msg)
		}
	}
}

func TestPrepareHostForms(t *testing.T) {
	tool := newTool(t, egress.Config{})
	cases := map[string]string{
		"http://127.0.0.1/":            "127.0.0.1",
		"http://[0:0:0:0:0:0:0:1]/":    "::1",
		"http://[FE80::1]/":            "fe80::1",
		"http://xn--bcher-kva.example": "xn--bcher-kva.example",
		"http://LOCALHOST./":           "localhost",
	}
	for u, host := range cases {
		got, err := prepare(t, tool, `{"url":"`+u+`"}`)
		if err != nil {
			t.Errorf("Prepare(%s): %v", u, err)
			continue
		}
		if got["host"] != host {
			t.Errorf("Prepare(%s) host = %v, want %s", u, got["host"], host)
		}
	}
}

func TestNewRefusesConfig(t *testing.T) {
	for _, cfg := range []egress.Config{
		{AllowPrivate: []string{"*.internal:80"}},
		{AllowPrivate: []string{"127.0.0.1:"}},
		{AllowPrivate: []string{"::1"}},
		{AllowPrivate: []string{"db.internal"}},
		{AllowPrivate: []string{"http://127.0.0.1:80"}},
		{AllowPrivate: []string{"10.0.0.0/8"}},
		{AllowPrivate: []string{"db.internal:5432"}},
		{AllowPrivate: []string{"[::ffff:127.0.0.1]:80"}},
		{Method: "bad name!"},
		{MaxConcurrent: -1},
		{Credentials: []egress.Credential{{Host: "a.example", Header: "Authorization"}}},
		{Credentials: []egress.Credential{{Host: "a.example", Prefix: "https://a.example/", Header: "X", Env: "E"}}},
		{Credentials: []egress.Credential{{Host: "*.example", Header: "X", Env: "E"}}},
		{Credentials: []egress.Credential{{Prefix: "ftp://a.example/", Header: "X", Env: "E"}}},
		{Credentials: []egress.Credential{{Host: "a.example", Header: "X Y", Env: "E"}}},
	} {
		if _, err := egress.New(cfg); !errors.Is(err, egress.ErrConfig) {
			t.Errorf("New(%+v) = %v, want ErrConfig", cfg, err)
		}
	}
}
