package main

import (
	"bytes"
	"context"
	"testing"
)

func TestQuickstart(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := `kettle   39.50
mug      9.25
{"id":"ord_1","lines":2}
returned {"id":"ord_1","lines":2} (exit 0)
tool call: inventory/lookup {"sku":"A1"} allowed=true
tool call: inventory/lookup {"sku":"B2"} allowed=true
tool call: inventory/lookup {"sku":"C3"} allowed=true
tool call: orders/create {"lines":[{"sku":"A1","qty":1},{"sku":"C3","qty":1}]} allowed=true
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
