package describe_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/internal/abi"
)

// TestToolErrorKindsDeclared: the ToolError declaration that scripts and
// models read names, as its kind, exactly the kinds the host sends
// (abi.ToolErrorKinds), in the same order, then the one the guest makes
// itself (abi.ToolInvalidResult), and its comment explains each.
func TestToolErrorKindsDeclared(t *testing.T) {
	g := describe.Globals()
	m := regexp.MustCompile(`(?m)^  kind: (.*);$`).FindStringSubmatch(g)
	if m == nil {
		t.Fatal("the ToolError declaration has no kind line")
	}
	var declared []string
	for _, alt := range strings.Split(m[1], " | ") {
		declared = append(declared, strings.Trim(alt, `"`))
	}
	var want []string
	for _, k := range append(abi.ToolErrorKinds(), abi.ToolInvalidResult) {
		want = append(want, string(k))
		if !strings.Contains(g, `"`+string(k)+`":`) && !strings.Contains(g, `"`+string(k)+`";`) {
			t.Errorf("the ToolError comment does not explain %q", k)
		}
	}
	if !slices.Equal(declared, want) {
		t.Errorf("ToolError.kind is declared as %q; scripts see %q", declared, want)
	}
}
