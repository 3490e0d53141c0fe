package coreutils

import "testing"

// TestChmodModes checks mode compilation and application against values
// recorded with GNU chmod 9.1 under umask 022.
func TestChmodModes(t *testing.T) {
	cases := []struct {
		mode string
		old  uint32
		dir  bool
		want uint32
	}{
		{"755", 0o644, false, 0o755},
		{"u+x", 0o644, false, 0o744},
		{"go-r", 0o744, false, 0o700},
		{"a=r", 0o700, false, 0o444},
		{"u=rwx,g=rx,o=", 0o444, false, 0o750},
		{"+w", 0o444, false, 0o644},
		{"-x", 0o777, false, 0o666},
		{"=r", 0o666, false, 0o444},
		{"g=u", 0o640, false, 0o660},
		{"a+X", 0o600, false, 0o600},
		{"a+X", 0o700, false, 0o711},
		{"a+X", 0o644, true, 0o755},
		{"u+s,g+s", 0o755, false, 0o6755},
		{"+t", 0o644, false, 0o1644},
		{"ug+rw-x", 0o755, false, 0o665},
		{"7777", 0, false, 0o7777},
	}
	for _, c := range cases {
		ch, ok := compileMode(c.mode)
		if !ok {
			t.Errorf("%q: not a valid mode", c.mode)
			continue
		}
		if got := adjustMode(c.old, c.dir, chmodUmask, ch); got != c.want {
			t.Errorf("%q on %04o: got %04o, want %04o", c.mode, c.old, got, c.want)
		}
	}
	for _, bad := range []string{"", "abc", "99", "12345", "u+z", ",", "u", "u+r,", "+x:"} {
		if _, ok := compileMode(bad); ok {
			t.Errorf("%q: accepted", bad)
		}
	}
	if got := permString(0o4755); got != "rwsr-xr-x" {
		t.Errorf("permString(4755) = %q", got)
	}
	if got := permString(0o1644); got != "rw-r--r-T" {
		t.Errorf("permString(1644) = %q", got)
	}
}
