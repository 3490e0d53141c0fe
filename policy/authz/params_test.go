package authz

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

var numberCases = []string{
	"0", "1", "-1.5", "1e3", "1E100000", "1e-999999", "1e25000", "1e25001", "1e30103", "1e30104",
	"1e-30103", "1e-30104", "0e999999", "0.0000000001e30100", "123456789e30000", "1e+5", "1e-5",
	"9" + "e" + "99999999999999999999", "1e", "1.5e-07", "-0", "1e400", "1e-400",
}

// TestCheckNumberMatchesOPA checks that checkNumber refuses exactly the
// numbers OPA's ast.NumberChecked refuses, with the same message.
func TestCheckNumberMatchesOPA(t *testing.T) {
	refused := 0
	for _, s := range numberCases {
		compareNumber(t, s)
		if checkNumber(s) != nil {
			refused++
		}
	}
	if refused < 4 {
		t.Fatalf("only %d of the cases are refused: the test checks little", refused)
	}
}

func compareNumber(t *testing.T, s string) {
	t.Helper()
	err := checkNumber(s)
	_, want := ast.NumberChecked(s)
	if (err == nil) != (want == nil) || (err != nil && err.Error() != want.Error()) {
		t.Errorf("%q: checkNumber %v, OPA %v", s, err, want)
	}
}

func FuzzCheckNumber(f *testing.F) {
	for _, s := range numberCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		compareNumber(t, s)
	})
}
