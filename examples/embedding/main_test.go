package main

import (
	"bytes"
	"context"
	"testing"
)

// The program prints what the embedding guide says it does.
func TestEmbedding(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := `js: ["kettle","teapot","denied"]
  inventory/lookup {"sku":"A1"} allowed=true []
  inventory/lookup {"sku":"A2"} allowed=true []
  inventory/lookup {"sku":"B7"} allowed=false [capability #0 "inventory/lookup": sku starts_with "A" does not hold (sku is "B7")]
sh: kettle
step 1
exit 1, exception "TypeError: bad"
handler saw: [{"id":1,"method":"a/echo","tenant":"acme"},{"id":2,"method":"b/echo","tenant":"acme"}]
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
