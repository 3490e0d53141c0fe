package jsrt

import (
	"regexp"
	"slices"
	"sort"
	"testing"

	tooldesc "github.com/cordonhq/cordon/describe"
)

// The sandbox API that scripts get (apiBuilders) is the API that models
// are told about (describe.Globals, the TypeScript declarations in every
// prompt): each global has its top-level declaration, and each
// declaration names a global. A global added here without its declaration
// in describe/globals.go, or the reverse, fails (CONTRIBUTING.md, "Add a
// JavaScript global").
func TestAPIGlobalsDeclared(t *testing.T) {
	var declared []string
	for _, m := range regexp.MustCompile(`(?m)^declare (?:function|const|var|let|class) ([A-Za-z_$][\w$]*)`).FindAllStringSubmatch(tooldesc.Globals(), -1) {
		if !slices.Contains(declared, m[1]) {
			declared = append(declared, m[1])
		}
	}
	var built []string
	for name := range apiBuilders {
		built = append(built, name)
	}
	sort.Strings(built)
	for _, name := range built {
		if !slices.Contains(declared, name) {
			t.Errorf("the global %s has no declaration in describe.Globals (describe/globals.go)", name)
		}
	}
	for _, name := range declared {
		if apiBuilders[name] == nil {
			t.Errorf("describe.Globals declares %s, which apiBuilders does not build", name)
		}
	}
	if len(built) < 10 {
		t.Errorf("apiBuilders has %d globals: %q", len(built), built)
	}
}
