// Package agentscripts runs agent-style scripts that use the sandbox's
// newer commands both in cordon's shell (on the VFS) and in the host's
// bash (on a copy of the same files), and compares stdout and status.
package agentscripts

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/command/commandtest"
	"github.com/cordonhq/cordon/shell/commands"
)

var files = map[string]string{
	"app/v1/config.json": "{\n  \"name\": \"app\",\n  \"port\": 8080,\n  \"debug\": false\n}\n",
	"app/v2/config.json": "{\n  \"name\": \"app\",\n  \"port\": 9090,\n  \"debug\": true\n}\n",
	"app/v1/main.go":     "package main\n\nfunc main() {\n\tprintln(\"v1\")\n}\n",
	"app/v2/main.go":     "package main\n\nfunc main() {\n\tprintln(\"v2\")\n}\n",
	"app/v2/extra.txt":   "new file\n",
	"data/users.csv":     "1,alice\n2,bob\n3,carol\n",
	"data/orders.csv":    "1,book\n1,pen\n3,lamp\n4,desk\n",
	"data/nums.txt":      "5\n3\n9\n1\n",
	"log.txt":            "a\nb\nc\nd\ne\nf\ng\n",
}

var scripts = []string{
	`diff app/v1/config.json app/v2/config.json; echo "status=$?"`,
	`diff -u app/v1/main.go app/v2/main.go | tail -n +3`,
	`diff -rq app/v1 app/v2; echo "status=$?"`,
	`diff -r app/v1 app/v2 | grep -c '^[<>]'`,
	`if diff -q app/v1/main.go app/v1/main.go >/dev/null; then echo same; fi`,
	`sort data/nums.txt > /tmp/s1; sort -r data/nums.txt | sort > /tmp/s2; diff /tmp/s1 /tmp/s2 && echo identical`,
	`join -t, data/users.csv data/orders.csv`,
	`join -t, -a2 -e NONE -o 0,1.2,2.2 data/users.csv data/orders.csv`,
	`tac log.txt | head -3`,
	`n=$(wc -l < log.txt); echo "$(expr $n \* 2)"; expr length "hello world"`,
	`x=10; while [ $x -gt 0 ]; do x=$(expr $x - 3); done; echo $x`,
	`expr "v1.2.3" : 'v\([0-9]*\)'`,
	`timeout 5 echo quick; echo "status=$?"`,
	`timeout 0.2 sleep 3; echo "status=$?"`,
	`tar czf /tmp/app.tgz app && tar tzf /tmp/app.tgz | sort`,
	`mkdir -p /tmp/out && tar cf /tmp/a.tar -C app v1 && tar xf /tmp/a.tar -C /tmp/out && diff -r app/v1 /tmp/out/v1 && echo restored`,
	`gzip -c log.txt > /tmp/log.gz && zcat /tmp/log.gz | wc -l && gunzip -c /tmp/log.gz | md5sum`,
	`printf 'hello' | od -c; printf 'hi\n' | xxd; printf 'abc' | hexdump -C`,
	`printf 'hello' | base32; printf 'NBSWY3DP' | base32 -d; echo`,
	`printf '\x00\x01\xff' | xxd -p | xxd -r -p | od -An -tx1`,
	`cd /tmp && split -l 3 /workspace/log.txt part_ && ls part_* && cat part_ab`,
	`cp log.txt /tmp/t.txt && truncate -s 4 /tmp/t.txt && cat /tmp/t.txt; truncate -s +2 /tmp/t.txt && wc -c < /tmp/t.txt`,
	`shuf -i 1-5 | sort -n | tr '\n' ' '; echo; shuf -n 2 -e a b c | wc -l`,
	`which sort diff tar >/dev/null && echo found; which nosuchtool; echo "status=$?"`,
	`command -v jq >/dev/null && echo has-jq`,
	`diff app/v1/main.go nope; echo "status=$?"`,
	`printf 'b\na\n' > /tmp/x; printf 'a\nb\n' > /tmp/y; diff -u /tmp/x /tmp/y | tail -n +3; diff /tmp/x /tmp/y`,
	`timeout 5 bash -c 'exit 3'; echo "status=$?"`,
	`echo $(expr 17 % 5) $(expr 2 \< 10) $(expr abc = abc)`,
	`od -An -tu1 data/nums.txt`,
	`tar -czf /tmp/d.tgz data && mkdir /tmp/x2 && tar -xzf /tmp/d.tgz -C /tmp/x2 --strip-components=1 && ls /tmp/x2`,
	`seq 1 10 | split -l 4 - /tmp/chunk. && wc -l /tmp/chunk.* | tail -1`,
}

func registry() command.Registry { return commands.All() }

// TestAgentScripts compares cordon's stdout and status with bash's. The
// files live at /work in both (a temporary directory's path is replaced
// by /work in bash's output, and /tmp is a fresh directory on both sides).
func TestAgentScripts(t *testing.T) {
	bash := commandtest.Tool(t, "bash")
	for _, tool := range []string{"diff", "tar", "gzip", "xxd", "hexdump", "join", "shuf", "which"} {
		commandtest.Tool(t, tool)
	}
	compared := 0
	for _, script := range scripts {
		t.Run(script, func(t *testing.T) {
			// Host side: the files under a temporary directory, with its
			// own tmp standing for /tmp.
			// Not t.TempDir: the subtest's name, with the script's
			// characters, would be part of the path.
			root, err := os.MkdirTemp("", "agentscript")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(root)
			work := filepath.Join(root, "work")
			tmp := filepath.Join(root, "tmp")
			os.MkdirAll(tmp, 0o755)
			for name, data := range files {
				p := filepath.Join(work, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(data), 0o644)
			}
			hostScript := strings.ReplaceAll(strings.ReplaceAll(script, "/tmp", tmp), "/workspace", work)
			cmd := exec.Command(bash, "-c", hostScript)
			cmd.Dir = work
			cmd.Env = []string{"LC_ALL=C.UTF-8", "TZ=UTC", "PATH=/usr/bin:/bin"}
			var hout bytes.Buffer
			var herr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &hout, &herr
			err = cmd.Run()
			hst := 0
			if ee, ok := err.(*exec.ExitError); ok {
				hst = ee.ExitCode()
			}
			want := strings.ReplaceAll(hout.String(), tmp, "/tmp")

			// Cordon's side.
			fsys := commandtest.NewFS(t, nil)
			fsys.MkdirAll("/tmp", 0o777)
			for name, data := range files {
				fsys.MkdirAll(filepath.Dir("/workspace/"+name), 0o755)
				if err := fsys.WriteFile("/workspace/"+name, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var out, errb bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			reg := registry()
			reg["sleep"] = func(env *command.Env) int {
				select {
				case <-env.Ctx.Done():
					return 130
				case <-time.After(3 * time.Second):
					return 0
				}
			}
			st, _ := shell.Run(ctx, shell.Config{FS: fsys, Commands: reg, Stdout: &out, Stderr: &errb, Dir: "/workspace",
				Now: time.Now}, "t", script)
			compared++
			if out.String() != want || st != hst {
				t.Errorf("cordon status %d:\n%s\n(stderr %q)\nbash status %d:\n%s\n(stderr %q)", st, out.String(), errb.String(), hst, want, herr.String())
			}
		})
	}
	t.Logf("%d agent-style scripts compared with bash", compared)
}
