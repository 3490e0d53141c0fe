package shell

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/vfs"
)

// procSubstScripts are scripts as agents write them with process
// substitution, and (for a machine without bash) bash's output and status.
var procSubstScripts = []struct {
	name, script, out string
	status            int
}{
	{"cat", `cat <(echo hi)`, "hi\n", 0},
	{"path", `echo <(true)`, "/dev/fd/63\n", 0},
	{"two", `echo <(true) <(true)`, "/dev/fd/63 /dev/fd/62\n", 0},
	{"diff", `printf 'b\na\nc\n' > x; printf 'a\nb\nd\n' > y; diff <(sort x) <(sort y)`, "3c3\n< c\n---\n> d\n", 1},
	{"diff-same", `printf 'b\na\n' > x; printf 'a\nb\n' > y; diff <(sort x) <(sort y) && echo same`, "same\n", 0},
	{"endless", `head -n 2 <(yes)`, "y\ny\n", 0},
	{"paste", `paste <(seq 3) <(seq 4 6)`, "1\t4\n2\t5\n3\t6\n", 0},
	{"comm", `printf 'b\na\nc\n' > x; printf 'a\nb\nd\n' > y; comm -12 <(sort x) <(sort y)`, "a\nb\n", 0},
	{"grep-files", `grep -c . <(seq 10) <(seq 3)`, "/dev/fd/63:10\n/dev/fd/62:3\n", 0},
	{"redirect-in", `while read -r l; do echo "got $l"; done < <(printf '1\n2\n')`, "got 1\ngot 2\n", 0},
	{"redirect-out", `echo hi > >(tr a-z A-Z); wait; sleep 0`, "HI\n", 0},
	{"status", `cat <(exit 3); echo $?`, "0\n", 0},
	{"closed-after", `f() { cat "$1"; }; f <(echo once); x=$(cat /dev/fd/63 2>&1); echo "${x##*: }"`, "once\nNo such file or directory\n", 0},
	{"nested", `cat <(cat <(echo deep))`, "deep\n", 0},
	{"loop", `for i in 1 2; do wc -l < <(seq $i); done`, "1\n2\n", 0},
	{"wc", `wc -l <(seq 5)`, "5 /dev/fd/63\n", 0},
	{"sort-merge", `sort -m <(printf '1\n3\n') <(printf '2\n4\n')`, "1\n2\n3\n4\n", 0},
	{"exec-persist", `exec > >(tr a-z A-Z); echo hi; echo there`, "HI\nTHERE\n", 0},
	{"tee-out", `seq 3 | tee >(tr 1-3 a-c) > /dev/null; wait`, "a\nb\nc\n", 0},
	{"read-fd", `read -r first < <(echo one two); echo "$first"`, "one two\n", 0},
	{"sort-o", `printf 'b\na\n' | sort -o >(tr a-z A-Z); wait`, "A\nB\n", 0},
	{"uniq-out", `printf 'a\na\nb\n' | uniq - >(tr a-z A-Z); wait`, "A\nB\n", 0},
	{"sed-w", `printf 'x\ny\n' | sed -n 'w '>(tr a-z A-Z); wait`, "X\nY\n", 0},
}

func TestProcessSubstitution(t *testing.T) {
	cmds := orderCommands()
	bash, bashErr := exec.LookPath("bash")
	for _, c := range procSubstScripts {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasPrefix(c.script, "diff") || strings.Contains(c.script, "; diff ") {
				if _, ok := cmds["diff"]; !ok {
					t.Skip("no diff command in this registry")
				}
			}
			fs := vfs.New(vfs.Limits{MaxBytes: 1 << 20})
			var out, errs bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			st, err := Run(ctx, Config{FS: fs, Commands: cmds, Stdout: &out, Stderr: &errs}, "script.sh", c.script)
			if err != nil {
				t.Fatal(err)
			}
			want, wantSt := c.out, c.status
			if bashErr == nil {
				dir := t.TempDir()
				cmd := exec.Command(bash, "-c", c.script)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "LC_ALL=C")
				var bout bytes.Buffer
				cmd.Stdout = &bout
				err := cmd.Run()
				bst := 0
				if ee, ok := err.(*exec.ExitError); ok {
					bst = ee.ExitCode()
				}
				if bout.String() != c.out || bst != c.status {
					t.Errorf("bash gives %q (status %d), the case says %q (status %d)", bout.String(), bst, c.out, c.status)
				}
				os.RemoveAll(filepath.Join(dir, "x"))
			}
			if out.String() != want || st != wantSt {
				t.Errorf("got %q (status %d), want %q (status %d); stderr %q", out.String(), st, want, wantSt, errs.String())
			}
		})
	}
}

// A process substitution's command that never ends (yes) is stopped once
// the command using it has read what it wanted; no goroutine is left
// behind, and the bound on concurrent stages holds.
func TestProcessSubstitutionEnds(t *testing.T) {
	cmds := orderCommands()
	fs := vfs.New(vfs.Limits{MaxBytes: 1 << 20})
	var out, errs bytes.Buffer
	script := `for i in $(seq 50); do head -c 1 <(yes) <(yes) >/dev/null; done; echo <(:) done`
	st, err := Run(context.Background(), Config{FS: fs, Commands: cmds, Stdout: &out, Stderr: &errs}, "s.sh", script)
	if err != nil || st != 0 || strings.TrimSpace(out.String()) != "/dev/fd/63 done" {
		t.Fatalf("status %d, err %v, out %q, stderr %q", st, err, out.String(), errs.String())
	}
}
