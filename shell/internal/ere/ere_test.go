package ere

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

var (
	eSyn   = Syntax{Extended: true}
	bSyn   = Syntax{}
	sedSyn = Syntax{Extended: true, DotNL: true, Sed: true}
	awkSyn = Syntax{Extended: true, DotNL: true, AWK: true}
)

func TestTranslate(t *testing.T) {
	cases := []struct {
		pat  string
		syn  Syntax
		want string
		err  string
	}{
		// ERE edge cases, the same in every dialect.
		{pat: `a)`, syn: eSyn, want: `(?:a\))`},
		{pat: `)`, syn: eSyn, want: `(?:\))`},
		{pat: `(a))`, syn: eSyn, want: `(?:(a)\))`},
		{pat: `a{`, syn: eSyn, want: `(?:a\{)`},
		{pat: `a{1`, syn: eSyn, want: `(?:a\{1)`},
		{pat: `a{x}`, syn: eSyn, want: `(?:a\{x\})`},
		{pat: `a{,2}`, syn: eSyn, want: `(?:a{0,2})`},
		{pat: `{1}`, syn: eSyn, want: `(?:\{1\})`},
		{pat: `a**`, syn: eSyn, want: `(?:(?:a*)*)`},
		{pat: `a+*`, syn: eSyn, want: `(?:(?:a+)*)`},
		{pat: `a{1}{2}`, syn: eSyn, want: `(?:(?:a{1}){2})`},
		{pat: `(*a)`, syn: eSyn, want: `(?:(\*a))`},
		{pat: `x|*a`, syn: eSyn, want: `(?:x|\*a)`},
		{pat: `^*a`, syn: eSyn, want: `(?:^\*a)`},
		{pat: `[]a]`, syn: eSyn, want: `(?:[\x{5d}a])`},
		{pat: `[^]a]`, syn: eSyn, want: `(?:[^\x{5d}a\n])`},
		{pat: `[[:alpha:]_]`, syn: eSyn, want: `(?:[[:alpha:]\x{5f}])`},
		{pat: `[a-]`, syn: eSyn, want: `(?:[a\x{2d}])`},
		{pat: `[\]`, syn: eSyn, want: `(?:[\x{5c}])`},
		{pat: `\.`, syn: eSyn, want: `(?:\.)`},
		{pat: `\n`, syn: eSyn, want: `(?:n)`},
		{pat: `\<a\>`, syn: eSyn, want: `(?:\ba\b)`},
		{pat: `\w\W\s\S`, syn: eSyn, want: `(?:[0-9A-Za-z_][^0-9A-Za-z_][\t\n\v\f\r ][^\t\n\v\f\r ])`},
		{pat: `(a`, syn: eSyn, err: "Unmatched ( or \\("},
		{pat: `[a`, syn: eSyn, err: "Unmatched [, [^, [:, [., or [="},
		{pat: `[]`, syn: eSyn, err: "Unmatched [, [^, [:, [., or [="},
		{pat: `a\`, syn: eSyn, err: "Trailing backslash"},
		{pat: `[[:foo:]]`, syn: eSyn, err: "Invalid character class name"},
		{pat: `[z-a]`, syn: eSyn, err: "Invalid range end"},
		{pat: `a{2,1}`, syn: eSyn, err: "Invalid content of \\{\\}"},
		{pat: `(a)\1`, syn: eSyn, err: "back-references are not supported"},
		// BRE.
		{pat: `a\(b\)*c`, syn: bSyn, want: `(?:a(b)*c)`},
		{pat: `a+?(){}|`, syn: bSyn, want: `(?:a\+\?\(\)\{\}\|)`},
		{pat: `a\)`, syn: bSyn, err: "Unmatched ) or \\)"},
		// sed.
		{pat: `a\tb\n[\n]`, syn: sedSyn, want: "(?s)(?:a\tb\n[\\x{a}])"},
		// awk: string escapes, also in brackets.
		{pat: `a\/b\"c`, syn: awkSyn, want: `(?s)(?:a/b"c)`},
		{pat: `\t\n\101\x41`, syn: awkSyn, want: "(?s)(?:\t\nAA)"},
		{pat: `[\]]`, syn: awkSyn, want: `(?s)(?:[\x{5d}])`},
		{pat: `[\\/]`, syn: awkSyn, want: `(?s)(?:[\x{5c}\x{2f}])`},
		{pat: `[a\-z]`, syn: awkSyn, want: `(?s)(?:[a\x{2d}z])`},
		{pat: `[^\t]`, syn: awkSyn, want: `(?s)(?:[^\x{9}])`},
		{pat: `\y\B`, syn: awkSyn, want: `(?s)(?:\b\B)`},
		{pat: `\1`, syn: awkSyn, want: "(?s)(?:\x01)"},
		{pat: `a)`, syn: awkSyn, want: `(?s)(?:a\))`},
		{pat: `(*a)`, syn: awkSyn, want: `(?s)(?:(\*a))`},
	}
	for _, c := range cases {
		t.Run(c.pat, func(t *testing.T) {
			got, err := Translate(c.pat, c.syn)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Errorf("%q %+v: got %q, %v; want error %q", c.pat, c.syn, got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("%q %+v: got %q, %v; want %q", c.pat, c.syn, got, err, c.want)
				return
			}
			if _, err := CompileRE2(got, true); err != nil {
				t.Errorf("%q: %q does not compile: %v", c.pat, got, err)
			}
		})
	}
}

// matchCases are ERE patterns and subjects: the first non-empty leftmost-
// longest match, as grep -E -o prints it. gnu marks the cases where GNU
// grep -E agrees; the others are choices documented in the package (a
// repetition with nothing to repeat is literal, as in gawk, where GNU's
// grep ignores it).
var matchCases = []struct {
	pat, subj, want string
	gnu             bool
}{
	{`a)`, `xa)y`, `a)`, true},
	{`)`, `a)`, `)`, true},
	{`(a|b))+`, `ab))`, `b))`, true},
	{`a{`, `a{`, `a{`, true},
	{`a{1`, `a{1`, `a{1`, true},
	{`a{1,2`, `a{1,2`, `a{1,2`, true},
	{`a{x}`, `a{x}`, `a{x}`, true},
	{`a{,2}`, `aaa`, `aa`, true},
	{`a{2}`, `aaa`, `aa`, true},
	{`a**`, `aaa`, `aaa`, true},
	{`a+*`, `aaa`, `aaa`, true},
	{`a?*`, `aa`, `aa`, true},
	{`a{1}{2}`, `aa`, `aa`, true},
	{`a*{2}`, `aa`, `aa`, true},
	{`(*a)`, `*a`, `*a`, false},
	{`x|*a`, `*a`, `*a`, false},
	{`[]a]+`, `]a]b`, `]a]`, true},
	{`[^]a]+`, `]abc]`, `bc`, true},
	{`[[:alpha:]]+`, `12ab3`, `ab`, true},
	{`[[:digit:][:upper:]]+`, `aB1c`, `B1`, true},
	{`[[:space:]]x`, `a x`, ` x`, true},
	{`[[.a.]]`, `ba`, `a`, true},
	{`[[=a=]]b`, `ab`, `ab`, true},
	{`[a-]+`, `x-a-`, `-a-`, true},
	{`[\]+`, `a\\b`, `\\`, true},
	{`\.`, `ab.`, `.`, true},
	{`\(`, `a(`, `(`, true},
	{`\}`, `}`, `}`, true},
	{`}`, `}`, `}`, true},
	{`\n`, `n`, `n`, true},
	{`\w+`, `ab_1 c`, `ab_1`, true},
	{`\W`, `ab c`, ` `, true},
	{`\s\S`, `a b`, ` b`, true},
	{`\<b`, `ab b`, `b`, true},
	{`b\>`, `ba b`, `b`, true},
	{`\bb`, `ab b`, `b`, true},
	{`a\Bb`, `a b ab`, `ab`, true},
	{`a^b`, `a^b`, ``, true},
	{`a$b`, `a$b`, ``, true},
	{`^ab|cd$`, `cdab`, ``, true},
	{`(a|ab)(c|bcd)`, `abcd`, `abcd`, true},
	{`x*`, `axxb`, `xx`, true},
	{`(|a)b`, `ab`, `ab`, true},
	{`()a`, `a`, `a`, true},
	{`a.c`, `abc`, `abc`, true},
	{`[z-a]`, `a`, `error`, true},
	{`(a`, `a`, `error`, true},
	{`[a`, `a`, `error`, true},
	{`a\`, `a`, `error`, true},
	{`[[:nope:]]`, `a`, `error`, true},
	{`a{2,1}`, `a`, `error`, true},
}

func firstMatch(pat, subj string) string {
	re, err := Compile(pat, eSyn)
	if err != nil {
		return "error"
	}
	for _, m := range re.FindAllString(subj, -1) {
		if m != "" {
			return m
		}
	}
	return ""
}

func TestMatch(t *testing.T) {
	for _, c := range matchCases {
		t.Run(c.pat+" on "+c.subj, func(t *testing.T) {
			if got := firstMatch(c.pat, c.subj); got != c.want {
				t.Errorf("%q on %q: got %q, want %q", c.pat, c.subj, got, c.want)
			}
		})
	}
}

// TestGNUGrep checks the cases against GNU grep -E on this machine.
func TestGNUGrep(t *testing.T) {
	grep, err := exec.LookPath("grep")
	if err != nil {
		t.Skip("SKIPPED, not passed: no grep on PATH to compare with")
	}
	if out, _ := exec.Command(grep, "--version").Output(); !bytes.Contains(out, []byte("GNU grep")) {
		t.Skip("SKIPPED, not passed: the grep on PATH is not GNU grep")
	}
	for _, c := range matchCases {
		t.Run(c.pat+" on "+c.subj, func(t *testing.T) {
			if !c.gnu {
				return
			}
			cmd := exec.Command(grep, "-E", "-o", "-e", c.pat)
			cmd.Env = []string{"LC_ALL=C"}
			cmd.Stdin = strings.NewReader(c.subj + "\n")
			out, err := cmd.Output()
			gnu := strings.SplitN(string(out), "\n", 2)[0]
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 {
				gnu = "error"
			}
			if gnu != c.want {
				t.Errorf("%q on %q: GNU grep -E gives %q, the table %q", c.pat, c.subj, gnu, c.want)
			}
		})
	}
}
