package main

import (
	"context"
	"encoding/hex"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// Without --json, stdout and stderr keep the order in which the script
// wrote them (before, all of stdout came first, at the end).
func TestRunStreamsInOrder(t *testing.T) {
	for _, tc := range []struct{ lang, code, want string }{
		{"js", `console.log(1); console.error(2); console.log(3); console.error(4)`, "1\n2\n3\n4\n"},
		{"sh", `echo 1; echo 2 >&2; echo 3; echo 4 >&2`, "1\n2\n3\n4\n"},
	} {
		var both enginetest.Buffer
		code := run(context.Background(), []string{"run", "--lang", tc.lang, "-e", tc.code}, strings.NewReader(""), &both, &both)
		if code != 0 || both.String() != tc.want {
			t.Errorf("%s: exit %d, output %q, want %q", tc.lang, code, both.String(), tc.want)
		}
	}
}

// firstWrite records when its first write came.
type firstWrite struct {
	enginetest.Buffer
	once sync.Once
	at   chan time.Time
}

func (f *firstWrite) Write(p []byte) (int, error) {
	f.once.Do(func() { f.at <- time.Now() })
	return f.Buffer.Write(p)
}

// The output shows while the script runs, not when it ends.
func TestRunStreamsWhileRunning(t *testing.T) {
	out := &firstWrite{at: make(chan time.Time, 1)}
	var stderr enginetest.Buffer
	code := run(context.Background(), []string{"run", "-e", `console.log("first"); await new Promise(r => setTimeout(r, 1500)); console.log("second")`},
		strings.NewReader(""), out, &stderr)
	ended := time.Now()
	if code != 0 || out.String() != "first\nsecond\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, out.String(), stderr.String())
	}
	if first := <-out.at; ended.Sub(first) < time.Second {
		t.Errorf("the first line came %v before the end, want it 1.5 s before", ended.Sub(first))
	}
}

// On a terminal the streamed output is neutralized as it was when printed
// at the end: the escape sequences a script writes are shown escaped, and
// a UTF-8 character or a CRLF that the script writes in two pieces passes
// whole, while a lone CR at the very end is escaped.
func TestRunStreamNeutralized(t *testing.T) {
	setTerminal(t, true)
	code, stdout, stderr := cli(t, "", "run", "--lang", "sh", "-e",
		`printf '\033[2J'; printf '\342\202'; printf '\254\n'; printf 'crlf\r'; printf '\n'; printf 'x\033]0;t\007' >&2; printf 'end\r'`)
	if code != 0 || stdout != `\u001b[2J`+"€\ncrlf\r\nend\\u000d" || stderr != `x\u001b]0;t\u0007` {
		t.Errorf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

// -h and --help print a command's help on stdout and exit 0; for run, its
// flags.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"run", "--help"}, {"run", "-h"}, {"run", "-e", "1", "--help"}} {
		code, stdout, stderr := cli(t, "", args...)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage: cordon run") || !strings.Contains(stdout, "--timeout D") || !strings.Contains(stdout, "--json") {
			t.Errorf("%v: exit %d stdout %q stderr %q", args, code, stdout, stderr)
		}
	}
	for _, args := range [][]string{{"precompile", "--help"}, {"policy", "compile", "--help"}, {"help"}} {
		code, stdout, stderr := cli(t, "", args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "cordon run [flags]") {
			t.Errorf("%v: exit %d stdout %q stderr %q", args, code, stdout, stderr)
		}
	}
}

// A bare number for --timeout is seconds, as in the config; a value that is
// neither says to use a unit.
func TestTimeoutFlag(t *testing.T) {
	for arg, want := range map[string]string{"1": "time limit of 1s", "0.5": "time limit of 500ms", "700ms": "time limit of 700ms"} {
		code, stdout, _ := cli(t, "", "run", "--json", "--timeout", arg, "-e", `while(true){}`)
		if code != exitTimeout || !strings.Contains(stdout, want) {
			t.Errorf("--timeout %s: exit %d %s", arg, code, stdout)
		}
	}
	code, stdout, stderr := cli(t, "", "run", "--timeout", "five", "-e", "1")
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "use a unit, such as 5s") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("--timeout five: exit %d stderr %q", code, stderr)
	}
}

// A config with several errors prints each on a line of its own, each
// with the same prefix.
func TestConfigErrorsOnePerLine(t *testing.T) {
	cfg := writeFile(t, "c.yaml", "tools: [{name: a, echo: true}]\ncapabilities:\n  - method: a\n    constraints: [amount <== 5, \"x in 5\"]\n  - method: \"b[[\"\n")
	code, _, stderr := cli(t, "", "run", "--config", cfg, "-e", "1")
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != exitUsage || len(lines) != 3 {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "cordon: config "+cfg+": capabilities: capability ") || strings.Contains(l, "dsl:") {
			t.Errorf("line %q", l)
		}
	}
}

// Errors name the script as the user knows it: the file, [eval] for -e,
// [stdin] for -; with the script's own lines, syntax errors included.
func TestRunScriptNames(t *testing.T) {
	file := writeFile(t, "two.js", "const a = 1;\nconst b = ;\n")
	_, _, stderr := cli(t, "", "run", file)
	if !strings.HasPrefix(stderr, filepath.ToSlash(file)+":2\nconst b = ;\n          ^\n\nSyntaxError: Unexpected token ;\n") {
		t.Errorf("file: %q", stderr)
	}
	_, _, stderr = cli(t, "", "run", "-e", "null.x")
	if !strings.Contains(stderr, "at [eval]:1:6") {
		t.Errorf("-e: %q", stderr)
	}
	_, _, stderr = cli(t, "\n\nnull.x", "run", "-")
	if !strings.Contains(stderr, "at [stdin]:3:6") {
		t.Errorf("-: %q", stderr)
	}
	sh := writeFile(t, "d.sh", "echo $0\nnosuch\n")
	_, stdout, stderr := cli(t, "", "run", sh)
	if stdout != filepath.ToSlash(sh)+"\n" || stderr != filepath.ToSlash(sh)+": line 2: nosuch: command not found\n" {
		t.Errorf("shell: %q %q", stdout, stderr)
	}
}

// cordon version prints cordon's version, the guest's hash, and goja's,
// wazero's and OPA's versions.
func TestVersion(t *testing.T) {
	code, stdout, stderr := cli(t, "", "version")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^guest   sha256 [0-9a-f]{64}$`).MatchString(stdout) || !strings.HasPrefix(stdout, "cordon  ") {
		t.Errorf("stdout %q", stdout)
	}
	for _, name := range []string{"goja", "wazero", "opa", "go"} {
		if !regexp.MustCompile(`(?m)^` + name + ` +\S`).MatchString(stdout) {
			t.Errorf("no %s line in %q", name, stdout)
		}
	}
	// From a build's module information.
	bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/cordonhq/cordon", Version: "v1.2.3"}, Deps: []*debug.Module{
		{Path: "github.com/dop251/goja", Version: "v0.0.0-1"}, {Path: "github.com/tetratelabs/wazero", Version: "v1.12.0"},
		{Path: "github.com/open-policy-agent/opa", Version: "v1.22.0"}}}
	guest := engine.GuestInfo{SHA256: strings.Repeat("ab", 32), Build: &debug.BuildInfo{Deps: []*debug.Module{{Path: "github.com/dop251/goja", Version: "v0.0.0-2"}}}}
	text := versionText(bi, guest)
	for _, want := range []string{"cordon  v1.2.3\n", "guest   sha256 " + strings.Repeat("ab", 32) + "\n", "goja    v0.0.0-2\n", "wazero  v1.12.0\n", "opa     v1.22.0\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q lacks %q", text, want)
		}
	}
	if testing.Short() {
		return
	}
	// A built binary knows its modules' versions.
	bin := filepath.Join(t.TempDir(), "cordon")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{`(?m)^goja    v\S+$`, `(?m)^wazero  v\d+\.\d+\.\d+$`, `(?m)^opa     v\d+\.\d+\.\d+$`, `(?m)^cordon  \S`} {
		if !regexp.MustCompile(re).Match(out) {
			t.Errorf("built binary: %q does not match %s", out, re)
		}
	}
	if _, err := hex.DecodeString(regexp.MustCompile(`sha256 (\S+)`).FindStringSubmatch(string(out))[1]); err != nil {
		t.Errorf("guest hash: %v", err)
	}
}
