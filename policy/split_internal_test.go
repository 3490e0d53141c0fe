package policy

import (
	"context"
	"testing"

	"github.com/cordonhq/cordon/dsl"
)

// A policy is split only when the user's rules cannot see the library,
// and each split policy gives its queries only the input fields its rules
// read.
func TestSplitOnlyWhatCannotSeeTheLibrary(t *testing.T) {
	for _, c := range []struct {
		pkg    string
		rule   string
		data   map[string]any
		split  bool
		fields inputFields
	}{
		{rule: `permit contains "r" if startswith(input.method, "db/read_")`, split: true, fields: fieldMethod},
		{rule: `deny contains "d" if input.params.amount > 5`, split: true, fields: fieldParams},
		{rule: `ask contains "a" if input.session.principal == "eve"`, split: true, fields: fieldSession},
		{rule: `deny contains "d" if input[_].id == "s"`, split: true, fields: allFields},
		{rule: `deny contains "d" if count(json.marshal(input)) > 5`, split: true, fields: allFields},
		{rule: "import input.tool as t\n\ndeny contains \"d\" if t.server == \"x\"", split: true, fields: fieldTool},
		{rule: `helper := 1`, split: true},
		{rule: `deny contains "d" if data.limits.max > 1`, data: map[string]any{"limits": map[string]any{"max": 1}}, split: true},
		{rule: `deny contains "d" if data.cordon.x == 1`, data: map[string]any{"cordon": map[string]any{"x": 1}}},
		{rule: `deny contains "d" if capability == 0`},
		{rule: `deny contains "d" if count(permit) == 0`},
		{rule: `ask contains "a" if count(deny) == 0`},
		{rule: `deny contains "d" if data.cordon.capabilities.matched[0]`},
		{pkg: "other", rule: `h := data.cordon.authz.reasons`},
		{pkg: "other", rule: `h if data[_].authz`},
		{pkg: "other", rule: `h if walk(data.cordon, [_, 1])`},
		{pkg: "other", rule: `h := data.cordon`},
		{pkg: "cordon", rule: `authz.permit := 1`},
		{pkg: "cordon.authz.deny", rule: `h := 1`},
		{rule: `allow if input.method == "x"`},
		{rule: `reasons := ["x"] if input.method == "x"`},
		{rule: `deny contains "d" if x := 1 with data.cordon.authz.gate as 1`},
	} {
		if c.pkg == "" {
			c.pkg = "cordon.authz"
		}
		src := "package " + c.pkg + "\n\n" + c.rule + "\n"
		p, err := New(context.Background(), Config{Capabilities: []*dsl.Capability{dsl.Method("**")}, Modules: map[string]string{"u.rego": src}, Data: c.data})
		if err != nil {
			if !c.split {
				t.Logf("%s: refused: %v", c.rule, err)
				continue // the whole program refuses it too
			}
			t.Errorf("%s: %v", c.rule, err)
			continue
		}
		if (p.split != nil) != c.split {
			t.Errorf("%s: split %v, want %v", c.rule, p.split != nil, c.split)
			continue
		}
		if p.split != nil && p.split.fields != c.fields {
			t.Errorf("%s: fields %b, want %b", c.rule, p.split.fields, c.fields)
		}
	}
	// A rule in another package that defines a path of the library.
	p, err := New(context.Background(), Config{Modules: map[string]string{"u.rego": "package cordon\n\nauthz.helper := 1\n", "v.rego": "package cordon.authz\n\ndeny contains \"d\" if input.method == \"x\"\n"}})
	if err != nil || p.split == nil {
		t.Errorf("a helper beside the library: %v, split %v", err, p != nil && p.split != nil)
	}
	p, err = New(context.Background(), Config{AlwaysRego: true, Modules: map[string]string{"v.rego": "package cordon.authz\n\ndeny contains \"d\" if input.method == \"x\"\n"}})
	if err != nil || p.split != nil || p.native != nil {
		t.Errorf("AlwaysRego: %v, split %v", err, p != nil && p.split != nil)
	}
}
