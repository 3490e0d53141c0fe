package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
)

const chargeSchema = `{
  "type": "object",
  "properties": {
    "amount": {"type": "number", "maximum": 10000},
    "currency": {"enum": ["USD", "EUR"]},
    "items": {"type": "array", "items": {"$ref": "#/$defs/item"}}
  },
  "required": ["amount"],
  "$defs": {"item": {"type": "object", "properties": {"sku": {"type": "string", "minLength": 2}}, "required": ["sku"]}}
}`

// TestInputSchemaOnEveryPath: a call that violates its tool's input schema
// is refused on the host, with kind "invalid" and a reason that names the
// param and the rule, before the policy decides (no audit record, no
// charge) and before the handler runs, whichever way the script made it.
// Before, JS calls skipped the schema and the shell checked only
// "required", so these calls reached the policy and the handler.
func TestInputSchemaOnEveryPath(t *testing.T) {
	var ran atomic.Int32
	var audits atomic.Int32
	tool := enginetest.Counting("pay", &ran)
	tool.InputSchema = json.RawMessage(chargeSchema)
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{
		Tools:  []engine.Tool{tool},
		Policy: enginetest.Policy(t, dsl.Method("pay")),
		Audit:  func(engine.AuditRecord) { audits.Add(1) },
	})
	js := enginetest.Run(t, sb, `const out = []
for (const p of [{amount: "5"}, {}, {amount: 5, currency: "GBP"}, {amount: 5, items: [{sku: "ab"}, {sku: "a"}, {}]}, {amount: 1e6}]) {
  try { await pay(p); out.push("ran") } catch (e) { out.push([e.kind, e.reasons.join(" | ")]) }
}
try { await pay({amount: "5"}) } catch (e) { out.push(e.message) }
return out`)
	var got []any
	if err := json.Unmarshal([]byte(js.Stdout), &got); err != nil {
		t.Fatalf("%q %q", js.Stdout, js.Stderr)
	}
	want := []string{
		`["invalid","amount: expected number, got string"]`,
		`["invalid","amount: missing (required)"]`,
		`["invalid","currency: enum: value must be one of 'USD', 'EUR'"]`,
		`["invalid","items/1/sku: minLength: got 1 characters, want at least 2 | items/2/sku: missing (required)"]`,
		`["invalid","amount: maximum: got 1000000, want at most 10000"]`,
		`"tool pay: invalid params: amount: expected number, got string"`,
	}
	for i, w := range want {
		if i >= len(got) {
			t.Fatalf("only %d results: %s", len(got), js.Stdout)
		}
		b, _ := json.Marshal(got[i])
		if string(b) != w {
			t.Errorf("call %d: %s, want %s", i, b, w)
		}
	}
	if c := js.ToolCalls[0]; c.Allowed || c.Error != "tool pay: invalid params: amount: expected number, got string" || string(c.Params) != `{"amount":"5"}` {
		t.Errorf("record %+v", c)
	}

	// The shell: `--json` and a flag typed as the schema says but out of
	// range; `sh -c` and `node -e` inside it; shell() from JS.
	sh := enginetest.RunShell(t, sb, `tool pay --json '{"amount": "5"}'; echo "exit $?"
tool pay --amount 20000 2>&1; echo "exit $?"
sh -c 'tool pay --amount 1 --currency GBP' 2>&1 | grep -c 'currency: enum'
node -e 'try { await pay({amount: true}) } catch (e) { console.log(e.kind, e.reasons[0]) }'`)
	if sh.Stdout != "exit 1\ntool: tool pay: invalid params: amount: maximum: got 20000, want at most 10000\nexit 1\n1\ninvalid amount: expected number, got boolean\n" {
		t.Errorf("shell: %q %q", sh.Stdout, sh.Stderr)
	}
	if !strings.Contains(sh.Stderr, "tool: tool pay: invalid params: amount: expected number, got string") {
		t.Errorf("shell stderr: %q", sh.Stderr)
	}
	if res := enginetest.Run(t, sb, `return (await shell("tool pay --json '{\"amount\": [1]}'")).stderr`); !strings.Contains(res.Stdout, "amount: expected number, got array") {
		t.Errorf("shell() from JS: %q", res.Stdout)
	}

	// Valid params pass, on each path, and reach the handler as they were.
	if res := enginetest.Run(t, sb, `return await pay({amount: 5, currency: "EUR", items: [{sku: "ab"}]})`); res.Stdout != `{"amount":5,"currency":"EUR","items":[{"sku":"ab"}]}`+"\n" {
		t.Errorf("valid call: %q %q", res.Stdout, res.Stderr)
	}
	if res := enginetest.RunShell(t, sb, `tool pay --amount 7`); res.Stdout != "{\"amount\":7}\n" {
		t.Errorf("valid shell call: %q %q", res.Stdout, res.Stderr)
	}
	if ran.Load() != 2 || audits.Load() != 2 {
		t.Errorf("handlers ran %d times and the policy decided %d calls; want 2 and 2 (the valid ones)", ran.Load(), audits.Load())
	}
}

// TestInputSchemaStepAPI: the step API never hands the caller a call that
// violates the schema; the script gets the refusal at once.
func TestInputSchemaStepAPI(t *testing.T) {
	ctx := context.Background()
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "pay", InputSchema: json.RawMessage(chargeSchema)}}})
	x, err := sb.Start(ctx, engine.JavaScript, `
let bad
try { await pay({amount: "x"}) } catch (e) { bad = e.kind + ": " + e.reasons[0] }
const ok = await pay({amount: 3})
return [bad, ok]`)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := x.Next(ctx)
	if err != nil || len(calls) != 1 || string(calls[0].Params) != `{"amount":3}` {
		t.Fatalf("Next: %v %v", calls, err)
	}
	calls[0].Resolve("paid")
	if calls, err := x.Next(ctx); calls != nil || err != nil {
		t.Fatalf("final Next: %v %v", calls, err)
	}
	if got := x.Result().Stdout; got != `["invalid: amount: expected number, got string","paid"]`+"\n" {
		t.Errorf("got %q", got)
	}
}

// TestInputSchemaViolationsAreBounded: a call with many violations lists
// the first few and says how many more; a long value is cut.
func TestInputSchemaViolationsAreBounded(t *testing.T) {
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{
		Name:        "t",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"xs":{"type":"array","items":{"type":"integer"}},"s":{"type":"string","pattern":"^a+$"}}}`),
		Handler:     func(context.Context, json.RawMessage) (any, error) { return 1, nil },
	}}})
	res := enginetest.Run(t, sb, `try { await t({xs: Array(100).fill("x")}) } catch (e) { console.log(e.reasons.length, e.reasons[0], e.reasons.at(-1)) }
try { await t({s: "b".repeat(100000)}) } catch (e) { console.log(e.message.length < 200, e.reasons[0]) }`)
	if res.Stdout != "9 xs/0: expected integer, got string and 92 more\ntrue s: pattern: \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb…\" does not match \"^a+$\"\n" {
		t.Errorf("got %q %q", res.Stdout, res.Stderr)
	}
}

// TestInputSchemaCompiledAtRegistration: a malformed schema, or one that
// would load another document, is an error of KindInvalid that names the
// tool, at NewSandbox; nothing is fetched or read.
func TestInputSchemaCompiledAtRegistration(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type": "strin"}`, `tool "t": input schema: not a valid JSON Schema: type: `},
		{`{"properties": {"a": {"minimum": "x"}}}`, `properties/a/minimum: expected number, got string`},
		{`{"pattern": "(?<!a)b"}`, `pattern`},
		{`{"$ref": "https://example.com/s.json"}`, `refers to https://example.com/s.json, and cordon loads no schema from elsewhere`},
		{`{"properties": {"a": {"$ref": "other.json#/x"}}}`, `cordon loads no schema from elsewhere`},
		{`{"$ref": "file:///etc/passwd"}`, `cordon loads no schema from elsewhere`},
		{`{"$schema": "https://example.com/meta", "type": "object"}`, `cordon loads no schema from elsewhere`},
		{`{"$ref": "#/$defs/missing"}`, `tool "t": input schema: `},
		{`[1]`, `tool "t": input schema is not a JSON object`},
	} {
		_, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Tools: []engine.Tool{{Name: "t", InputSchema: json.RawMessage(c.schema)}}})
		if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want invalid with %q", c.schema, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "cordon:///") {
			t.Errorf("%s: the message shows the internal address: %v", c.schema, err)
		}
	}
	// Older drafts, named by $schema, are compiled as that draft.
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "t", Handler: func(context.Context, json.RawMessage) (any, error) { return 1, nil },
		InputSchema: json.RawMessage(`{"$schema": "http://json-schema.org/draft-04/schema#", "properties": {"n": {"type": "integer", "maximum": 5, "exclusiveMaximum": true}}}`)}}})
	if res := enginetest.Run(t, sb, `try { await t({n: 5}) } catch (e) { return e.reasons }`); !strings.Contains(res.Stdout, "n: ") || !strings.Contains(res.Stdout, "Maximum") {
		t.Errorf("draft-04: %q", res.Stdout)
	}
}

// TestInputSchemaConcurrentBatch validates the calls of concurrent batches
// in many sandboxes that share one compiled schema (run under -race by CI).
func TestInputSchemaConcurrentBatch(t *testing.T) {
	tool := engine.Tool{Name: "t", InputSchema: json.RawMessage(chargeSchema), Handler: func(_ context.Context, p json.RawMessage) (any, error) { return p, nil }}
	var wg sync.WaitGroup
	for range 4 {
		sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{tool}})
		wg.Go(func() {
			for range 3 {
				res, err := sb.Execute(context.Background(), engine.JavaScript, `
const rs = await Promise.allSettled(Array.from({length: 10}, (_, i) => t(i % 2 ? {amount: i} : {amount: String(i)})))
return rs.map(r => r.status === "fulfilled" ? "ok" : r.reason.kind).join()`)
				if err != nil || res.Stdout != "invalid,ok,invalid,ok,invalid,ok,invalid,ok,invalid,ok\n" {
					t.Errorf("%v %q %q", err, res.Stdout, res.Stderr)
				}
			}
		})
	}
	wg.Wait()
}

// TestFuncDecodeErrors: a typed handler's params that do not fit its type
// fail with a message in JSON's terms, naming the param, not with
// encoding/json's Go type names.
func TestFuncDecodeErrors(t *testing.T) {
	type item struct {
		SKU string `json:"sku"`
	}
	h := engine.Func(func(_ context.Context, p struct {
		N     int     `json:"n"`
		Small uint8   `json:"small"`
		F     float64 `json:"f"`
		B     bool    `json:"b"`
		Items []item  `json:"items"`
	}) (int, error) {
		return p.N, nil
	})
	for _, c := range []struct{ params, want string }{
		{`{"n":"5"}`, "invalid parameters: n: expected integer, got string"},
		{`{"n":1.5}`, "invalid parameters: n: expected integer from -9223372036854775808 to 9223372036854775807, got 1.5"},
		{`{"small":300}`, "invalid parameters: small: expected integer from 0 to 255, got 300"},
		{`{"f":"x"}`, "invalid parameters: f: expected number, got string"},
		{`{"b":1}`, "invalid parameters: b: expected boolean, got number"},
		{`{"items":[{"sku":"a"},{"sku":1}]}`, "invalid parameters: items/1/sku: expected string, got number"},
		{`{"items":{}}`, "invalid parameters: items: expected array, got object"},
	} {
		_, err := h(context.Background(), json.RawMessage(c.params))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.params, err, c.want)
		}
	}
	// In a script: the handler's error is kind "failed", without Go's words.
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "t", Handler: h}}})
	res := enginetest.Run(t, sb, `try { await t({n: "5"}) } catch (e) { return e.kind + ": " + e.message }`)
	if res.Stdout != "failed: tool t failed: invalid parameters: n: expected integer, got string\n" {
		t.Errorf("got %q", res.Stdout)
	}
}

// TestOutputSchema: a tool's output schema must be a JSON object; it
// reaches the guest with the tool (the guest shows it to scripts).
func TestOutputSchema(t *testing.T) {
	for _, s := range []string{`[1]`, `"x"`, `null`, `{`} {
		_, err := enginetest.Engine(t).NewSandbox(context.Background(), engine.SandboxConfig{Tools: []engine.Tool{{Name: "t", OutputSchema: json.RawMessage(s)}}})
		if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), `tool "t": output schema is not a JSON object`) {
			t.Errorf("%s: %v", s, err)
		}
	}
	sb := enginetest.NewSandbox(t, engine.SandboxConfig{Tools: []engine.Tool{{Name: "t", OutputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, json.RawMessage) (any, error) { return 1, nil }}}})
	if res := enginetest.Run(t, sb, `return await t({})`); res.Stdout != "1\n" {
		t.Errorf("a tool with an output schema: %q %q", res.Stdout, res.Stderr)
	}
}
