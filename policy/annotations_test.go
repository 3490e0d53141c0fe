package policy_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/cordonhq/cordon/policy"
)

func TestAnnotationPermits(t *testing.T) {
	pol, err := policy.New(context.Background(), policy.Config{Modules: map[string]string{
		"a.rego": `package cordon.authz

read_only if input.tool.annotations.readOnlyHint

# Through a rule.
permit contains "ro" if read_only

is_safe(t) if t.annotations.readOnlyHint == true

# Through a function given input.tool.
permit contains "fn" if is_safe(input.tool)

# Not on annotations.
permit contains "method" if input.method == "x"

# A deny or an ask on annotations is not a permit.
deny contains "open" if input.tool.annotations.openWorldHint
ask contains "destructive" if input.tool.annotations.destructiveHint
`,
		"b.rego": `package lib

import input.tool.annotations as hints

trusted if hints.readOnlyHint
`,
		"c.rego": `package cordon.authz

import data.lib

# Through a rule of another package, and a variable.
permit contains "lib" if lib.trusted

permit contains "var" if {
	t := input.tool
	t.annotations.readOnlyHint
}
`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(pol.AnnotationPermits())
	want := "[{a.rego 6 permit} {a.rego 11 permit} {c.rego 6 permit} {c.rego 8 permit}]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	// The shipped example permits on the server, not on a hint.
	ex, err := policy.New(context.Background(), policy.Config{Paths: []string{"../examples/mcp-policy/mcp.rego"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ex.AnnotationPermits(); len(got) != 0 {
		t.Errorf("examples/mcp-policy: %v", got)
	}
}
