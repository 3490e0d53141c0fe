package main

import (
	"bytes"
	"context"
	"testing"
)

func TestVFSExample(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := `execution 1: {"A1":3,"C3":10}
execution 2: cannot change /data: EACCES
211
exported orders.csv (24 bytes)
exported out/ (0 bytes)
exported out/total.txt (7 bytes)
exported qty.json (16 bytes)
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
