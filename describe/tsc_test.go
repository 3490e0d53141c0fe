package describe_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/describe"
	"github.com/cordonhq/cordon/internal/tsc"
)

// wantLine is the first line of a script that must fail: the error codes
// of which one must be reported.
var wantLine = regexp.MustCompile(`^// want: (TS\d+(?: TS\d+)*)`)

// TestTypeScriptCompiles feeds each tool set's declarations, and the
// scripts of testdata/scripts written against them, to the real
// TypeScript compiler (tsc --noEmit --strict): the declarations and the
// correct script (SET_ok.ts) must compile, each SET_bad_*.ts must fail with
// the error its first line names, and so must nothing else. The example
// call of the prompt must compile too. It is skipped without node and npm,
// or offline.
func TestTypeScriptCompiles(t *testing.T) {
	for _, set := range loadSets(t) {
		t.Run(set.name, func(t *testing.T) {
			opts := describe.Options{Capabilities: set.caps}
			files := map[string]string{"api.d.ts": describe.TypeScript(set.tools, opts)}
			want := map[string][]string{}
			scripts, _ := filepath.Glob(filepath.Join("testdata", "scripts", set.name+"_*.ts"))
			if len(scripts) < 2 {
				t.Fatalf("testdata/scripts has no scripts for %s", set.name)
			}
			for _, f := range scripts {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				name := filepath.Base(f)
				if m := wantLine.FindStringSubmatch(string(b)); m != nil {
					want[name] = strings.Fields(m[1])
				} else if strings.Contains(name, "_bad_") {
					t.Fatalf("%s: the first line must say which error it wants (// want: TS2322)", f)
				}
				// A module, so that the script may await at its top level.
				files[name] = string(b) + "\nexport {};\n"
			}
			// The prompt's example, whose top-level return needs a function.
			if ex := exampleJS(describe.Prompt(set.tools, describe.Options{Capabilities: set.caps, Language: describe.JavaScript, MaxBytes: -1})); ex != "" {
				files["example.ts"] = "async function example() {\n" + ex + "}\nexample();\n"
			}
			// Each tool's own declarations, alone (a module each, so that
			// they do not clash with one another).
			for i, tool := range set.tools {
				if d := describe.Declaration(tool, opts); d != "" {
					files[fmt.Sprintf("tool%d.d.ts", i)] = d + "\nexport {};\n"
				}
			}
			got := map[string][]tsc.Diagnostic{}
			for _, d := range tsc.Check(t, files) {
				got[d.File] = append(got[d.File], d)
			}
			for name := range files {
				codes, bad := want[name]
				ds := got[name]
				switch {
				case !bad && len(ds) > 0:
					t.Errorf("%s: tsc reports errors:\n%s", name, diagText(ds))
				case bad && len(ds) == 0:
					t.Errorf("%s: tsc accepts it; it wants %s", name, strings.Join(codes, " or "))
				case bad && !hasCode(ds, codes):
					t.Errorf("%s: tsc reports other errors than %s:\n%s", name, strings.Join(codes, " or "), diagText(ds))
				}
				delete(got, name)
			}
			for file, ds := range got {
				t.Errorf("tsc reports errors in %q:\n%s", file, diagText(ds))
			}
		})
	}
}

// TestTypeScriptWithDOM checks that the declarations of the globals merge
// with the DOM's (console, setTimeout, atob) when a program has both.
func TestTypeScriptWithDOM(t *testing.T) {
	set := loadSet(t, "testdata/stripe.json")
	files := map[string]string{
		"api.d.ts":  describe.TypeScript(set.tools, describe.Options{}),
		"dom.d.ts":  "/// <reference lib=\"dom\" />\n",
		"script.ts": "const c = await stripe.charges.create({ amount: 1, currency: \"eur\" });\nconsole.log(c.id, atob(\"eA==\"));\nclearTimeout(setTimeout(() => {}, 1));\nexport {};\n",
	}
	if ds := tsc.Check(t, files); len(ds) > 0 {
		t.Errorf("with the DOM, tsc reports errors:\n%s", diagText(ds))
	}
}

// exampleJS returns the JavaScript example of a prompt, or "".
func exampleJS(prompt string) string {
	_, rest, ok := strings.Cut(prompt, "## Example\n\n```js\n")
	if !ok {
		return ""
	}
	code, _, _ := strings.Cut(rest, "```")
	return code
}

func hasCode(ds []tsc.Diagnostic, codes []string) bool {
	for _, d := range ds {
		for _, c := range codes {
			if d.Code == c {
				return true
			}
		}
	}
	return false
}

func diagText(ds []tsc.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("  " + d.String() + "\n")
	}
	return b.String()
}
