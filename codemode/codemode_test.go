package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/cordonhq/cordon/policy"
)

type item struct {
	SKU   string  `json:"sku"`
	Price float64 `json:"price"`
	Stock int     `json:"stock"`
}

func testTools() []engine.Tool {
	stock := map[string]item{"A1": {"A1", 39.5, 12}, "B2": {"B2", 24, 0}, "C3": {"C3", 9.25, 140}}
	return []engine.Tool{
		{
			Name:        "inventory/lookup",
			Description: "Look up an item by SKU",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}`),
			Handler: engine.Func(func(_ context.Context, p struct {
				SKU string `json:"sku"`
			}) (item, error) {
				it, ok := stock[p.SKU]
				if !ok {
					return item{}, engine.ToolErrorf("no item %q", p.SKU)
				}
				return it, nil
			}),
		},
		{
			Name:        "payments/send",
			Description: "Send a payment",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"amount":{"type":"number"}},"required":["to","amount"]}`),
			Handler: func(_ context.Context, p json.RawMessage) (any, error) {
				return map[string]any{"id": "pay_1", "params": p}, nil
			},
		},
	}
}

// newTool returns a code-mode tool whose sandboxes are made from cfg,
// with testTools when cfg has no tools, closed when the test ends.
func newTool(t *testing.T, cfg engine.SandboxConfig, opts *codemode.Options) *codemode.Runner {
	t.Helper()
	if cfg.Tools == nil {
		cfg.Tools = testTools()
	}
	return codemodetest.New(t, cfg, opts)
}

func TestToolShapes(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{}, nil)
	for _, c := range []struct {
		tool *codemode.Runner
		name string
		key  string
		lang engine.Language
	}{
		{tool, codemode.JavaScriptName, "code", engine.JavaScript},
		{tool.Shell(), codemode.ShellName, "script", engine.Shell},
		{tool.Shell().JavaScript(), codemode.JavaScriptName, "code", engine.JavaScript},
	} {
		if c.tool.Name() != c.name || c.tool.Language() != c.lang {
			t.Errorf("tool %s/%s, want %s/%s", c.tool.Name(), c.tool.Language(), c.name, c.lang)
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(c.tool.InputSchema(), &schema); err != nil {
			t.Fatal(err)
		}
		if schema.Type != "object" || len(schema.Properties) != 1 || schema.Properties[c.key] == nil || len(schema.Required) != 1 || schema.Required[0] != c.key {
			t.Errorf("%s: input schema %s, want one required %q", c.name, c.tool.InputSchema(), c.key)
		}
		if !json.Valid(c.tool.OutputSchema()) {
			t.Errorf("%s: output schema is not JSON", c.name)
		}
		if d := c.tool.Description(); !strings.Contains(d, "inventory") || !strings.Contains(d, "payments") {
			t.Errorf("%s: description does not describe the tools:\n%s", c.name, d)
		}
	}
	if got := tool.Tools(); len(got) != 2 || got[0].Name() != codemode.JavaScriptName || got[1].Name() != codemode.ShellName {
		t.Errorf("Tools() = %v", got)
	}
}

// One script calls several tools, in parallel and in sequence, and the
// result reads stdout, then the value, which stdout does not repeat.
func TestCallRunsToolsInOneScript(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{}, nil)
	text := codemodetest.Call(t, context.Background(), tool, codemodetest.JS(`
const items = await Promise.all(["A1", "B2", "C3"].map(sku => inventory.lookup({sku})))
const inStock = items.filter(i => i.stock > 0)
for (const i of inStock) console.log(i.sku, i.price)
return {count: inStock.length, total: inStock.reduce((s, i) => s + i.price, 0)}`))
	want := "[stdout]\nA1 39.5\nC3 9.25\n[returned]\n{\"count\":2,\"total\":48.75}\n"
	if text != want {
		t.Errorf("text:\n%s\nwant:\n%s", text, want)
	}
	r := codemodetest.Run(t, context.Background(), tool, codemodetest.JS(`return "plain"`))
	if r.Stdout != "" || string(r.Value) != `"plain"` || r.Text() != "[returned]\nplain\n" || r.IsError() {
		t.Errorf("string value: %+v, text %q", r, r.Text())
	}
	if got := codemodetest.Call(t, context.Background(), tool, codemodetest.JS(`1`)); got != "[no output]\n" {
		t.Errorf("nothing printed or returned: %q", got)
	}
}

func TestShellToolSharesTheSession(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{}, nil)
	ctx := codemode.WithSession(context.Background(), "s1")
	codemodetest.Call(t, ctx, tool, codemodetest.JS(`fs.writeFileSync("skus.txt", "A1\nC3\n")`))
	text := codemodetest.Call(t, ctx, tool.Shell(), codemodetest.Shell(`for s in $(cat skus.txt); do tool inventory/lookup --sku $s | jq -c '{sku, stock}'; done`))
	if text != "[stdout]\n{\"sku\":\"A1\",\"stock\":12}\n{\"sku\":\"C3\",\"stock\":140}\n" {
		t.Errorf("shell text:\n%s", text)
	}
	// Each tool takes the other's key too.
	if got := codemodetest.Call(t, ctx, tool.Shell(), codemodetest.JS("echo hi")); got != "[stdout]\nhi\n" {
		t.Errorf("shell with code: %q", got)
	}
	r := codemodetest.Run(t, ctx, tool.Shell(), codemodetest.Shell(`echo out; echo oops >&2; exit 3`))
	if !r.IsError() || r.ExitCode != 3 || r.Error != nil || r.Text() != "[stdout]\nout\n[stderr]\noops\n[exit status] 3\n" {
		t.Errorf("shell status 3: %+v, text:\n%s", r, r.Text())
	}
}

func TestSessions(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{}, nil)
	a := codemode.WithSession(context.Background(), "a")
	b := codemode.WithSession(context.Background(), "b")
	codemodetest.Call(t, a, tool, codemodetest.JS(`fs.writeFileSync("who", "a")`))
	codemodetest.Call(t, context.Background(), tool, codemodetest.JS(`fs.writeFileSync("who", "default")`))
	read := codemodetest.JS(`return fs.existsSync("who") ? fs.readFileSync("who") : "none"`)
	for _, c := range []struct {
		ctx  context.Context
		want string
	}{{a, "a"}, {b, "none"}, {context.Background(), "default"}, {codemode.WithSession(context.Background(), codemode.DefaultSession), "default"}} {
		if got := codemodetest.Run(t, c.ctx, tool, read); string(got.Value) != strconv.Quote(c.want) {
			t.Errorf("session %s read %s, want %q", codemode.SessionFrom(c.ctx), got.Value, c.want)
		}
	}
	if got := strings.Join(sorted(tool.Sessions()), ","); got != "a,b,default" {
		t.Errorf("Sessions() = %s", got)
	}
	// Close ends a session: its files are gone, the others stay.
	if err := tool.Close(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if got := codemodetest.Run(t, a, tool, read); string(got.Value) != `"none"` {
		t.Errorf("after Close, session a read %s", got.Value)
	}
	if got := codemodetest.Run(t, context.Background(), tool, read); string(got.Value) != `"default"` {
		t.Errorf("after closing a, the default session read %s", got.Value)
	}
	// The host reaches the session's sandbox.
	sb, err := tool.Sandbox(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.WriteFile(context.Background(), "/workspace/who", []byte("host")); err != nil {
		t.Fatal(err)
	}
	if got := codemodetest.Run(t, a, tool, read); string(got.Value) != `"host"` {
		t.Errorf("after the host wrote, session a read %s", got.Value)
	}
}

// Tool-call counters persist across the calls of a session, as its files
// do.
func TestCountersPersistAcrossCalls(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{Policy: enginetest.Policy(t, dsl.Method("inventory/lookup").MaxCalls(2))}, nil)
	one := codemodetest.JS(`return (await inventory.lookup({sku: "A1"})).sku`)
	for i := range 2 {
		if r := codemodetest.Run(t, context.Background(), tool, one); r.IsError() {
			t.Fatalf("call %d: %s", i, r.Text())
		}
	}
	r := codemodetest.Run(t, context.Background(), tool, one)
	if r.Error == nil || r.Error.Kind != "exception" || !strings.Contains(r.Text(), "- inventory/lookup denied: ") {
		t.Errorf("third call: %s", r.Text())
	}
}

func TestIdleTimeout(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{}, &codemode.Options{IdleTimeout: 500 * time.Millisecond})
	ctx := codemode.WithSession(context.Background(), "idle")
	codemodetest.Call(t, ctx, tool, codemodetest.JS(`fs.writeFileSync("f", "x")`))
	// Calls within the timeout keep the session.
	for range 3 {
		time.Sleep(50 * time.Millisecond)
		if r := codemodetest.Run(t, ctx, tool, codemodetest.JS(`return fs.existsSync("f")`)); string(r.Value) != "true" {
			t.Fatalf("the session ended while in use")
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(tool.Sessions()) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the idle session was not closed: %v", tool.Sessions())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := codemodetest.Run(t, ctx, tool, codemodetest.JS(`return fs.existsSync("f")`)); string(r.Value) != "false" {
		t.Errorf("a new session after the idle timeout still has the file")
	}
}

// Many sessions at once, each with concurrent calls: each sees only its
// own files, and a session's calls run one at a time.
func TestConcurrentSessions(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{}, nil)
	const sessions, calls = 6, 4
	var wg sync.WaitGroup
	errs := make(chan error, sessions*calls)
	for s := range sessions {
		ctx := codemode.WithSession(context.Background(), fmt.Sprintf("s%d", s))
		for c := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code := fmt.Sprintf(`
const prev = fs.existsSync("log") ? fs.readFileSync("log") : ""
await inventory.lookup({sku: "A1"})
fs.writeFileSync("log", prev + "s%d-%d\n")
return fs.readFileSync("log").trim().split("\n")`, s, c)
				r, err := tool.Run(ctx, codemodetest.JS(code))
				if err != nil {
					errs <- err
					return
				}
				var lines []string
				if err := json.Unmarshal(r.Value, &lines); err != nil {
					errs <- fmt.Errorf("%s: %v", r.Text(), err)
					return
				}
				for _, l := range lines {
					if !strings.HasPrefix(l, fmt.Sprintf("s%d-", s)) {
						errs <- fmt.Errorf("session s%d saw %q", s, l)
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for s := range sessions {
		ctx := codemode.WithSession(context.Background(), fmt.Sprintf("s%d", s))
		r := codemodetest.Run(t, ctx, tool, codemodetest.JS(`return fs.readFileSync("log").trim().split("\n").length`))
		if string(r.Value) != strconv.Itoa(calls) {
			t.Errorf("session s%d logged %s calls, want %d (calls of a session must not interleave)", s, r.Value, calls)
		}
	}
}

var markerRE = regexp.MustCompile(`\[cordon cut (\d+) of the (\d+) bytes of (\w+) here; all of it is in (\S+)\]`)

func TestBudgetCutsAndSaves(t *testing.T) {
	const budget = 2000
	tool := newTool(t, engine.SandboxConfig{}, &codemode.Options{Budget: budget})
	ctx := codemode.WithSession(context.Background(), "big")
	r := codemodetest.Run(t, ctx, tool, codemodetest.JS(`
for (let i = 0; i < 5000; i++) console.log("line " + i)
console.error("warning: " + "w".repeat(50))
return "done"`))
	text := r.Text()
	if len(text) > budget {
		t.Errorf("text of %d bytes is over the budget of %d", len(text), budget)
	}
	if !strings.HasPrefix(text, "[stdout]\nline 0\nline 1\n") || !strings.Contains(text, "line 4999\n[stderr]\nwarning: www") || !strings.HasSuffix(text, "[returned]\ndone\n") {
		t.Errorf("text does not keep the start and end of stdout, stderr and the value:\n%s", text)
	}
	m := markerRE.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no cut marker in:\n%s", text)
	}
	full := 0
	for i := range 5000 {
		full += len("line \n") + len(strconv.Itoa(i))
	}
	if m[2] != strconv.Itoa(full) || m[3] != "stdout" || m[4] != "/tmp/cordon/out-1.stdout.txt" {
		t.Errorf("marker %q, want the %d bytes of stdout in /tmp/cordon/out-1.stdout.txt", m[0], full)
	}
	cut, _ := strconv.Atoi(m[1])
	if r.Cut == nil || r.Cut.Bytes != cut || len(r.Cut.Files) != 1 || r.Cut.Files[0] != m[4] {
		t.Errorf("Result.Cut = %+v, want %d bytes in %s", r.Cut, cut, m[4])
	}
	if len(r.Stdout)+len(r.Stderr) > budget {
		t.Errorf("Result's stdout and stderr hold %d bytes, over the budget", len(r.Stdout)+len(r.Stderr))
	}
	// The next call reads the whole output from the file.
	r2 := codemodetest.Run(t, ctx, tool, codemodetest.JS(`const s = fs.readFileSync("`+m[4]+`"); return [s.length, s.split("\n")[4999]]`))
	if string(r2.Value) != fmt.Sprintf(`[%d,"line 4999"]`, full) {
		t.Errorf("reading the saved stdout: %s", r2.Text())
	}
	// A long value is cut too, and saved as JSON.
	r3 := codemodetest.Run(t, ctx, tool, codemodetest.JS(`return Array.from({length: 2000}, (_, i) => ({i}))`))
	if len(r3.Text()) > budget || r3.Value != nil || r3.Cut == nil || !strings.Contains(r3.Text(), "bytes of value here; all of it is in /tmp/cordon/out-2.value.json]") {
		t.Errorf("long value: %d bytes, value %d bytes, cut %+v:\n%s", len(r3.Text()), len(r3.Value), r3.Cut, r3.Text())
	}
	r4 := codemodetest.Run(t, ctx, tool, codemodetest.JS(`return JSON.parse(fs.readFileSync("/tmp/cordon/out-2.value.json")).length`))
	if string(r4.Value) != "2000" {
		t.Errorf("reading the saved value: %s", r4.Text())
	}
	// Without a spill dir the marker says nothing was kept.
	r5 := codemodetest.Run(t, ctx, newTool(t, engine.SandboxConfig{}, &codemode.Options{Budget: budget, NoSpill: true}).Shell(), codemodetest.Shell(`seq 1 10000`))
	if len(r5.Text()) > budget || !regexp.MustCompile(`\[cordon cut \d+ of the 48894 bytes of stdout here; it was not kept\]`).MatchString(r5.Text()) || r5.Cut == nil || len(r5.Cut.Files) != 0 {
		t.Errorf("no spill dir:\n%s", r5.Text())
	}
}

func TestBudgetSmallStaysWithin(t *testing.T) {
	for _, budget := range []int{codemode.MinBudget, 1500, 3000} {
		tool := newTool(t, engine.SandboxConfig{}, &codemode.Options{Budget: budget})
		r := codemodetest.Run(t, context.Background(), tool, codemodetest.JS(`
console.log("é".repeat(3000))
console.error("ü".repeat(3000))
for (let i = 0; i < 40; i++) { try { await payments.send({to: "x"}) } catch {} }
throw new Error("boom " + "x".repeat(5000))`))
		text := r.Text()
		if len(text) > budget {
			t.Errorf("budget %d: text of %d bytes:\n%s", budget, len(text), text)
		}
		if !strings.Contains(text, "[error] exception: Error: boom") || !strings.Contains(text, "[tool calls denied or failed: 40 of 40]") {
			t.Errorf("budget %d: the error or the list of calls is missing:\n%s", budget, text)
		}
		if !utf8Valid(text) {
			t.Errorf("budget %d: text is not valid UTF-8", budget)
		}
	}
}

func TestErrorsAndIsError(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 300 * time.Millisecond}}, nil)
	ctx := context.Background()
	for _, c := range []struct {
		name, args  string
		kind        engine.Kind
		isError     bool
		textHas     string
		exitCode    int
		shellToolOK bool
	}{
		{"exception", codemodetest.JS(`throw new TypeError("bad")`), "exception", true, "[stderr]\nTypeError: bad\n    at script.js:1:", 1, false},
		{"caught denial is fine", codemodetest.JS(`try { await payments.send({to: "x"}) } catch (e) { return e.kind }`), "", false, "[returned]\ninvalid\n[tool calls denied or failed: 1 of 1]\n- payments/send denied: amount: missing (required)\n", 0, false},
		{"timeout", codemodetest.JS(`while (true) {}`), "timeout", true, "[error] timeout: the script ran past its time limit of 300ms", 1, false},
		{"not JSON", `{"code": `, codemode.KindArguments, true, `[error] arguments: the arguments must be a JSON object {"code": "..."}`, 2, false},
		{"no code", `{"src": "1"}`, codemode.KindArguments, true, `whose "code" is a string`, 2, false},
		{"code not a string", `{"code": 1}`, codemode.KindArguments, true, `whose "code" is a string`, 2, false},
		{"empty code", `{"code": "  "}`, codemode.KindArguments, true, `"code" is empty`, 2, false},
		{"both keys", `{"code": "1", "script": "1"}`, codemode.KindArguments, true, `give the script as "code" only`, 2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := tool.Run(ctx, c.args)
			if err != nil {
				t.Fatalf("err %v, want a result for the model", err)
			}
			kind := engine.Kind("")
			if r.Error != nil {
				kind = r.Error.Kind
			}
			if kind != c.kind || r.IsError() != c.isError || r.ExitCode != c.exitCode || !strings.Contains(r.Text(), c.textHas) {
				t.Errorf("kind %q isError %v exit %d, want %q %v %d with %q; text:\n%s", kind, r.IsError(), r.ExitCode, c.kind, c.isError, c.exitCode, c.textHas, r.Text())
			}
		})
	}
	// The sandbox survives the timeout.
	if got := codemodetest.Call(t, ctx, tool, codemodetest.JS(`return 2`)); got != "[returned]\n2\n" {
		t.Errorf("after a timeout: %q", got)
	}
}

func TestHostErrors(t *testing.T) {
	ctx := context.Background()
	// Invalid tools: Check and every Call say so, as a Go error.
	bad := codemodetest.New(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "console/log"}}}, nil)
	if err := bad.Check(ctx); !errors.Is(err, engine.ErrInvalid) {
		t.Errorf("Check with an invalid tool: %v", err)
	}
	if _, err := bad.Call(ctx, codemodetest.JS(`1`)); !errors.Is(err, engine.ErrInvalid) {
		t.Errorf("Call with an invalid tool: %v", err)
	}
	if err := newTool(t, engine.SandboxConfig{}, nil).Check(ctx); err != nil {
		t.Errorf("Check: %v", err)
	}
	// Closing the session while its script runs ends the call with an
	// error, well before the script's time limit would.
	bound := enginetest.Scale(t, 5*time.Second)
	tool := newTool(t, engine.SandboxConfig{Limits: engine.Limits{Timeout: 2 * bound}}, nil)
	sctx := codemode.WithSession(ctx, "closing")
	done := make(chan error, 1)
	go func() {
		_, err := tool.Call(sctx, codemodetest.JS(`while (true) {}`))
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	tool.Close(ctx, "closing")
	select {
	case err := <-done:
		if !errors.Is(err, engine.ErrClosed) {
			t.Errorf("call in a closed session: %v", err)
		}
	case <-time.After(bound):
		t.Fatalf("closing the session did not end its call within %v", bound)
	}
	// A canceled context is the host's error too.
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(200 * time.Millisecond); cancel() }()
	if _, err := tool.Call(cctx, codemodetest.JS(`while (true) {}`)); !errors.Is(err, engine.ErrCanceled) {
		t.Errorf("canceled call: %v", err)
	}
}

func askPolicy(t *testing.T) *policy.Policy {
	t.Helper()
	return enginetest.Policy(t,
		dsl.Method("inventory/lookup"),
		dsl.Method("payments/send").Where(dsl.Param("amount").Le(1000)),
		dsl.Method("payments/send").Ask(),
	)
}

const payScript = `
const out = []
for (const amount of [10, 5000]) {
  try { out.push((await payments.send({to: "acct", amount})).id + " " + amount) }
  catch (e) { out.push("refused " + amount + ": " + e.message) }
}
console.log(out.join("\n"))
return out.length`

func TestRunDeniesAsksWithoutApprover(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{Policy: askPolicy(t)}, nil)
	r := codemodetest.Run(t, context.Background(), tool, codemodetest.JS(payScript))
	if r.IsError() || !strings.Contains(r.Stdout, "pay_1 10\nrefused 5000") || !strings.Contains(r.Text(), "- payments/send denied: ") {
		t.Errorf("ask without an approver:\n%s", r.Text())
	}
}

func TestRunWithApprover(t *testing.T) {
	var asked atomic.Int32
	tool := newTool(t, engine.SandboxConfig{Policy: askPolicy(t), Approve: func(_ context.Context, c *engine.Call) (bool, string) {
		asked.Add(1)
		return true, ""
	}}, nil)
	for _, start := range []bool{false, true} {
		var r *codemode.Result
		var err error
		if start {
			r, err = tool.Start(context.Background(), codemodetest.JS(payScript))
		} else {
			r, err = tool.Run(context.Background(), codemodetest.JS(payScript))
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.Pause != nil || r.Stdout != "pay_1 10\npay_1 5000\n" {
			t.Errorf("start=%v: approved asks:\n%s", start, r.Text())
		}
	}
	if asked.Load() != 2 {
		t.Errorf("the approver was asked %d times, want 2", asked.Load())
	}
}

func TestStartPausesAndResumes(t *testing.T) {
	var audit []string
	var mu sync.Mutex
	tool := newTool(t, engine.SandboxConfig{Policy: askPolicy(t), Audit: func(a engine.AuditRecord) {
		mu.Lock()
		audit = append(audit, a.Method+" "+a.Decision)
		mu.Unlock()
	}}, nil)
	ctx := codemode.WithSession(context.Background(), "hitl")
	r, err := tool.Start(ctx, codemodetest.JS(payScript))
	if err != nil {
		t.Fatal(err)
	}
	if r.Pause == nil || len(r.Pause.Asks) != 1 || r.Pause.Asks[0].Method != "payments/send" || string(r.Pause.Asks[0].Params) != `{"to":"acct","amount":5000}` || r.Pause.Asks[0].ID != 1 || r.IsError() {
		t.Fatalf("paused result: %+v\n%s", r.Pause, r.Text())
	}
	if d := r.Pause.Asks[0].Display; d == nil || !strings.Contains(d.Text, "amount = 5000") || !strings.Contains(d.Text, `to = "acct"`) {
		t.Errorf("the ask's display: %+v", d)
	}
	if !strings.Contains(r.Text(), "[paused] the script waits for approval of 1 tool call(s):\n- payments/send {\"to\":\"acct\",\"amount\":5000}: ") {
		t.Errorf("paused text:\n%s", r.Text())
	}
	// The shell tool of the pair resumes it too.
	r2, err := tool.Shell().Resume(context.Background(), r.Pause.ID, codemode.Approval{Approve: true})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Pause != nil || r2.Stdout != "pay_1 10\npay_1 5000\n" || string(r2.Value) != "2" || len(r2.ToolCalls) != 2 {
		t.Errorf("resumed result:\n%s\n%+v", r2.Text(), r2.ToolCalls)
	}
	if _, err := tool.Resume(context.Background(), r.Pause.ID, codemode.Approval{}); !errors.Is(err, codemode.ErrNoPause) {
		t.Errorf("resuming twice: %v", err)
	}
	mu.Lock()
	if got := strings.Join(audit, ","); got != "payments/send allow,payments/send ask,payments/send approved" {
		t.Errorf("audit: %s", got)
	}
	mu.Unlock()

	// Refused, by call id, with a reason the script sees.
	r, _ = tool.Start(ctx, codemodetest.JS(payScript))
	r2, err = tool.Resume(context.Background(), r.Pause.ID, codemode.Approval{Approve: true, Calls: map[int]codemode.Answer{r.Pause.Asks[0].ID: {Reason: "too much"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r2.Stdout, "refused 5000: tool payments/send denied: too much") || !strings.Contains(r2.Text(), "- payments/send denied: too much") {
		t.Errorf("refused:\n%s", r2.Text())
	}

	// A new call of the session abandons a paused run; the session goes on.
	r, _ = tool.Start(ctx, codemodetest.JS(payScript))
	if got := codemodetest.Call(t, ctx, tool, codemodetest.JS(`return 7`)); got != "[returned]\n7\n" {
		t.Errorf("call after a pause: %q", got)
	}
	if _, err := tool.Resume(context.Background(), r.Pause.ID, codemode.Approval{Approve: true}); !errors.Is(err, codemode.ErrNoPause) {
		t.Errorf("resuming an abandoned run: %v", err)
	}
	// So does closing the session.
	r, _ = tool.Start(ctx, codemodetest.JS(payScript))
	tool.Close(context.Background(), "hitl")
	if _, err := tool.Resume(context.Background(), r.Pause.ID, codemode.Approval{Approve: true}); !errors.Is(err, codemode.ErrNoPause) {
		t.Errorf("resuming in a closed session: %v", err)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// The description is describe's prompt for the tool's language, with what
// the policy allows of each tool, after a paragraph on the tool itself.
func TestDescription(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{Policy: askPolicy(t)}, &codemode.Options{Budget: 5000})
	jsd, shd := tool.Description(), tool.Shell().Description()
	for _, want := range []string{
		"Runs a JavaScript script in a sandbox",
		"A result longer than 5000 bytes is cut; what is cut is saved in a file under /tmp/cordon",
		"lookup(params: { sku: string }): Promise<unknown>;",
		"needs approval",
	} {
		if !strings.Contains(jsd, want) {
			t.Errorf("JavaScript description lacks %q:\n%s", want, jsd)
		}
	}
	for _, want := range []string{"Runs a bash-like shell script", "tool inventory/lookup --sku <string>", "needs approval"} {
		if !strings.Contains(shd, want) {
			t.Errorf("shell description lacks %q:\n%s", want, shd)
		}
	}
	if strings.Contains(shd, "declare const inventory") {
		t.Errorf("the shell description has the TypeScript declarations")
	}
}

// A call that arrives while another call of its session is about to pause
// waits for the pause, then abandons it: it must not wait behind the
// paused script, which holds the sandbox.
func TestCallDuringStartAbandonsThePause(t *testing.T) {
	// A time limit far above the loop's time, which a loaded machine can
	// stretch past the default's 5 s.
	tool := newTool(t, engine.SandboxConfig{Policy: askPolicy(t), Limits: engine.Limits{Timeout: time.Minute}}, nil)
	ctx := codemode.WithSession(context.Background(), "race")
	if _, err := tool.Sandbox(ctx); err != nil { // so that Start takes the turn at once
		t.Fatal(err)
	}
	started := make(chan *codemode.Result, 1)
	go func() {
		r, err := tool.Start(ctx, codemodetest.JS(`let n = 0; for (let i = 0; i < 3e5; i++) n += i; await payments.send({to: "acct", amount: 5000})`))
		if err != nil {
			t.Error(err)
		}
		started <- r
	}()
	time.Sleep(50 * time.Millisecond)
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	text, err := tool.Call(cctx, codemodetest.JS(`return 1`))
	if err != nil || text != "[returned]\n1\n" {
		t.Fatalf("the second call: %q, %v", text, err)
	}
	r := <-started
	if r == nil || r.Pause == nil {
		t.Fatalf("the first call did not pause: %+v", r)
	}
	if _, err := tool.Resume(ctx, r.Pause.ID, codemode.Approval{Approve: true}); !errors.Is(err, codemode.ErrNoPause) {
		t.Errorf("resuming the abandoned run: %v", err)
	}
}
