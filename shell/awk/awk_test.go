package awk

import (
	"context"
	"testing"
)

type awkCase struct {
	name   string
	args   []string
	stdin  string
	want   string
	status int
}

func TestCases(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, status, _ := runAwk(t, context.Background(), c.args, c.stdin)
			if out != c.want || status != c.status {
				t.Errorf("awk %q\nstdout: %q\nwant:   %q\nstatus %d, want %d\nstderr: %s", c.args, out, c.want, status, c.status, errOut)
			}
		})
	}
}
