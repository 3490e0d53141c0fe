package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
	"github.com/dop251/goja"
)

func BenchmarkExecuteReturn1(b *testing.B) {
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := sb.Execute(ctx, engine.JavaScript, "return 1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExecuteReturn1With50Tools is BenchmarkExecuteReturn1 in a
// sandbox with 50 namespaced tools, as a real agent's has: an execution
// must not pay per registered tool (jsrt.ToolPlan).
func BenchmarkExecuteReturn1With50Tools(b *testing.B) {
	var tools []engine.Tool
	for i := range 50 {
		tools = append(tools, engine.Tool{Name: fmt.Sprintf("svc/tool%d", i), Handler: func(context.Context, json.RawMessage) (any, error) { return 1, nil }})
	}
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{Tools: tools})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := sb.Execute(ctx, engine.JavaScript, "return 1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExecuteLogObject is the most expensive common path left: a
// script that prints an object installs the Node-style formatter in its
// fresh runtime (RATIONALE.md, "A fresh interpreter per execution").
func BenchmarkExecuteLogObject(b *testing.B) {
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := sb.Execute(ctx, engine.JavaScript, "console.log({a: 1})")
		if err != nil || res.Stdout != "{ a: 1 }\n" {
			b.Fatal(err, res.Stdout)
		}
	}
}

// BenchmarkExecuteLogToolResult prints what a tool returned, as agents'
// scripts do: a 40-row result (5.7 KB of JSON), parsed into JS values and
// printed by console.log with the plain-data formatter.
func BenchmarkExecuteLogToolResult(b *testing.B) {
	var rows []map[string]any
	for i := range 40 {
		rows = append(rows, map[string]any{
			"id": fmt.Sprintf("cus_%04d", i), "name": fmt.Sprintf("Customer %d", i), "email": fmt.Sprintf("c%d@example.com", i),
			"balance": i * 137 % 9000, "active": i%3 != 0, "created": 1700000000 + i*3600, "tier": []string{"free", "pro", "team"}[i%3],
		})
	}
	result, err := json.Marshal(map[string]any{"data": rows, "has_more": false})
	if err != nil {
		b.Fatal(err)
	}
	cfg := engine.SandboxConfig{Tools: []engine.Tool{{Name: "t", Handler: func(context.Context, json.RawMessage) (any, error) {
		return json.RawMessage(result), nil
	}}}}
	ctx := context.Background()
	var sb *engine.Sandbox
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%engine.DefaultMaxCalls == 0 {
			// One sandbox allows DefaultMaxCalls calls of t.
			b.StopTimer()
			if sb != nil {
				sb.Close(ctx)
			}
			sb = enginetest.NewSandboxOf(b, bareEngine(b), cfg)
			b.StartTimer()
		}
		res, err := sb.Execute(ctx, engine.JavaScript, "console.log(await t({}))")
		if err != nil || !strings.Contains(res.Stdout, "email: 'c39@example.com',") {
			b.Fatal(err, res.Stdout, res.Stderr)
		}
	}
}

// BenchmarkExecuteThrow is a script that ends with an uncaught error, as
// a script whose tool call was denied does: the error prints through the
// fast formatter.
func BenchmarkExecuteThrow(b *testing.B) {
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := sb.Execute(ctx, engine.JavaScript, "throw new Error('boom')")
		if err != nil || res.ExitCode != 1 || !strings.HasPrefix(res.Stderr, "Error: boom\n    at ") {
			b.Fatal(err, res.Stderr)
		}
	}
}

func BenchmarkNewSandbox(b *testing.B) {
	e := bareEngine(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		sb, err := e.NewSandbox(ctx, engine.SandboxConfig{})
		if err != nil {
			b.Fatal(err)
		}
		sb.Close(ctx)
	}
}

// okTool is the tool of the tool-call benchmarks: it answers {"ok":true}.
var okTool = engine.Tool{Name: "t", Handler: func(context.Context, json.RawMessage) (any, error) {
	return json.RawMessage(`{"ok":true}`), nil
}}

// BenchmarkToolCall measures a JS tool-call round trip (await -> policy ->
// handler -> resolve) as the cost of a script making 100 sequential calls,
// reported per call. The sandbox has a capability policy that allows t
// without a limit, and runs the script again and again, as an agent's
// sandbox runs its scripts.
func BenchmarkToolCall(b *testing.B) {
	ctx := context.Background()
	p, err := policy.New(ctx, policy.Config{Capabilities: []*dsl.Capability{dsl.Method("t")}})
	if err != nil {
		b.Fatal(err)
	}
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{
		Policy: p,
		Limits: engine.Limits{Timeout: time.Minute, MaxToolCalls: math.MaxInt32},
		Tools:  []engine.Tool{okTool},
	})
	code := `for (let i = 0; i < 100; i++) await t({i})`
	for b.Loop() {
		res, err := sb.Execute(ctx, engine.JavaScript, code)
		if err != nil || res.ExitCode != 0 || len(res.ToolCalls) != 100 {
			b.Fatal(err, res.Stderr)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/call")
}

// BenchmarkToolCallSchema is BenchmarkToolCall with an input schema on
// the tool, which the host checks on every call before the policy runs:
// its cost over BenchmarkToolCall is the validation's.
func BenchmarkToolCallSchema(b *testing.B) {
	ctx := context.Background()
	p, err := policy.New(ctx, policy.Config{Capabilities: []*dsl.Capability{dsl.Method("t")}})
	if err != nil {
		b.Fatal(err)
	}
	tool := okTool
	tool.InputSchema = json.RawMessage(`{"type": "object", "additionalProperties": false, "required": ["i"],
  "properties": {"i": {"type": "integer", "minimum": 0}, "note": {"type": "string", "maxLength": 200},
    "tags": {"type": "array", "items": {"type": "string"}}, "currency": {"enum": ["USD", "EUR"]}}}`)
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{
		Policy: p,
		Limits: engine.Limits{Timeout: time.Minute, MaxToolCalls: math.MaxInt32},
		Tools:  []engine.Tool{tool},
	})
	code := `for (let i = 0; i < 100; i++) await t({i})`
	for b.Loop() {
		res, err := sb.Execute(ctx, engine.JavaScript, code)
		if err != nil || res.ExitCode != 0 || len(res.ToolCalls) != 100 {
			b.Fatal(err, res.Stderr)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/call")
}

// BenchmarkToolCallFirstExecution is BenchmarkToolCall in a new sandbox
// each time (booted, not from a pool, and without a policy: the default
// limits apply): the script is the sandbox's first, and pays for the
// guest's first-execution work (compiling the script, goja's one-time
// tables) on top of its 100 calls.
func BenchmarkToolCallFirstExecution(b *testing.B) {
	ctx := context.Background()
	code := `for (let i = 0; i < 100; i++) await t({i})`
	for b.Loop() {
		b.StopTimer()
		sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{Limits: engine.Limits{Timeout: time.Minute}, Tools: []engine.Tool{okTool}})
		b.StartTimer()
		res, err := sb.Execute(ctx, engine.JavaScript, code)
		if err != nil || res.ExitCode != 0 {
			b.Fatal(err, res.Stderr)
		}
		b.StopTimer()
		sb.Close(ctx)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/call")
}

// BenchmarkToolCallBatch is BenchmarkToolCall with the 100 calls made ten
// at a time (Promise.all): the guest hands each ten to the host in one
// batch, and the host runs their handlers concurrently.
func BenchmarkToolCallBatch(b *testing.B) {
	tools := []engine.Tool{{Name: "t", Handler: func(context.Context, json.RawMessage) (any, error) {
		return json.RawMessage(`{"ok":true}`), nil
	}}}
	ctx := context.Background()
	code := `for (let i = 0; i < 10; i++) await Promise.all(Array.from({length: 10}, (_, j) => t({i, j})))`
	for b.Loop() {
		b.StopTimer()
		sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{Limits: engine.Limits{Timeout: time.Minute}, Tools: tools})
		b.StartTimer()
		res, err := sb.Execute(ctx, engine.JavaScript, code)
		if err != nil || res.ExitCode != 0 || len(res.ToolCalls) != 100 {
			b.Fatal(err, res.Stderr)
		}
		b.StopTimer()
		sb.Close(ctx)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/call")
}

const loopScript = `let s = 0; for (let i = 0; i < 100000; i++) { s += i % 7 } return s`

// BenchmarkJSLoop and BenchmarkJSLoopNative run the same loop in the
// sandbox and in goja on the host: their ratio is the cost of the sandbox.
func BenchmarkJSLoop(b *testing.B) {
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{Limits: engine.Limits{Timeout: time.Minute}})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := sb.Execute(ctx, engine.JavaScript, loopScript)
		if err != nil || res.Stdout != "299995\n" {
			b.Fatal(err, res.Stdout)
		}
	}
}

func BenchmarkJSLoopNative(b *testing.B) {
	prog := goja.MustCompile("loop.js", "(function() {"+loopScript+"})()", false)
	for b.Loop() {
		rt := goja.New()
		v, err := rt.RunProgram(prog)
		if err != nil || v.ToInteger() != 299995 {
			b.Fatal(err, v)
		}
	}
}

// jsCompute are the compute-bound scripts of bench/jscompute/scripts.json
// (the loop among them), each run in the sandbox (BenchmarkJSCompute) and
// in goja on the host (BenchmarkJSComputeNative): bench/run reports each
// one's ratio, so that no kind of work hides behind the loop's figure, and
// bench/jscompute runs the same file in node and in QuickJS compiled to
// WebAssembly.
func jsCompute(tb testing.TB) []struct{ name, code, want string } {
	tb.Helper()
	b, err := os.ReadFile("../bench/jscompute/scripts.json")
	if err != nil {
		tb.Fatal(err)
	}
	var scripts []struct{ Name, Code, Want string }
	if err := json.Unmarshal(b, &scripts); err != nil {
		tb.Fatalf("bench/jscompute/scripts.json: %v", err)
	}
	out := make([]struct{ name, code, want string }, len(scripts))
	for i, s := range scripts {
		out[i] = struct{ name, code, want string }{s.Name, s.Code, s.Want}
	}
	return out
}

// The compute scripts hold the loop of BenchmarkJSLoop, and each gives
// its answer in goja.
func TestJSComputeScripts(t *testing.T) {
	scripts := jsCompute(t)
	if len(scripts) != 8 || scripts[0].name != "loop" || scripts[0].code != loopScript {
		t.Fatalf("bench/jscompute/scripts.json: %d scripts, the first %q; want 8, the loop of loopScript first", len(scripts), scripts[0].name)
	}
	for _, w := range scripts {
		v, err := goja.New().RunString("(function() {" + w.code + "})()")
		if err != nil || v.String() != w.want {
			t.Errorf("%s: %v %v, want %s", w.name, v, err, w.want)
		}
	}
}

func BenchmarkJSCompute(b *testing.B) {
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{Limits: engine.Limits{Timeout: time.Minute}})
	ctx := context.Background()
	for _, w := range jsCompute(b) {
		b.Run(w.name, func(b *testing.B) {
			for b.Loop() {
				res, err := sb.Execute(ctx, engine.JavaScript, w.code)
				if err != nil || res.Stdout != w.want+"\n" {
					b.Fatal(err, res.Stdout, res.Stderr)
				}
			}
		})
	}
}

func BenchmarkJSComputeNative(b *testing.B) {
	for _, w := range jsCompute(b) {
		b.Run(w.name, func(b *testing.B) {
			prog := goja.MustCompile(w.name+".js", "(function() {"+w.code+"})()", false)
			for b.Loop() {
				v, err := goja.New().RunProgram(prog)
				if err != nil || v.String() != w.want {
					b.Fatal(err, v)
				}
			}
		})
	}
}

// pipelineInput is about 10 MB of log lines, a third of them with "foo".
func pipelineInput() []byte {
	var buf []byte
	words := []string{"alpha", "beta", "gamma", "delta", "foo", "epsilon", "zeta", "foo", "eta"}
	for i := 0; len(buf) < 10<<20; i++ {
		buf = fmt.Appendf(buf, "2026-11-21T12:%02d:%02d host%d %s user%d request %d done in %dms\n",
			i/60%60, i%60, i%7, words[i%len(words)], i%113, i, i%997)
	}
	return buf
}

// BenchmarkShellPipeline10MB runs grep | sort | uniq -c | sort -rn | head
// over a 10 MB file in the sandbox's VFS (the file is put in once).
func BenchmarkShellPipeline10MB(b *testing.B) {
	sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{Limits: engine.Limits{Timeout: time.Minute}})
	ctx := context.Background()
	if err := sb.WriteFile(ctx, "/workspace/log.txt", pipelineInput()); err != nil {
		b.Fatal(err)
	}
	const script = `grep foo log.txt | cut -d' ' -f4,5 | sort | uniq -c | sort -rn | head -3`
	b.ResetTimer()
	for b.Loop() {
		res, err := sb.Execute(ctx, engine.Shell, script)
		if err != nil || res.ExitCode != 0 || strings.Count(res.Stdout, "\n") != 3 {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkShellWorkloads runs the scripts of bench/shell-workloads.txt,
// which bench/run also runs in just-bash, each in a sandbox that has run it
// once already (just-bash's run also reuses its interpreter).
func BenchmarkShellWorkloads(b *testing.B) {
	data, err := os.ReadFile("../bench/shell-workloads.txt")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for line := range strings.SplitSeq(string(data), "\n") {
		name, script, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		b.Run(name, func(b *testing.B) {
			sb := enginetest.NewSandboxOf(b, bareEngine(b), engine.SandboxConfig{Limits: engine.Limits{Timeout: time.Minute}})
			res, err := sb.Execute(ctx, engine.Shell, script)
			if err != nil || res.ExitCode != 0 || res.Stdout == "" {
				b.Fatal(err, res)
			}
			want := res.Stdout
			for b.Loop() {
				res, err := sb.Execute(ctx, engine.Shell, script)
				if err != nil || res.ExitCode != 0 || res.Stdout != want {
					b.Fatal(err, res)
				}
			}
		})
	}
}
