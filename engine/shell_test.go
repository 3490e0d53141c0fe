package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

func TestShellScript(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Mock("users/list", []map[string]any{
		{"name": "ann", "admin": true}, {"name": "bob", "admin": false}, {"name": "cy", "admin": true},
	})}})
	res := enginetest.RunShell(t, sb, `set -e
tool users/list | jq -r '.[] | select(.admin) | .name' | sort -r > admins.txt
wc -l < admins.txt
for n in $(cat admins.txt); do printf '%s!\n' "${n^^}"; done
date +%Y
exit 3`)
	if res.Stdout != "2\nCY!\nANN!\n2026\n" || res.ExitCode != 3 {
		t.Fatalf("stdout %q stderr %q exit %d", res.Stdout, res.Stderr, res.ExitCode)
	}
	// The VFS persists into the next execution (JS here); shell variables do not.
	if res := enginetest.Run(t, sb, `return fs.readFileSync("admins.txt", "utf8")`); res.Stdout != "cy\nann\n\n" {
		t.Errorf("from JS: %q", res.Stdout)
	}
	if res := enginetest.RunShell(t, sb, `x=1; echo "${x}"`); res.Stdout != "1\n" {
		t.Errorf("%q", res.Stdout)
	}
	if res := enginetest.RunShell(t, sb, `echo "[${x:-unset}]"; nope; echo $?`); res.Stdout != "[unset]\n127\n" || !strings.Contains(res.Stderr, "nope: command not found") {
		t.Errorf("%q %q", res.Stdout, res.Stderr)
	}
}

// A denied call is refused on every path a script can take, the handler
// never runs, and each path reports the reasons.
func TestDeniedToolOnEveryPath(t *testing.T) {
	var ran atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{enginetest.Counting("admin/delete", &ran), enginetest.Counting("pay", &ran)},
		Policy: enginetest.Policy(t, dsl.Method("pay").Where(dsl.Param("amount").Le(100))),
	})
	js := enginetest.Run(t, sb, `const out = []
for (const f of [() => admin.delete({}), () => admin_delete({}), () => pay({amount: 500})]) {
  try { await f(); out.push("ran") } catch (e) { out.push(e.kind) }
}
const r = await shell("tool admin/delete; echo $?; tool pay --amount 500; echo $?; node -e 'await admin.delete({})'; echo $?")
out.push(r.stdout.trim().split("\n").join(","))
return out`)
	if js.Stdout != `["denied","denied","denied","1,1,1"]`+"\n" {
		t.Errorf("JS paths: %q %q", js.Stdout, js.Stderr)
	}
	sh := enginetest.RunShell(t, sb, `tool admin/delete; echo $?
tool admin_delete; echo $?
tool pay --amount 500 2>&1 | grep -c 'amount <= 100 does not hold'
node -e 'try { await pay({amount: 1000}) } catch (e) { console.log(e.kind) }'
sh -c 'tool admin/delete'; echo $?
tool pay --json '{"amount": 5}' | jq -c .`)
	if sh.Stdout != "1\n1\n1\ndenied\n1\n{\"amount\":5}\n" {
		t.Errorf("shell paths: %q %q", sh.Stdout, sh.Stderr)
	}
	if ran.Load() != 1 {
		t.Errorf("handlers ran %d times, want 1 (the allowed pay)", ran.Load())
	}
	for _, c := range sh.ToolCalls {
		if c.Method == "admin/delete" && (c.Allowed || len(c.Reasons) == 0) {
			t.Errorf("record %+v", c)
		}
	}
}

func TestShellTimeout(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 300 * time.Millisecond}})
	bound := enginetest.Scale(t, 5*time.Second)
	for _, code := range []string{
		`while true; do :; done`,
		`yes | grep -c y`,
		`f() { echo x; }; while :; do f; done | cat > /dev/null`,
		`node -e 'for (;;) {}'`,
		`sleep 100`,
	} {
		start := time.Now()
		_, err := sb.Execute(context.Background(), engine.Shell, code)
		took := time.Since(start)
		if !errors.Is(err, engine.ErrTimeout) {
			t.Errorf("%s: err %v, want a timeout", code, err)
		}
		// A loose bound: the point is that the script stops at all, and
		// this machine may be loaded (the overrun itself is measured by
		// TestOverrunIsBounded).
		if took > bound {
			t.Errorf("%s: stopped after %v", code, took)
		}
	}
	if res := enginetest.RunShell(t, sb, "echo ok"); res.Stdout != "ok\n" {
		t.Errorf("after timeouts: %q", res.Stdout)
	}
}

// Tool calls that shell background jobs make at once reach the host as one
// batch and run in parallel: `tool slow & tool slow & ... & wait` takes
// about one call's time, not the sum. Each handler waits until all of them
// have started (or a generous timeout passes), so the test fails if the
// calls run one after another, without bounding wall-clock time tightly.
func TestShellBackgroundToolCallsRunInParallel(t *testing.T) {
	const n = 4
	wait := enginetest.Scale(t, 3*time.Second)
	var started atomic.Int32
	all := make(chan struct{})
	slow := engine.Tool{Name: "slow", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
		if started.Add(1) == n {
			close(all)
		}
		select {
		case <-all:
		case <-time.After(wait):
			return nil, errors.New("the other calls did not start: the calls ran one by one")
		}
		time.Sleep(100 * time.Millisecond)
		return map[string]any{"ok": true}, nil
	}}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{slow}, Limits: engine.Limits{Timeout: 30 * time.Second}})
	begin := time.Now()
	res := enginetest.RunShell(t, sb, `for i in 1 2 3 4; do tool slow > out.$i & done; wait; cat out.1 out.2 out.3 out.4 | grep -c true`)
	elapsed := time.Since(begin)
	if res.Stdout != "4\n" || res.ExitCode != 0 {
		t.Fatalf("stdout %q stderr %q exit %d", res.Stdout, res.Stderr, res.ExitCode)
	}
	t.Logf("%d tool calls of 100ms from background jobs took %v", n, elapsed)
}
