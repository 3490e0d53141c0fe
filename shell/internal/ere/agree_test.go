package ere_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/shell/awk"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/textutils"
	"github.com/cordonhq/cordon/vfs"
)

func run(t *testing.T, stdin string, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &command.Env{
		Ctx: context.Background(), Args: args, Stdin: strings.NewReader(stdin),
		Stdout: &out, Stderr: &errb, Dir: "/workspace", FS: vfs.New(vfs.Limits{}),
	}
	reg := textutils.Commands().Merge(awk.Commands())
	st := reg[args[0]](env)
	return out.String(), st
}

// sedOnly holds where GNU sed differs from grep and awk: glibc's regcomp
// refuses an unmatched ")", a "{" that does not start an interval and a
// repetition of nothing in an ERE, which grep and awk take as literals
// (shell/difftest checks sed against GNU sed 4.9).
var sedOnly = map[string]string{`a)`: "error", `a{`: "error", `a{1`: "error", `a{x}`: "error", `(*a)`: "error", `x|*a`: "error"}

// TestToolsAgree runs ERE edge cases through grep -E, sed -E and awk: each
// must find the same first match, or refuse the pattern.
func TestToolsAgree(t *testing.T) {
	for _, c := range agreeCases {
		t.Run(c.pat, func(t *testing.T) {
			// grep -E -o prints the first match on its own line.
			out, st := run(t, c.subj+"\n", "grep", "-E", "-o", "-e", c.pat)
			grep := strings.SplitN(out, "\n", 2)[0]
			if st == 2 {
				grep = "error"
			}
			// sed -E brackets the first match.
			out, st = run(t, c.subj+"\n", "sed", "-E", "-n", `s/`+c.pat+`/<&>/p`)
			sed := ""
			if i, j := strings.IndexByte(out, '<'), strings.LastIndexByte(out, '>'); i >= 0 && j > i {
				sed = out[i+1 : j]
			}
			if st != 0 {
				sed = "error"
			}
			out, st = run(t, c.subj+"\n", "awk", "-v", "re="+strings.ReplaceAll(c.pat, `\`, `\\`), `{ if (match($0, re)) print substr($0, RSTART, RLENGTH) }`)
			awkOut := strings.TrimSuffix(out, "\n")
			if st != 0 {
				awkOut = "error"
			}
			sedWant := c.want
			if w, ok := sedOnly[c.pat]; ok {
				sedWant = w
			}
			if grep != c.want || sed != sedWant || awkOut != c.want {
				t.Errorf("%q on %q: grep -E %q, sed -E %q, awk %q; want %q", c.pat, c.subj, grep, sed, awkOut, c.want)
			}
		})
	}
}

// TestBashRegexAgreesWithGrep runs the same cases, and back-references
// (which are not ERE), through [[ s =~ re ]] and grep -E: bash compiles
// the pattern as a POSIX ERE, so both find the same first match
// (BASH_REMATCH[0]) or both refuse the pattern. The one difference is
// glibc's: regcomp refuses a repetition of nothing, which grep takes as a
// literal (bashOnly).
func TestBashRegexAgreesWithGrep(t *testing.T) {
	cases := append(agreeCases[:len(agreeCases):len(agreeCases)],
		agreeCase{`(a)\1`, `aa`, "error"},
		agreeCase{`a.b`, "a\nb", "a\nb"},
		agreeCase{`^(b+)$`, "a\nbb", ""},
	)
	bashOnly := map[string]string{`(*a)`: "error", `x|*a`: "error", `*a`: "error", `+`: "error", `a|{1}`: "error"}
	for _, pat := range []string{`*a`, `+`, `a|{1}`} {
		cases = append(cases, agreeCase{pat, "*a+{1}", ""})
	}
	for _, c := range cases {
		t.Run(c.pat, func(t *testing.T) {
			var out, errb bytes.Buffer
			script := `[[ $SUBJ =~ $RE ]]; case $? in 0) printf %s "${BASH_REMATCH[0]}" ;; 2) printf error ;; esac`
			_, err := shell.Run(context.Background(), shell.Config{
				FS: vfs.New(vfs.Limits{}), Stdout: &out, Stderr: &errb,
				Env: []string{"SUBJ=" + c.subj, "RE=" + c.pat},
			}, "bash", script)
			if err != nil {
				t.Fatal(err)
			}
			bash := out.String()
			if want, ok := bashOnly[c.pat]; ok {
				if bash != want {
					t.Errorf("%q on %q: [[ =~ ]] %q, want %q", c.pat, c.subj, bash, want)
				}
				return
			}
			// grep -z -o takes the subject as one record, newlines
			// included, and ends each match with a NUL.
			grepOut, st := run(t, c.subj, "grep", "-E", "-o", "-z", "-e", c.pat)
			grep := strings.SplitN(grepOut, "\x00", 2)[0]
			if st == 2 {
				grep = "error"
			}
			if bash != c.want || grep != c.want {
				t.Errorf("%q on %q: [[ =~ ]] %q (stderr %q), grep -E %q; want %q", c.pat, c.subj, bash, errb.String(), grep, c.want)
			}
		})
	}
}

// agreeCase is an ERE, a subject and the first match in it ("error" when
// the pattern is refused).
type agreeCase struct{ pat, subj, want string }

var agreeCases = []agreeCase{
	{`a)`, `xa)y`, `a)`},
	{`a{`, `a{`, `a{`},
	{`a{1`, `za{1`, `a{1`},
	{`a{x}`, `a{x}`, `a{x}`},
	{`a{,2}`, `aaa`, `aa`},
	{`a**`, `aaab`, `aaa`},
	{`(*a)`, `*a`, `*a`},
	{`x|*a`, `*a`, `*a`},
	{`[]a]+`, `b]a]`, `]a]`},
	{`[^]a]+`, `]bc]`, `bc`},
	{`[[:alpha:]]+`, `12ab3`, `ab`},
	{`[[:digit:][:upper:]]+`, `aB1c`, `B1`},
	{`\.`, `ab.`, `.`},
	{`\<b`, `ab b`, `b`},
	{`b\>`, `ba b`, `b`},
	{`\w+`, `-ab_1 c`, `ab_1`},
	{`(a|ab)(c|bcd)`, `abcd`, `abcd`},
	{`[z-a]`, `a`, "error"},
	{`(a`, `a`, "error"},
	{`[a`, `a`, "error"},
}
