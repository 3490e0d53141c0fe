package main

import (
	"bytes"
	"context"
	"testing"
)

func TestApproval(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := `A script in the cordon sandbox wants to call payments/send.
The policy asks for approval:
  - "payments above 1000 need an operator"
All 2 params (constrained ones and numbers first, in full; long strings cut in the middle, with their length):
  amount = 1500
  to = "acct_42"
Approve this call?
operator: approve=true
A script in the cordon sandbox wants to call payments/send.
The policy asks for approval:
  - "payments above 1000 need an operator"
All 2 params (constrained ones and numbers first, in full; long strings cut in the middle, with their length):
  amount = 5000
  to = "acct_42"
Approve this call?
operator: approve=false
["sent 25 as pay_1","sent 1500 as pay_2","not sent 5000: tool payments/send denied: amount 5000 needs a second approver","sent 80 as pay_3"]
audit: payments/send {"to":"acct_42","amount":25} allowed=true reasons=[]
audit: payments/send {"to":"acct_42","amount":1500} allowed=true reasons=[payments above 1000 need an operator]
audit: payments/send {"to":"acct_42","amount":5000} allowed=false reasons=[amount 5000 needs a second approver]
audit: payments/send {"to":"acct_42","amount":80} allowed=true reasons=[]
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
