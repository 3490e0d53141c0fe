package main

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// setTerminal makes isTerminal report tty for every writer during the
// test.
func setTerminal(t *testing.T, tty bool) {
	t.Helper()
	old := isTerminal
	isTerminal = func(io.Writer) bool { return tty }
	t.Cleanup(func() { isTerminal = old })
}

func TestNeutralize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text\n", "plain text\n"},
		{"tab\tand CRLF\r\n", "tab\tand CRLF\r\n"},
		{"\x1b]52;c;ZXZpbA==\x07", `\u001b]52;c;ZXZpbA==\u0007`},                                         // clipboard
		{"\x1b]0;pwned\x1b\\", `\u001b]0;pwned\u001b\`},                                                  // window title
		{"\x1b[2J\x1b[H\x1b[1A", `\u001b[2J\u001b[H\u001b[1A`},                                           // clear, home, up
		{"\x1b]8;;http://evil\x07click\x1b]8;;\x07", `\u001b]8;;http://evil\u0007click\u001b]8;;\u0007`}, // hyperlink
		{"\x1bP+q\x1b\\", `\u001bP+q\u001b\`},                                                            // DCS
		{"\u009b2J\u009d0;t\u009c", `\u009b2J\u009d0;t\u009c`},                                           // C1 CSI, OSC, ST
		{"safe\rrm -rf /", `safe\u000drm -rf /`},                                                         // a lone CR
		{"a\bb\x7f\x00", `a\u0008b\u007f\u0000`},                                                         // backspace, DEL, NUL
		{"\u202eevil\u2066", `\u202eevil\u2066`},                                                         // bidi override, isolate
		{"bad \xff\x9b byte", `bad \xff\x9b byte`},                                                       // not UTF-8
		{"héllo 世界 😀 \ufffd", "héllo 世界 😀 \ufffd"},
	} {
		if got := neutralize(tc.in); got != tc.want {
			t.Errorf("neutralize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Neutralized JSON decodes to the same value.
	in := `{"s":"\u001b[2J ` + "\u009b\u202e\x7f" + `"}`
	var a, b any
	if json.Unmarshal([]byte(in), &a) != nil || json.Unmarshal([]byte(neutralize(in)), &b) != nil || a.(map[string]any)["s"] != b.(map[string]any)["s"] {
		t.Errorf("neutralized JSON %q decodes to %v, want %v", neutralize(in), b, a)
	}
}

// The escape sequences a hostile script prints (clipboard, window title,
// clearing the screen) are made harmless on a terminal, in stdout, stderr
// and cordon's own error line; elsewhere, or with --raw-output, they pass
// byte for byte.
func TestRunNeutralizesTerminalOutput(t *testing.T) {
	const evil = "\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07\x1b[2J\u009b31m"
	js := `console.log("` + jsEscape(evil) + `"); console.error("err` + jsEscape(evil) + `")`
	const safe = `\u001b]52;c;ZXZpbA==\u0007\u001b]0;pwned\u0007\u001b[2J\u009b31m`

	setTerminal(t, false)
	code, stdout, stderr := cli(t, "", "run", "-e", js)
	if code != 0 || stdout != evil+"\n" || stderr != "err"+evil+"\n" {
		t.Errorf("not a terminal: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	_, stdout, _ = cli(t, "", "run", "--lang", "sh", "-e", `printf 'a\033[2Jb\377c\r'`)
	if stdout != "a\x1b[2Jb\xffc\r" {
		t.Errorf("not a terminal, shell: %q", stdout)
	}

	setTerminal(t, true)
	code, stdout, stderr = cli(t, "", "run", "-e", js)
	if code != 0 || stdout != safe+"\n" || stderr != "err"+safe+"\n" {
		t.Errorf("terminal: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	_, stdout, _ = cli(t, "", "run", "--lang", "sh", "-e", `printf 'a\033[2Jb\377c\r'`)
	if stdout != `a\u001b[2Jb\xffc\u000d` {
		t.Errorf("terminal, shell: %q", stdout)
	}
	_, stdout, stderr = cli(t, "", "run", "--raw-output", "-e", js)
	if stdout != evil+"\n" || stderr != "err"+evil+"\n" {
		t.Errorf("--raw-output: stdout %q stderr %q", stdout, stderr)
	}
	// --json is JSON already; on a terminal its C1 controls are escaped
	// too, and it decodes to the same output.
	_, stdout, _ = cli(t, "", "run", "--json", "-e", js)
	var out struct{ Stdout string }
	if strings.ContainsAny(stdout, "\x1b\x07\u009b") || json.Unmarshal([]byte(stdout), &out) != nil || out.Stdout != evil+"\n" {
		t.Errorf("--json on a terminal: %q", stdout)
	}
	// cordon's own error line quotes what it was given.
	code, _, stderr = cli(t, "", "run", "--config", "/nope\x1b[2J.yaml", "-e", "1")
	if code != exitUsage || strings.Contains(stderr, "\x1b") || !strings.Contains(stderr, `/nope\u001b[2J.yaml`) {
		t.Errorf("error line: exit %d %q", code, stderr)
	}
}

// jsEscape writes s as the inside of a JS string literal.
func jsEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
