package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

// Each limit ends the script with its own error kind, in JS and in the
// shell, and the sandbox stays usable.
func TestLimitsReportTheirKind(t *testing.T) {
	var ran atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools: []engine.Tool{enginetest.Counting("t", &ran), {Name: "big", Handler: func(context.Context, json.RawMessage) (any, error) {
			return strings.Repeat("x", 2000), nil
		}}},
		Limits: engine.Limits{Timeout: 2 * time.Second, MaxOutputBytes: 1000, MaxToolCalls: 5, MaxParamBytes: 500, MaxResultBytes: 1000, VFSBytes: 10000, MaxCallDepth: 200},
	})
	cases := []struct {
		lang engine.Language
		code string
		kind engine.Kind
	}{
		{engine.JavaScript, `for (;;) console.log("flood")`, engine.KindOutput},
		{engine.Shell, `while :; do echo flood; done`, engine.KindOutput},
		{engine.Shell, `yes`, engine.KindOutput},
		{engine.JavaScript, `for (let i = 0; i < 10; i++) await t({i})`, engine.KindToolCalls},
		{engine.JavaScript, `await Promise.all(Array.from({length: 10}, (_, i) => t({i})))`, engine.KindToolCalls},
		{engine.Shell, `for i in 1 2 3 4 5 6 7; do tool t; done`, engine.KindToolCalls},
		{engine.JavaScript, `fs.writeFileSync("a", "x".repeat(20000))`, engine.KindQuota},
		{engine.Shell, `set -e; head -c 20000 /dev/zero > a 2>/dev/null || yes | head -c 20000 > a; echo unreachable`, engine.KindQuota},
		{engine.JavaScript, `function f(n) { return f(n + 1) + 1 } f(0)`, engine.KindRecursion},
		{engine.JavaScript, `while (true) {}`, engine.KindTimeout},
		{engine.Shell, `while true; do :; done`, engine.KindTimeout},
	}
	bound := enginetest.Scale(t, time.Second)
	for _, c := range cases {
		ran.Store(0)
		start := time.Now()
		res, err := sb.Execute(context.Background(), c.lang, c.code)
		if engine.KindOf(err) != c.kind {
			t.Errorf("%s: err %v, want kind %s", c.code, err, c.kind)
			continue
		}
		if took := time.Since(start); c.kind != engine.KindTimeout && took > bound {
			t.Errorf("%s: took %v", c.code, took)
		}
		if res == nil {
			t.Errorf("%s: no result", c.code)
			continue
		}
		switch c.kind {
		case engine.KindOutput:
			if !res.OutputTruncated || len(res.Stdout) > 1200 || !strings.Contains(res.Stdout, "output limit of 1000 bytes reached") {
				t.Errorf("%s: stdout %d bytes %q", c.code, len(res.Stdout), res.Stdout[max(0, len(res.Stdout)-100):])
			}
		case engine.KindToolCalls:
			// Sequential calls run up to the limit; a batch that crosses it
			// is stopped before any of it runs.
			if n := ran.Load(); n != 5 && !(n == 0 && strings.Contains(c.code, "Promise.all")) {
				t.Errorf("%s: handler ran %d times", c.code, n)
			}
		}
	}
	// Per-call limits fail the call, not the execution.
	res := enginetest.Run(t, sb, `const out = []
try { await t({s: "x".repeat(600)}) } catch (e) { out.push(e.kind) }
try { await big({}) } catch (e) { out.push(e.kind) }
return out`)
	if res.Stdout != `["too_large","too_large"]`+"\n" {
		t.Errorf("per-call limits: %q %q", res.Stdout, res.Stderr)
	}
	sh := enginetest.RunShell(t, sb, `tool big; echo "status $?"`)
	if !strings.Contains(sh.Stdout, "status 1") || !strings.Contains(sh.Stderr, "over the limit of 1000") {
		t.Errorf("shell per-call limit: %q %q", sh.Stdout, sh.Stderr)
	}
	if res := enginetest.Run(t, sb, "return 1"); res.Stdout != "1\n" {
		t.Errorf("after the limits: %q", res.Stdout)
	}
	if sb.Err() != nil {
		t.Errorf("sandbox broken: %v", sb.Err())
	}
}

// Files written before a failure or a timeout are kept and can be exported.
func TestWorkspaceSurvivesFailures(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 300 * time.Millisecond}})
	for _, c := range []struct {
		lang engine.Language
		code string
	}{
		{engine.JavaScript, `fs.writeFileSync("js.txt", "1"); while (true) {}`},
		{engine.JavaScript, `fs.writeFileSync("js2.txt", "2"); throw new Error("boom")`},
		{engine.Shell, `echo 3 > sh.txt; while :; do :; done`},
		{engine.Shell, `echo 4 > sh2.txt; exit 7`},
	} {
		if _, err := sb.Execute(context.Background(), c.lang, c.code); err != nil && !errors.Is(err, engine.ErrTimeout) {
			t.Fatalf("%s: %v", c.code, err)
		}
	}
	var tar strings.Builder
	if err := sb.ExportTar(context.Background(), &tar, "/workspace"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"js.txt", "js2.txt", "sh.txt", "sh2.txt"} {
		if !strings.Contains(tar.String(), name) {
			t.Errorf("%s missing from the export", name)
		}
	}
}

// Result.ToolCalls keeps at most Limits.MaxRecordedBytes of params and
// results in total: later records keep their sizes, not their bytes, so a
// script cannot make the host hold MaxToolCalls times MaxParamBytes.
func TestMaxRecordedBytes(t *testing.T) {
	echo := engine.Tool{Name: "echo", Handler: func(_ context.Context, p json.RawMessage) (any, error) { return p, nil }}
	strict := engine.Tool{Name: "strict", InputSchema: json.RawMessage(`{"type":"object","required":["n"]}`), Handler: echo.Handler}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{echo, strict}, Limits: engine.Limits{MaxRecordedBytes: 1000}})
	// Each call: params {"s":"xxx..."} of 210 bytes, the same back.
	res, err := sb.Execute(context.Background(), engine.JavaScript,
		`for (let i = 0; i < 6; i++) await echo({s: "x".repeat(202)}); try { await strict({s: "y".repeat(502)}) } catch (e) {}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 7 {
		t.Fatalf("%d records", len(res.ToolCalls))
	}
	kept := 0
	for i, c := range res.ToolCalls {
		if c.ParamsSize == 0 {
			t.Errorf("call %d: no params size", i)
		}
		if c.Elided {
			if c.Params != nil || c.Result != nil {
				t.Errorf("call %d: elided, but it kept %d and %d bytes", i, len(c.Params), len(c.Result))
			}
			continue
		}
		if len(c.Params) != c.ParamsSize || len(c.Result) != c.ResultSize {
			t.Errorf("call %d: sizes %d/%d for %d/%d bytes", i, c.ParamsSize, c.ResultSize, len(c.Params), len(c.Result))
		}
		kept += len(c.Params) + len(c.Result)
	}
	// Two echo calls fit (2 x 420 bytes); the other four and the call
	// refused by the input schema do not.
	if kept != 840 || res.ToolCalls[1].Elided || !res.ToolCalls[2].Elided || !res.ToolCalls[6].Elided {
		t.Errorf("kept %d bytes; elided: %v", kept, elided(res.ToolCalls))
	}
	if res.ToolCalls[6].ParamsSize != 510 || res.ToolCalls[2].ResultSize != 210 {
		t.Errorf("sizes: %+v", res.ToolCalls)
	}
}

func elided(calls []engine.ToolCall) []bool {
	out := make([]bool, len(calls))
	for i, c := range calls {
		out[i] = c.Elided
	}
	return out
}
