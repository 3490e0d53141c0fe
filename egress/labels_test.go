package egress_test

import (
	"slices"
	"testing"

	"github.com/cordonhq/cordon/egress"
)

// The fetch tool is labelled egress unless the host says otherwise, so
// that a flow rule on "egress" covers it with no configuration.
func TestDefaultLabels(t *testing.T) {
	tool, err := egress.New(egress.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tool.Labels, []string{"egress"}) {
		t.Errorf("labels %q, want [egress]", tool.Labels)
	}
	none, err := egress.New(egress.Config{Labels: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(none.Labels) != 0 {
		t.Errorf("labels %q, want none", none.Labels)
	}
}
