package describe_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/dsl"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// toolSet is a testdata/*.json file: tools shaped like real APIs' (GitHub's
// and Stripe's) and edge cases, with the capabilities of a policy.
type toolSet struct {
	name  string
	tools []describe.ToolSpec
	caps  []*dsl.Capability
}

func loadSet(t *testing.T, file string) toolSet {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Tools []struct {
			Name         string          `json:"name"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"input_schema"`
			OutputSchema json.RawMessage `json:"output_schema"`
		} `json:"tools"`
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	set := toolSet{name: strings.TrimSuffix(filepath.Base(file), ".json")}
	for _, rt := range raw.Tools {
		tool := describe.ToolSpec{Name: rt.Name, Description: rt.Description, InputSchema: rt.InputSchema, OutputSchema: rt.OutputSchema}
		if s, ok := strings.CutPrefix(string(rt.InputSchema), `"`); ok {
			tool.InputSchema = json.RawMessage(strings.TrimSuffix(s, `"`)) // a schema that is not JSON
		}
		set.tools = append(set.tools, tool)
	}
	if set.caps, err = dsl.ParseCapabilities(raw.Capabilities); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return set
}

func loadSets(t *testing.T) []toolSet {
	t.Helper()
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no tool sets in testdata: %v", err)
	}
	var sets []toolSet
	for _, f := range files {
		if strings.Contains(filepath.Base(f), ".") && strings.Count(filepath.Base(f), ".") > 1 {
			continue // a golden output (x.out.json)
		}
		sets = append(sets, loadSet(t, f))
	}
	return sets
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./describe -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (run go test ./describe -update and review the diff):\n%s", file, got)
	}
}

// TestGolden pins each tool set's declarations, prompt and JSON, and for
// some the shell-only prompt and the compact form. Run
// "go test ./describe -update" to rewrite them.
func TestGolden(t *testing.T) {
	for _, set := range loadSets(t) {
		t.Run(set.name, func(t *testing.T) {
			opts := describe.Options{Capabilities: set.caps}
			ts := describe.TypeScript(set.tools, opts)
			if again := describe.TypeScript(set.tools, opts); again != ts {
				t.Fatal("the declarations are not deterministic")
			}
			golden(t, set.name+".d.ts", ts)
			golden(t, set.name+".prompt.md", describe.Prompt(set.tools, describe.Options{Capabilities: set.caps, MaxBytes: -1}))
			js, err := describe.JSON(set.tools, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(js) {
				t.Fatal("JSON is not valid JSON")
			}
			golden(t, set.name+".out.json", string(js)+"\n")
			switch set.name {
			case "github":
				golden(t, set.name+".sh.md", describe.Prompt(set.tools, describe.Options{Capabilities: set.caps, Language: describe.Shell, MaxBytes: -1}))
			case "stripe":
				golden(t, set.name+".compact.md", describe.Prompt(set.tools, describe.Options{Capabilities: set.caps, MaxBytes: 4096}))
			}
		})
	}
}
