package jq

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/command/commandtest"
	"github.com/cordonhq/cordon/vfs"
)

// yqFiles is the fixture of the yq tests.
var yqFiles = map[string]string{
	"deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web # the name\n  labels: {app: web, tier: front}\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n        - name: side\n          image: busybox\n",
	"multi.yaml":  "a: 1\n---\na: 2\nb: [x, z]\n",
	"list.yaml":   "items:\n  - name: one\n    n: 1\n  - name: two\n    n: 2\n",
	"strs.yaml":   "s1: \"yes\"\ns2: 'on'\ns3: \"1\"\ns4: \"\"\ns5: '~'\ns6: \"a: b\"\ns7: \"null\"\nplain: yes\nd: 2001-12-14\n",
	"order.yaml":  "zeta: 1\nalpha: 2\nmid: 3\n",
	"f.json":      "{\"z\":1,\"a\":{\"c\":[1,2],\"b\":null}}\n",
	"merge.yaml":  "base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\n  z: 4\nboth:\n  <<: [{p: 1}, {p: 2, q: 2}]\n",
	"nums.yaml":   "big: 123456789012345678901234567890\nf: 1.50\nh: 0x1F\no: 0o17\nu: 1_000\ninf: -.inf\nkeys:\n  1: one\n  true: t\n  ~: n\n",
}

// yqRunner runs yq on yqFiles.
var yqRunner = commandtest.Runner{Commands: Commands(), Files: yqFiles}

// fileIs returns a check that name holds want.
func fileIs(name, want string) func(*testing.T, *vfs.FS) {
	return func(t *testing.T, fsys *vfs.FS) {
		t.Helper()
		got, err := fsys.ReadFile(commandtest.Dir + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s:\n%q\nwant:\n%q", name, got, want)
		}
	}
}

func TestYq(t *testing.T) {
	yqRunner.RunCases(t, []tcase{
		// reading
		{Args: []string{"yq", ".spec.replicas", "deploy.yaml"}, Out: "3\n"},
		{Args: []string{"yq", "eval", ".kind", "deploy.yaml"}, Out: "Deployment\n"},
		{Args: []string{"yq", "e", ".metadata.labels.app", "deploy.yaml"}, Out: "web\n"},
		{Args: []string{"yq", ".spec.template.spec.containers[].name", "deploy.yaml"}, Out: "web\nside\n"},
		{Args: []string{"yq", ".items[].name"}, Stdin: yqFiles["list.yaml"], Out: "one\ntwo\n"},
		{Args: []string{"yq", ".items[] | select(.n > 1)", "list.yaml"}, Out: "name: two\nn: 2\n"},
		{Args: []string{"yq", "-o", "json", ".metadata", "deploy.yaml"}, Out: "{\n  \"name\": \"web\",\n  \"labels\": {\n    \"app\": \"web\",\n    \"tier\": \"front\"\n  }\n}\n"},
		{Args: []string{"yq", "-o=json", "-I=0", ".", "order.yaml"}, Out: "{\"zeta\":1,\"alpha\":2,\"mid\":3}\n"},
		{Args: []string{"yq", "-oj", "-I4", ".items[0]", "list.yaml"}, Out: "{\n    \"name\": \"one\",\n    \"n\": 1\n}\n"},
		{Args: []string{"yq", "-j", ".kind", "deploy.yaml"}, Out: "\"Deployment\"\n"},
		{Args: []string{"yq", "-j", "-r", ".kind", "deploy.yaml"}, Out: "Deployment\n"},
		{Args: []string{"yq", "-r=false", ".kind", "deploy.yaml"}, Out: "Deployment\n"},
		{Args: []string{"yq", "--unwrapScalar=false", ".s1", "strs.yaml"}, Out: "\"yes\"\n"},
		{Args: []string{"yq", ".s1", "strs.yaml"}, Out: "yes\n"},
		{Args: []string{"yq", "-C", "-M", "--colors=false", ".kind", "deploy.yaml"}, Out: "Deployment\n"},
		{Args: []string{"yq", "-rn", `"x"`}, Out: "x\n"},
		{Args: []string{"yq", "-nr=false", `"x"`}, Out: "x\n"},
		{Args: []string{"yq", "-nojson", `"x"`}, Out: "\"x\"\n"},
		{Args: []string{"yq", "--output-format=json", "--indent=1", "-n", "[1]"}, Out: "[\n 1\n]\n"},
		{Args: []string{"yq", "-n", "-o"}, Err: "yq: flag needs an argument: -o", Status: 1},
		// the whole document, comments dropped, block style, order kept
		{Args: []string{"yq", "deploy.yaml"}, Out: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\n    tier: front\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n        - name: side\n          image: busybox\n"},
		{Args: []string{"yq", "-P", ".", "order.yaml"}, Out: "zeta: 1\nalpha: 2\nmid: 3\n"},
		{Args: []string{"yq", "."}, Stdin: "b: 1\na: 2\n", Out: "b: 1\na: 2\n"},
		{Args: []string{"yq"}, Stdin: "b: 1\na: 2\n", Out: "b: 1\na: 2\n"},
		// strings that need quotes keep them, so that reading again gives strings
		{Args: []string{"yq", ".", "strs.yaml"}, Out: "s1: \"yes\"\ns2: \"on\"\ns3: \"1\"\ns4: \"\"\ns5: \"~\"\ns6: 'a: b'\ns7: \"null\"\nplain: \"yes\"\nd: \"2001-12-14\"\n"},
		{Args: []string{"yq", "-o", "json", "-I", "0", ".", "strs.yaml"}, Out: `{"s1":"yes","s2":"on","s3":"1","s4":"","s5":"~","s6":"a: b","s7":"null","plain":"yes","d":"2001-12-14"}` + "\n"},
		{Args: []string{"yq", "-oj", "-I0", "[.[] | type] | unique"}, Stdin: "a: \"1\"\nb: 1\nc: \"true\"\nd: true\ne: \"\"\nf: ''\n", Out: "[\"boolean\",\"number\",\"string\"]\n"},
		// numbers and keys
		{Args: []string{"yq", "-oj", "-I0", ".", "nums.yaml"}, Out: `{"big":123456789012345678901234567890,"f":1.50,"h":31,"o":15,"u":1000,"inf":-1.7976931348623157e+308,"keys":{"1":"one","true":"t","~":"n"}}` + "\n"},
		{Args: []string{"yq", ".big, .f, .inf", "nums.yaml"}, Out: "123456789012345678901234567890\n1.50\n-.inf\n"},
		{Args: []string{"yq", ".big + 1", "nums.yaml"}, Out: "123456789012345680000000000000\n"},
		// merge keys
		{Args: []string{"yq", "-oj", "-I0", ".other, .both", "merge.yaml"}, Out: "{\"x\":1,\"y\":3,\"z\":4}\n{\"p\":1,\"q\":2}\n"},
		// writing: new keys, del, order
		{Args: []string{"yq", ".new = {b: 1, a: [1]} | del(.alpha)", "order.yaml"}, Out: "zeta: 1\nmid: 3\nnew:\n  b: 1\n  a:\n    - 1\n"},
		{Args: []string{"yq", "-n", `{"yes": "no", e: {}, f: [], g: 1e1000, h: nan, i: 3.0, j: "<<", k: "a\nb\n"}`}, Out: "\"yes\": \"no\"\ne: {}\nf: []\ng: 1E+1000\nh: .nan\ni: 3.0\nj: \"<<\"\nk: |\n  a\n  b\n"},
		{Args: []string{"yq", "-n", `"x\u0001y"`, "-r=false"}, Out: "\"x\\x01y\"\n"},
		// JSON in
		{Args: []string{"yq", "-p", "json", "-o", "yaml", ".", "f.json"}, Out: "z: 1\na:\n  c:\n    - 1\n    - 2\n  b: null\n"},
		// JSON in, JSON out unless -o or -P says otherwise
		{Args: []string{"yq", ".a.c", "f.json"}, Out: "[\n  1,\n  2\n]\n"},
		{Args: []string{"yq", "-P", ".a.c", "f.json"}, Out: "- 1\n- 2\n"},
		{Args: []string{"yq", "-P", "f.json"}, Out: "z: 1\na:\n  c:\n    - 1\n    - 2\n  b: null\n"},
		{Args: []string{"yq", "-p=json", "-I0", "."}, Stdin: "{\"b\":1} {\"a\":2}", Out: "{\"b\":1}\n{\"a\":2}\n"},
		{Args: []string{"yq", "-p=json", "-oy", "."}, Stdin: "{\"b\":1} {\"a\":2}", Out: "b: 1\n---\na: 2\n"},
		{Args: []string{"yq", "-p", "yaml", ".", "order.yaml", "f.json"}, Out: "zeta: 1\nalpha: 2\nmid: 3\n---\nz: 1\na:\n  c:\n    - 1\n    - 2\n  b: null\n"},
		{Args: []string{"yq", "-I0", ".a", "f.json", "multi.yaml"}, Out: "{\"c\":[1,2],\"b\":null}\n1\n2\n"},
		// documents
		{Args: []string{"yq", ".a", "multi.yaml"}, Out: "1\n---\n2\n"},
		{Args: []string{"yq", "-N", ".a", "multi.yaml"}, Out: "1\n2\n"},
		{Args: []string{"yq", ".", "multi.yaml"}, Out: "a: 1\n---\na: 2\nb:\n  - x\n  - z\n"},
		{Args: []string{"yq", "select(.a == 2) | .b[]", "multi.yaml"}, Out: "x\nz\n"},
		{Args: []string{"yq", "-o", "json", "-I", "0", ".", "multi.yaml"}, Out: "{\"a\":1}\n{\"a\":2,\"b\":[\"x\",\"z\"]}\n"},
		{Args: []string{"yq", "ea", "map(.a) | add", "multi.yaml", "order.yaml"}, Out: "3\n"},
		{Args: []string{"yq", "eval-all", "length", "multi.yaml", "deploy.yaml"}, Out: "3\n"},
		{Args: []string{"yq", "-oj", "-I0", "[., input]", "multi.yaml"}, Out: "[{\"a\":1},{\"a\":2,\"b\":[\"x\",\"z\"]}]\n"},
		{Args: []string{"yq", "input_filename", "order.yaml", "-"}, Stdin: "1", Out: "order.yaml\n---\n<stdin>\n"},
		{Args: []string{"yq", "."}, Stdin: "", Out: ""},
		{Args: []string{"yq", "."}, Stdin: "---\n", Out: "null\n"},
		// variables
		{Args: []string{"yq", "-n", "--arg", "x", "1", "--argjson", "y", `{"a":2}`, "[$x, $y]"}, Out: "- \"1\"\n- a: 2\n"},
		{Args: []string{"yq", ".spec.replicas = ($n|tonumber) | .spec.replicas", "--arg", "n", "5", "deploy.yaml"}, Out: "5\n"},
		// exit status
		{Args: []string{"yq", "-e", ".nope", "deploy.yaml"}, Out: "null\n", Status: 1},
		{Args: []string{"yq", "-e", ".spec.replicas > 5", "deploy.yaml"}, Out: "false\n", Status: 1},
		{Args: []string{"yq", "-e", ".kind", "deploy.yaml"}, Out: "Deployment\n"},
		{Args: []string{"yq", "-e", "empty", "deploy.yaml"}, Status: 1},
		{Args: []string{"yq", "--exit-status=false", ".nope", "deploy.yaml"}, Out: "null\n"},
		// errors
		{Args: []string{"yq", ".a +", "order.yaml"}, Err: "yq: error: syntax error, unexpected EOF", Status: 1},
		{Args: []string{"yq", "nope(1)", "order.yaml"}, Err: "yq: error: nope/1 is not defined", Status: 1},
		{Args: []string{"yq", "ea", ". as $item ireduce ({}; . * $item)", "multi.yaml"}, Err: "\n" + yqLanguageHint, Status: 1},
		{Args: []string{"yq", ".kind | error", "deploy.yaml"}, Err: "yq: error: Deployment\n", Status: 1},
		{Args: []string{"yq", ".zeta + \"x\"", "order.yaml"}, Err: "yq: error: number (1) and string (\"x\") cannot be added", Status: 1},
		{Args: []string{"yq", ".a", "multi.yaml", "missing.yaml"}, Out: "1\n---\n2\n", Err: "yq: missing.yaml: No such file or directory", Status: 1},
		{Args: []string{"yq", "-o", "xml", "."}, Err: "yq: unsupported output format \"xml\" (yaml or json)", Status: 1},
		{Args: []string{"yq", "-p", "csv", "."}, Err: "yq: unsupported input format \"csv\"", Status: 1},
		{Args: []string{"yq", "-Z", "."}, Err: "yq: unknown flag: -Z", Status: 1},
		{Args: []string{"yq", "-I", "x", "."}, Err: "yq: invalid indent \"x\"", Status: 1},
		{Args: []string{"yq", "-r=maybe", "."}, Err: "yq: invalid value \"maybe\" for -r", Status: 1},
		{Args: []string{"yq", "-i", ".a = 1"}, Err: "yq: write in place flag only applicable", Status: 1},
		{Args: []string{"yq", "-i", ".a = 1", "-"}, Err: "yq: write in place flag only applicable", Status: 1},
		{Args: []string{"yq", "-n", "\"bye\\n\" | halt_error(3)"}, Err: "bye\n", Status: 3},
		{Args: []string{"yq", "-p", "json", "."}, Stdin: "{\"a\":", Err: "yq: <stdin>: bad JSON:", Status: 1},
		{Args: []string{"yq", "--help"}, Out: yqUsageText},
		{Args: []string{"yq", "--version"}, Out: yqVersionText},
		{Args: []string{"yq", "conf/missing.yaml"}, Err: "yq: conf/missing.yaml: No such file or directory (read as the expression)", Status: 1},
	})
}

func TestYqInplace(t *testing.T) {
	yqRunner.RunCases(t, []tcase{
		{Args: []string{"yq", "-i", ".a.b = 1", "order.yaml"}, Check: fileIs("order.yaml", "zeta: 1\nalpha: 2\nmid: 3\na:\n  b: 1\n")},
		{Args: []string{"yq", "-i", ".spec.replicas = 5 | .metadata.labels.tier = \"back\"", "deploy.yaml"},
			Check: fileIs("deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\n    tier: back\nspec:\n  replicas: 5\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n        - name: side\n          image: busybox\n")},
		{Args: []string{"yq", "-i", ".a += 10", "multi.yaml"}, Check: fileIs("multi.yaml", "a: 11\n---\na: 12\nb:\n  - x\n  - z\n")},
		{Args: []string{"yq", "-i", "-o", "json", ".", "order.yaml"}, Check: fileIs("order.yaml", "{\n  \"zeta\": 1,\n  \"alpha\": 2,\n  \"mid\": 3\n}\n")},
		{Args: []string{"yq", "-i", "del(.s4)", "strs.yaml"}, Check: fileIs("strs.yaml", "s1: \"yes\"\ns2: \"on\"\ns3: \"1\"\ns5: \"~\"\ns6: 'a: b'\ns7: \"null\"\nplain: \"yes\"\nd: \"2001-12-14\"\n")},
		// Each file is rewritten with its own documents, in its own format.
		{Args: []string{"yq", "-i", ".n = 1", "order.yaml", "f.json"}, Check: func(t *testing.T, fsys *vfs.FS) {
			fileIs("order.yaml", "zeta: 1\nalpha: 2\nmid: 3\nn: 1\n")(t, fsys)
			fileIs("f.json", "{\n  \"z\": 1,\n  \"a\": {\n    \"c\": [\n      1,\n      2\n    ],\n    \"b\": null\n  },\n  \"n\": 1\n}\n")(t, fsys)
		}},
		// A failing program leaves the file as it was.
		{Args: []string{"yq", "-i", ".zeta + \"x\"", "order.yaml"}, Err: "cannot be added", Status: 1, Check: fileIs("order.yaml", yqFiles["order.yaml"])},
		{Args: []string{"yq", "-i", ".", "bad.yaml"}, Files: map[string]string{"bad.yaml": "a: [\n"}, Err: "yq: bad.yaml: bad YAML:", Status: 1, Check: fileIs("bad.yaml", "a: [\n")},
	})
}

// TestYqRoundTrip checks that printed YAML reads back as the same values.
func TestYqRoundTrip(t *testing.T) {
	for _, name := range []string{"deploy.yaml", "strs.yaml", "nums.yaml", "merge.yaml", "list.yaml"} {
		t.Run(name, func(t *testing.T) {
			fsys := commandtest.NewFS(t, yqFiles)
			want := yqRunner.Run(t, fsys, nil, "", "yq", "-oj", ".", name)
			yml := yqRunner.Run(t, fsys, nil, "", "yq", ".", name)
			got := yqRunner.Run(t, fsys, nil, yml.Out, "yq", "-oj", ".")
			if want.Status != 0 || got.Out != want.Out {
				t.Errorf("after a round trip through\n%s\ngot\n%s\nwant\n%s", yml.Out, got.Out, want.Out)
			}
		})
	}
}

func TestYqHostile(t *testing.T) {
	laughs := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, l := range "bcdefghij" {
		n := string(l)
		laughs += n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+", ", 10), ", ") + "]\n"
		prev = n
	}
	yqRunner.RunCases(t, []tcase{
		{Args: []string{"yq", ".j | length"}, Stdin: laughs, Err: fmt.Sprintf("yq: <stdin>: bad YAML: line 2: aliases expand to more than %d values", 1<<20+2*len(laughs)), Status: 1},
		// A few levels of the same aliases are fine.
		{Args: []string{"yq", "[.d | .. | select(type == \"string\")] | length"}, Stdin: strings.Join(strings.SplitAfter(laughs, "\n")[:4], ""), Out: "10000\n"},
		{Args: []string{"yq", "."}, Stdin: "a: &x [1, *x]\n", Err: "yq: <stdin>: bad YAML: line 1: anchor \"x\" is used inside itself", Status: 1},
		{Args: []string{"yq", "."}, Stdin: "a: &x {b: {<<: *x}}\n", Err: "anchor \"x\" is used inside itself", Status: 1},
		{Args: []string{"yq", "."}, Stdin: "a: *nope\n", Err: "yq: <stdin>: bad YAML: ", Status: 1},
		{Args: []string{"yq", "."}, Stdin: strings.Repeat("[", 20000), Err: "yq: <stdin>: bad YAML: exceeded max depth of 10000", Status: 1},
		{Args: []string{"yq", "."}, Stdin: strings.Repeat("- ", 20000) + "1\n", Err: "exceeded max depth", Status: 1},
		{Args: []string{"yq", "-n", "reduce range(10001) as $i (0; [.])"}, Err: "yq: cannot print a value nested deeper than 10000 as YAML", Status: 1},
		{Args: []string{"yq", "."}, Stdin: "a: \xff\n", Err: "yq: <stdin>: bad YAML: invalid leading UTF-8 octet", Status: 1},
		{Args: []string{"yq", "-n", `"/w==" | @base64d`, "-r=false"}, Out: "\ufffd\n"},
		{Args: []string{"yq", "-oj", "-I0", "map(type)"}, Stdin: "- !!str 99\n- \"99\"\n- " + strings.Repeat("9", 400) + "\n- !!str " + strings.Repeat("9", 400) + "\n", Out: "[\"string\",\"string\",\"number\",\"string\"]\n"},
		{Args: []string{"yq", "-n", `{("k" + ("/w==" | @base64d)): 1}`}, Out: "k\ufffd: 1\n"},
		{Args: []string{"yq", "."}, Stdin: "a:\n\tb: 1\n", Err: "yq: <stdin>: bad YAML: line 2: found character that cannot start any token", Status: 1},
		{Args: []string{"yq", ".a"}, Stdin: "a: \"x\ty\"\n", Out: "x\ty\n"},
		{Args: []string{"yq", ".[0] | . + 1"}, Stdin: "- " + strings.Repeat("9", 400) + "\n", Out: ".inf\n"},
		{Args: []string{"yq", "."}, Stdin: "- " + strings.Repeat("9", 400) + "\n", Out: "- " + strings.Repeat("9", 400) + "\n"},
		{Args: []string{"yq", "."}, Stdin: "a: !!int abc\n", Err: "yq: <stdin>: bad YAML: line 1: cannot read \"abc\" as !!int", Status: 1},
		{Args: []string{"yq", ".a"}, Stdin: "a: !custom [1]\n", Out: "- 1\n"},
		{Args: []string{"yq", "."}, Stdin: "{a: 1, a: 2}\n", Out: "a: 2\n"},
		{Args: []string{"yq", "-oj", "-I0", "."}, Stdin: "? [1, 2]\n: x\n", Out: "{\"[1,2]\":\"x\"}\n"},
	})
}

// TestYqAliasBudget checks that the alias bound grows with the input, so
// that a large file with many aliases is read.
func TestYqAliasBudget(t *testing.T) {
	var sb strings.Builder
	// 300,000 aliases expand to 1.8M values, past the floor of 1<<20.
	sb.WriteString("base: &b {x: 1, y: 2, z: 3, w: 4}\nitems:\n")
	for range 300000 {
		sb.WriteString("  - *b\n")
	}
	res := yqRunner.Run(t, nil, nil, sb.String(), "yq", ".items | length")
	if res.Out != "300000\n" || res.Status != 0 {
		t.Fatalf("got %q %q %d", res.Out, res.Err, res.Status)
	}
	if !errors.Is(&yamlError{"x"}, ErrYAML) {
		t.Error("a yamlError does not match ErrYAML")
	}
}

// TestYqAgainstRealYq compares outputs with a yq on PATH, skipping when
// there is none. With mikefarah's yq (whose expression language is
// jq-like, not jq) only expressions that mean the same in both are
// compared. With kislyuk's yq (Python: PyYAML, YAML 1.1, and jq, printing
// JSON) the JSON output is compared on texts that read the same under
// YAML 1.1 and 1.2.
func TestYqAgainstRealYq(t *testing.T) {
	bin, err := exec.LookPath("yq")
	if err != nil {
		t.Skip("SKIPPED, not passed: no yq on PATH")
	}
	version, _ := exec.Command(bin, "--version").CombinedOutput()
	help, _ := exec.Command(bin, "--help").CombinedOutput()
	var cases [][]string
	// ours turns a case into our command line.
	ours := func(args []string) []string { return args }
	switch {
	case bytes.Contains(version, []byte("mikefarah")):
		cases = [][]string{
			{".spec.replicas", "deploy.yaml"},
			{".spec.template.spec.containers[].name", "deploy.yaml"},
			{"-o", "json", ".metadata", "deploy.yaml"},
			{".a", "multi.yaml"},
			{".", "strs.yaml"},
			{".items[0]", "list.yaml"},
			{".other", "merge.yaml"},
		}
	case bytes.Contains(help, []byte("jq wrapper")):
		cases = [][]string{
			{".spec.replicas", "deploy.yaml"},
			{".spec.template.spec.containers[].name", "deploy.yaml"},
			{".metadata", "deploy.yaml"},
			{".", "deploy.yaml"},
			{".a", "multi.yaml"},
			{".", "multi.yaml"},
			{".items[] | select(.n > 1)", "list.yaml"},
			{".other", "merge.yaml"},
			{".both", "merge.yaml"},
			{".", "order.yaml"},
		}
		ours = func(args []string) []string { return append([]string{"-o", "json"}, args...) }
	default:
		t.Skipf("SKIPPED, not passed: the yq on PATH is neither mikefarah's nor kislyuk's: %q", strings.TrimSpace(string(version)))
	}
	dir := t.TempDir()
	for name, text := range yqFiles {
		if err := os.WriteFile(dir+"/"+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(bin, args...)
			cmd.Dir = dir
			want, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %q: %v", bin, args, err)
			}
			got := yqRunner.Run(t, nil, yqFiles, "", append([]string{"yq"}, ours(args)...)...)
			if got.Out != string(want) {
				t.Errorf("got\n%s\n%s:\n%s", got.Out, bin, want)
			}
		})
	}
}

// yamlRecords returns a YAML list of n records, as a config or an API
// dump holds them.
func yamlRecords(n int) string {
	var sb strings.Builder
	sb.WriteString("items:\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "  - id: %d\n    name: user%d\n    email: u%d@example.com\n    score: %d.5\n    tags: [a, b]\n    active: %v\n", i, i, i, i%97, i%2 == 0)
	}
	return sb.String()
}

// benchYq runs yq with args over stdin b.N times.
func benchYq(b *testing.B, stdin string, args ...string) {
	b.Helper()
	fsys := setupFS(b, nil)
	f := Commands()["yq"]
	b.ReportAllocs()
	b.SetBytes(int64(len(stdin)))
	for b.Loop() {
		env := &command.Env{
			Ctx: context.Background(), Args: append([]string{"yq"}, args...), Stdin: strings.NewReader(stdin),
			Stdout: io.Discard, Stderr: io.Discard, Dir: commandtest.Dir, FS: fsys, Now: commandtest.Now,
		}
		if st := f(env); st != 0 {
			b.Fatalf("yq %v: status %d", args, st)
		}
	}
}

func BenchmarkYqSelect(b *testing.B) {
	benchYq(b, yamlRecords(1000), ".items[] | select(.id == 500) | .name")
}

func BenchmarkYqRoundTrip(b *testing.B) {
	benchYq(b, yamlRecords(1000), ".")
}

func BenchmarkYqToJSON(b *testing.B) {
	benchYq(b, yamlRecords(1000), "-o", "json", ".")
}
