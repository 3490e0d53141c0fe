package config_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/config"
)

// TestOutputSchema: a tool's output_schema is a mapping, carried to the
// engine tool as its OutputSchema.
func TestOutputSchema(t *testing.T) {
	c, err := config.Parse("c.yaml", []byte(`tools:
  - name: weather/current
    input_schema: {type: object, properties: {city: {type: string}}}
    output_schema: {type: object, properties: {temp: {type: number}}}
    mock: {temp: 72}
`))
	if err != nil {
		t.Fatal(err)
	}
	tools := c.EngineTools()
	if got := string(tools[0].OutputSchema); got != `{"properties":{"temp":{"type":"number"}},"type":"object"}` {
		t.Errorf("OutputSchema %s", got)
	}
	if got := string(tools[0].InputSchema); got != `{"properties":{"city":{"type":"string"}},"type":"object"}` {
		t.Errorf("InputSchema %s", got)
	}
	for _, bad := range []string{"5", "[1]", "null", "x"} {
		_, err := config.Parse("c.yaml", []byte("tools: [{name: a, echo: true, output_schema: "+bad+"}]"))
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "config c.yaml: tools[0] (a).output_schema: must be a mapping") {
			t.Errorf("output_schema %s: %v", bad, err)
		}
	}
}
