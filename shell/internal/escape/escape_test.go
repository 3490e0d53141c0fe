package escape

import "testing"

// TestDecode pins each context's rules where the contexts differ: \c, the
// octal forms (\0NNN against \NNN), \e, \x, \u, the quote escapes and what
// an unknown escape becomes.
func TestDecode(t *testing.T) {
	type tc struct {
		in, want string
		stop     bool
	}
	contexts := []struct {
		name  string
		c     Context
		cases []tc
	}{
		{"echo", Echo, []tc{
			{`a\tb\n`, "a\tb\n", false},
			{`\e\E\a\b\f\r\v\\`, "\x1b\x1b\a\b\f\r\v\\", false},
			{`\0101\01`, "A\x01", false},
			{`\101`, `\101`, false},
			{`\x41\x4g\xg`, "A\x04g\\xg", false},
			{`\u00e9\U0001F600\u`, "é😀\\u", false},
			{`\"\'\?\q`, `\"\'\?\q`, false},
			{`ab\cde`, "ab", true},
			{`end\`, `end\`, false},
		}},
		{"printf %b", PrintfArg, []tc{
			{`\101\0101\08`, "AA\x008", false},
			{`\777`, "\xff", false},
			{`x\cy`, "x", true},
			{`\"\q`, `\"\q`, false},
		}},
		{"find -printf", Find, []tc{
			{`\a\b\f\n\r\t\v\\`, "\a\b\f\n\r\t\v\\", false},
			{`\0|\012|\101|\777|\08`, "\x00|\n|A|\xff|\x008", false},
			{`\q\e\x41\u0041`, `\q\e\x41\u0041`, false},
			{`%p\c-x`, "%p", true},
			{`end\`, `end\`, false},
		}},
		{"curl --write-out", CurlWriteOut, []tc{
			{`\n\r\t`, "\n\r\t", false},
			{`\\\q\a\0\c`, `\\\q\a\0\c`, false},
			{`end\`, `end\`, false},
		}},
		{"printf format", PrintfFormat, []tc{
			{`\101\0101`, "A\x081", false},
			{`\"\'\?`, `"'?`, false},
			{`\c\q`, `\c\q`, false},
			{`\e\x41\u00e9`, "\x1bAé", false},
		}},
		{"$'...'", ANSIC, []tc{
			{`\cA\ca\c?`, "\x01\x01\x1f", false},
			{`\c`, `\c`, false},
			{`\101\0\"\'\?\q`, "A\x00\"'?\\q", false},
			{`\x41\u263A`, "A☺", false},
		}},
		{"stat", Stat, []tc{
			{`\n\t\\\"\a\b\f\r\v`, "\n\t\\\"\a\b\f\r\v", false},
			{`\101\0101\777`, "A\x081\xff", false},
			{`\e\x41\c\'`, `\e\x41\c\'`, false},
		}},
		{"tr", Tr, []tc{
			{`\n\t\a\b\f\r\v`, "\n\t\a\b\f\r\v", false},
			{`\101\400\0`, "A 0\x00", false},
			{`\\\-\q\e`, `\-qe`, false},
		}},
		{"sed text", SedText, []tc{
			{`\t\n\a\f\v\r`, "\t\n\a\f\v\r", false},
			{`\b\e\q\\`, `beq\`, false},
			{`\cA\cz`, "\x01\x1a", false},
			{"\\c\n", "c\n", false},
			{`\x41\d065\o101\x\d999`, "AAAxc9", false},
			{`\101`, `101`, false},
		}},
		{"sed replacement", SedReplacement, []tc{
			{"\\c\n", "J", false},
			{`\cA\x41`, "\x01A", false},
		}},
		{"sed y", SedY, []tc{
			{`\n\t\a\/\\`, "\n\t\a/\\", false},
		}},
		{"awk", AWK, []tc{
			{`\n\t\r\a\b\f\v\\\"\/`, "\n\t\r\a\b\f\v\\\"/", false},
			{`\101\0\1234`, "A\x00S4", false},
			{`\x41\x414\xg`, "AA4\\xg", false},
			{`\q\e\u0041\c`, `qeu0041c`, false},
		}},
	}
	for _, ctx := range contexts {
		t.Run(ctx.name, func(t *testing.T) {
			for _, c := range ctx.cases {
				t.Run(c.in, func(t *testing.T) {
					got, stop := Decode(ctx.c, c.in)
					if got != c.want || stop != c.stop {
						t.Errorf("Decode(%q) = %q, %v; want %q, %v", c.in, got, stop, c.want, c.stop)
					}
				})
			}
		})
	}
}

func TestAppendNext(t *testing.T) {
	cases := []struct {
		name string
		c    Context
		s    string
		i    int
		out  string
		next int
	}{
		{"octal stops after three digits", AWK, `\1234`, 0, "S", 4},
		{"tr octal stops below 256", Tr, `\400`, 0, " ", 3},
		{"trailing backslash", Echo, `a\`, 1, `\`, 2},
		{"unicode takes up to four digits", PrintfFormat, `\u00e9f`, 0, "é", 6},
		{"sed number digits", SedText, `\d2555`, 0, "\xff", 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, next, _ := Append(c.c, nil, c.s, c.i)
			if string(out) != c.out || next != c.next {
				t.Errorf("Append(%q, %d) = %q, %d; want %q, %d", c.s, c.i, out, next, c.out, c.next)
			}
		})
	}
}

func TestSedNumber(t *testing.T) {
	cases := []struct {
		s    string
		kind byte
		b    byte
		n    int
	}{
		{"41", 'x', 'A', 2}, {"4g", 'x', 4, 1}, {"g", 'x', 0, 0},
		{"065", 'd', 'A', 3}, {"256", 'd', 25, 2}, {"101", 'o', 'A', 3}, {"8", 'o', 0, 0},
	}
	for _, c := range cases {
		t.Run(string(c.kind)+c.s, func(t *testing.T) {
			if b, n := SedNumber(c.s, c.kind); b != c.b || n != c.n {
				t.Errorf("SedNumber(%q, %c) = %d, %d; want %d, %d", c.s, c.kind, b, n, c.b, c.n)
			}
		})
	}
}

func TestDigitValue(t *testing.T) {
	for c, want := range map[byte]int{'0': 0, '9': 9, 'a': 10, 'f': 15, 'A': 10, 'F': 15, 'g': -1, 'G': -1, '/': -1, ':': -1, ' ': -1, 0xff: -1} {
		if got := DigitValue(c); got != want {
			t.Errorf("DigitValue(%q) = %d, want %d", c, got, want)
		}
	}
}

// TestKnown: the escapes each context decodes are known, and the others are
// not (find warns of those).
func TestKnown(t *testing.T) {
	for _, e := range []byte(`abfnrtv\\01234567c`) {
		if !Known(Find, e) {
			t.Errorf("find: \\%c is not known", e)
		}
	}
	for _, e := range []byte(`qexuU8"`) {
		if Known(Find, e) {
			t.Errorf("find: \\%c is known", e)
		}
	}
	if !Known(CurlWriteOut, 'n') || Known(CurlWriteOut, '\\') || Known(CurlWriteOut, '0') {
		t.Error("curl --write-out knows \\n only among \\n, \\\\ and \\0")
	}
	if !Known(Echo, 'x') || !Known(Echo, 'u') || Known(Stat, 'x') || !Known(SedText, 'd') {
		t.Error("Known disagrees with the contexts' hex, unicode and sed number rules")
	}
}
