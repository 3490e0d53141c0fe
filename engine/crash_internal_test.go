package engine

import (
	"errors"
	"testing"
)

// Both ways the guest's Go runtime says it ran out of memory are a memory
// error, not a crash.
func TestRanOutOfMemory(t *testing.T) {
	for _, c := range []struct {
		diag string
		exit error
		want bool
	}{
		{"fatal error: runtime: out of memory", nil, true},
		{"fatal error: runtime: cannot allocate memory\n\nruntime stack:", nil, true},
		{"", errors.New("wasm: memory grow failed"), true},
		{"panic: index out of range", nil, false},
		{"", errors.New("module closed with exit_code(2)"), false},
	} {
		if got := ranOutOfMemory(c.diag, c.exit); got != c.want {
			t.Errorf("%q %v: %v, want %v", c.diag, c.exit, got, c.want)
		}
	}
}
