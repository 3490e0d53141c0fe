package config_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/config"
)

func TestHTTPSection(t *testing.T) {
	c, err := config.Parse("t.yaml", []byte(`
tools: [{name: a/b, mock: 1}]
http:
  allow_private: ["127.0.0.1:8080"]
  credentials: [{host: api.github.com, header: Authorization, env: GH_TOKEN, value_prefix: "Bearer "}]
  max_response_bytes: 1000
  timeout: 5s
`))
	if err != nil {
		t.Fatal(err)
	}
	ec, ok := c.EgressConfig()
	if !ok || ec.MaxResponseBytes != 1000 || ec.Timeout.String() != "5s" || len(ec.Credentials) != 1 || ec.Credentials[0].Env != "GH_TOKEN" {
		t.Errorf("EgressConfig = %+v, %v", ec, ok)
	}
	if tool, ok := c.FetchTool(); !ok || tool.Name != "http/fetch" || !tool.Fetch || len(c.EngineTools()) != 1 {
		t.Errorf("FetchTool = %+v, %v", tool, ok)
	}

	c, err = config.Parse("t.yaml", []byte(`tools: [{name: a/b, mock: 1}]`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.FetchTool(); ok || len(c.EngineTools()) != 1 {
		t.Errorf("a config without http has a fetch tool")
	}
}

func TestHTTPSectionRefused(t *testing.T) {
	for _, c := range []struct{ yaml, key string }{
		{`http: {allow_private: ["*.internal:80"]}`, "http"},
		{`http: {allow_private: ["db.internal"]}`, "http"},
		{`http: {allow_private: ["10.0.0.1:"]}`, "http"},
		{`http: {credentials: [{host: a.example, header: X-Key}]}`, "http.credentials[0].env"},
		{`http: {credentials: [{host: a.example, prefix: "https://a.example/", header: X-Key, env: K}]}`, "http"},
		{`http: {max_redirects: -1}`, "http.max_redirects"},
		{`http: {timeout: soon}`, "http.timeout"},
		{`http: {timeout: -1s}`, "http.timeout"},
		{`http: {method: "a/b"}` + "\ntools: [{name: a/b, mock: 1}]", "http.method"},
		{`http: {unknown: 1}`, ""},
	} {
		_, err := config.Parse("t.yaml", []byte(c.yaml))
		var ce *config.Error
		if !errors.As(err, &ce) || (c.key != "" && ce.Key != c.key) {
			t.Errorf("%s: %v, want an error at key %q", c.yaml, err, c.key)
		}
	}
}

func TestAllowHost(t *testing.T) {
	c, err := config.Parse("t.yaml", []byte(`tools: [{name: a/b, mock: 1}]`))
	if err != nil {
		t.Fatal(err)
	}
	c.AllowTools()
	for _, h := range []string{"API.GitHub.com", "127.0.0.1:8080", "localhost", "[::1]:9000"} {
		if err := c.AllowHost(h); err != nil {
			t.Fatalf("AllowHost(%s): %v", h, err)
		}
	}
	ec, _ := c.EgressConfig()
	if got := strings.Join(ec.AllowPrivate, " "); got != "127.0.0.1:8080 localhost [::1]:9000" {
		t.Errorf("allow_private = %s", got)
	}
	var names []string
	for _, k := range c.ParsedCapabilities() {
		names = append(names, k.Label())
	}
	if !c.HasPolicy() || len(names) != 5 || names[0] != "a/b" {
		t.Errorf("capabilities = %q", names)
	}
	// A host again, on other ports: its one capability widens.
	for _, h := range []string{"127.0.0.1:9090", "127.0.0.1:8080"} {
		if err := c.AllowHost(h); err != nil {
			t.Fatalf("AllowHost(%s): %v", h, err)
		}
	}
	caps := c.ParsedCapabilities()
	if len(caps) != 5 || caps[2].Label() != "--allow-host 127.0.0.1:8080, 127.0.0.1:9090" {
		t.Errorf("after a host again: %d capabilities, #2 %q", len(caps), caps[2].Label())
	}
	for _, h := range []string{"*.github.com", "https://x.example/", "2130706433", "::1", "a.example:0"} {
		if err := c.AllowHost(h); err == nil {
			t.Errorf("AllowHost(%s) allowed", h)
		}
	}
}
