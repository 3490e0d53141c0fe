package codemode_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/codemode/codemodetest"
	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/engine/enginetest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// pays runs a script that tries n payments and returns how many the
// policy allowed.
func pays(t *testing.T, tool *codemode.Runner, ctx context.Context, n int) int {
	t.Helper()
	r := codemodetest.Run(t, ctx, tool, codemodetest.JS(`let ok = 0
for (let i = 0; i < `+itoa(n)+`; i++) { try { await payments.send({to: "x", amount: 1}); ok++ } catch (e) {} }
return ok`))
	var ok int
	if _, err := sscan(string(r.Value), &ok); err != nil {
		t.Fatalf("%s: %v", r.Text(), err)
	}
	return ok
}

func payLimit(t *testing.T, n int) engine.Policy {
	t.Helper()
	return enginetest.Policy(t, dsl.Method("payments/*").MaxCalls(n), dsl.Method("inventory/*"))
}

// A script that kills its own guest makes the session's sandbox be
// replaced; the replacement continues from the same counts.
func TestCountersSurviveAKilledGuest(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{Policy: payLimit(t, 2), Limits: engine.Limits{Timeout: 20 * time.Second}}, nil)
	ctx := codemode.WithSession(context.Background(), "killer")
	for round := range 3 {
		want := 0
		if round < 2 {
			want = 1
		}
		if n := pays(t, tool, ctx, 1); n != want {
			t.Fatalf("round %d: %d payments, want %d (2 in all)", round, n, want)
		}
		r := codemodetest.Run(t, ctx, tool, codemodetest.JS(`const a = []; while (true) a.push(new Uint8Array(32 << 20))`))
		if r.Error == nil || r.Error.Kind != engine.KindMemory {
			t.Fatalf("round %d: the guest did not die: %s", round, r.Text())
		}
	}
}

// An idle session's sandbox is closed; the next call's new sandbox
// continues from the same counts.
func TestCountersSurviveTheIdleTimeout(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{Policy: payLimit(t, 2)}, &codemode.Options{IdleTimeout: 100 * time.Millisecond})
	ctx := codemode.WithSession(context.Background(), "idler")
	if n := pays(t, tool, ctx, 1); n != 1 {
		t.Fatalf("%d payments", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(tool.Sessions()) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle session was not closed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := pays(t, tool, ctx, 5); n != 1 {
		t.Fatalf("after the idle timeout, %d payments, want 1 (2 in all)", n)
	}
}

// Under counters.PerPrincipal, new sessions of one principal share its
// counts, whether opened one after another or at once.
func TestCountersPerPrincipalAcrossSessions(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{Policy: payLimit(t, 5), Counters: engine.Counters{Scope: counters.PerPrincipal}}, nil)
	alice := codemode.WithPrincipal(context.Background(), "alice-"+t.Name())
	if n := pays(t, tool, codemode.WithSession(alice, "a1"), 2); n != 2 {
		t.Fatalf("%d payments", n)
	}
	tool.Close(context.Background(), "a1") // a reconnecting client
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for _, id := range []string{"a2", "a3", "a4"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := tool.Run(codemode.WithSession(alice, id), codemodetest.JS(`const rs = await Promise.allSettled([1,2,3].map(i => payments.send({to: "x", amount: i})))
return rs.filter(r => r.status == "fulfilled").length`))
			if err != nil {
				t.Error(err)
				return
			}
			var n int
			sscan(string(r.Value), &n)
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 3 {
		t.Fatalf("the principal's other sessions made %d payments, want 3 (5 in all)", total)
	}
	// Another principal has its own.
	if n := pays(t, tool, codemode.WithSession(codemode.WithPrincipal(context.Background(), "bob-"+t.Name()), "b1"), 9); n != 5 {
		t.Fatalf("bob: %d payments, want 5", n)
	}
}

// A session belongs to the principal of its first call.
func TestSessionIsBoundToItsPrincipal(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{}, nil)
	ctx := codemode.WithSession(codemode.WithPrincipal(context.Background(), "alice"), "shared-id")
	codemodetest.Call(t, ctx, tool, codemodetest.JS(`fs.writeFileSync("secret", "alice's")`))
	other := codemode.WithSession(codemode.WithPrincipal(context.Background(), "mallory"), "shared-id")
	_, err := tool.Run(other, codemodetest.JS(`return fs.readFileSync("secret")`))
	if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(err.Error(), "another principal") {
		t.Fatalf("another principal's call on the session: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func sscan(s string, n *int) (int, error) { return fmt.Sscan(s, n) }

// A paused ask that cannot be shown in full is refused at once rather than
// paused on, and the handler does not run.
func TestUnshowableAskIsRefusedNotPaused(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{Policy: askPolicy(t)}, nil)
	ctx := codemode.WithSession(context.Background(), "unshowable")
	r, err := tool.Start(ctx, codemodetest.JS(`const p = {to: "acct", amount: 5000}
for (let i = 0; i < 300; i++) p["k" + i] = i
try { await payments.send(p); return "ran" } catch (e) { return e.message }`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Pause != nil || !strings.Contains(string(r.Value), "refused without asking") {
		t.Fatalf("result: %+v %s", r.Pause, r.Text())
	}
}

// The tools' schemas are portable: every property has one type keyword,
// never a list, and real results validate against the output schema.
func TestSchemasArePortable(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{}, nil)
	for _, raw := range []json.RawMessage{tool.InputSchema(), tool.Shell().InputSchema(), tool.OutputSchema()} {
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		checkTyped(t, "#", doc)
	}
	sch, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.OutputSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("out.json", sch); err != nil {
		t.Fatal(err)
	}
	compiled, err := c.Compile("out.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := codemode.WithSession(context.Background(), "schema")
	for _, code := range []string{`return {a: 1}`, `throw new Error("x")`, `await inventory.lookup({sku: "nope"})`, `console.log("hi")`} {
		r := codemodetest.Run(t, ctx, tool, codemodetest.JS(code))
		b, _ := json.Marshal(r)
		v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err := compiled.Validate(v); err != nil {
			t.Errorf("%s: result %s does not validate: %v", code, b, err)
		}
	}
}

// checkTyped fails for a schema under "properties" or "items" without a
// single string "type".
func checkTyped(t *testing.T, at string, s any) {
	t.Helper()
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	if _, isList := m["type"].([]any); isList {
		t.Errorf("%s: type is a list", at)
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for k, p := range props {
			if pm, ok := p.(map[string]any); !ok || pm["type"] == nil {
				t.Errorf("%s/properties/%s has no type", at, k)
			}
			checkTyped(t, at+"/properties/"+k, p)
		}
	}
	if items, ok := m["items"]; ok {
		if im, ok := items.(map[string]any); !ok || im["type"] == nil {
			t.Errorf("%s/items has no type", at)
		}
		checkTyped(t, at+"/items", items)
	}
}

// A result's error is an error, whose kind is one of engine's outcome
// kinds: the uncaught exception included.
func TestResultErrorIsAnError(t *testing.T) {
	tool := newTool(t, engine.SandboxConfig{}, nil)
	r := codemodetest.Run(t, codemode.WithSession(context.Background(), "kinds"), tool, codemodetest.JS(`throw new Error("boom")`))
	var err error = r.Error
	var ce *codemode.Error
	if !errors.As(err, &ce) || ce.Kind != engine.KindException || !strings.Contains(err.Error(), "exception: ") {
		t.Fatalf("error %v (%+v)", err, r.Error)
	}
}
