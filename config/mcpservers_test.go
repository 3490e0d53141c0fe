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
	} {
		_, err := config.Parse("c.yaml", []byte(bad))
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", bad, err, want)
		}
	}
}
