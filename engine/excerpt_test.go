package engine_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cordonhq/cordon/engine"
)

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestExcerptKeepsSmallJSONWhole(t *testing.T) {
	doc := []byte(`{"amount": 5, "currency": "USD"}`)
	e := engine.NewExcerpt(doc, 64)
	if string(e.JSON) != string(doc) || e.Text != "" || e.Truncated || e.Bytes != len(doc) || e.SHA256 != sha(doc) {
		t.Fatalf("%+v", e)
	}
	doc[2] = 'X' // the excerpt holds a copy
	if bytes.Equal(e.JSON, doc) {
		t.Error("the excerpt shares the document's bytes")
	}
	b, _ := json.Marshal(e)
	if want := `{"json":{"amount":5,"currency":"USD"},"bytes":32,"sha256":"` + e.SHA256 + `","truncated":false}`; string(b) != want {
		t.Errorf("marshaled %s, want %s", b, want)
	}
}

func TestExcerptCutsLargeDocuments(t *testing.T) {
	doc := []byte(`{"data":"` + strings.Repeat("a", 100000) + `"}`)
	e := engine.NewExcerpt(doc, 100)
	if e.JSON != nil || len(e.Text) != 100 || !strings.HasPrefix(string(doc), e.Text) || !e.Truncated || e.Bytes != len(doc) || e.SHA256 != sha(doc) {
		t.Fatalf("%+v", e)
	}
	// A cut never splits a UTF-8 sequence: "é" is two bytes, "€" three.
	for _, s := range []string{"é", "€", "😀"} {
		for max := 1; max < 12; max++ {
			doc := []byte(`"` + strings.Repeat(s, 10) + `"`)
			e := engine.NewExcerpt(doc, max)
			if len(e.Text) > max || len(e.Text) < max-utf8.UTFMax+1 || !utf8.ValidString(e.Text) || !strings.HasPrefix(string(doc), e.Text) {
				t.Errorf("%q cut at %d: %q", doc, max, e.Text)
			}
		}
	}
	// Bytes that are not UTF-8 are cut at the size.
	if e := engine.NewExcerpt(bytes.Repeat([]byte{0x80}, 50), 10); len(e.Text) != 10 || !e.Truncated {
		t.Errorf("not UTF-8: %+v", e)
	}
}

func TestExcerptOfInvalidAndEmptyDocuments(t *testing.T) {
	e := engine.NewExcerpt([]byte("not json"), 64)
	if e.JSON != nil || e.Text != "not json" || e.Truncated || e.Bytes != 8 {
		t.Errorf("invalid: %+v", e)
	}
	for _, doc := range [][]byte{nil, {}} {
		e := engine.NewExcerpt(doc, 64)
		b, _ := json.Marshal(e)
		if want := `{"bytes":0,"sha256":"` + sha(nil) + `","truncated":false}`; string(b) != want {
			t.Errorf("empty: %s, want %s", b, want)
		}
	}
	// A max of 0 means the default.
	big := []byte(`"` + strings.Repeat("x", 2*engine.DefaultExcerptBytes) + `"`)
	if e := engine.NewExcerpt(big, 0); len(e.Text) != engine.DefaultExcerptBytes || !e.Truncated {
		t.Errorf("default size: %d bytes kept", len(e.Text))
	}
}
