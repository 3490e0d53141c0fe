package jsrt

import (
	"strings"
	"testing"

	"github.com/cordonhq/cordon/guest/internal/hub/hubtest"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

func runNamed(t *testing.T, name, code string) (Outcome, string, string) {
	t.Helper()
	h := &hubtest.Host{Answer: func(c abi.Call) abi.CallResult {
		return abi.CallResult{ID: c.ID, ErrKind: "denied", ErrMsg: "tool " + c.Method + " denied: no", Reasons: []string{"no"}}
	}}
	out := Run(Options{Common: Common{Host: h, FS: vfs.New(vfs.Limits{}), Tools: []abi.ToolInfo{{Name: "t"}}}}, name, code)
	return out, h.Stdout(), h.Stderr()
}

// Syntax errors are reported at the script's own line and column, with the
// script's name, the line and a caret, as Node does; an error at the end of
// the script is not one in the wrapper around it.
func TestSyntaxErrorPositions(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		stderr     string
		summary    string
	}{
		{"two.js", "const a = 1;\nconst b = ;\n", "two.js:2\nconst b = ;\n          ^\n\nSyntaxError: Unexpected token ;\n", "SyntaxError: Unexpected token ; (two.js:2:11)"},
		{"[eval]", "let x = ;", "[eval]:1\nlet x = ;\n        ^\n\nSyntaxError: Unexpected token ;\n", "SyntaxError: Unexpected token ; (2)"},
		// Unclosed: the end of the script, not the wrapper's line 4.
		{"open.js", "function f() {\n  return 1\n", "open.js:3\n\n^\n\nSyntaxError: Unexpected end of input\n", "SyntaxError: Unexpected end of input (open.js:3:1)"},
		{"open.js", "function f() {\n  return 1", "open.js:2\n  return 1\n          ^\n\nSyntaxError: Unexpected end of input\n", "SyntaxError: Unexpected end of input (open.js:2:11)"},
		{"await.js", "await 1\nx = {", "await.js:2\nx = {\n     ^\n\nSyntaxError: Unexpected end of input\n", "(await.js:2:6)"},
		{"str.js", "const s = `abc", "str.js:1\nconst s = `abc\n              ^\n\nSyntaxError: Unexpected end of input\n", "(str.js:1:15)"},
		// From the compiler (the parser takes it), line 1 and below.
		{"dup.js", "let x; let x", "dup.js:1\n", "(dup.js:1:"},
		{"dup.js", "\n\nlet y\nlet y", "dup.js:4\n", "(dup.js:4:"},
		// A script that closes the wrapper: at its own brace.
		{"esc.js", "1\n}, function() {", "esc.js:2\n}, function() {\n^\n\nSyntaxError: Unexpected token '}'\n", "(esc.js:2:1)"},
		{"esc.js", "}); globalThis.x = 1; (async function() {", "esc.js:1\n})", "(esc.js:1:1)"},
		// Tabs keep the caret under the column.
		{"tab.js", "if (1) {\n\t\tx = ;\n}", "tab.js:2\n\t\tx = ;\n\t\t    ^\n", "(tab.js:2:7)"},
	} {
		out, _, stderr := runNamed(t, tc.name, tc.code)
		if out.ExitCode != 1 || out.ErrCode != "exception" {
			t.Errorf("%q: outcome %+v", tc.code, out)
		}
		if !strings.HasPrefix(stderr, tc.stderr) || strings.Contains(stderr, "more errors") {
			t.Errorf("%q: stderr\n%s\nwant it to start with\n%s", tc.code, stderr, tc.stderr)
		}
		if tc.summary == "SyntaxError: Unexpected token ; (2)" {
			tc.summary = "SyntaxError: Unexpected token ; ([eval]:1:9)"
		}
		if !strings.Contains(out.ErrMsg, tc.summary) || !strings.HasPrefix(out.ErrMsg, "SyntaxError: ") {
			t.Errorf("%q: summary %q, want %q", tc.code, out.ErrMsg, tc.summary)
		}
	}
	// A long line is clipped around the column.
	long := "x = 1 + " + strings.Repeat("a + ", 200) + ";"
	_, _, stderr := runNamed(t, "long.js", long)
	if lines := strings.Split(stderr, "\n"); len(lines) < 3 || len(lines[1]) > 200 || !strings.HasPrefix(lines[1], "...") || strings.Index(lines[2], "^") != strings.Index(lines[1], "+ ;")+2 {
		t.Errorf("long line:\n%s", stderr)
	}
}

// Runtime errors point at the script's own columns on its first line, and
// at its lines below; Error.stack, read by the script, too.
func TestRuntimeErrorPositions(t *testing.T) {
	for _, tc := range []struct{ name, code, want string }{
		{"one.js", "null.x", "    at one.js:1:6\n"},
		{"one.js", "await 1; null.x", "    at one.js:1:15\n"},
		{"[eval]", "function f() { throw new Error('boom') }\nf()", "Error: boom\n    at f ([eval]:1:22)\n    at [eval]:2:2\n"},
		{"two.js", "const a = 1\n  null.x", "    at two.js:2:8\n"},
	} {
		_, _, stderr := runNamed(t, tc.name, tc.code)
		if !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: stderr %q, want %q in it", tc.code, stderr, tc.want)
		}
	}
	_, stdout, _ := runNamed(t, "s.js", `console.log(new Error("x").stack)`)
	if !strings.Contains(stdout, "s.js:1:13(") {
		t.Errorf("Error.stack: %q", stdout)
	}
	// A name a URL would escape keeps the wrapper's columns on line 1,
	// never a mangled name.
	_, _, stderr := runNamed(t, "my script.js", "\nnull.x")
	if !strings.Contains(stderr, "my script.js:2:6") {
		t.Errorf("name with a space: %q", stderr)
	}
	_, _, stderr = runNamed(t, "my script.js", "null.x")
	if !strings.Contains(stderr, "my script.js:1:") {
		t.Errorf("name with a space, line 1: %q", stderr)
	}
}

// A ToolError's stack holds no frame of the sandbox's own code: not when
// the host refuses a call, and not when a script makes one itself.
func TestToolErrorStackHasNoInternalFrames(t *testing.T) {
	for _, code := range []string{
		"await t({})",
		"function f() { return t({}) }\nawait f()",
		"try { await t({}) } catch (e) { console.error(e.stack) }",
		"throw new ToolError('mine', 'a/b', 'denied', ['r'])",
		"class Mine extends ToolError {}\nthrow new Mine('sub')",
	} {
		_, _, stderr := runNamed(t, "tool.js", code)
		if strings.Contains(stderr, "prelude") || strings.Contains(stderr, "native") || !strings.Contains(stderr, "ToolError") && !strings.Contains(stderr, "Mine") {
			t.Errorf("%q: stderr %q", code, stderr)
		}
	}
	_, stdout, _ := runNamed(t, "tool.js", `const e = new ToolError('m', 'a/b', 'denied', ['r'])
class Sub extends ToolError {}
const s = new Sub('x')
return [e instanceof ToolError, e instanceof Error, e.name, e.message, e.method, e.kind, e.reasons.join(), ToolError.name, ToolError.length,
  s instanceof Sub, s instanceof ToolError, s.name, Object.keys(e).join(), typeof ToolError.prototype.constructor,
  ToolError.prototype.constructor === ToolError, Object.getPrototypeOf(ToolError) === Error, e.stack.split("\n")[1].trim().replace(/\(\d+\)$/, "")].join("|")`)
	if want := "true|true|ToolError|m|a/b|denied|r|ToolError|4|true|true|ToolError|method,kind,reasons|function|true|true|at tool.js:1:11\n"; stdout != want {
		t.Errorf("got  %q\nwant %q", stdout, want)
	}
	// As Error, it may be called without new.
	_, stdout, _ = runNamed(t, "tool.js", `const e = ToolError('no new'); return [e instanceof ToolError, e.message].join()`)
	if stdout != "true,no new\n" {
		t.Errorf("ToolError without new: %q", stdout)
	}
}
