package config_test

import (
	"context"
	"errors"
	"fmt"

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
