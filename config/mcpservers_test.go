package config_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/config"
)

func TestMCPServers(t *testing.T) {
	c, err := config.Parse("c.yaml", []byte(`mcp_servers:
  - name: github
    command: [node, server.js]
    env: {TOKEN: x}
    cwd: srv
  - name: docs
    url: http://127.0.0.1:9000/mcp
    headers: {Authorization: Bearer y}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.MCPServers) != 2 || c.MCPServers[0].Command[1] != "server.js" || c.MCPServers[0].Env["TOKEN"] != "x" || c.MCPServers[1].Headers["Authorization"] != "Bearer y" {
		t.Fatalf("%+v", c.MCPServers)
	}
	for bad, want := range map[string]string{
		`mcp_servers: [{command: [x]}]`:                                            "mcp_servers[0].name: missing",
		`mcp_servers: [{name: a/b, command: [x]}]`:                                 "use letters, digits",
		`mcp_servers: [{name: a, command: [x]}, {name: a, url: "http://h/mcp"}]`:   "defined twice",
		`mcp_servers: [{name: a}]`:                                                 "needs command",
		`mcp_servers: [{name: a, command: [x], url: "http://h/"}]`:                 "both command and url",
		`mcp_servers: [{name: a, url: "ftp://h/"}]`:                                "not an http or https URL",
		`mcp_servers: [{name: a, url: "http://h/", cwd: x}]`:                       "env and cwd are for a command",
		`mcp_servers: [{name: a, command: [x], headers: {A: b}}]`:                  "headers are for a url server",
		`mcp_servers: [{name: a, command: [x], bogus: 1}]`:                         "bogus",
		"tools: [{name: a/b, echo: true}]\nmcp_servers: [{name: a, command: [x]}]": "namespace a/",
		// Credentials never travel in clear text, but to this machine.
		`mcp_servers: [{name: a, url: "http://h.example/mcp", headers: {Authorization: x}}]`: "mcp_servers[0] (a).url: plain http to a host that is not loopback",
		`mcp_servers: [{name: a, url: "http://u:p@h.example/mcp"}]`:                          "plain http to a host that is not loopback",
		`mcp_servers: [{name: a, url: "http://h/", inherit_env: [X]}]`:                       "env, inherit_env and cwd are for a command",
		`mcp_servers: [{name: a, command: [x], inherit_env: ["A=B"]}]`:                       `mcp_servers[0] (a).inherit_env[0]: "A=B" is not a variable name`,
		`mcp_servers: [{name: a, command: [x], env: {"": v}}]`:                               `"" is not a variable name`,
		`mcp_servers: [{name: a, command: [x], annotations: {t: {}}}]`:                       "mcp_servers[0] (a).annotations.t: pins no hint",
		`mcp_servers: [{name: a, command: [x], annotations: {t: {readonlyhint: true}}}]`:     `unknown key "mcp_servers[0].annotations.t.readonlyhint"`,
		`mcp_servers: [{name: a, command: [x], annotations: {t: {readOnlyHint: 1}}}]`:        "readOnlyHint",
		`mcp_servers: [{name: a, command: [x], trust_annotations: "yes"}]`:                   "trust_annotations",
	} {
		_, err := config.Parse("c.yaml", []byte(bad))
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", bad, err, want)
		}
	}
}

// TestMCPServerTrust: trust_annotations, annotations (pinned hints) and
// inherit_env load as mcptools.Upstream's fields; a url server on a loopback
// address may take headers over plain http.
func TestMCPServerTrust(t *testing.T) {
	c, err := config.Parse("c.yaml", []byte(`mcp_servers:
  - name: github
    command: [srv]
    inherit_env: [GITHUB_TOKEN]
    annotations:
      list_issues: {readOnlyHint: true, openWorldHint: false}
  - name: docs
    url: http://localhost:9000/mcp
    headers: {Authorization: Bearer y}
    trust_annotations: true
  - {name: v6, url: "http://[::1]:9000/mcp", headers: {A: b}}
  - {name: tls, url: "https://docs.example.com/mcp", headers: {A: b}}
`))
	if err != nil {
		t.Fatal(err)
	}
	gh, docs := c.MCPServers[0], c.MCPServers[1]
	pin := gh.Annotations["list_issues"]
	if gh.TrustAnnotations || !docs.TrustAnnotations || gh.InheritEnv[0] != "GITHUB_TOKEN" ||
		pin.ReadOnly == nil || !*pin.ReadOnly || pin.OpenWorld == nil || *pin.OpenWorld || pin.Destructive != nil {
		t.Fatalf("%+v", c.MCPServers)
	}
	if got := gh.PolicyInfo("list_issues", nil).Annotations; !got["readOnlyHint"] || got["openWorldHint"] || !got["destructiveHint"] {
		t.Errorf("pinned hints: %v", got)
	}
}
