package textutils

import (
	"context"
	"testing"
)

// TestSedTextEscapesLabels: the text of a, i and c honours GNU's escapes;
// with & as the delimiter of s, \& in the replacement is a literal &;
// branch labels end at ';' and blanks ("b l }" closes the block).
// Expected outputs are GNU sed 4.9's.
func TestSedTextEscapesLabels(t *testing.T) {
	cases := []struct{ script, in, want string }{
		{"a foo\\tbar", "x\n", "x\nfoo\tbar\n"},
		{"a\\tfoo", "x\n", "x\ntfoo\n"},
		{"a\\\nfoo\\tbar\\nbaz", "x\n", "x\nfoo\tbar\nbaz\n"},
		{"i\\  lead\\x41", "x\n", "  leadA\nx\n"},
		{"c\\\\tz", "x\n", "\tz\n"},
		{"1{a A\\tB\n}", "x\n", "x\nA\tB\n"},
		{"a\\cAz\\d065\\o101", "x\n", "x\ncAzAA\n"},
		{"s&\\&&[\\&]&", "a&b\n", "a[&]b\n"},
		{"s&b&<\\&>&", "abc\n", "a<&>c\n"},
		{"/b/{s/b/X/;b l };s/$/!/;:l", "abc\nxyz\n", "aXc\nxyz!\n"},
		{":a;s/b/X/;ta", "abc\n", "aXc\n"},
		{": x;s/c/Y/;t x", "abc\n", "abY\n"},
		{"$!{N;b l }\n:l\ns/\\n/+/", "a\nb\nc\n", "a+b\nc\n"},
	}
	for _, c := range cases {
		t.Run(c.script, func(t *testing.T) {
			out, errs, code, _ := runCmd(context.Background(), nil, c.in, "sed", c.script)
			if out != c.want || code != 0 {
				t.Errorf("sed %q on %q: got %q (status %d, stderr %q), want %q", c.script, c.in, out, code, errs, c.want)
			}
		})
	}
}
