package dsl

import (
	"encoding/json"
	"math/big"
	"strings"

	"github.com/cordonhq/cordon/internal/dslutil"
)

// jsonEqual reports whether two normalized JSON values are equal, with
// numbers compared by value (1 equals 1.0), as Rego compares them.
func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		return ok && compareNumbers(a, bn) == 0
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !jsonEqual(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			w, ok := bm[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// compareNumbers compares two JSON numbers, with 1024 bits of precision
// (about 300 decimal digits), which is exact for every number that is not
// absurdly long.
func compareNumbers(a, b json.Number) int {
	if a == b {
		return 0
	}
	x, _, err1 := big.ParseFloat(string(a), 10, 1024, big.ToNearestEven)
	y, _, err2 := big.ParseFloat(string(b), 10, 1024, big.ToNearestEven)
	if err1 != nil || err2 != nil {
		return strings.Compare(string(a), string(b))
	}
	return x.Cmp(y)
}

// Normalize returns v as the JSON value that encoding/json makes of it:
// nil, bool, [json.Number], string, []any or map[string]any, which is what
// [Constraint.Value] holds. Numbers keep their JSON text ([json.Number]), so
// that no precision is lost. It fails for a value that encoding/json
// cannot marshal. Param's builders normalize their values; a Constraint
// built as a struct literal needs a normalized Value.
func Normalize(v any) (any, error) { return dslutil.Normalize(v) }

// Quote returns s as a JSON string literal, which is also a Rego string
// literal, as reasons and constraint texts quote names: quotes and
// backslashes are escaped, and so is every character that is not
// printable (control characters, line and paragraph separators, invalid
// UTF-8 bytes, which become U+FFFD), as \uXXXX. The result never contains
// a line break.
func Quote(s string) string { return dslutil.Quote(s) }
