package main

import (
	"bytes"
	"context"
	"testing"
)

// The three ways to build the payments policy decide the same calls, and
// the counters of one principal hold across its sandboxes.
func TestPolicy(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, "../payments-policy"); err != nil {
		t.Fatal(err)
	}
	want := `policy.New: ["ok","capability #0 \"payments/transfer\": amount <= 1000 does not hold (amount is 5000)","ok"]
authz.New: ["ok","capability #0 \"payments/transfer\": amount <= 1000 does not hold (amount is 5000)","ok"]
dsl.Shorthand: ["ok","capability #0 \"payments/transfer\": amount <= 1000 does not hold (amount is 5000)","ok"]
first sandbox of acme: ["ok","capability #0 \"payments/transfer\": amount <= 1000 does not hold (amount is 5000); capability #0 \"payments/transfer\": max_calls 1 used up","ok"]
second sandbox of acme: ["capability #0 \"payments/transfer\": max_calls 1 used up","capability #0 \"payments/transfer\": amount <= 1000 does not hold (amount is 5000); capability #0 \"payments/transfer\": max_calls 1 used up","ok"]
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
