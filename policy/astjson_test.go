package policy

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

var paramsSeeds = []string{
	`{}`, `{"a": 1}`, `{"a": [1, 2.5e3, -0.0, true, false, null, {"b": "c"}]}`, `{"s": "\u00e9\ud83d\ude00\n\"\\"}`,
	`{"a": 1, "a": 2}`, "{\"bad\": \"\xff\xfe\"}", `{"n": 12345678901234567890123456789}`, `  {"x" : [ ] , "y" : { } }  `,
	`{"k\u0000": "v"}`, `{"big": 1E100000}`, `1E100000`, `{"a": [1e-400000]}`, `[1]`, `"s"`, `1`, `null`, `{"a": }`, `{"a": 1} x`, `{`, ``,
}

// TestParamsValueMatchesOPA checks the fast params reader against OPA's own
// (encoding/json, then InterfaceToValue): the same value or both an error.
func TestParamsValueMatchesOPA(t *testing.T) {
	for _, s := range paramsSeeds {
		checkParamsValue(t, []byte(s))
	}
}

func FuzzParamsValue(f *testing.F) {
	for _, s := range paramsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkParamsValue)
}

func checkParamsValue(t *testing.T, b []byte) {
	got, err := paramsValue(b)
	want, werr := ast.ValueFromReader(bytes.NewReader(b))
	if werr == nil && err == nil {
		if got.Compare(want) != 0 {
			t.Errorf("%q: got %v, OPA reads %v", b, got, want)
		}
		return
	}
	// Stricter than OPA is fine (it ignores text after the value); looser
	// is not.
	if werr == nil && err != nil && json.Valid(b) && bytes.Count(b, []byte("[")) <= maxParamDepth && bytes.Count(b, []byte("{")) <= maxParamDepth {
		t.Errorf("%q: error %v, OPA reads %v", b, err, want)
	}
	if werr != nil && err == nil {
		t.Errorf("%q: read %v, OPA fails: %v", b, got, werr)
	}
}
