package main

import (
	"bytes"
	"context"
	"testing"
)

// The program prints what the code-mode guide says it does.
func TestCodemode(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := `[returned]
saved
[stdout]
note: refund ch_1
{"refunded":40}
A script in the cordon sandbox wants to call payments/refund.
The policy asks for approval:
  - "capability #1 \"payments/refund\" requires approval"
All 2 params (constrained ones and numbers first, in full; long strings cut in the middle, with their length):
  amount = 500
  charge = "ch_2"
Approve this call?
[returned]
{"refunded":500}
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
