package config_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/cordonhq/cordon/config"
)

func ExampleParse() {
	src := []byte(`
tools:
  - name: weather/current
    mock: {temp_f: 72}
capabilities:
  - method: "weather/*"
    max_calls: 10
    constraints:
      - city in ["Paris", "Oslo"]
limits: {timeout: 5s}
`)
	c, err := config.Parse("agent.yaml", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(c.EngineTools()), "tool,", len(c.ParsedCapabilities()), "capability, timeout", c.SandboxLimits().Timeout)
	p, err := c.Policy(context.Background(), nil)
	fmt.Println(p != nil, err)

	// A key given twice is an error that names the file, the key and the lines.
	_, err = config.Parse("agent.yaml", []byte("limits: {timeout: 5s}\nlimits: {timeout: 1h}\n"))
	fmt.Println(err, errors.Is(err, config.ErrInvalid))
	// Output:
	// 1 tool, 1 capability, timeout 5s
	// true <nil>
	// config agent.yaml: limits: duplicate key at line 2, column 1 (first at line 1, column 1); a key may appear once in a mapping true
}

// Load reads a config file; the paths the file names (policies, bundles)
// are relative to its directory. The limits it leaves out are the
// engine's defaults.
func ExampleLoad() {
	dir, err := os.MkdirTemp("", "cordon-config")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "cordon.yaml")
	yaml := "tools:\n  - {name: crm/customers/list, mock: []}\ncapabilities:\n  - {method: \"crm/**\", max_calls: 5}\nlimits: {max_tool_calls: 50}\n"
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		log.Fatal(err)
	}

	c, err := config.Load(file)
	if err != nil {
		log.Fatal(err)
	}
	l := c.SandboxLimits()
	fmt.Println(c.EngineTools()[0].Name, l.MaxToolCalls, l.Timeout)

	_, err = config.Load(filepath.Join(dir, "missing.yaml"))
	fmt.Println(err != nil)
	// Output:
	// crm/customers/list 50 0s
	// true
}
