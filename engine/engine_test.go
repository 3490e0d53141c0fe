package engine_test

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

var (
	bareOnce sync.Once
	bare     *engine.Engine
	bareErr  error
)

// bareEngine returns one engine for the test binary made from the kit's
// configuration without a pool of guests: for the tests that count
// goroutines or measure memory, which the shared engine's pool, refilled
// in the background, would disturb, and for the benchmarks, whose figures
// (BENCHMARKS.md) are of sandboxes that boot their own guest.
func bareEngine(t testing.TB) *engine.Engine {
	t.Helper()
	bareOnce.Do(func() {
		bare, bareErr = engine.New(context.Background(), enginetest.Config().WithPool(0))
	})
	if bareErr != nil {
		t.Fatal(bareErr)
	}
	return bare
}

func TestGuestImportsOnlyTheABIAndHarmlessWASI(t *testing.T) {
	allowed := map[string]bool{
		"cordon.next": true, "cordon.yield": true, "cordon.recv": true, "cordon.write": true, "cordon.interrupt": true, "cordon.tick": true,
		// WASI functions the Go runtime links; the engine implements each
		// without authority (see internal/wasi).
		"wasi_snapshot_preview1.args_get": true, "wasi_snapshot_preview1.args_sizes_get": true,
		"wasi_snapshot_preview1.environ_get": true, "wasi_snapshot_preview1.environ_sizes_get": true,
		"wasi_snapshot_preview1.clock_time_get": true, "wasi_snapshot_preview1.clock_res_get": true,
		"wasi_snapshot_preview1.random_get": true, "wasi_snapshot_preview1.proc_exit": true,
		"wasi_snapshot_preview1.sched_yield": true, "wasi_snapshot_preview1.poll_oneoff": true,
		"wasi_snapshot_preview1.fd_write": true, "wasi_snapshot_preview1.fd_fdstat_get": true,
		"wasi_snapshot_preview1.fd_prestat_get": true, "wasi_snapshot_preview1.fd_prestat_dir_name": true,
		// Linked by package os but answered ENOSYS/EBADF: no descriptors exist.
		"wasi_snapshot_preview1.fd_close": true, "wasi_snapshot_preview1.fd_read": true,
		"wasi_snapshot_preview1.fd_fdstat_set_flags": true, "wasi_snapshot_preview1.fd_seek": true,
		"wasi_snapshot_preview1.fd_pread": true, "wasi_snapshot_preview1.fd_pwrite": true,
		"wasi_snapshot_preview1.fd_filestat_get": true, "wasi_snapshot_preview1.path_open": true,
		"wasi_snapshot_preview1.path_filestat_get": true, "wasi_snapshot_preview1.fd_readdir": true,
		"wasi_snapshot_preview1.fd_sync": true, "wasi_snapshot_preview1.fd_datasync": true,
		"wasi_snapshot_preview1.fd_filestat_set_size": true,
		// Linked by package syscall; answered ENOSYS: there are no sockets.
		"wasi_snapshot_preview1.sock_accept": true, "wasi_snapshot_preview1.sock_shutdown": true,
	}
	imports := enginetest.Engine(t).ImportedFunctions()
	if len(imports) == 0 {
		t.Fatal("no imports reported")
	}
	for _, imp := range imports {
		if !allowed[imp] {
			t.Errorf("the guest imports %s, which is not on the allow list", imp)
		}
	}
}

func TestReturnValues(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	for _, tc := range []struct{ code, stdout, value string }{
		{"return 1", "1\n", "1"},
		{"return 'hi'", "hi\n", `"hi"`},
		{"return {a: [1, 'x', null]}", `{"a":[1,"x",null]}` + "\n", `{"a":[1,"x",null]}`},
		{"return undefined", "", ""},
		{"1 + 1", "", ""},
		{"return null", "null\n", "null"},
		{"const x = await Promise.resolve(41); return x + 1", "42\n", "42"},
		{"return new Date(0)", "\"1970-01-01T00:00:00.000Z\"\n", `"1970-01-01T00:00:00.000Z"`},
		{"return Date.now()", "1795262400000\n", "1795262400000"},
	} {
		res := enginetest.Run(t, sb, tc.code)
		if res.Stdout != tc.stdout || string(res.Value) != tc.value || res.ExitCode != 0 {
			t.Errorf("%s: stdout %q value %q exit %d; want %q %q 0 (stderr %q)", tc.code, res.Stdout, res.Value, res.ExitCode, tc.stdout, tc.value, res.Stderr)
		}
	}
}

func TestConsoleAndErrors(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	res := enginetest.Run(t, sb, `console.log("a", 1, {b: 2}); console.error("oops"); console.warn([1,2])`)
	if res.Stdout != "a 1 { b: 2 }\n" || res.Stderr != "oops\n[ 1, 2 ]\n" {
		t.Errorf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
	for _, tc := range []struct{ code, exception string }{
		{"null.x", "TypeError"},
		{"undefinedVariable + 1", "ReferenceError: undefinedVariable is not defined"},
		{"throw new RangeError('too far')", "RangeError: too far"},
		{"await Promise.reject(new Error('async boom'))", "Error: async boom"},
		{"Promise.reject(new TypeError('floating'))", "TypeError: floating"},
		{"let x = ;", "SyntaxError"},
	} {
		res := enginetest.Run(t, sb, tc.code)
		if res.ExitCode != 1 || !strings.Contains(res.Exception, tc.exception) || !strings.Contains(res.Stderr, strings.SplitN(tc.exception, ":", 2)[0]) {
			t.Errorf("%s: exit %d exception %q stderr %q; want exit 1 and %q", tc.code, res.ExitCode, res.Exception, res.Stderr, tc.exception)
		}
	}
}

func TestNoAmbientAuthority(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	res := enginetest.Run(t, sb, `return [typeof require, typeof process, typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof Deno, typeof Bun].join(",")`)
	// fetch exists, and without a fetch tool rejects saying that network
	// access is not enabled (TestFetchGuestNotEnabled).
	if want := "undefined,undefined,function,undefined,undefined,undefined,undefined\n"; res.Stdout != want {
		t.Errorf("got %q, want %q", res.Stdout, want)
	}
	res = enginetest.Run(t, sb, `try { fs.readFileSync('/etc/passwd') } catch (e) { return e.code }`)
	if res.Stdout != "ENOENT\n" {
		t.Errorf("reading /etc/passwd: %q %q", res.Stdout, res.Stderr)
	}
	res = enginetest.Run(t, sb, `try { fs.writeFileSync('/etc/x', 'y') } catch (e) { return e.code }`)
	if res.Stdout != "EACCES\n" {
		t.Errorf("writing /etc/x: %q %q", res.Stdout, res.Stderr)
	}
}

func TestToolCalls(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{
		enginetest.Mock("weather/current", map[string]any{"temp": 72}),
		enginetest.Echo("stripe/charges/create"),
		enginetest.Echo("search"),
	}})
	res := enginetest.Run(t, sb, `const w = await weather.current({city: "SF"}); return w.temp`)
	if res.Stdout != "72\n" || len(res.ToolCalls) != 1 {
		t.Fatalf("stdout %q calls %+v stderr %q", res.Stdout, res.ToolCalls, res.Stderr)
	}
	tc := res.ToolCalls[0]
	if tc.Method != "weather/current" || string(tc.Params) != `{"city":"SF"}` || !tc.Allowed || string(tc.Result) != `{"temp":72}` {
		t.Errorf("tool call record %+v", tc)
	}
	res = enginetest.Run(t, sb, `const r = await stripe_charges_create({amount: 5}); const s = await search({q: 'x'}); return [r.method, r.params.amount, s.params.q]`)
	if res.Stdout != `["stripe/charges/create",5,"x"]`+"\n" {
		t.Errorf("flat alias: %q %q", res.Stdout, res.Stderr)
	}
	res = enginetest.Run(t, sb, `const out = []
for (const bad of [[1], "x", 5, null, () => 1]) {
  try { weather.current(bad) } catch (e) { out.push(e instanceof TypeError) }
}
try { weather.current({}, {}) } catch (e) { out.push(e.message) }
return out`)
	if !strings.Contains(res.Stdout, `[true,true,true,true,true,"weather/current: takes one object argument`) {
		t.Errorf("bad arguments: %q %q", res.Stdout, res.Stderr)
	}
	res = enginetest.Run(t, sb, `return [listTools().map(t => t.name), getToolInfo('weather/current').description, getToolInfo('nope')]`)
	if res.Stdout != `[["search","stripe/charges/create","weather/current"],"mock weather/current",null]`+"\n" {
		t.Errorf("listTools: %q %q", res.Stdout, res.Stderr)
	}
}

func TestBatchRunsConcurrently(t *testing.T) {
	wait := enginetest.Scale(t, 3*time.Second)
	var arrived atomic.Int32
	all := make(chan struct{})
	barrier := func(context.Context, json.RawMessage) (any, error) {
		if arrived.Add(1) == 3 {
			close(all)
		}
		select {
		case <-all:
			return "ok", nil
		case <-time.After(wait):
			return nil, errors.New("the calls of one batch did not run concurrently")
		}
	}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "slow", Handler: barrier}}})
	res := enginetest.Run(t, sb, `return await Promise.all([slow({i: 1}), slow({i: 2}), slow({i: 3})])`)
	if res.Stdout != `["ok","ok","ok"]`+"\n" {
		t.Fatalf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
}

func TestToolErrorsAreCatchable(t *testing.T) {
	var audits []engine.AuditRecord
	secret := errors.New("dial postgres://app:hunter2@db.internal:5432: connection refused")
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{
		{Name: "fails", Handler: func(context.Context, json.RawMessage) (any, error) { return nil, secret }},
		{Name: "panics", Handler: func(context.Context, json.RawMessage) (any, error) { panic("boom") }},
		{Name: "says", Handler: func(context.Context, json.RawMessage) (any, error) {
			return nil, &engine.ToolError{Message: "customer not found", Err: secret}
		}},
		{Name: "refuses", Handler: func(context.Context, json.RawMessage) (any, error) {
			return nil, &engine.ToolError{Kind: "denied", Message: "over the account's limit"}
		}},
		{Name: "late", Handler: func(context.Context, json.RawMessage) (any, error) {
			return nil, fmt.Errorf("query: %w", context.DeadlineExceeded)
		}},
	}, Audit: func(r engine.AuditRecord) { audits = append(audits, r) }})
	res := enginetest.Run(t, sb, `const out = []
for (const f of [fails, panics, says, refuses, late]) {
  try { await f({}) } catch (e) { out.push([e instanceof ToolError, e.name, e.method, e.kind, e.message]) }
}
return out`)
	want := `[[true,"ToolError","fails","failed","tool fails failed: internal error (the host's record of call #1 has the details)"],` +
		`[true,"ToolError","panics","failed","tool panics failed: the handler panicked"],` +
		`[true,"ToolError","says","failed","tool says failed: customer not found"],` +
		`[true,"ToolError","refuses","denied","tool refuses denied: over the account's limit"],` +
		`[true,"ToolError","late","failed","tool late failed: the call ran out of time"]]` + "\n"
	if res.Stdout != want {
		t.Errorf("got %q\nwant %q (stderr %q)", res.Stdout, want, res.Stderr)
	}
	if strings.Contains(res.Stdout, "hunter2") {
		t.Fatal("the handler's secret reached the script")
	}
	// The host keeps the whole error: in the record and in the audit.
	if c := res.ToolCalls[0]; !errors.Is(c.Cause, secret) || strings.Contains(c.Error, "hunter2") {
		t.Errorf("record: Error %q, Cause %v", c.Error, c.Cause)
	}
	if c := res.ToolCalls[2]; !errors.Is(c.Cause, secret) {
		t.Errorf("a ToolError's cause is not kept: %v", c.Cause)
	}
	failed := 0
	for _, r := range audits {
		if r.Decision == "failed" {
			failed++
			if r.Method == "fails" && !errors.Is(r.Err, secret) {
				t.Errorf("failed audit of fails: %+v", r)
			}
		}
	}
	if failed != 5 {
		t.Errorf("%d audit records of failure, want 5: %+v", failed, audits)
	}
}

func TestDefaultCallLimit(t *testing.T) {
	var calls atomic.Int32
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "t", Handler: func(context.Context, json.RawMessage) (any, error) {
		calls.Add(1)
		return 1, nil
	}}}})
	res := enginetest.Run(t, sb, `let ok = 0, denied = ''
for (let i = 0; i < 101; i++) { try { await t({}); ok++ } catch (e) { denied = e.kind + ': ' + e.message } }
return [ok, denied]`)
	if !strings.HasPrefix(res.Stdout, `[100,"denied: tool t denied: call limit reached`) || calls.Load() != 100 {
		t.Errorf("stdout %q, handler ran %d times", res.Stdout, calls.Load())
	}
	last := res.ToolCalls[len(res.ToolCalls)-1]
	if last.Allowed || len(last.Reasons) != 1 {
		t.Errorf("denied call record: %+v", last)
	}
	// Counters persist across executions of the sandbox.
	res = enginetest.Run(t, sb, `try { await t({}) } catch (e) { return e.kind }`)
	if res.Stdout != "denied\n" {
		t.Errorf("second execution: %q", res.Stdout)
	}
}

func TestTimeoutStopsBusyLoops(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 300 * time.Millisecond}})
	bound := 300*time.Millisecond + enginetest.Scale(t, 150*time.Millisecond)
	for _, code := range []string{
		`while (true) {}`,
		`await Promise.resolve(); for (;;) {}`,
		`Promise.resolve().then(() => { for (;;) {} })`,
		`setTimeout(() => { while (true) {} }, 1)`,
		`await new Promise(r => setTimeout(r, 60000))`,
		`function f() { try { for(;;){} } finally { for(;;){} } } f()`,
	} {
		start := time.Now()
		res, err := sb.Execute(context.Background(), engine.JavaScript, code)
		took := time.Since(start)
		if !errors.Is(err, engine.ErrTimeout) {
			t.Errorf("%s: err %v, want a timeout", code, err)
		}
		if took > bound {
			t.Errorf("%s: stopped after %v; want within %v of the 300ms limit", code, took, bound-300*time.Millisecond)
		}
		if res == nil {
			t.Errorf("%s: no result", code)
		}
	}
	// The sandbox is still usable.
	if res := enginetest.Run(t, sb, "return 2"); res.Stdout != "2\n" {
		t.Errorf("after timeouts: %q", res.Stdout)
	}
}

func TestCancelStopsScript(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := sb.Execute(ctx, engine.JavaScript, `while (true) {}`)
	if !errors.Is(err, engine.ErrCanceled) {
		t.Fatalf("err %v, want canceled", err)
	}
}

func TestTimeoutWhileAToolHangs(t *testing.T) {
	// The execution ends within the bound; the tool hangs for longer, so
	// that waiting for it would cross the bound however far it is scaled.
	bound := 200*time.Millisecond + enginetest.Scale(t, 800*time.Millisecond)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Limits: engine.Limits{Timeout: 200 * time.Millisecond},
		Tools: []engine.Tool{{Name: "hang", Handler: func(context.Context, json.RawMessage) (any, error) {
			time.Sleep(bound + 4*time.Second) // ignores its context
			return 1, nil
		}}},
	})
	start := time.Now()
	res, err := sb.Execute(context.Background(), engine.JavaScript, `console.log("before"); await hang({}); console.log("after")`)
	if !errors.Is(err, engine.ErrTimeout) || time.Since(start) > bound {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
	if res.Stdout != "before\n" || len(res.ToolCalls) != 1 || res.ToolCalls[0].Error == "" {
		t.Errorf("result %+v", res)
	}
	if r := enginetest.Run(t, sb, "return 3"); r.Stdout != "3\n" {
		t.Errorf("after: %q", r.Stdout)
	}
}

func TestVFSPersistsAcrossExecutions(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	enginetest.Run(t, sb, `await fs.writeFile('notes.txt', 'hello'); fs.mkdirSync('/workspace/d/e', {recursive: true}); fs.appendFileSync('d/e/log', 'a\n')`)
	res := enginetest.Run(t, sb, `return [await fs.readFile('/workspace/notes.txt'), fs.readFileSync('d/e/log', 'utf8'), fs.readdirSync('.'), fs.existsSync('nope')]`)
	if res.Stdout != `["hello","a\n",["d","notes.txt"],false]`+"\n" {
		t.Errorf("got %q %q", res.Stdout, res.Stderr)
	}
	other := enginetest.NewSandbox(t, engine.SandboxConfig{})
	if res := enginetest.Run(t, other, `return fs.readdirSync('/workspace')`); res.Stdout != "[]\n" {
		t.Errorf("a new sandbox is not empty: %q", res.Stdout)
	}
}

func TestHostFiles(t *testing.T) {
	ctx := context.Background()
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{})
	if err := sb.WriteFile(ctx, "/data/ref.csv", []byte("a,b\n1,2\n")); err != nil {
		t.Fatal(err)
	}
	if err := sb.WriteFile(ctx, "/workspace/in/x.txt", []byte("x")); err != nil {
		t.Fatal(err)
	}
	res := enginetest.Run(t, sb, `const ref = fs.readFileSync('/data/ref.csv', 'utf8')
let err; try { fs.writeFileSync('/data/ref.csv', 'evil') } catch (e) { err = e.code }
fs.writeFileSync('out.txt', ref.toUpperCase())
return err`)
	if res.Stdout != "EACCES\n" {
		t.Errorf("script: %q %q", res.Stdout, res.Stderr)
	}
	got, err := sb.ReadFile(ctx, "/workspace/out.txt")
	if err != nil || string(got) != "A,B\n1,2\n" {
		t.Errorf("ReadFile: %q %v", got, err)
	}
	if _, err := sb.ReadFile(ctx, "/workspace/missing"); !errors.Is(err, engine.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	var buf bytes.Buffer
	if err := sb.ExportTar(ctx, &buf, "/workspace"); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	tr := tar.NewReader(bytes.NewReader(buf.Bytes()))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		names[h.Name] = string(b)
	}
	if names["out.txt"] != "A,B\n1,2\n" || names["in/x.txt"] != "x" {
		t.Errorf("tar entries %v", names)
	}
	other := enginetest.NewSandbox(t, engine.SandboxConfig{})
	if err := other.ImportTar(ctx, bytes.NewReader(buf.Bytes()), "/workspace"); err != nil {
		t.Fatal(err)
	}
	if res := enginetest.Run(t, other, `return fs.readFileSync('in/x.txt', 'utf8')`); res.Stdout != "x\n" {
		t.Errorf("after import: %q %q", res.Stdout, res.Stderr)
	}
	// A tar that climbs out is refused.
	var evil bytes.Buffer
	tw := tar.NewWriter(&evil)
	tw.WriteHeader(&tar.Header{Name: "../etc/x", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644})
	tw.Write([]byte("x"))
	tw.Close()
	if err := other.ImportTar(ctx, &evil, "/workspace"); !errors.Is(err, engine.ErrInvalid) {
		t.Errorf("evil tar: %v", err)
	}
}

func TestVFSQuota(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{VFSBytes: 1000, VFSFiles: 3}})
	res := enginetest.Run(t, sb, `const out = []
try { fs.writeFileSync('big', 'x'.repeat(2000)) } catch (e) { out.push(e.code) }
for (let i = 0; i < 5; i++) { try { fs.writeFileSync('f' + i, 'x') } catch (e) { out.push(e.code + ' at ' + i) } }
return out`)
	if res.Stdout != `["ENOSPC","ENOSPC at 3","ENOSPC at 4"]`+"\n" {
		t.Errorf("got %q %q", res.Stdout, res.Stderr)
	}
}

func TestStepAPI(t *testing.T) {
	ctx := context.Background()
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "pay"}, {Name: "lookup"}}})
	x, err := sb.Start(ctx, engine.JavaScript, `
const [a, b] = await Promise.all([lookup({id: 1}), lookup({id: 2})])
let paid
try { paid = await pay({amount: a.n + b.n}) } catch (e) { paid = 'refused: ' + e.message }
return paid`)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := x.Next(ctx)
	if err != nil || len(calls) != 2 {
		t.Fatalf("first Next: %v %v", calls, err)
	}
	// Answer one, leave the other pending: the script cannot go on, so Next
	// hands back the one still pending.
	calls[0].Resolve(map[string]int{"n": 10})
	rest, err := x.Next(ctx)
	if err != nil || len(rest) != 1 || rest[0] != calls[1] {
		t.Fatalf("second Next: %v %v", rest, err)
	}
	if again, _ := x.Next(ctx); len(again) != 1 {
		t.Fatalf("Next with nothing answered: %v", again)
	}
	rest[0].Resolve(map[string]int{"n": 5})
	calls, err = x.Next(ctx)
	if err != nil || len(calls) != 1 || calls[0].Method != "pay" || string(calls[0].Params) != `{"amount":15}` {
		t.Fatalf("third Next: %v %v", calls, err)
	}
	calls[0].Deny("operator said no")
	if calls, err := x.Next(ctx); calls != nil || err != nil {
		t.Fatalf("final Next: %v %v", calls, err)
	}
	res := x.Result()
	if res.Stdout != "refused: tool pay denied: operator said no\n" || len(res.ToolCalls) != 3 || res.ToolCalls[2].Allowed {
		t.Errorf("result %+v", res)
	}
	// The sandbox is free again.
	if r := enginetest.Run(t, sb, "return 1"); r.Stdout != "1\n" {
		t.Errorf("after step execution: %q", r.Stdout)
	}
}

func TestStepCancel(t *testing.T) {
	ctx := context.Background()
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "pay"}}})
	x, err := sb.Start(ctx, engine.JavaScript, `await pay({})`)
	if err != nil {
		t.Fatal(err)
	}
	if calls, err := x.Next(ctx); len(calls) != 1 || err != nil {
		t.Fatal(calls, err)
	}
	if err := x.Cancel(ctx); !errors.Is(err, engine.ErrCanceled) {
		t.Fatalf("Cancel: %v", err)
	}
	if r := enginetest.Run(t, sb, "return 1"); r.Stdout != "1\n" {
		t.Errorf("after cancel: %q", r.Stdout)
	}
}

func TestOutputLimit(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{MaxOutputBytes: 100}})
	res, err := sb.Execute(context.Background(), engine.JavaScript, `for (let i = 0; i < 1000; i++) console.log("line " + i); return "done"`)
	if !errors.Is(err, engine.ErrOutput) || res == nil {
		t.Fatalf("err %v, want an output-limit error", err)
	}
	if !res.OutputTruncated || !strings.Contains(res.Stdout, "[cordon: output limit of 100 bytes reached; the script was stopped]") || len(res.Stdout) > 200 || res.Value != nil {
		t.Errorf("stdout %q value %s", res.Stdout, res.Value)
	}
}

func TestSandboxesAreIsolated(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{enginetest.Echo("e")}})
			for j := 0; j < 5; j++ {
				res, err := sb.Execute(context.Background(), engine.JavaScript, `
globalThis.count = (globalThis.count || 0) + 1
Object.prototype.polluted = true
const prev = fs.existsSync('mine') ? fs.readFileSync('mine', 'utf8') : ''
fs.writeFileSync('mine', prev + 'x')
const r = await e({n: 1})
return [count, prev.length, r.params.n]`)
				if err != nil {
					t.Error(err)
					return
				}
				if want := "[1," + string(rune('0'+j)) + ",1]\n"; res.Stdout != want {
					t.Errorf("execution %d: %q, want %q", j, res.Stdout, want)
				}
			}
		}()
	}
	wg.Wait()
}

func TestClosedSandbox(t *testing.T) {
	sb, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{})
	if err != nil {
		t.Fatal(err)
	}
	sb.Close(context.Background())
	if _, err := sb.Execute(context.Background(), engine.JavaScript, "1"); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("Execute after Close: %v", err)
	}
	if err := sb.Close(context.Background()); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestInvalidTools(t *testing.T) {
	for _, tools := range [][]engine.Tool{
		{{Name: ""}},
		{{Name: "a//b"}},
		{{Name: "a b"}},
		{{Name: "console/log"}},
		{{Name: "a"}, {Name: "a"}},
		{{Name: "a/b_c"}, {Name: "a_b/c"}},
		{{Name: "x", InputSchema: json.RawMessage(`[1]`)}},
	} {
		if _, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Tools: tools}); !errors.Is(err, engine.ErrInvalid) {
			t.Errorf("%v: err %v, want invalid", tools, err)
		}
	}
}

func TestOutOfMemoryBreaksOnlyThatSandbox(t *testing.T) {
	ctx := context.Background()
	bystander := enginetest.NewSandbox(t, engine.SandboxConfig{})
	enginetest.Run(t, bystander, `fs.writeFileSync('keep', 'me')`)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 20 * time.Second}})
	res, err := sb.Execute(ctx, engine.JavaScript, `const a = []; while (true) a.push(new Uint8Array(32 << 20))`)
	if !errors.Is(err, engine.ErrMemory) {
		t.Fatalf("err %v, want out of memory (result %+v)", err, res)
	}
	if _, err := sb.Execute(ctx, engine.JavaScript, "return 1"); !errors.Is(err, engine.ErrClosed) || !strings.Contains(err.Error(), "memory") {
		t.Errorf("the broken sandbox answered %v; want closed, naming the cause", err)
	}
	if sb.Err() == nil {
		t.Error("Err() is nil for a broken sandbox")
	}
	if res := enginetest.Run(t, bystander, `return fs.readFileSync('keep', 'utf8')`); res.Stdout != "me\n" {
		t.Errorf("bystander: %q", res.Stdout)
	}
}
