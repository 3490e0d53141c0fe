package engine

import "testing"

// BenchmarkValidateParams is the host's cost of checking one call's
// canonical params against a tool's input schema (BenchmarkToolCallSchema
// has the round trip).
func BenchmarkValidateParams(b *testing.B) {
	s, err := compileSchema([]byte(`{"type": "object", "additionalProperties": false, "required": ["i"],
  "properties": {"i": {"type": "integer", "minimum": 0}, "note": {"type": "string", "maxLength": 200},
    "tags": {"type": "array", "items": {"type": "string"}}, "currency": {"enum": ["USD", "EUR"]}}}`))
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, params string }{
		{"small", `{"i":42}`},
		{"typical", `{"currency":"USD","i":42,"note":"monthly invoice for acme","tags":["a","b","c"]}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			params := []byte(bc.params)
			b.ReportAllocs()
			for b.Loop() {
				if r := validateParams(s, params); r != nil {
					b.Fatal(r)
				}
			}
		})
	}
}
