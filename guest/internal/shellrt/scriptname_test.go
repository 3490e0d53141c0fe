package shellrt

import (
	"testing"

	"github.com/cordonhq/cordon/guest/internal/jsrt"
	"github.com/cordonhq/cordon/vfs"
)

// The shell's messages and $0 carry the name the host gave the script,
// with the script's own line numbers, in functions and child shells too.
func TestScriptNameAndLines(t *testing.T) {
	for _, tc := range []struct{ name, script, stdout, stderr string }{
		{"deploy.sh", "echo $0 $LINENO\n\nnosuch", "deploy.sh 1\n", "deploy.sh: line 3: nosuch: command not found\n"},
		{"[eval]", "f() {\n  nosuch\n}\nf", "", "[eval]: line 2: nosuch: command not found\n"},
		{"s.sh", "set -u\necho ok\necho $unset", "ok\n", "s.sh: line 3: unset: unbound variable\n"},
		{"s.sh", "echo a\nif then", "a\n", "s.sh: line 2: syntax error: `if` must be followed by a statement list\n"},
		{"s.sh", "x=1\necho $((x +))", "", "s.sh: line 2: "},
	} {
		h := newHost()
		Run(Options{Common: jsrt.Common{Host: h, FS: vfs.New(vfs.Limits{})}}, tc.name, tc.script)
		stderr := h.Stderr()
		if h.Stdout() != tc.stdout || len(stderr) < len(tc.stderr) || stderr[:len(tc.stderr)] != tc.stderr {
			t.Errorf("%q: stdout %q stderr %q, want %q and %q", tc.script, h.Stdout(), stderr, tc.stdout, tc.stderr)
		}
	}
}
